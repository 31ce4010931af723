/**
 * Stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, HMAC-SHA256 of `<t>.<body>` keyed with
 * the whole `whsec_…` secret; any `v1` may match (a secret roll sends two), `v0` is ignored.
 *
 * The transaction ID a purchase and its refund share is the PaymentIntent ID
 * (`checkout.session.completed.payment_intent`, `payment_intent.succeeded.id`, `invoice.paid`
 * through `invoice.payments` since API version basil or `invoice.payment_intent` before,
 * `charge.refunded.payment_intent`, a refund event's `payment_intent`, and a dispute's
 * `payment_intent`: `charge.dispute.closed` with status `lost` is a chargeback the brand lost).
 * The user ID is in the metadata, which only the brand sets; a Checkout Session's
 * `client_reference_id`, which a Payment Link's URL lets a buyer set, only when the metadata has
 * none.
 *
 * A refund's own fields: the refund events name the refund (`re_…`), `charge.refunded` states the
 * running total (`amount_refunded`) and what the charge took, and a lost dispute is named by its
 * `dp_…` ID.
 *
 * Only money that went back is a refund: `refund.created` and `refund.updated` count once the
 * refund's status is `succeeded`; `pending` or `requires_action` is kind other (not returned yet);
 * `failed` or `canceled`, and `refund.failed`, are kind refundFailed, so a ledger that counted the
 * refund takes it out. `charge.refunded`'s running total includes refunds not yet succeeded.
 */
import { verifyTimestampedHex, type TimestampedHexScheme } from '../../hmac';
import { currencyAt, minorAt, refundTypeOf, type RefundType } from '../../money';
import {
	idAt,
	objectAt,
	textAt,
	whsecSecret,
	type EventFields,
	type JsonObject,
	type EventReaders,
	type PaymentProvider,
} from '../../provider';

const SCHEME: TimestampedHexScheme = {
	header: 'Stripe-Signature',
	separator: ',',
	timestampKey: 't',
	signatureKey: 'v1',
	joiner: '.',
};

/** The event's object, and the currency and metadata every Stripe object carries alike. */
function read(body: JsonObject, fields: (object: JsonObject) => EventFields): EventFields | null {
	const object = objectAt(objectAt(body.data)?.object);
	if (object === null) return null;
	return {
		currency: currencyAt(object.currency),
		metadata: objectAt(object.metadata),
		...fields(object),
	};
}

/** The PaymentIntent of a paid invoice: `payments` (API version basil on), else `payment_intent`. */
function invoicePaymentIntent(invoice: JsonObject): string | null {
	const payments = invoice.payments;
	const entries = Array.isArray(payments) ? payments : objectAt(payments)?.data;
	if (Array.isArray(entries)) {
		const withIntent = entries
			.map((entry) => objectAt(entry))
			.filter((entry): entry is JsonObject => entry !== null)
			.map((entry) => ({
				status: entry.status,
				intent: idAt(objectAt(entry.payment)?.payment_intent),
			}))
			.filter((entry) => entry.intent !== null);
		const paid = withIntent.find((entry) => entry.status === 'paid') ?? withIntent[0];
		if (paid !== undefined) return paid.intent;
	}
	return idAt(invoice.payment_intent);
}

/** What a charge has taken: the captured amount, else the amount. */
const chargedOf = (charge: JsonObject) => minorAt(charge.amount_captured) ?? minorAt(charge.amount);

/** `refunded` says full or partial outright; without it, the amounts do. */
function chargeRefundType(charge: JsonObject, refunded: number | null): RefundType | null {
	if (charge.refunded === true) return 'full';
	if (charge.refunded === false) return 'partial';
	return refundTypeOf(refunded, chargedOf(charge));
}

/**
 * A refund object's fields, for every refund event: `failed` says the event reports a failure
 * whatever the status (refund.failed); otherwise succeeded counts, failed or canceled is a failed
 * refund, and any other status (pending, requires_action) is no money returned yet.
 */
function refundFields(refund: JsonObject, failed = false): EventFields {
	// The charge tells full from partial only when it arrives expanded.
	const charge = objectAt(refund.charge);
	const hasFailed = failed || refund.status === 'failed' || refund.status === 'canceled';
	return {
		counts: hasFailed || refund.status === 'succeeded',
		failed: hasFailed,
		refundType:
			charge === null ? null : refundTypeOf(minorAt(charge.amount_refunded), chargedOf(charge)),
		refundId: idAt(refund.id),
		transactionId: idAt(refund.payment_intent),
		amountMinor: minorAt(refund.amount),
		refundedTotalMinor: charge === null ? null : minorAt(charge.amount_refunded),
		paidMinor: charge === null ? null : chargedOf(charge),
	};
}

/** Its purchase and refund events, by type: the Events option values are these keys. */
const EVENTS = {
	'checkout.session.completed': {
		kind: 'purchase',
		description: 'A Checkout Session was paid (payment_status paid or no_payment_required)',
		fields: (body) =>
			read(body, (session) => ({
				counts: session.payment_status !== 'unpaid',
				transactionId: idAt(session.payment_intent),
				amountMinor: minorAt(session.amount_total),
				buyerSetUserId: textAt(session.client_reference_id),
			})),
	},
	'payment_intent.succeeded': {
		kind: 'purchase',
		description: 'A PaymentIntent succeeded (one-time payments and subscription invoices alike)',
		fields: (body) =>
			read(body, (intent) => ({
				transactionId: idAt(intent.id),
				amountMinor: minorAt(intent.amount_received) ?? minorAt(intent.amount),
			})),
	},
	'invoice.paid': {
		kind: 'purchase',
		description: 'An invoice was paid (subscriptions)',
		fields: (body) =>
			read(body, (invoice) => ({
				transactionId: invoicePaymentIntent(invoice),
				amountMinor: minorAt(invoice.amount_paid),
				moreMetadata: [
					objectAt(objectAt(objectAt(invoice.parent)?.subscription_details)?.metadata),
					objectAt(objectAt(invoice.subscription_details)?.metadata),
				],
			})),
	},
	'charge.refunded': {
		kind: 'refund',
		description:
			'A charge was refunded, fully or partly (amount: the total refunded so far, refunds not yet succeeded included); where refunds can pend or fail, refund.created, refund.updated and refund.failed say when the money went back',
		fields: (body) =>
			read(body, (charge) => {
				const refunded = minorAt(charge.amount_refunded);
				return {
					refundType: chargeRefundType(charge, refunded),
					// The charge names no refund of its own: since API version 2022-11-15 its
					// `refunds` list is sent only expanded, and it does not say which is this one.
					refundId: null,
					transactionId: idAt(charge.payment_intent),
					amountMinor: refunded,
					refundedTotalMinor: refunded,
					paidMinor: chargedOf(charge),
				};
			}),
	},
	'refund.created': {
		kind: 'refund',
		description:
			'A refund was created: counts once its status is succeeded (pending: kind other; failed or canceled: kind refundFailed)',
		fields: (body) => read(body, (refund) => refundFields(refund)),
	},
	'refund.updated': {
		kind: 'refund',
		description:
			'A refund was updated: counts once its status is succeeded (pending: kind other; failed or canceled: kind refundFailed)',
		fields: (body) => read(body, (refund) => refundFields(refund)),
	},
	'refund.failed': {
		kind: 'refund',
		description: 'A refund failed: kind refundFailed (take it out of what was counted)',
		fields: (body) => read(body, (refund) => refundFields(refund, true)),
	},
	'charge.dispute.closed': {
		// Closed in the cardholder's favour (lost) the money is gone for good; won or
		// warning_closed leaves the payment standing. An open dispute can still be won.
		kind: 'refund',
		description:
			'A dispute was closed: lost, it is a chargeback and a full refund; won, it is kind other',
		fields: (body) =>
			read(body, (dispute) => ({
				counts: dispute.status === 'lost',
				chargeback: true,
				refundId: idAt(dispute.id),
				transactionId: idAt(dispute.payment_intent),
				amountMinor: minorAt(dispute.amount),
			})),
	},
} satisfies EventReaders<string>;

export const stripe: PaymentProvider<'stripe'> = {
	id: 'stripe',
	name: 'Stripe',
	signing: 'Stripe-Signature header; the secret starts with whsec_',
	signsTimestamp: true,
	secretProblem: whsecSecret('Stripe'),
	verify: (request) => verifyTimestampedHex(request, SCHEME),
	credentialHelp: { field: 'signingSecret', text: "Stripe's whsec_…" },
	codexAliases: ['stripe'],
	eventType: (body) => textAt(body.type),
	eventId: (body) => textAt(body.id),
	events: EVENTS,
};
