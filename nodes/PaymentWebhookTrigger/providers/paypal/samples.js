// @ts-check
'use strict';
/**
 * The sample events of PayPal's REST webhooks, in the shape PayPal sends them (the envelope's
 * `id`, `event_type`, `resource_type` and `resource`; amounts as major-unit text): an Orders v2
 * capture completed and refunded (the purchase and refund the tests send), a subscription's sale
 * completed and refunded, a capture reversed, and disputes. Read by the tests, not by the node.
 */

/** Currencies whose smallest unit is the unit itself, or a thousandth, among those tests send. */
const DECIMALS = { JPY: 0, KRW: 0, KWD: 3 };

/** An amount in the smallest unit as PayPal writes it: 1666 USD → "16.66". @param {number} minor @param {string} currency */
function major(minor, currency) {
	const decimals = DECIMALS[/** @type {keyof typeof DECIMALS} */ (currency)] ?? 2;
	return (minor / 10 ** decimals).toFixed(decimals);
}

const API = 'https://api.sandbox.paypal.com';
const CREATED = '2026-11-24T10:00:00Z';

/** @param {string} currency @param {number} minor */
const money = (currency, minor) => ({ currency_code: currency, value: major(minor, currency) });

/**
 * An event's envelope around `resource`.
 * @param {string} id @param {string} eventType @param {string} resourceType
 * @param {Record<string, unknown>} resource @param {string} summary
 */
const envelope = (id, eventType, resourceType, resource, summary) => ({
	id,
	event_version: '1.0',
	create_time: CREATED,
	resource_type: resourceType,
	...(resourceType === 'sale' || resourceType === 'refund' ? {} : { resource_version: '2.0' }),
	event_type: eventType,
	summary,
	resource,
	links: [{ href: `${API}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' }],
});

/**
 * A capture of an order (Orders v2), paid by the buyer whose ID the brand set as `custom_id`.
 * @param {{ transactionId: string, userId: string, amountMinor: number, currency: string }} fields
 */
const capture = ({ transactionId, userId, amountMinor, currency }) => ({
	id: transactionId,
	amount: money(currency, amountMinor),
	final_capture: true,
	seller_protection: { status: 'ELIGIBLE' },
	seller_receivable_breakdown: {
		gross_amount: money(currency, amountMinor),
		paypal_fee: money(currency, Math.round(amountMinor * 0.035)),
		net_amount: money(currency, amountMinor - Math.round(amountMinor * 0.035)),
	},
	custom_id: userId,
	invoice_id: `INV-${transactionId}`,
	status: 'COMPLETED',
	supplementary_data: { related_ids: { order_id: `ORDER-${transactionId}` } },
	create_time: CREATED,
	update_time: CREATED,
	links: [
		{ href: `${API}/v2/payments/captures/${transactionId}`, rel: 'self', method: 'GET' },
		{ href: `${API}/v2/payments/captures/${transactionId}/refund`, rel: 'refund', method: 'POST' },
		{ href: `${API}/v2/checkout/orders/ORDER-${transactionId}`, rel: 'up', method: 'GET' },
	],
});

/**
 * A refund (or reversal) of the capture `transactionId`: this refund's amount, the running total.
 * @param {{ refundId: string, transactionId: string, currency: string, refundedMinor: number, refundedTotalMinor: number, status?: string }} fields
 */
const captureRefund = ({
	refundId,
	transactionId,
	currency,
	refundedMinor,
	refundedTotalMinor,
	status = 'COMPLETED',
}) => ({
	id: refundId,
	amount: money(currency, refundedMinor),
	seller_payable_breakdown: {
		gross_amount: money(currency, refundedMinor),
		paypal_fee: money(currency, 0),
		net_amount: money(currency, refundedMinor),
		total_refunded_amount: money(currency, refundedTotalMinor),
	},
	status,
	create_time: CREATED,
	update_time: CREATED,
	links: [
		{ href: `${API}/v2/payments/refunds/${refundId}`, rel: 'self', method: 'GET' },
		{ href: `${API}/v2/payments/captures/${transactionId}`, rel: 'up', method: 'GET' },
	],
});

/** A subscription's monthly sale (v1), 9.99 EUR, the subscription's custom_id on it as `custom`. */
const sale = {
	id: '7WT2824826029771W',
	billing_agreement_id: 'I-CP18AJLYDWR2',
	amount: { total: '9.99', currency: 'EUR', details: { subtotal: '9.99' } },
	payment_mode: 'INSTANT_TRANSFER',
	transaction_fee: { currency: 'EUR', value: '0.69' },
	protection_eligibility: 'ELIGIBLE',
	custom: 'user_2002',
	state: 'completed',
	create_time: CREATED,
	update_time: CREATED,
	links: [{ href: `${API}/v1/payments/sale/7WT2824826029771W`, rel: 'self', method: 'GET' }],
};

/** One sample per event the trigger reads beyond the purchase and refund the tests send. */
const events = {
	saleCompleted: envelope(
		'WH-5P841626K1319501S-93T49540D8390830S',
		'PAYMENT.SALE.COMPLETED',
		'sale',
		sale,
		'Payment completed for EUR 9.99 EUR',
	),
	// Older events send the refunded amount negative.
	saleRefunded: envelope(
		'WH-2N242548W9943490U-1JU23391CS4765624',
		'PAYMENT.SALE.REFUNDED',
		'refund',
		{
			id: '6YX43824R4443062K',
			sale_id: sale.id,
			parent_payment: 'PAY-5437236047802405NKRJ22UA',
			amount: { total: '-4.00', currency: 'EUR' },
			total_refunded_amount: { value: '4.00', currency: 'EUR' },
			state: 'completed',
			create_time: CREATED,
			update_time: CREATED,
		},
		'A EUR 4.00 EUR sale payment was refunded',
	),
	captureReversed: envelope(
		'WH-6F207351SC284371F-0KX52201050121307',
		'PAYMENT.CAPTURE.REVERSED',
		'refund',
		captureRefund({
			refundId: '09E71677NS257044M',
			transactionId: '3C679366HH908993F',
			currency: 'USD',
			refundedMinor: 2590,
			refundedTotalMinor: 2590,
		}),
		'A $ 25.90 USD capture payment was reversed',
	),
	capturePending: envelope(
		'WH-1GE84257G0350133W-6RW800890C634293G',
		'PAYMENT.CAPTURE.COMPLETED',
		'capture',
		{
			...capture({
				transactionId: '42311647XV020574X',
				userId: 'user_1001',
				amountMinor: 10000,
				currency: 'USD',
			}),
			status: 'PENDING',
		},
		'Payment pending for $ 100.00 USD',
	),
};

/** @type {import('../../../../support/payment/signer').Samples & { events: typeof events }} */
module.exports = {
	eventTypes: { purchase: 'PAYMENT.CAPTURE.COMPLETED', refund: 'PAYMENT.CAPTURE.REFUNDED' },
	refundSizeUnsaid: true,
	otherEvent: envelope(
		'WH-7Y7254563A4550640-11V2185806837105M',
		'CHECKOUT.ORDER.APPROVED',
		'checkout-order',
		{ id: '5O190127TN364715T', status: 'APPROVED', intent: 'CAPTURE' },
		'An order has been approved by buyer',
	),
	sampleEvent(kind, fields) {
		const { transactionId, userId, amountMinor, currency, eventId } = fields;
		if (kind === 'purchase') {
			const resource = capture({ transactionId, userId, amountMinor, currency });
			return envelope(
				eventId,
				'PAYMENT.CAPTURE.COMPLETED',
				'capture',
				resource,
				`Payment completed for ${major(amountMinor, currency)} ${currency}`,
			);
		}
		const { refundedMinor, refundedTotalMinor, refundKey } = fields;
		const resource = captureRefund({
			refundId: `RF-${refundKey}`,
			transactionId,
			currency,
			refundedMinor,
			refundedTotalMinor,
		});
		return envelope(
			eventId,
			'PAYMENT.CAPTURE.REFUNDED',
			'refund',
			resource,
			`A ${major(refundedMinor, currency)} ${currency} capture payment was refunded`,
		);
	},
	// CUSTOMER.DISPUTE.CREATED when opened, CUSTOMER.DISPUTE.RESOLVED with its outcome.
	disputeEvent(outcome, { transactionId, amountMinor, currency, eventId }) {
		const disputed = money(currency, amountMinor);
		const resource = {
			dispute_id: `PP-D-${transactionId}`,
			create_time: CREATED,
			update_time: CREATED,
			disputed_transactions: [
				{ seller_transaction_id: transactionId, buyer_transaction_id: `B-${transactionId}` },
			],
			reason: 'MERCHANDISE_OR_SERVICE_NOT_RECEIVED',
			status: outcome === 'opened' ? 'OPEN' : 'RESOLVED',
			dispute_amount: disputed,
			dispute_life_cycle_stage: 'CHARGEBACK',
			...(outcome === 'opened'
				? {}
				: {
						dispute_outcome: {
							outcome_code: outcome === 'lost' ? 'RESOLVED_BUYER_FAVOUR' : 'RESOLVED_SELLER_FAVOUR',
							...(outcome === 'lost' ? { amount_refunded: disputed } : {}),
						},
					}),
		};
		const type = outcome === 'opened' ? 'CREATED' : 'RESOLVED';
		return envelope(
			eventId,
			`CUSTOMER.DISPUTE.${type}`,
			'dispute',
			resource,
			`A dispute was ${type.toLowerCase()}`,
		);
	},
	events,
};
