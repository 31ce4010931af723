// @ts-check
'use strict';
/**
 * The sample events of Creem: `checkout.completed` / `refund.created`, in the shape the provider sends them: read by the unit, engine and
 * end-to-end tests (not by the node).
 */
const EVENT_TYPES = { purchase: 'checkout.completed', refund: 'refund.created' };

/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: EVENT_TYPES,
	otherEvent: { id: 'evt_1', eventType: 'subscription.active', object: { id: 'sub_1' } },
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, currency, partlyRefunded } = fields;
		const checkout = { id: `ch_${transactionId}`, object: 'checkout' };
		const object =
			kind === 'purchase'
				? {
						...checkout,
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
					}
				: {
						id: `ref_${fields.refundKey}`,
						object: 'refund',
						status: 'succeeded',
						refund_amount: fields.refundedMinor,
						refund_currency: currency,
						reason: 'requested_by_customer',
						transaction: {
							id: `tran_${transactionId}`,
							object: 'transaction',
							amount: amountMinor,
							amount_paid: amountMinor,
							currency,
							status: partlyRefunded ? 'partialRefund' : 'refunded',
							order: transactionId,
						},
						checkout: { ...checkout, metadata: { user_id: userId } },
						order: transactionId,
						customer: 'cust_sample_1',
					};
		return {
			id: fields.eventId,
			eventType: EVENT_TYPES[kind],
			created_at: fields.created * 1000,
			object: { ...object, mode: 'test' },
		};
	},
};
