/**
 * Polar: Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`), and a
 * secret in either of Polar's formats, verified as Polar's SDK verifies it: any `v1` signature may
 * match under the secret's own UTF-8 bytes, or under the bytes base64-encoded after `whsec_`.
 * Secrets made before 8 September 2026 (`polar_whs_…`) sign with their UTF-8 bytes (Polar's SDK
 * base64-encoded the secret before the standard's library decoded it); newer ones are `whsec_`
 * and base64, as the standard has them. The event ID is the signed `webhook-id`.
 *
 * The transaction ID a purchase and its refund share is Polar's order ID (`order.paid` /
 * `order.refunded`, `data.id`). The user ID is the customer's `external_id` (set by the brand's
 * server through Polar's API), else the order's metadata.
 */
import { standardWebhooksKey, verifyStandardWebhooks } from '../../hmac';
import { minorAt, refundTypeByStatus } from '../../money';
import {
	objectAt,
	readDataObject,
	signingSecretRule,
	textAt,
	type EventFields,
	type EventReader,
	type EventReaders,
	type JsonObject,
	type PaymentProvider,
} from '../../provider';

const LEGACY_PREFIX = 'polar_whs_';
const STANDARD_PREFIX = 'whsec_';

/** The keys Polar's SDK tries: the secret's UTF-8 bytes, then the standard's key if it has one. */
function keysOf(secret: string): Buffer[] {
	const standard = secret.startsWith(STANDARD_PREFIX) ? standardWebhooksKey(secret) : null;
	return [Buffer.from(secret, 'utf8'), ...(standard === null ? [] : [standard])];
}

/** The order (`data`), and what both order events read alike: its ID, currency and metadata. */
const readOrder = (body: JsonObject, fields: (order: JsonObject) => EventFields) =>
	readDataObject(body, 'id', fields);

/**
 * The order's refunded total so far and what it paid, on one basis. Polar marks an order refunded
 * when `refunded_amount` (before tax) reaches `net_amount` plus the customer's balance applied to
 * it (`applied_balance_amount`), so those two, before tax. An order without `net_amount`: the
 * refunded amount with its tax (`refunded_tax_amount`) against `total_amount`, which includes it.
 */
function refundedAndPaid(order: JsonObject): Pick<EventFields, 'refundedTotalMinor' | 'paidMinor'> {
	const refunded = minorAt(order.refunded_amount);
	const net = minorAt(order.net_amount);
	if (net !== null)
		return {
			refundedTotalMinor: refunded,
			paidMinor: net + (minorAt(order.applied_balance_amount) ?? 0),
		};
	const tax = minorAt(order.refunded_tax_amount);
	return {
		refundedTotalMinor: refunded === null || tax === null ? null : refunded + tax,
		paidMinor: minorAt(order.total_amount),
	};
}

/** Polar's order events as the metadata holds the user ID (Standard Webhooks reads them so). */
export const ORDER_EVENTS = {
	'order.paid': {
		kind: 'purchase',
		description: 'An order was paid: a one-time purchase or a subscription payment',
		fields: (body) =>
			readOrder(body, (order) => ({
				amountMinor: minorAt(order.total_amount) ?? minorAt(order.amount),
			})),
	},
	'order.refunded': {
		kind: 'refund',
		description: 'An order was refunded, fully or partly',
		fields: (body) =>
			readOrder(body, (order) => ({
				refundType: refundTypeByStatus(order.status, 'refunded', 'partially_refunded'),
				// The order names no refund (Polar's refund.* events do; they are not read here).
				refundId: null,
				amountMinor: minorAt(order.refunded_amount),
				...refundedAndPaid(order),
			})),
	},
} satisfies EventReaders<string>;

/** The same event, its user ID the customer's `external_id` where the order names one. */
const byExternalId = ({ fields, ...option }: EventReader): EventReader => ({
	...option,
	fields: (body) => {
		const read = fields(body);
		if (read === null) return null;
		const customer = objectAt(objectAt(body.data)?.customer);
		return { ...read, userId: textAt(customer?.external_id) };
	},
});

export const polar: PaymentProvider<'polar'> = {
	id: 'polar',
	name: 'Polar',
	signing:
		'Webhook-ID, webhook-timestamp and webhook-signature headers; the secret starts with polar_whs_ or whsec_',
	signsTimestamp: true,
	secretProblem: signingSecretRule((secret) =>
		(secret.startsWith(LEGACY_PREFIX) && secret.length > LEGACY_PREFIX.length) ||
		(secret.startsWith(STANDARD_PREFIX) && standardWebhooksKey(secret) !== null)
			? null
			: 'The Signing Secret is not a Polar secret: it starts with "polar_whs_", or is "whsec_" followed by base64',
	),
	verify: (request) => verifyStandardWebhooks(request, keysOf(request.secrets.signingSecret)),
	credentialHelp: { field: 'signingSecret', text: "Polar's polar_whs_… or whsec_…" },
	codexAliases: ['polar'],
	eventType: (body) => textAt(body.type),
	eventId: (_body, messageId) => messageId,
	events: {
		'order.paid': byExternalId(ORDER_EVENTS['order.paid']),
		'order.refunded': byExternalId(ORDER_EVENTS['order.refunded']),
	},
};
