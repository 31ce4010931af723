/**
 * Paddle Billing: `Paddle-Signature: ts=<unix>;h1=<hex>[;h1=<hex>…]`, HMAC-SHA256 of `<ts>:<body>`
 * keyed with the endpoint's secret key.
 *
 * The transaction ID a purchase and its refund share is the `txn_…` ID
 * (`transaction.completed.id`; a refund is an adjustment with `action: refund` and
 * `transaction_id`, a refund once `status: approved`; an approved adjustment with
 * `action: chargeback` is a chargeback the brand lost, a full reversal. `chargeback_reverse` (the
 * brand won it back later) and `chargeback_warning` reverse nothing).
 */
import { verifyTimestampedHex, type TimestampedHexScheme } from '../../hmac';
import { currencyAt, minorAt } from '../../money';
import {
	anySecret,
	objectAt,
	textAt,
	type EventFields,
	type JsonObject,
	type EventReaders,
	type PaymentProvider,
	type EventReader,
} from '../../provider';

const SCHEME: TimestampedHexScheme = {
	header: 'Paddle-Signature',
	separator: ';',
	timestampKey: 'ts',
	signatureKey: 'h1',
	joiner: ':',
};

/** An adjustment counts as a refund once it is a refund or a chargeback, and approved. */
function adjustmentFields(body: JsonObject): EventFields | null {
	const data = objectAt(body.data);
	if (data === null) return null;
	const totals = objectAt(data.totals);
	return {
		counts:
			(data.action === 'refund' || data.action === 'chargeback') && data.status === 'approved',
		chargeback: data.action === 'chargeback',
		refundType: data.type === 'full' || data.type === 'partial' ? data.type : null,
		// The adjustment's own `adj_…` ID, the same in adjustment.created and .updated. Its totals
		// are this adjustment's only: no running total, nor what the transaction paid.
		refundId: textAt(data.id),
		transactionId: textAt(data.transaction_id),
		amountMinor: minorAt(totals?.total),
		refundedTotalMinor: null,
		paidMinor: null,
		currency: currencyAt(data.currency_code) ?? currencyAt(totals?.currency_code),
		metadata: objectAt(data.custom_data),
	};
}

/** Both adjustment events: a refund (or a chargeback) once approved. */
const adjustment = (change: string): EventReader => ({
	kind: 'refund',
	description: `An adjustment ${change}: a refund or a chargeback (a full refund) once its status is approved`,
	fields: adjustmentFields,
});

/** Its purchase and refund events, by type: the Events option values are these keys. */
const EVENTS = {
	'transaction.completed': {
		kind: 'purchase',
		description: 'A transaction was paid and completed',
		fields: (body) => {
			const data = objectAt(body.data);
			if (data === null) return null;
			const totals = objectAt(objectAt(data.details)?.totals);
			return {
				transactionId: textAt(data.id),
				// What the customer paid: `grand_total`, after credits (`total` is before them), the
				// amount a `full` adjustment refunds and partial ones are capped by.
				amountMinor: minorAt(totals?.grand_total) ?? minorAt(totals?.total),
				currency: currencyAt(data.currency_code) ?? currencyAt(totals?.currency_code),
				metadata: objectAt(data.custom_data),
			};
		},
	},
	'adjustment.created': adjustment('was created'),
	'adjustment.updated': adjustment('changed'),
} satisfies EventReaders<string>;

export const paddle: PaymentProvider<'paddle'> = {
	id: 'paddle',
	name: 'Paddle Billing',
	signing: 'Paddle-Signature header; the secret key of the notification destination',
	signsTimestamp: true,
	secretProblem: anySecret,
	verify: (request) => verifyTimestampedHex(request, SCHEME),
	credentialHelp: {
		field: 'signingSecret',
		text: "the secret key of Paddle's notification destination",
	},
	codexAliases: ['paddle'],
	eventType: (body) => textAt(body.event_type),
	eventId: (body) => textAt(body.event_id),
	events: EVENTS,
};
