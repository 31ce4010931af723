// @ts-check
'use strict';
/**
 * The sample events of Polar: `order.paid` / `order.refunded`, in the shape Polar sends them (its
 * Order schema, API version 2026-10): read by the unit, engine and end-to-end tests (not by the
 * node). The user ID is in the order's metadata (a customer with an `external_id` is made by the
 * brand's server; test/paymentWebhook/polar.unit.test.ts adds one).
 */

/** @type {import('../../../../support/payment/signer').Samples} */
module.exports = {
	eventTypes: { purchase: 'order.paid', refund: 'order.refunded' },
	eventIdFrom: 'message',
	otherEvent: { type: 'customer.created', data: { id: 'cus_1' } },
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, currency, partlyRefunded, refundedTotalMinor } =
			fields;
		const status =
			kind === 'purchase' ? 'paid' : partlyRefunded ? 'partially_refunded' : 'refunded';
		return {
			type: kind === 'purchase' ? 'order.paid' : 'order.refunded',
			timestamp: '2026-11-24T00:00:00.000Z',
			data: {
				id: transactionId,
				created_at: '2026-11-24T00:00:00.000Z',
				modified_at: null,
				status,
				paid: true,
				subtotal_amount: amountMinor,
				discount_amount: 0,
				net_amount: amountMinor,
				tax_amount: 0,
				total_amount: amountMinor,
				refunded_amount: kind === 'refund' ? refundedTotalMinor : 0,
				refunded_tax_amount: 0,
				currency: currency.toLowerCase(),
				billing_reason: 'purchase',
				customer_id: 'cus_sample_1',
				product_id: 'prod_sample_1',
				subscription_id: null,
				checkout_id: `chk_${transactionId}`,
				metadata: { user_id: userId },
				customer: {
					id: 'cus_sample_1',
					external_id: null,
					email: 'buyer@example.com',
					metadata: {},
				},
			},
		};
	},
};
