import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * A Google Cloud service account's JSON key, for the Payment Webhook Trigger's Google Play
 * provider: it reads each notification's order, user and price from the Google Play Developer
 * API (purchases.products, purchases.subscriptionsv2, orders), signing a short-lived OAuth
 * assertion with the key (RS256) for each access token. A community node may not use n8n's own
 * Google credentials (n8n's lint: @n8n/community-nodes/no-credential-reuse), so this package has
 * its own. The trigger checks the key offline (its credential test: the JSON parses and the key
 * signs); Google's hosts are pinned, and "Google Endpoints (Tests Only)" may replace them only on
 * this machine's loopback, which the trigger then logs at activation and flags on each item.
 */
export class GooglePlayApi implements ICredentialType {
	properties: INodeProperties[] = [
		{
			displayName: 'Service Account Key (JSON)',
			name: 'privateKeyJson',
			description:
				'The whole JSON key file of a service account that Play Console (Users and permissions) lets view financial data and orders. Only read: the trigger never changes a purchase.',
			type: 'string',
			typeOptions: { password: true, rows: 5 },
			default: '',
			required: true,
		},
		{
			displayName: 'Google Endpoints (Tests Only)',
			name: 'googleEndpoints',
			description:
				"Leave empty. For tests: one base URL on this machine's loopback (http://127.0.0.1:…) serving Google's keys, token endpoint and Play Developer API in their place; any other host is refused, and the trigger logs the replacement at activation and flags each item with pinnedRootReplaced.",
			placeholder: 'http://127.0.0.1:8787/__providers/googlePlay',
			type: 'string',
			default: '',
		},
	];

	name = 'googlePlayApi';

	displayName = 'Google Play Developer API';

	documentationUrl =
		'https://github.com/n8n-nodes-affiliate-tracking/n8n-nodes-affiliate-tracking/blob/main/docs/payment-webhooks.md#google-play';

	icon: Icon = {
		light: 'file:../icons/paymentProviderEvents.svg',
		dark: 'file:../icons/paymentProviderEvents.dark.svg',
	};
}
