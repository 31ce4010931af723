/**
 * Dodo Payments (a merchant of record): Standard Webhooks headers (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`), verified as the Standard Webhooks provider verifies
 * them, with the secret Dodo shows (`whsec_` and base64). The event ID is the signed `webhook-id`.
 *
 * The shapes are Dodo's outgoing-webhook schema (docs.dodopayments.com, API reference: Outgoing
 * Webhooks; Webhook Payloads: Payment, Refund, Dispute) and the types of its TypeScript SDK
 * (`dodopayments`: Payment, Refund, Dispute, PaymentSucceededWebhookEvent and the others): an
 * envelope `{ business_id, type, timestamp, data }` whose `data` is the object itself.
 *
 * The transaction ID a purchase and its refund share is the payment ID (`data.payment_id`: the
 * payment's own, a refund's and a dispute's). Amounts are in the smallest unit (cents; yen for
 * JPY); currencies upper case. The user ID is in the payment's `metadata` (set by the brand's
 * server on the checkout); a refund carries only its own `metadata`.
 *
 * - `payment.succeeded`: `payment_id`, `total_amount` (tax included), `currency`, `metadata`;
 *   counts unless its `status` says otherwise than `succeeded`.
 * - `refund.succeeded`, `refund.failed`: the Refund, `refund_id`, `payment_id`, `amount` (this
 *   refund's), `is_partial` (full or partial). No running total and nothing of what was paid:
 *   both null, the ledger records what was paid from the purchase. `refund.failed`, or a refund
 *   whose `status` is `failed`, is kind refundFailed; `pending` or `review` is kind other.
 * - `dispute.lost`: a chargeback, a full reversal, on the dispute's `payment_id`, named by its
 *   `dispute_id`. Dodo's schema types the dispute's `amount` as a string ("to accommodate
 *   precision"); an integer, sent as a number or its digits, is the smallest unit as Dodo's other
 *   amounts are, and a decimal string (`"49.00"`) is read in major units.
 */
import { currencyAt, minorAt, minorFromMajor } from '../../money';
import { readDataObject, textAt } from '../../provider';
import type { EventFields, EventReader, JsonObject, PaymentProvider } from '../../provider';
import { standardWebhooksSigning } from '../standardWebhooks/standardWebhooks';

/** The event's object (`data`), keyed by the payment ID each one carries. */
const read = (body: JsonObject, fields: (object: JsonObject) => EventFields) =>
	readDataObject(body, 'payment_id', fields);

/** The object's `status` is `expected`, or absent (Dodo's payment may send it null). */
const statusIs = (object: JsonObject, expected: string): boolean =>
	object.status === undefined || object.status === null || object.status === expected;

/** A dispute's amount: its digits in the smallest unit, a decimal string in major units. */
function disputeAmountOf(dispute: JsonObject): number | null {
	const { amount } = dispute;
	if (typeof amount === 'string' && amount.includes('.')) {
		return minorFromMajor(amount, currencyAt(dispute.currency));
	}
	return minorAt(amount);
}

/** A refund event: the refund's own fields; `failed` when the event says it did not go through. */
const refundEvent = (description: string, eventFailed: boolean): EventReader => ({
	kind: 'refund',
	description,
	fields: (body) =>
		read(body, (refund) => {
			const failed = eventFailed || refund.status === 'failed';
			const { is_partial: partial } = refund;
			return {
				counts: failed || statusIs(refund, 'succeeded'),
				failed,
				refundType: partial === true ? 'partial' : partial === false ? 'full' : null,
				refundId: textAt(refund.refund_id),
				amountMinor: minorAt(refund.amount),
				// `amount` is this refund's; Dodo states no refunded total, nor what was paid.
				refundedTotalMinor: null,
				paidMinor: null,
			};
		}),
});

/** A payment that succeeded, unless its `status` says otherwise: a purchase of its total. */
const paymentSucceeded: EventReader = {
	kind: 'purchase',
	description: 'A payment succeeded: a one-time purchase or a subscription payment',
	fields: (body) =>
		read(body, (payment) => ({
			counts: statusIs(payment, 'succeeded'),
			amountMinor: minorAt(payment.total_amount),
		})),
};

/**
 * Its events, by type (the Events option values): a purchase, a refund that went through or
 * failed, a chargeback.
 */
const EVENTS: Record<string, EventReader> = {
	'payment.succeeded': paymentSucceeded,
	'refund.succeeded': refundEvent(
		'A refund succeeded, fully or partly (is_partial): counts once its status is succeeded',
		false,
	),
	'refund.failed': refundEvent(
		'A refund failed: kind refundFailed, so a ledger that counted it takes it out',
		true,
	),
	'dispute.lost': {
		kind: 'refund',
		description: 'A dispute was lost: a chargeback, a full refund',
		fields: (body) =>
			read(body, (dispute) => ({
				chargeback: true,
				refundId: textAt(dispute.dispute_id),
				amountMinor: disputeAmountOf(dispute),
				refundedTotalMinor: null,
				paidMinor: null,
			})),
	},
};

export const dodo: PaymentProvider<'dodo'> = {
	...standardWebhooksSigning('Dodo Payments'),
	id: 'dodo',
	name: 'Dodo Payments',
	signing:
		'Webhook-ID, webhook-timestamp and webhook-signature headers (Standard Webhooks); the secret starts with whsec_',
	signsTimestamp: true,
	codexAliases: ['dodo payments'],
	credentialHelp: { field: 'signingSecret', text: "Dodo Payments' whsec_…" },
	eventType: (body) => textAt(body.type),
	eventId: (_body, messageId) => messageId,
	events: EVENTS,
};
