// @ts-check
'use strict';
/**
 * The sample events of Lemon Squeezy: `order_created` / `order_refunded`, in the shape the provider sends them: read by the unit, engine and
 * end-to-end tests (not by the node).
 */
/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: { purchase: 'order_created', refund: 'order_refunded' },
	eventIdFrom: 'none',
	otherEvent: { meta: { event_name: 'subscription_created' }, data: { id: '1', attributes: {} } },
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, currency, partlyRefunded, refundedTotalMinor } =
			fields;
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
					status: kind === 'purchase' ? 'paid' : partlyRefunded ? 'partial_refund' : 'refunded',
					refunded: kind === 'refund' && !partlyRefunded,
					refunded_amount: kind === 'refund' ? refundedTotalMinor : 0,
				},
			},
		};
	},
};
