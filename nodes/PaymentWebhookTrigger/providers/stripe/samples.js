// @ts-check
'use strict';
/**
 * The sample events of Stripe: `payment_intent.succeeded` (or `checkout.session.completed`) / `charge.refunded`, in the shape the provider sends them: read by the unit, engine and
 * end-to-end tests (not by the node).
 */
/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: { purchase: 'payment_intent.succeeded', refund: 'charge.refunded' },
	eventIdFrom: 'body',
	otherEvent: { id: 'evt_1', type: 'customer.created', data: { object: { id: 'cus_1' } } },
	sampleEvent(kind, fields) {
		const {
			transactionId,
			userId,
			amountMinor,
			currency,
			partial,
			refundedMinor,
			eventId,
			created,
		} = fields;
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
	},
};
