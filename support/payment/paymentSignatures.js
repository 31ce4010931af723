// @ts-check
'use strict';
/**
 * Signs payment-provider webhook deliveries the way each provider does, for the unit tests, the
 * end-to-end run, the queue storm and the benchmarks. Stripe and Standard Webhooks are signed by
 * the providers' own libraries (`stripe`, `standardwebhooks`); Paddle's signer has no public
 * library (its SDK only verifies: a unit test checks these signatures against it); Lemon Squeezy
 * and Creem document a plain HMAC of the body (Creem's SDKs only verify). Also holds one documented sample event per provider, kind and
 * refund size, in the shape the provider sends.
 */
const { createHmac } = require('node:crypto');

/** @typedef {'stripe' | 'paddle' | 'lemonSqueezy' | 'standardWebhooks' | 'creem'} Provider */
/**
 * @typedef {{ transactionId: string, userId?: string, amountMinor?: number, currency?: string, partial?: boolean, eventId?: string, checkout?: boolean }} SampleFields
 * `checkout`: a Stripe purchase as `checkout.session.completed` (the user ID in
 * `client_reference_id`) instead of `payment_intent.succeeded`
 */

/** The providers, in the order the node lists them. @type {Provider[]} */
const PROVIDERS = ['stripe', 'paddle', 'lemonSqueezy', 'standardWebhooks', 'creem'];

/** The providers that sign no timestamp: none of their deliveries can be stale. @type {Provider[]} */
const SIGNS_NO_TIMESTAMP = ['lemonSqueezy', 'creem'];

/** Test-only endpoint secrets, one per provider, in each provider's own format. */
const TEST_SIGNING_SECRETS = /** @type {const} */ ({
	stripe: 'whsec_test_affiliate_tracking_stripe_0001',
	paddle: 'pdl_ntfset_test_affiliate_tracking_paddle_0001',
	lemonSqueezy: 'ls_test_affiliate_tracking_signing_0001',
	// Standard Webhooks: `whsec_` and the base64 of the key bytes.
	standardWebhooks: `whsec_${Buffer.from('affiliate-tracking-standard-webhooks-test-key').toString('base64')}`,
	creem: 'whsec_test_affiliate_tracking_creem_0001',
});

/** The header that carries each provider's signature (lower case, as Node hands them over). */
const SIGNATURE_HEADERS = /** @type {const} */ ({
	stripe: 'stripe-signature',
	paddle: 'paddle-signature',
	lemonSqueezy: 'x-signature',
	standardWebhooks: 'webhook-signature',
	creem: 'creem-signature',
});

/**
 * The credential's fields with only the Signing Secret set.
 * @param {string} signingSecret
 * @returns {import('../../nodes/PaymentWebhookTrigger/provider').ProviderSecrets}
 */
function withSigningSecret(signingSecret) {
	return {
		signingSecret,
		publicKey: '',
		publicKeyId: '',
		decryptionSecret: '',
		rootCertificate: '',
	};
}

let stripeWebhooks = /** @type {import('stripe').Stripe['webhooks'] | undefined} */ (undefined);
/** The stripe SDK's webhook helpers (no API key is used: signing is local). */
function stripeSigner() {
	if (!stripeWebhooks) {
		const Stripe = require('stripe');
		stripeWebhooks = new Stripe('sk_test_signing_only').webhooks;
	}
	return stripeWebhooks;
}

/** @param {string} key @param {string} data @returns {string} hex HMAC-SHA256 */
function hmacHex(key, data) {
	return createHmac('sha256', key).update(data, 'utf8').digest('hex');
}

/**
 * The headers a provider sends with `rawBody`, signed with its test secret (the demo signing
 * credential's), now.
 * @param {Provider} provider @param {string} rawBody
 */
function signWithTestSecret(provider, rawBody) {
	return signDelivery(provider, rawBody, TEST_SIGNING_SECRETS[provider]);
}

/**
 * The headers a provider sends with `rawBody`, signed with `secret` at `timestamp` (Unix seconds;
 * now when absent). The body must be sent byte for byte as given.
 * @param {Provider} provider @param {string} rawBody @param {string} secret
 * @param {{ timestamp?: number, eventId?: string }} [options]
 * @returns {Record<string, string>}
 */
function signDelivery(provider, rawBody, secret, { timestamp, eventId } = {}) {
	const ts = timestamp ?? Math.floor(Date.now() / 1000);
	switch (provider) {
		case 'stripe':
			return {
				'stripe-signature': stripeSigner().generateTestHeaderString({
					payload: rawBody,
					secret,
					timestamp: ts,
				}),
			};
		case 'paddle':
			return { 'paddle-signature': `ts=${ts};h1=${hmacHex(secret, `${ts}:${rawBody}`)}` };
		case 'lemonSqueezy':
			return { 'x-signature': hmacHex(secret, rawBody) };
		case 'creem':
			return { 'creem-signature': hmacHex(secret, rawBody) };
		case 'standardWebhooks': {
			const { Webhook } = require('standardwebhooks');
			const id = eventId ?? `msg_${hmacHex('id', rawBody).slice(0, 24)}`;
			return {
				'webhook-id': id,
				'webhook-timestamp': String(ts),
				'webhook-signature': new Webhook(secret).sign(id, new Date(ts * 1000), rawBody),
			};
		}
		default:
			throw new Error(`Unknown provider ${String(provider)}`);
	}
}

/**
 * A documented purchase or refund event of `provider`, as the provider sends it. Stripe:
 * `payment_intent.succeeded` (or `checkout.session.completed`) / `charge.refunded`; Paddle:
 * `transaction.completed` / `adjustment.updated` (an approved refund); Lemon Squeezy:
 * `order_created` / `order_refunded`; Standard Webhooks: Polar's `order.paid` / `order.refunded`;
 * Creem: `checkout.completed` / `refund.created`.
 * @param {Provider} provider @param {'purchase' | 'refund'} kind @param {SampleFields} fields
 * @returns {Record<string, unknown>}
 */
function sampleEvent(provider, kind, fields) {
	const {
		transactionId,
		userId = 'user_1001',
		amountMinor = 10000,
		currency = 'USD',
		partial = false,
	} = fields;
	const refundedMinor = partial ? Math.floor(amountMinor * 0.4) : amountMinor;
	const eventId = fields.eventId ?? `evt_${kind}_${transactionId}`;
	const created = 1_764_000_000;
	switch (provider) {
		case 'stripe':
			if (kind === 'purchase' && fields.checkout)
				return {
					id: eventId,
					object: 'event',
					api_version: '2025-03-31.basil',
					created,
					type: 'checkout.session.completed',
					livemode: false,
					data: {
						object: {
							id: `cs_${transactionId}`,
							object: 'checkout.session',
							mode: 'payment',
							payment_intent: transactionId,
							payment_status: 'paid',
							client_reference_id: userId,
							amount_total: amountMinor,
							currency: currency.toLowerCase(),
							metadata: {},
						},
					},
				};
			return kind === 'purchase'
				? {
						id: eventId,
						object: 'event',
						api_version: '2025-03-31.basil',
						created,
						type: 'payment_intent.succeeded',
						livemode: false,
						data: {
							object: {
								id: transactionId,
								object: 'payment_intent',
								amount: amountMinor,
								amount_received: amountMinor,
								currency: currency.toLowerCase(),
								status: 'succeeded',
								metadata: { user_id: userId },
							},
						},
					}
				: {
						id: eventId,
						object: 'event',
						api_version: '2025-03-31.basil',
						created,
						type: 'charge.refunded',
						livemode: false,
						data: {
							object: {
								id: `ch_${transactionId}`,
								object: 'charge',
								amount: amountMinor,
								amount_captured: amountMinor,
								amount_refunded: refundedMinor,
								currency: currency.toLowerCase(),
								payment_intent: transactionId,
								refunded: !partial,
								metadata: { user_id: userId },
							},
						},
					};
		case 'paddle':
			return kind === 'purchase'
				? {
						event_id: eventId,
						event_type: 'transaction.completed',
						occurred_at: '2026-11-24T00:00:00.000Z',
						notification_id: `ntf_${eventId}`,
						data: {
							id: transactionId,
							status: 'completed',
							currency_code: currency,
							custom_data: { user_id: userId },
							items: [],
							details: {
								totals: { total: String(amountMinor), currency_code: currency },
								line_items: [],
							},
						},
					}
				: {
						event_id: eventId,
						event_type: 'adjustment.updated',
						occurred_at: '2026-11-24T00:00:00.000Z',
						notification_id: `ntf_${eventId}`,
						data: {
							id: `adj_${transactionId}`,
							action: 'refund',
							type: partial ? 'partial' : 'full',
							status: 'approved',
							transaction_id: transactionId,
							currency_code: currency,
							items: [
								{
									item_id: `txnitm_${transactionId}`,
									type: partial ? 'partial' : 'full',
									amount: String(refundedMinor),
								},
							],
							totals: { total: String(refundedMinor), currency_code: currency },
						},
					};
		case 'lemonSqueezy':
			return {
				meta: {
					event_name: kind === 'purchase' ? 'order_created' : 'order_refunded',
					custom_data: { user_id: userId },
				},
				data: {
					type: 'orders',
					id: transactionId,
					attributes: {
						currency,
						total: amountMinor,
						status: kind === 'purchase' ? 'paid' : partial ? 'partial_refund' : 'refunded',
						refunded: kind === 'refund' && !partial,
						refunded_amount: kind === 'refund' ? refundedMinor : 0,
					},
				},
			};
		case 'standardWebhooks':
			return {
				type: kind === 'purchase' ? 'order.paid' : 'order.refunded',
				timestamp: '2026-11-24T00:00:00.000Z',
				data: {
					id: transactionId,
					status: kind === 'purchase' ? 'paid' : partial ? 'partially_refunded' : 'refunded',
					total_amount: amountMinor,
					refunded_amount: kind === 'refund' ? refundedMinor : 0,
					currency: currency.toLowerCase(),
					metadata: { user_id: userId },
				},
			};
		case 'creem':
			return kind === 'purchase'
				? {
						id: eventId,
						eventType: 'checkout.completed',
						created_at: created * 1000,
						object: {
							id: `ch_${transactionId}`,
							object: 'checkout',
							order: {
								id: transactionId,
								customer: 'cust_sample_1',
								product: 'prod_sample_1',
								amount: amountMinor,
								currency,
								status: 'paid',
								type: 'onetime',
							},
							customer: { id: 'cust_sample_1', object: 'customer' },
							status: 'completed',
							metadata: { user_id: userId },
							mode: 'test',
						},
					}
				: {
						id: eventId,
						eventType: 'refund.created',
						created_at: created * 1000,
						object: {
							id: `ref_${transactionId}`,
							object: 'refund',
							status: 'succeeded',
							refund_amount: refundedMinor,
							refund_currency: currency,
							reason: 'requested_by_customer',
							transaction: {
								id: `tran_${transactionId}`,
								object: 'transaction',
								amount: amountMinor,
								amount_paid: amountMinor,
								currency,
								status: partial ? 'partialRefund' : 'refunded',
								order: transactionId,
							},
							checkout: {
								id: `ch_${transactionId}`,
								object: 'checkout',
								metadata: { user_id: userId },
							},
							order: transactionId,
							customer: 'cust_sample_1',
							mode: 'test',
						},
					};
		default:
			throw new Error(`Unknown provider ${String(provider)}`);
	}
}

module.exports = {
	PROVIDERS,
	SIGNATURE_HEADERS,
	withSigningSecret,
	SIGNS_NO_TIMESTAMP,
	TEST_SIGNING_SECRETS,
	sampleEvent,
	signDelivery,
	signWithTestSecret,
};
