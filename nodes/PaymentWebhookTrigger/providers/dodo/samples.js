// @ts-check
'use strict';
/**
 * The sample events of Dodo Payments: `payment.succeeded` / `refund.succeeded`, and a dispute
 * opened, won or lost (`dispute.opened`, `.won`, `.lost`), in the shape Dodo sends them (its
 * outgoing-webhook envelope, the Payment, Refund and Dispute objects of its API in `data`, amounts
 * in the smallest unit but a dispute's, a string): read by the unit, engine and end-to-end tests
 * (not by the node). The user ID is in the payment's metadata.
 */
const BUSINESS_ID = 'bus_affiliate_tracking_test';
const CREATED_AT = '2026-11-24T00:00:00Z';
const CUSTOMER = { customer_id: 'cus_sample_1', email: 'buyer@example.com', name: 'Buyer' };

/** The envelope of an event of `type` about `data`. @param {string} type @param {Record<string, unknown>} data */
const envelope = (type, data) => ({
	business_id: BUSINESS_ID,
	type,
	timestamp: CREATED_AT,
	data: { ...data, business_id: BUSINESS_ID, created_at: CREATED_AT },
});

/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: { purchase: 'payment.succeeded', refund: 'refund.succeeded' },
	eventIdFrom: 'message',
	otherEvent: envelope('subscription.active', {
		subscription_id: 'sub_sample_1',
		status: 'active',
		payload_type: 'Subscription',
	}),
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, currency } = fields;
		return kind === 'purchase'
			? envelope('payment.succeeded', {
					payload_type: 'Payment',
					payment_id: transactionId,
					status: 'succeeded',
					total_amount: amountMinor,
					tax: 0,
					settlement_amount: amountMinor,
					settlement_currency: currency,
					currency,
					customer: CUSTOMER,
					metadata: { user_id: userId },
					product_cart: [{ product_id: 'pdt_sample_1', quantity: 1 }],
					refunds: [],
					disputes: [],
					subscription_id: null,
					payment_method: 'card',
				})
			: envelope('refund.succeeded', {
					payload_type: 'Refund',
					refund_id: `ref_${fields.refundKey}`,
					payment_id: transactionId,
					status: 'succeeded',
					amount: fields.refundedMinor,
					currency,
					is_partial: fields.partial,
					reason: 'requested_by_customer',
					customer: CUSTOMER,
					metadata: {},
				});
	},
	disputeEvent(outcome, { transactionId, amountMinor, currency }) {
		return envelope(`dispute.${outcome}`, {
			payload_type: 'Dispute',
			dispute_id: `dsp_${transactionId}`,
			payment_id: transactionId,
			// Dodo's schema: a string.
			amount: String(amountMinor),
			currency,
			dispute_stage: 'dispute',
			dispute_status: `dispute_${outcome}`,
			remarks: null,
		});
	},
};
