import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { appStoreToken } from '../nodes/PaymentProviderEvents/providers/appStoreToken';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The providers whose keys it holds, by the values of the node's Provider. */
const PROVIDER_NAMES = { appStore: 'Apple App Store', paddle: 'Paddle Billing', stripe: 'Stripe' };

/** Shown only for the credential's provider `provider`. */
const forProvider = (provider: string) => ({ show: { provider: [provider] } });

/**
 * A payment provider's API key, for the Payment Provider Events node, which reads the provider's
 * event history with it: a Stripe secret or restricted key, a Paddle Billing API key (both sent
 * as a Bearer token) or an App Store Server API key (In-App Purchase key). n8n holds Apple's
 * private key because every request carries a short-lived token signed with it (ES256); the token
 * is signed here, for each request. A community node may not use n8n's own Stripe credential
 * (n8n's lint: no-credential-reuse), so this package has its own. The node checks the key offline
 * (its credential test) and, before any request, that the credential is for its Provider.
 */
export class PaymentProviderApi implements ICredentialType {
	name = 'paymentProviderApi';

	displayName = 'Payment Provider API';

	documentationUrl =
		'https://github.com/n8n-nodes-affiliate-tracking/n8n-nodes-affiliate-tracking#payment-provider-events';

	icon: Icon = {
		light: 'file:../icons/paymentProviderEvents.svg',
		dark: 'file:../icons/paymentProviderEvents.dark.svg',
	};

	properties: INodeProperties[] = [
		{
			displayName: 'Provider',
			name: 'provider',
			description:
				"Whose API key this is: pick the same provider in the Payment Provider Events node's Provider",
			options: Object.entries(PROVIDER_NAMES).map(([value, name]) => ({ name, value })),
			type: 'options',
			default: 'stripe',
		},
		// Stripe.
		{
			displayName: 'Secret Key',
			name: 'secretKey',
			displayOptions: forProvider('stripe'),
			placeholder: 'rk_live_…',
			description:
				'A restricted key with only Events: Read (Stripe Dashboard → Developers → API keys → Create restricted key) is enough; a secret key (sk_…) works too. Live or test mode follows the key.',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		// Paddle Billing.
		{
			displayName: 'API Key',
			name: 'apiKey',
			displayOptions: forProvider('paddle'),
			placeholder: 'pdl_live_apikey_…',
			description:
				'An API key from Paddle → Developer Tools → Authentication. Reading events needs only the Event read permission.',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Environment',
			name: 'environment',
			displayOptions: forProvider('paddle'),
			description: 'The Paddle environment the key belongs to',
			options: [
				{
					name: 'Live',
					value: 'live',
					description: 'https://api.paddle.com',
				},
				{
					name: 'Sandbox',
					value: 'sandbox',
					description: 'https://sandbox-api.paddle.com',
				},
			],
			type: 'options',
			default: 'live',
		},
		// Apple App Store.
		{
			displayName:
				'n8n holds this In-App Purchase key because the App Store Server API takes only tokens signed with it (ES256, 20 minutes each, signed for every request). This node only reads with it (the notification history). The key cannot move money, but Apple lets it do a few things beyond reading (extend a renewal date, send consumption information): share this credential only with those who run the reconciliation, and revoke the key in App Store Connect if it leaks.',
			name: 'keyNotice',
			displayOptions: forProvider('appStore'),
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Issuer ID',
			name: 'issuerId',
			displayOptions: forProvider('appStore'),
			placeholder: '57246542-96fe-1a63-e053-0824d011072a',
			description:
				'App Store Connect → Users and Access → Integrations → In-App Purchase: the Issuer ID',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Key ID',
			name: 'keyId',
			displayOptions: forProvider('appStore'),
			placeholder: '2X9R4HXF34',
			description: "The In-App Purchase key's ID",
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Private Key',
			name: 'privateKey',
			displayOptions: forProvider('appStore'),
			placeholder: '-----BEGIN PRIVATE KEY-----',
			description:
				'The whole .p8 file of the In-App Purchase key (PEM), which App Store Connect lets you download once',
			type: 'string',
			typeOptions: { password: true, rows: 5 },
			default: '',
			required: true,
		},
		{
			displayName: 'Bundle ID',
			name: 'bundleId',
			displayOptions: forProvider('appStore'),
			placeholder: 'com.example.app',
			description:
				"Your app's bundle ID: tokens are for it, and notifications for another app are refused",
			type: 'string',
			default: '',
			required: true,
		},
		{
			// In the clear: a root certificate is public, and a replaced root must be seen.
			displayName: 'Root Certificate',
			name: 'rootCa',
			displayOptions: forProvider('appStore'),
			placeholder: '-----BEGIN CERTIFICATE-----',
			description:
				"Tests only; leave empty to trust Apple Root CA - G3 (pinned). A PEM root to verify the notifications' signatures under instead: refused with Environment Production, and for the test roots this package's repository published.",
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
		},
	];

	/** The provider's Authorization: its key as a Bearer token, or Apple's token signed now. */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		// n8n fills in an unset Provider with its default, Stripe, as this does.
		const given = credentials.provider;
		const provider = given === undefined || given === null || given === '' ? 'stripe' : given;
		let token: string;
		if (provider === 'stripe') token = text(credentials.secretKey);
		else if (provider === 'paddle') token = text(credentials.apiKey);
		else if (provider === 'appStore') {
			token = appStoreToken(
				{
					issuerId: text(credentials.issuerId),
					keyId: text(credentials.keyId),
					privateKey: text(credentials.privateKey),
					bundleId: text(credentials.bundleId),
				},
				Math.floor(Date.now() / 1000),
			);
		} else {
			throw new Error(
				`The Payment Provider API credential's Provider must be stripe, paddle or appStore (got ${JSON.stringify(provider)})`,
			);
		}
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${token}` },
		};
	}
}
