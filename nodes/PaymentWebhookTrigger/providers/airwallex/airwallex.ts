/**
 * Airwallex: `x-signature` is the hex HMAC-SHA256 of `x-timestamp` (Unix milliseconds) followed
 * by the raw body, nothing between them, keyed with the webhook's secret as shown. The envelope
 * names the event in `name` and carries a stable `id` (retries over about three days reuse it).
 * Amounts are in major units (`16.66` USD).
 *
 * The transaction ID a purchase and its refund share is the PaymentIntent ID (`int_…`):
 * `payment_intent.succeeded`'s `id`, `refund.settled`'s and `payment_dispute.lost`'s
 * `payment_intent_id`. A refund does not say whether it returns the whole payment, so its
 * `refundType` is null; a lost dispute is a chargeback, a full reversal. A refund's `id`
 * (`rfd_…`) names it; it states neither the refunded total so far nor what the payment took.
 */
import {
	checkAge,
	headerValue,
	hmac,
	refuse,
	safeEqual,
	signatureHeader,
	HEX_SHA256,
} from '../../hmac';
import { currencyAt, minorFromMajor } from '../../money';
import {
	anySecret,
	objectAt,
	textAt,
	type EventFields,
	type DeliveryRequest,
	type JsonObject,
	type PaymentProvider,
	type Verification,
} from '../../provider';

const AIRWALLEX_SIGNATURE_HEADER = 'x-signature';
const AIRWALLEX_TIMESTAMP_HEADER = 'x-timestamp';

/** Milliseconds since 1970, as many digits as the next 30,000 years need. */
const UNIX_MILLISECONDS = /^\d{1,15}$/;

/** The check of one delivery: its signature, then its age. */
export function verifyAirwallex(request: DeliveryRequest): Verification {
	const found = signatureHeader(request, AIRWALLEX_SIGNATURE_HEADER);
	if ('refusal' in found) return found.refusal;
	const timestamp = headerValue(request.headers, AIRWALLEX_TIMESTAMP_HEADER)?.trim();
	if (timestamp === undefined || !UNIX_MILLISECONDS.test(timestamp)) {
		return refuse(`malformed ${AIRWALLEX_TIMESTAMP_HEADER} header: no Unix time in milliseconds`);
	}
	const signature = found.header.trim();
	if (!HEX_SHA256.test(signature)) {
		return refuse(`malformed ${AIRWALLEX_SIGNATURE_HEADER} header: not a hex SHA-256 HMAC`);
	}
	const expected = hmac(request.secrets.signingSecret, [timestamp, request.rawBody]).digest('hex');
	if (!safeEqual(expected, signature.toLowerCase())) {
		return refuse('the signature does not match the timestamp, the body and the signing secret');
	}
	return checkAge(Math.floor(Number(timestamp) / 1000), request, null);
}

/** The event's object (`data.object`), with the currency, amount and metadata each one carries. */
function read(body: JsonObject, fields: (object: JsonObject) => EventFields): EventFields | null {
	const object = objectAt(objectAt(body.data)?.object);
	if (object === null) return null;
	const currency = currencyAt(object.currency);
	return {
		currency,
		amountMinor: minorFromMajor(object.amount, currency),
		metadata: objectAt(object.metadata),
		...fields(object),
	};
}

/** The captured amount, where the intent states a positive one (else `amount` stands). */
function capturedOf(intent: JsonObject): Pick<EventFields, 'amountMinor'> {
	const captured = minorFromMajor(intent.captured_amount, currencyAt(intent.currency));
	return captured !== null && captured > 0 ? { amountMinor: captured } : {};
}

export const airwallex: PaymentProvider<'airwallex'> = {
	id: 'airwallex',
	name: 'Airwallex',
	signing: "X-Signature and x-timestamp headers; the webhook's secret",
	signsTimestamp: true,
	secretProblem: anySecret,
	verify: verifyAirwallex,
	credentialHelp: { field: 'signingSecret', text: "Airwallex's webhook secret" },
	codexAliases: ['airwallex'],
	eventType: (body) => textAt(body.name),
	eventId: (body) => textAt(body.id),
	events: {
		'payment_intent.succeeded': {
			kind: 'purchase',
			description: 'A PaymentIntent succeeded',
			fields: (body) =>
				read(body, (intent) => ({
					transactionId: textAt(intent.id),
					// What was taken: refunds top out at `captured_amount`, below `amount` after a
					// partial capture.
					...capturedOf(intent),
				})),
		},
		'refund.settled': {
			kind: 'refund',
			description:
				'A refund was settled to the shopper (refundType null: full or partial is not sent)',
			fields: (body) =>
				read(body, (refund) => ({
					refundId: textAt(refund.id),
					transactionId: textAt(refund.payment_intent_id),
					// The refund states its own amount only: no total so far, nor what was paid.
					refundedTotalMinor: null,
					paidMinor: null,
				})),
		},
		'payment_dispute.lost': {
			kind: 'refund',
			description: 'A dispute was lost: a chargeback, a full refund',
			fields: (body) =>
				read(body, (dispute) => ({
					chargeback: true,
					refundId: textAt(dispute.id),
					transactionId: textAt(dispute.payment_intent_id),
				})),
		},
	},
};
