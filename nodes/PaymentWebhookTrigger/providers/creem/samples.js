// @ts-check
'use strict';
/**
 * The sample events of Creem: `checkout.completed` / `refund.created`, in the shape the provider sends them: read by the unit, engine and
 * end-to-end tests (not by the node).
 */
/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: { purchase: 'checkout.completed', refund: 'refund.created' },
	eventIdFrom: 'body',
	otherEvent: { id: 'evt_1', eventType: 'subscription.active', object: { id: 'sub_1' } },
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
	},
};
