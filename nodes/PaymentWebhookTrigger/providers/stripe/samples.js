// @ts-check
'use strict';
/**
 * The sample events of Stripe: `payment_intent.succeeded` (or `checkout.session.completed`) / `charge.refunded` (or `refund.created`, `refund.updated`, `refund.failed`), in the shape the provider sends them: read by the unit, engine and
 * end-to-end tests (not by the node).
 */

/**
 * A Stripe event of `type` around `object` (its `data.object`).
 * @param {string} id @param {string} type @param {Record<string, unknown>} object
 */
const event = (id, type, object) => ({
	id,
	object: 'event',
	api_version: '2025-03-31.basil',
	created: 1_764_000_000,
	type,
	livemode: false,
	data: { object },
});

/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: { purchase: 'payment_intent.succeeded', refund: 'charge.refunded' },
	otherEvent: { id: 'evt_1', type: 'customer.created', data: { object: { id: 'cus_1' } } },
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, partlyRefunded, eventId } = fields;
		const currency = fields.currency.toLowerCase();
		if (kind === 'purchase' && fields.checkout)
			return event(eventId, 'checkout.session.completed', {
				id: `cs_${transactionId}`,
				object: 'checkout.session',
				mode: 'payment',
				payment_intent: transactionId,
				payment_status: 'paid',
				amount_total: amountMinor,
				currency,
				metadata: { user_id: userId },
			});
		// `perRefund`: the refund alone (`refund.created` unless `refundEventType` says, with the
		// status `refundStatus`, succeeded unless given), its charge not expanded: no running total.
		if (kind === 'refund' && fields.perRefund)
			return event(eventId, fields.refundEventType ?? 'refund.created', {
				id: `re_${fields.refundKey}`,
				object: 'refund',
				amount: fields.refundedMinor,
				charge: `ch_${transactionId}`,
				currency,
				payment_intent: transactionId,
				reason: 'requested_by_customer',
				status: fields.refundStatus ?? 'succeeded',
				metadata: { user_id: userId },
			});
		return kind === 'purchase'
			? event(eventId, 'payment_intent.succeeded', {
					id: transactionId,
					object: 'payment_intent',
					amount: amountMinor,
					amount_received: amountMinor,
					currency,
					status: 'succeeded',
					metadata: { user_id: userId },
				})
			: event(eventId, 'charge.refunded', {
					id: `ch_${transactionId}`,
					object: 'charge',
					amount: amountMinor,
					amount_captured: amountMinor,
					amount_refunded: fields.refundedTotalMinor,
					currency,
					payment_intent: transactionId,
					refunded: !partlyRefunded,
					metadata: { user_id: userId },
				});
	},
	// charge.dispute.created when opened; charge.dispute.closed with status won or lost.
	disputeEvent(outcome, { transactionId, amountMinor, currency, eventId }) {
		const type = outcome === 'opened' ? 'charge.dispute.created' : 'charge.dispute.closed';
		return event(eventId, type, {
			id: `dp_${transactionId}`,
			object: 'dispute',
			amount: amountMinor,
			currency: currency.toLowerCase(),
			charge: `ch_${transactionId}`,
			payment_intent: transactionId,
			reason: 'fraudulent',
			status: outcome === 'opened' ? 'needs_response' : outcome,
			metadata: {},
		});
	},
};
