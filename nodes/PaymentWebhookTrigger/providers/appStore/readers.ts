/**
 * What an App Store notification says, read from its verified transaction
 * (`data.transactionInfo`, decoded from `data.signedTransactionInfo` by notification.ts).
 *
 * The transaction ID a purchase and its refund share is the transaction's `transactionId`: a
 * REFUND carries the refunded transaction itself, so its `transactionId` is the one of the
 * ONE_TIME_CHARGE, SUBSCRIBED or DID_RENEW that paid it. Each renewal is a transaction of its own
 * (`originalTransactionId` only groups a subscription's renewals). Apple sends prices in
 * milli-units of the currency (9990 USD is 9.99 USD); the user ID is the `appAccountToken` the app
 * set at purchase.
 */
import { currencyAt, currencyDecimals, minorAt } from '../../money';
import { objectAt, textAt, type EventFields, type JsonObject } from '../../provider';

/** Apple's prices are milli-units of the currency. */
const MILLI_UNITS = 1000;
/** `revocationPercentage` is a percentage in milli-units: 100000 is all of it. */
const WHOLE_IN_MILLI_PERCENT = 100_000;

/** An amount in milli-units as a whole amount in the currency's smallest unit. */
export function minorFromMilli(milli: number, currency: string): number {
	return Math.round((milli * 10 ** currencyDecimals(currency)) / MILLI_UNITS);
}

/** The verified transaction of a notification, or null when it carries none. */
const transactionOf = (body: JsonObject) => objectAt(objectAt(body.data)?.transactionInfo);

/** The fields a purchase and a refund read alike; the amount, in milli-units, is the caller's. */
function transactionFields(transaction: JsonObject, milliAmount: number | null): EventFields {
	const currency = currencyAt(transaction.currency);
	return {
		transactionId: textAt(transaction.transactionId),
		amountMinor:
			milliAmount === null || currency === null ? null : minorFromMilli(milliAmount, currency),
		currency,
		userId: textAt(transaction.appAccountToken),
		metadata: null,
	};
}

/**
 * A purchase of ONE_TIME_CHARGE, SUBSCRIBED or DID_RENEW, for its price. A free trial pays nothing,
 * and a family member's shared access (FAMILY_SHARED) was paid by the purchaser: neither counts.
 */
export function purchaseFields(body: JsonObject): EventFields | null {
	const transaction = transactionOf(body);
	if (transaction === null) return null;
	return {
		counts:
			transaction.offerDiscountType !== 'FREE_TRIAL' &&
			transaction.inAppOwnershipType !== 'FAMILY_SHARED',
		...transactionFields(transaction, minorAt(transaction.price)),
	};
}

/**
 * A REFUND: full, for the price; or partial when prorated (`revocationType` REFUND_PRORATED), for
 * the refunded share of the price (`revocationPercentage`; no amount when Apple sends none).
 */
export function refundFields(body: JsonObject): EventFields | null {
	const transaction = transactionOf(body);
	if (transaction === null) return null;
	const price = minorAt(transaction.price);
	const fields =
		transaction.revocationType !== 'REFUND_PRORATED'
			? { refundType: 'full' as const, ...transactionFields(transaction, price) }
			: {
					refundType: 'partial' as const,
					...transactionFields(transaction, proratedShare(transaction, price)),
				};
	return { ...fields, ...revocationFields(price, fields) };
}

/** The refunded share of the price (`revocationPercentage`), in milli-units; null when unsent. */
function proratedShare(transaction: JsonObject, price: number | null): number | null {
	const percentage = minorAt(transaction.revocationPercentage);
	return price === null || percentage === null
		? null
		: (price * percentage) / WHOLE_IN_MILLI_PERCENT;
}

/**
 * What a REFUND says of its refund. Apple gives a refund no ID (the transaction ID is the
 * purchase's, `notificationUUID` the notification's): `refundId` is null. The revocation is the
 * transaction's own state, one per transaction, so the amount it returns is also the refunded
 * total so far; `paidMinor` is the transaction's price.
 */
function revocationFields(
	price: number | null,
	{ amountMinor = null, currency = null }: EventFields,
): EventFields {
	return {
		refundId: null,
		refundedTotalMinor: amountMinor,
		paidMinor: price === null || currency === null ? null : minorFromMilli(price, currency),
	};
}
