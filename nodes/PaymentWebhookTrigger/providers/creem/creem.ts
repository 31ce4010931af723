/**
 * Creem (a merchant of record): `creem-signature: <hex>`, HMAC-SHA256 of the body keyed with the
 * webhook secret as shown (`whsec_…`); no timestamp is signed. The body names the event in
 * `eventType` and its ID in `id`; the event's object is `object`.
 *
 * The transaction ID a purchase and its refund share is the order ID: `checkout.completed` carries
 * the order it created (`object.order.id`), and `refund.created` names the refunded order
 * (`object.order`, an ID or the order expanded; else its transaction's `order`). Amounts are in
 * the smallest unit (cents), currencies upper case; the user ID is in the checkout's metadata.
 *
 * Only money that went back is a refund: `refund.created` counts when the refund's `status` is
 * `succeeded`; `failed` or `canceled` is kind refundFailed (a ledger takes it out), and any other
 * status (`pending`) is kind other, not returned yet.
 */
import { verifyBodyHex } from '../../hmac';
import { currencyAt, minorAt, refundTypeOf } from '../../money';
import {
	idAt,
	objectAt,
	textAt,
	whsecSecret,
	type EventReaders,
	type PaymentProvider,
} from '../../provider';

/** Its purchase and refund events, by type: the Events option values are these keys. */
const EVENTS = {
	'checkout.completed': {
		kind: 'purchase',
		description: 'A checkout was completed and its order paid',
		fields: (body) => {
			const checkout = objectAt(body.object);
			const order = objectAt(checkout?.order);
			if (checkout === null || order === null) return null;
			return {
				counts: order.status === undefined || order.status === 'paid',
				transactionId: textAt(order.id),
				amountMinor: minorAt(order.amount_paid) ?? minorAt(order.amount),
				currency: currencyAt(order.currency),
				metadata: objectAt(checkout.metadata),
				moreMetadata: [objectAt(objectAt(checkout.subscription)?.metadata)],
			};
		},
	},
	'refund.created': {
		kind: 'refund',
		description:
			'A refund was created, fully or partly: counts once its status is succeeded (pending: kind other; failed or canceled: kind refundFailed)',
		fields: (body) => {
			const refund = objectAt(body.object);
			if (refund === null) return null;
			const transaction = objectAt(refund.transaction);
			const refunded = minorAt(refund.refund_amount);
			const charged =
				minorAt(transaction?.amount_paid) ??
				minorAt(transaction?.amount) ??
				minorAt(objectAt(refund.order)?.amount);
			const failed = refund.status === 'failed' || refund.status === 'canceled';
			return {
				counts: failed || refund.status === 'succeeded',
				failed,
				refundType: refundTypeOf(refunded, charged),
				refundId: textAt(refund.id),
				transactionId: idAt(refund.order) ?? idAt(transaction?.order),
				amountMinor: refunded,
				// `refund_amount` is this refund's; nothing states the refunded total so far.
				refundedTotalMinor: null,
				paidMinor: charged,
				currency: currencyAt(refund.refund_currency),
				metadata: objectAt(objectAt(refund.checkout)?.metadata),
				moreMetadata: [objectAt(objectAt(refund.subscription)?.metadata)],
			};
		},
	},
} satisfies EventReaders<string>;

export const creem: PaymentProvider<'creem'> = {
	id: 'creem',
	name: 'Creem',
	signing: 'Creem-Signature header; the secret starts with whsec_',
	signsTimestamp: false,
	secretProblem: whsecSecret('Creem'),
	verify: (request) => verifyBodyHex(request, 'creem-signature'),
	credentialHelp: { field: 'signingSecret', text: "Creem's whsec_…" },
	codexAliases: ['creem'],
	eventType: (body) => textAt(body.eventType),
	eventId: (body) => textAt(body.id),
	events: EVENTS,
};
