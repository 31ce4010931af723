/**
 * Lemon Squeezy: `X-Signature: <hex>`, HMAC-SHA256 of the body keyed with the webhook's signing
 * secret; no timestamp is signed.
 *
 * The transaction ID a purchase and its refund share is the order ID (`order_created` /
 * `order_refunded`, `data.id`). A refund's order states the refunded total so far
 * (`refunded_amount`) and the order's `total`, both with tax; it names no refund ID.
 */
import { verifyBodyHex } from '../../hmac';
import { currencyAt, minorAt, refundTypeByStatus } from '../../money';
import {
	anySecret,
	objectAt,
	textAt,
	type EventFields,
	type JsonObject,
	type EventReaders,
	type PaymentProvider,
} from '../../provider';

/** The order's attributes, and what both order events read alike. */
function read(
	body: JsonObject,
	fields: (attributes: JsonObject) => EventFields,
): EventFields | null {
	const data = objectAt(body.data);
	const attributes = objectAt(data?.attributes);
	if (data === null || attributes === null) return null;
	return {
		transactionId: textAt(data.id),
		currency: currencyAt(attributes.currency),
		metadata: objectAt(objectAt(body.meta)?.custom_data),
		...fields(attributes),
	};
}

/** Its purchase and refund events, by type: the Events option values are these keys. */
const EVENTS = {
	order_created: {
		kind: 'purchase',
		name: 'Order Created',
		description: 'An order was placed and paid (order_created)',
		fields: (body) =>
			read(body, (order) => ({
				counts: order.status === undefined || order.status === 'paid',
				amountMinor: minorAt(order.total),
			})),
	},
	order_refunded: {
		kind: 'refund',
		name: 'Order Refunded',
		description: 'An order was refunded, fully or partly (order_refunded)',
		fields: (body) =>
			read(body, (order) => ({
				refundType:
					order.refunded === true
						? 'full'
						: refundTypeByStatus(order.status, 'refunded', 'partial_refund'),
				// The order names no refund: only its running total and its total.
				refundId: null,
				amountMinor: minorAt(order.refunded_amount),
				refundedTotalMinor: minorAt(order.refunded_amount),
				paidMinor: minorAt(order.total),
			})),
	},
} satisfies EventReaders<string>;

export const lemonSqueezy: PaymentProvider<'lemonSqueezy'> = {
	id: 'lemonSqueezy',
	name: 'Lemon Squeezy',
	signing: "X-Signature header; the webhook's signing secret",
	signsTimestamp: false,
	secretProblem: anySecret,
	verify: (request) => verifyBodyHex(request, 'X-Signature'),
	credentialHelp: { field: 'signingSecret', text: "Lemon Squeezy's signing secret" },
	codexAliases: ['lemon squeezy'],
	// Only the signed body: the X-Event-Name header is not signed.
	eventType: (body) => textAt(objectAt(body.meta)?.event_name),
	eventId: () => null,
	events: EVENTS,
};
