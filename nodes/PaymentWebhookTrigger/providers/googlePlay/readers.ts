/**
 * What a Google Play notification says once completed from the Play Developer API
 * (`playApi.purchase`: purchases.products.get or purchases.subscriptionsv2.get; `playApi.order`:
 * orders.get). The transaction a purchase and its refund share is the order ID (a renewal's is
 * its own, `GPA.….0`, `….1`); the amount and currency are the order's `total` (google.type.Money:
 * `units` + `nanos`, `currencyCode`); the user ID is the `obfuscatedExternalAccountId` the app set
 * with BillingFlowParams.setObfuscatedAccountId.
 *
 * A voided purchase: `refundType` 1 is a full refund, 2 a quantity-based partial refund, whose
 * amount is the order's last partial refund event (`orderHistory.partialRefundEvents`) and whose
 * running total is all of them (the part that brings it up to what was paid makes it full); a chargeback where the notification's `voidedReason` is 7 (as
 * purchases.voidedpurchases lists it) or the order's full refund event names CHARGEBACK. Where
 * the order states no refunded amount, a full refund returns what was paid. Google gives a refund
 * no ID (partial refund events have none): `refundId` is null, and the running total
 * (`refundedTotalMinor`) and what was paid (`paidMinor`) come from the order.
 */
import { currencyAt, currencyDecimals, refundTypeOf } from '../../money';
import { objectAt, textAt, type EventFields, type JsonObject } from '../../provider';

/** A Money object in the currency's smallest unit, or null. */
export function minorOfMoney(money: unknown): { minor: number; currency: string } | null {
	const value = objectAt(money);
	const currency = currencyAt(value?.currencyCode);
	const units = Number(value?.units ?? 0);
	const nanos = Number(value?.nanos ?? 0);
	if (
		value === null ||
		currency === null ||
		!Number.isSafeInteger(units) ||
		!Number.isInteger(nanos)
	) {
		return null;
	}
	const decimals = currencyDecimals(currency);
	return { minor: units * 10 ** decimals + Math.round(nanos / 10 ** (9 - decimals)), currency };
}

const apiOf = (body: JsonObject) => objectAt(body.playApi);

/** The user ID of a one-time purchase or a subscription (subscriptionsv2 nests it). */
function userIdOf(purchase: JsonObject | null): string | null {
	return (
		textAt(purchase?.obfuscatedExternalAccountId) ??
		textAt(objectAt(purchase?.externalAccountIdentifiers)?.obfuscatedExternalAccountId)
	);
}

/**
 * Whether the purchase was paid for real: not pending or canceled (purchases.products'
 * `purchaseState` 0 is purchased), not a license tester's (`purchaseType` 0, subscriptionsv2's
 * `testPurchase`), which Google does not charge.
 */
function paid(purchase: JsonObject | null): boolean {
	if (purchase === null) return true;
	if (purchase.purchaseState !== undefined && purchase.purchaseState !== 0) return false;
	return purchase.purchaseType !== 0 && purchase.testPurchase === undefined;
}

/**
 * A purchase or a renewal, for its order's total. A free order (a trial), a pending or canceled
 * purchase and a license tester's do not count.
 */
export function purchaseFields(body: JsonObject): EventFields | null {
	const api = apiOf(body);
	const order = objectAt(api?.order);
	if (order === null) return null;
	const total = minorOfMoney(order.total);
	return {
		counts: (total === null || total.minor > 0) && paid(objectAt(api?.purchase)),
		transactionId: textAt(order.orderId),
		amountMinor: total?.minor ?? null,
		currency: total?.currency ?? null,
		userId: userIdOf(objectAt(api?.purchase)),
		metadata: null,
	};
}

const CHARGEBACK_VOIDED_REASON = 7;

/** The refund events of an order's history: its partial refunds, processed, in order. */
function partialRefunds(order: JsonObject): Array<{ minor: number }> {
	const history = objectAt(order.orderHistory);
	const events = Array.isArray(history?.partialRefundEvents) ? history.partialRefundEvents : [];
	return events.flatMap((event: unknown) => {
		const entry = objectAt(event);
		const money = minorOfMoney(objectAt(entry?.refundDetails)?.total);
		if (entry === null || money === null || (entry.state ?? 'PROCESSED') !== 'PROCESSED') return [];
		return [{ minor: money.minor }];
	});
}

/** A voided purchase: refunded in full, or in part (quantity-based), or charged back. */
export function refundFields(body: JsonObject): EventFields | null {
	const voided = objectAt(body.voidedPurchaseNotification);
	const order = objectAt(apiOf(body)?.order);
	if (voided === null || order === null) return null;
	const orderId = textAt(voided.orderId) ?? textAt(order.orderId);
	const paid = minorOfMoney(order.total);
	const refundEvent = objectAt(objectAt(order.orderHistory)?.refundEvent);
	const chargeback =
		voided.voidedReason === CHARGEBACK_VOIDED_REASON || refundEvent?.refundReason === 'CHARGEBACK';
	const common = {
		transactionId: orderId,
		currency: paid?.currency ?? null,
		paidMinor: paid?.minor ?? null,
		chargeback,
		userId: null,
		metadata: null,
	};
	if (voided.refundType === 2) {
		const refunds = partialRefunds(order);
		const total = refunds.length === 0 ? null : refunds.reduce((sum, r) => sum + r.minor, 0);
		return {
			...common,
			// The part that brings the refunds up to what was paid makes the refund full.
			refundType: refundTypeOf(total, paid?.minor ?? null) ?? 'partial',
			refundId: null,
			amountMinor: refunds.at(-1)?.minor ?? null,
			refundedTotalMinor: total,
		};
	}
	const stated = minorOfMoney(objectAt(refundEvent?.refundDetails)?.total);
	const refunded = refunds(order, stated?.minor ?? null, paid?.minor ?? null);
	return {
		...common,
		refundType: 'full',
		refundId: null,
		amountMinor: refunded,
		refundedTotalMinor: paid?.minor ?? refunded,
	};
}

/** A full refund's amount: as the order states it, else what is left of what was paid. */
function refunds(order: JsonObject, stated: number | null, paid: number | null): number | null {
	if (stated !== null) return stated;
	if (paid === null) return null;
	return paid - partialRefunds(order).reduce((sum, r) => sum + r.minor, 0);
}
