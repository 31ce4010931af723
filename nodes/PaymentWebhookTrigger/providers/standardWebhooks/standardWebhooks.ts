/**
 * Standard Webhooks (Polar, Svix and others): `webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64>[ …]`, HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the
 * bytes base64-encoded after `whsec_`; `v1a` (ed25519) and other versions are ignored. The event
 * ID is the signed `webhook-id`.
 *
 * The transaction ID a purchase and its refund share is Polar's order ID (`order.paid` /
 * `order.refunded`, `data.id`).
 */
import {
	anyMatches,
	checkAge,
	headerValue,
	hmac,
	refuse,
	signatureHeader,
	UNIX_SECONDS,
} from '../../hmac';
import { currencyAt, minorAt, refundTypeByStatus } from '../../money';
import {
	objectAt,
	signingSecretRule,
	textAt,
	type EventFields,
	type JsonObject,
	type PaymentProvider,
	ANY_EVENT_OPTION,
	EVENTS_PARAMETER_DESCRIPTION,
} from '../../provider';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The key: the base64 after `whsec_` (or the whole secret), decoded; null if none. */
function keyOf(secret: string): Buffer | null {
	const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
	if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return null;
	return Buffer.from(encoded, 'base64');
}

/** The order, and what both order events read alike. */
function read(body: JsonObject, fields: (order: JsonObject) => EventFields): EventFields | null {
	const order = objectAt(body.data);
	if (order === null) return null;
	return {
		transactionId: textAt(order.id),
		currency: currencyAt(order.currency),
		metadata: objectAt(order.metadata),
		...fields(order),
	};
}

type StandardWebhooksEvent = 'order.paid' | 'order.refunded';

export const standardWebhooks: PaymentProvider<'standardWebhooks', StandardWebhooksEvent> = {
	id: 'standardWebhooks',
	secretProblem: signingSecretRule((secret) =>
		keyOf(secret) === null
			? 'The Signing Secret is not a Standard Webhooks secret: it must be "whsec_" followed by base64'
			: null,
	),
	verify: (request) => {
		const found = signatureHeader(request, 'webhook-signature');
		if ('refusal' in found) return found.refusal;
		const { header } = found;
		const messageId = headerValue(request.headers, 'webhook-id');
		const timestamp = headerValue(request.headers, 'webhook-timestamp');
		if (messageId === undefined || messageId === '') {
			return refuse('missing webhook-id header');
		}
		if (timestamp === undefined || !UNIX_SECONDS.test(timestamp)) {
			return refuse('missing or malformed webhook-timestamp header');
		}
		const signatures = header
			.split(' ')
			.filter((entry) => entry !== '')
			.map((entry) => {
				const at = entry.indexOf(',');
				return at < 0 ? ['', entry] : [entry.slice(0, at), entry.slice(at + 1)];
			})
			.filter(([version]) => version === 'v1')
			.map(([, signature]) => signature);
		if (signatures.length === 0) {
			return refuse('malformed webhook-signature header: no v1 signature');
		}
		const key = keyOf(request.secrets.signingSecret) ?? Buffer.alloc(0);
		const expected = hmac(key, [`${messageId}.${timestamp}.`, request.rawBody]).digest('base64');
		if (!anyMatches(expected, signatures)) {
			return refuse('no v1 signature matches the body and the signing secret');
		}
		return checkAge(Number(timestamp), request, messageId);
	},
	credentialText: 'a Standard Webhooks whsec_… secret',
	codexAliases: ['standard webhooks', 'polar'],
	eventType: (body) => textAt(body.type),
	eventId: (_body, messageId) => messageId,
	eventsParameter: {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		displayOptions: { show: { provider: ['standardWebhooks'] } },
		options: [
			ANY_EVENT_OPTION,
			{
				name: 'order.paid',
				value: 'order.paid',
				description: "An order was paid (Polar's event)",
			},
			{
				name: 'order.refunded',
				value: 'order.refunded',
				description: "An order was refunded, fully or partly (Polar's event)",
			},
		],
		default: ['order.paid', 'order.refunded'],
		description: EVENTS_PARAMETER_DESCRIPTION,
	},
	events: {
		'order.paid': {
			kind: 'purchase',
			fields: (body) =>
				read(body, (order) => ({
					amountMinor: minorAt(order.total_amount) ?? minorAt(order.amount),
				})),
		},
		'order.refunded': {
			kind: 'refund',
			fields: (body) =>
				read(body, (order) => ({
					refundType: refundTypeByStatus(order.status, 'refunded', 'partially_refunded'),
					amountMinor: minorAt(order.refunded_amount),
				})),
		},
	},
};
