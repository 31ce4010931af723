/**
 * Stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, HMAC-SHA256 of `<t>.<body>` keyed with
 * the whole `whsec_…` secret; any `v1` may match (a secret roll sends two), `v0` is ignored.
 *
 * The transaction ID a purchase and its refund share is the PaymentIntent ID
 * (`checkout.session.completed.payment_intent`, `payment_intent.succeeded.id`, `invoice.paid`
 * through `invoice.payments` since API version basil or `invoice.payment_intent` before,
 * `charge.refunded.payment_intent`, `refund.created.payment_intent`).
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
	ANY_EVENT_OPTION,
	EVENTS_PARAMETER_DESCRIPTION,
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

/** Its purchase and refund events, by type: the Events option values are these keys. */
const EVENTS = {
	'checkout.session.completed': {
		kind: 'purchase',
		fields: (body) =>
			read(body, (session) => ({
				counts: session.payment_status !== 'unpaid',
				transactionId: idAt(session.payment_intent),
				amountMinor: minorAt(session.amount_total),
				userId: textAt(session.client_reference_id),
			})),
	},
	'payment_intent.succeeded': {
		kind: 'purchase',
		fields: (body) =>
			read(body, (intent) => ({
				transactionId: idAt(intent.id),
				amountMinor: minorAt(intent.amount_received) ?? minorAt(intent.amount),
			})),
	},
	'invoice.paid': {
		kind: 'purchase',
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
		fields: (body) =>
			read(body, (charge) => {
				const refunded = minorAt(charge.amount_refunded);
				return {
					refundType: chargeRefundType(charge, refunded),
					transactionId: idAt(charge.payment_intent),
					amountMinor: refunded,
				};
			}),
	},
	'refund.created': {
		kind: 'refund',
		fields: (body) =>
			read(body, (refund) => {
				// The charge tells full from partial only when it arrives expanded.
				const charge = objectAt(refund.charge);
				return {
					counts: refund.status !== 'failed' && refund.status !== 'canceled',
					refundType:
						charge === null
							? null
							: refundTypeOf(minorAt(charge.amount_refunded), chargedOf(charge)),
					transactionId: idAt(refund.payment_intent),
					amountMinor: minorAt(refund.amount),
				};
			}),
	},
} satisfies EventReaders<string>;

type StripeEvent = keyof typeof EVENTS;

export const stripe: PaymentProvider<'stripe', StripeEvent> = {
	id: 'stripe',
	secretProblem: whsecSecret('Stripe'),
	verify: (request) => verifyTimestampedHex(request, SCHEME),
	credentialText: "Stripe's whsec_…",
	codexAliases: ['stripe'],
	eventType: (body) => textAt(body.type),
	eventId: (body) => textAt(body.id),
	eventsParameter: {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		displayOptions: { show: { provider: ['stripe'] } },
		options: [
			ANY_EVENT_OPTION,
			{
				name: 'charge.refunded',
				value: 'charge.refunded',
				description: 'A charge was refunded, fully or partly (amount: the total refunded so far)',
			},
			{
				name: 'checkout.session.completed',
				value: 'checkout.session.completed',
				description: 'A Checkout Session was paid (payment_status paid or no_payment_required)',
			},
			{
				name: 'invoice.paid',
				value: 'invoice.paid',
				description: 'An invoice was paid (subscriptions)',
			},
			{
				name: 'payment_intent.succeeded',
				value: 'payment_intent.succeeded',
				description:
					'A PaymentIntent succeeded (one-time payments and subscription invoices alike)',
			},
			{
				name: 'refund.created',
				value: 'refund.created',
				description: 'A refund was created',
			},
		],
		default: [
			'checkout.session.completed',
			'payment_intent.succeeded',
			'invoice.paid',
			'charge.refunded',
			'refund.created',
		],
		description: EVENTS_PARAMETER_DESCRIPTION,
	},
	events: EVENTS,
};
