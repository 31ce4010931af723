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

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			placeholder: 'whsec_…',
			description:
				"The endpoint's signing secret exactly as the provider shows it: Stripe's whsec_…, the secret key of Paddle's notification destination, Lemon Squeezy's signing secret, Creem's whsec_…, or a Standard Webhooks whsec_… secret",
		},
	];
}
