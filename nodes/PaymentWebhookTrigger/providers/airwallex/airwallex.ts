/**
 * Airwallex: `x-signature` is the hex HMAC-SHA256 of `x-timestamp` (Unix milliseconds) followed
 * by the raw body, nothing between them, keyed with the webhook's secret as shown. The envelope
 * names the event in `name` and carries a stable `id` (retries over about three days reuse it).
 * Amounts are in major units (`16.66` USD).
 *
 * The transaction ID a purchase and its refund share is the PaymentIntent ID (`int_…`):
 * `payment_intent.succeeded`'s `id`, `refund.settled`'s and `payment_dispute.lost`'s
 * `payment_intent_id`. A refund does not say whether it returns the whole payment, so its
 * `refundType` is null; a lost dispute is a chargeback, a full reversal.
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
	ANY_EVENT_OPTION,
	EVENTS_PARAMETER_DESCRIPTION,
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

type AirwallexEvent = 'payment_intent.succeeded' | 'refund.settled' | 'payment_dispute.lost';

export const airwallex: PaymentProvider<'airwallex', AirwallexEvent> = {
	id: 'airwallex',
	secretProblem: anySecret,
	verify: verifyAirwallex,
	credentialText: "Airwallex's webhook secret",
	codexAliases: ['airwallex'],
	eventType: (body) => textAt(body.name),
	eventId: (body) => textAt(body.id),
	eventsParameter: {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		displayOptions: { show: { provider: ['airwallex'] } },
		options: [
			ANY_EVENT_OPTION,
			{
				name: 'payment_dispute.lost',
				value: 'payment_dispute.lost',
				description: 'A dispute was lost: a chargeback, a full refund',
			},
			{
				name: 'payment_intent.succeeded',
				value: 'payment_intent.succeeded',
				description: 'A PaymentIntent succeeded',
			},
			{
				name: 'refund.settled',
				value: 'refund.settled',
				description:
					'A refund was settled to the shopper (refundType null: full or partial is not sent)',
			},
		],
		default: ['payment_intent.succeeded', 'refund.settled', 'payment_dispute.lost'],
		description: EVENTS_PARAMETER_DESCRIPTION,
	},
	events: {
		'payment_intent.succeeded': {
			kind: 'purchase',
			fields: (body) => read(body, (intent) => ({ transactionId: textAt(intent.id) })),
		},
		'refund.settled': {
			kind: 'refund',
			fields: (body) =>
				read(body, (refund) => ({ transactionId: textAt(refund.payment_intent_id) })),
		},
		'payment_dispute.lost': {
			kind: 'refund',
			fields: (body) =>
				read(body, (dispute) => ({
					chargeback: true,
					transactionId: textAt(dispute.payment_intent_id),
				})),
		},
	},
};
