import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

import { credentialHelpOf } from '../nodes/PaymentWebhookTrigger/providers';

/**
 * The signing secret of one payment webhook endpoint, used by the Payment Webhook Trigger to
 * check each delivery's signature. No provider API key: nothing is sent anywhere with it.
 */
export class PaymentWebhookSigningApi implements ICredentialType {
	name = 'paymentWebhookSigningApi';

	displayName = 'Payment Webhook Signing API';

	icon: Icon = {
		light: 'file:../icons/affiliateTracking.svg',
		dark: 'file:../icons/affiliateTracking.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-affiliate-tracking/n8n-nodes-affiliate-tracking#payment-webhook-trigger';

	// Each provider's module says which fields it needs (its secretProblem) and holds the words of
	// the help text that name it (its credentialHelp): no provider is named here.
	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'whsec_…',
			description: `The endpoint's signing secret exactly as the provider shows it: ${credentialHelpOf('signingSecret')}`,
		},
		{
			displayName: 'Public Key',
			name: 'publicKey',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description: `The public key the provider signs deliveries with, for providers that sign with a key pair instead of a shared secret. ${credentialHelpOf('publicKey')}.`,
		},
		{
			displayName: 'Public Key ID',
			name: 'publicKeyId',
			type: 'string',
			default: '',
			description:
				'The ID of that public key, for providers that name the key in each delivery (PUB_KEY_ID_…)',
		},
		{
			displayName: 'Decryption Secret',
			name: 'decryptionSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"The key that decrypts the delivery's content, for providers that encrypt it (an APIv3 key: 32 characters)",
		},
		{
			// Shown, not masked: a root certificate is public, and whoever opens the credential must see
			// that one replaces the pinned root (the credential test names it, n8n's log warns).
			displayName: 'Root Certificate',
			name: 'rootCa',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			placeholder: '-----BEGIN CERTIFICATE-----',
			description: `A PEM root certificate to trust instead of the one the node pins, for providers that sign with a certificate chain; for tests only: deliveries signed under it are taken as the provider's. ${credentialHelpOf('rootCa')}`,
		},
	];
}
