// @ts-check
'use strict';
/**
 * The sample events of Standard Webhooks: Polar's `order.paid` / `order.refunded` in the standard's envelope, in the shape the provider sends them: read by the unit, engine and
 * end-to-end tests (not by the node).
 */
/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: { purchase: 'order.paid', refund: 'order.refunded' },
	eventIdFrom: 'message',
	otherEvent: { type: 'customer.created', data: { id: 'cus_1' } },
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, currency, partial, refundedMinor } = fields;
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
	},
};
