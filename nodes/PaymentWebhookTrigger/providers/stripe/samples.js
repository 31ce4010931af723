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
						amount_total: amountMinor,
						currency: currency.toLowerCase(),
						metadata: { user_id: userId },
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
	// charge.dispute.created when opened; charge.dispute.closed with status won or lost.
	disputeEvent(outcome, { transactionId, amountMinor, currency, eventId }) {
		return {
			id: eventId,
			object: 'event',
			api_version: '2025-03-31.basil',
			created: 1_764_000_000,
			type: outcome === 'opened' ? 'charge.dispute.created' : 'charge.dispute.closed',
			livemode: false,
			data: {
				object: {
					id: `dp_${transactionId}`,
					object: 'dispute',
					amount: amountMinor,
					currency: currency.toLowerCase(),
					charge: `ch_${transactionId}`,
					payment_intent: transactionId,
					reason: 'fraudulent',
					status: outcome === 'opened' ? 'needs_response' : outcome,
					metadata: {},
				},
			},
		};
	},
};
