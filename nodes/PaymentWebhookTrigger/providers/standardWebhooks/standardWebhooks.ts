/**
 * Standard Webhooks (Svix and others): `webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64>[ …]`, HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the
 * bytes base64-encoded after `whsec_`; `v1a` (ed25519) and other versions are ignored. The event
 * ID is the signed `webhook-id`. Polar has its own provider (polar/), which also takes its older
 * `polar_whs_…` secrets; the order events here stay for the workflows saved with them. Another
 * provider that signs as the standard does, with the standard's secret, takes its check from
 * `standardWebhooksSigning`.
 *
 * The transaction ID a purchase and its refund share is Polar's order ID (`order.paid` /
 * `order.refunded`, `data.id`).
 */
import { standardWebhooksKey, verifyStandardWebhooks } from '../../hmac';
import { signingSecretRule, textAt, type PaymentProvider } from '../../provider';
import { ORDER_EVENTS } from '../polar/polar';

/**
 * The secret rule and the check of a provider whose secret is the standard's (`whsec_` and
 * base64), named `label` in the rule's answer.
 */
export const standardWebhooksSigning = (
	label: string,
): Pick<PaymentProvider, 'secretProblem' | 'verify'> => ({
	secretProblem: signingSecretRule((secret) =>
		standardWebhooksKey(secret) === null
			? `The Signing Secret is not a ${label} secret: it must be "whsec_" followed by base64`
			: null,
	),
	verify: (request) => {
		const key = standardWebhooksKey(request.secrets.signingSecret);
		return verifyStandardWebhooks(request, key === null ? [] : [key]);
	},
});

export const standardWebhooks: PaymentProvider<'standardWebhooks'> = {
	id: 'standardWebhooks',
	name: 'Standard Webhooks',
	signing:
		'Webhook-ID, webhook-timestamp and webhook-signature headers (Svix and others); the secret starts with whsec_',
	signsTimestamp: true,
	...standardWebhooksSigning('Standard Webhooks'),
	credentialHelp: { field: 'signingSecret', text: 'a Standard Webhooks whsec_… secret' },
	codexAliases: ['standard webhooks'],
	eventType: (body) => textAt(body.type),
	eventId: (_body, messageId) => messageId,
	// Polar's order events, read as before Polar had its own provider: the user ID from metadata.
	events: {
		'order.paid': {
			...ORDER_EVENTS['order.paid'],
			description: "An order was paid (Polar's event)",
		},
		'order.refunded': {
			...ORDER_EVENTS['order.refunded'],
			description: "An order was refunded, fully or partly (Polar's event)",
		},
	},
};
