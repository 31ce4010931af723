import type { ICredentialType, Icon, INodeProperties } from 'n8n-workflow';

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
	// the Signing Secret's help text that name it (its credentialText, checked by a unit test).
	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			placeholder: 'whsec_…',
			description:
				"The endpoint's signing secret exactly as the provider shows it: Stripe's whsec_…, the secret key of Paddle's notification destination, Lemon Squeezy's signing secret, Polar's polar_whs_… or whsec_…, Creem's whsec_…, Airwallex's webhook secret, or a Standard Webhooks whsec_… secret",
		},
		{
			displayName: 'Public Key',
			name: 'publicKey',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			description:
				"The public key the provider signs deliveries with, for providers that sign with a key pair instead of a shared secret. WeChat Pay: the WeChat Pay public key (PEM), its ID PUB_KEY_ID_… and the APIv3 key. Alipay: the app's Alipay public key (支付宝公钥), base64 as Alipay shows it or PEM.",
		},
		{
			displayName: 'Public Key ID',
			name: 'publicKeyId',
			type: 'string',
			default: '',
			description:
				"The ID of that public key, for providers that name the key in each delivery (WeChat Pay's PUB_KEY_ID_…)",
		},
		{
			displayName: 'Decryption Secret',
			name: 'decryptionSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"The key that decrypts the delivery's content, for providers that encrypt it (WeChat Pay's APIv3 key, 32 characters)",
		},
		{
			displayName: 'Root Certificate',
			name: 'rootCertificate',
			type: 'string',
			typeOptions: { password: true, rows: 4 },
			default: '',
			description:
				'A PEM root certificate to trust instead of the one the node pins, for providers that sign with a certificate chain; for tests only. Apple App Store: leave empty to trust Apple Root CA - G3 (pinned)',
		},
	];
}
