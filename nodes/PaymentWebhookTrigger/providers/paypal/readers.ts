/**
 * What PayPal's webhook events say, read from their `resource`, amounts in major units as decimal
 * text (read exactly, money.ts):
 * - PAYMENT.CAPTURE.COMPLETED (Orders v2): the capture's `id`, `amount.value` and
 *   `amount.currency_code`, and `custom_id` (the brand's user ID, set per purchase unit).
 * - PAYMENT.SALE.COMPLETED (Subscriptions): the sale's `id`, `amount.total` and
 *   `amount.currency`; the subscription's `custom_id` comes on the sale as `custom`.
 * - PAYMENT.CAPTURE.REFUNDED: the refund's `id` and `amount`, the running total
 *   `seller_payable_breakdown.total_refunded_amount`, and the capture's ID from the `up` link.
 * - PAYMENT.SALE.REFUNDED: the refund's `id`, its `amount` (older events send it negative),
 *   `total_refunded_amount` where sent, and the sale's ID `sale_id`.
 * - PAYMENT.CAPTURE.REVERSED (a chargeback, or PayPal taking the money back) and
 *   CUSTOMER.DISPUTE.RESOLVED in the buyer's favour (RESOLVED_BUYER_FAVOUR): chargebacks on the
 *   capture (`up` link; the dispute's `disputed_transactions[].seller_transaction_id`).
 * No refund states what the purchase paid (`paidMinor` null: the ledger records what was paid), nor
 * whether it is whole (`refundType` null).
 */
import { currencyAt, minorFromMajor } from '../../money';
import { objectAt, textAt, type EventFields, type JsonObject } from '../../provider';

/** The capture a refund or reversal belongs to, in its `up` link (…/v2/payments/captures/<id>). */
const CAPTURE_LINK = /\/v2\/payments\/captures\/([^/?#]+)$/;

/** A reader of the event's `resource`; null when the event carries none. */
const ofResource =
	(read: (resource: JsonObject) => EventFields) =>
	(body: JsonObject): EventFields | null => {
		const resource = objectAt(body.resource);
		return resource === null ? null : read(resource);
	};

/** An amount in the smallest unit, from PayPal's major-unit text; a refund's sign is dropped. */
function amountOf(value: unknown, currency: string | null): number | null {
	const minor = minorFromMajor(value, currency);
	return minor === null ? null : Math.abs(minor);
}

/** Money as Orders v2 writes it (`{ currency_code, value }`) or v1 (`{ currency, total }`). */
function moneyOf(value: unknown): { amountMinor: number | null; currency: string | null } {
	const money = objectAt(value);
	const currency = currencyAt(money?.currency_code ?? money?.currency);
	return { amountMinor: amountOf(money?.value ?? money?.total, currency), currency };
}

/** The running total where it is in the refund's currency, else null. */
function totalIn(value: unknown, currency: string | null): number | null {
	const total = moneyOf(value);
	return total.currency !== null && total.currency === currency ? total.amountMinor : null;
}

/** The capture ID a v2 refund or reversal names in its `up` link. */
function captureIdOf(resource: JsonObject): string | null {
	const links = Array.isArray(resource.links) ? resource.links : [];
	for (const link of links) {
		const { rel, href } = objectAt(link) ?? {};
		const match = rel === 'up' && typeof href === 'string' ? CAPTURE_LINK.exec(href) : null;
		if (match !== null) return match[1];
	}
	return null;
}

/** Completed, or its status unsaid: v2 `status` COMPLETED, v1 `state` completed. */
const completed = (resource: JsonObject) =>
	(resource.status ?? 'COMPLETED') === 'COMPLETED' &&
	(resource.state ?? 'completed') === 'completed';

const noMetadata = { metadata: null };

/** PAYMENT.CAPTURE.COMPLETED (Orders v2), and PAYMENT.SALE.COMPLETED (a subscription's sale). */
export const purchaseFields = ofResource((payment) => ({
	counts: completed(payment),
	transactionId: textAt(payment.id),
	...moneyOf(payment.amount),
	// A capture carries the purchase unit's custom_id; a sale the subscription's, as `custom`.
	userId: textAt(payment.custom_id) ?? textAt(payment.custom),
	...noMetadata,
}));

/**
 * A refund: PAYMENT.CAPTURE.REFUNDED (the capture from the `up` link, the running total in
 * `seller_payable_breakdown`), PAYMENT.SALE.REFUNDED (`sale_id`, `total_refunded_amount`), and
 * PAYMENT.CAPTURE.REVERSED as a chargeback.
 */
const refundFields = (chargeback: boolean) =>
	ofResource((refund) => {
		const { amountMinor, currency } = moneyOf(refund.amount);
		const total =
			objectAt(refund.seller_payable_breakdown)?.total_refunded_amount ??
			refund.total_refunded_amount;
		return {
			counts: refund.status !== 'PENDING' && refund.state !== 'pending',
			failed: ['FAILED', 'CANCELLED', 'failed', 'cancelled'].includes(
				String(refund.status ?? refund.state),
			),
			...(chargeback ? { chargeback } : {}),
			refundType: null,
			refundId: textAt(refund.id),
			transactionId: captureIdOf(refund) ?? textAt(refund.sale_id),
			amountMinor,
			currency,
			refundedTotalMinor: totalIn(total, currency),
			paidMinor: null,
			userId: textAt(refund.custom_id) ?? textAt(refund.custom),
			...noMetadata,
		};
	});

export const refundedFields = refundFields(false);
export const reversedFields = refundFields(true);

/** CUSTOMER.DISPUTE.RESOLVED: a chargeback when resolved in the buyer's favour, else nothing. */
export const disputeResolvedFields = ofResource((dispute) => {
	const outcome = objectAt(dispute.dispute_outcome);
	const transactions = Array.isArray(dispute.disputed_transactions)
		? dispute.disputed_transactions
		: [];
	const refunded = moneyOf(outcome?.amount_refunded);
	return {
		counts: outcome?.outcome_code === 'RESOLVED_BUYER_FAVOUR',
		chargeback: true,
		refundId: textAt(dispute.dispute_id),
		transactionId: textAt(objectAt(transactions[0])?.seller_transaction_id),
		...(refunded.amountMinor === null ? moneyOf(dispute.dispute_amount) : refunded),
		refundedTotalMinor: null,
		paidMinor: null,
		...noMetadata,
	};
});
