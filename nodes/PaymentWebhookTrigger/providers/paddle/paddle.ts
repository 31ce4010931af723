/**
 * Paddle Billing: `Paddle-Signature: ts=<unix>;h1=<hex>[;h1=<hex>…]`, HMAC-SHA256 of `<ts>:<body>`
 * keyed with the endpoint's secret key.
 *
 * The transaction ID a purchase and its refund share is the `txn_…` ID
 * (`transaction.completed.id`; a refund is an adjustment with `action: refund` and
 * `transaction_id`, a refund once `status: approved`).
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
	ANY_EVENT_OPTION,
	EVENTS_PARAMETER_DESCRIPTION,
} from '../../provider';

const SCHEME: TimestampedHexScheme = {
	header: 'Paddle-Signature',
	separator: ';',
	timestampKey: 'ts',
	signatureKey: 'h1',
	joiner: ':',
};

/** An adjustment counts as a refund once it is a refund and approved. */
function adjustmentFields(body: JsonObject): EventFields | null {
	const data = objectAt(body.data);
	if (data === null) return null;
	const totals = objectAt(data.totals);
	return {
		counts: data.action === 'refund' && data.status === 'approved',
		refundType: data.type === 'full' || data.type === 'partial' ? data.type : null,
		transactionId: textAt(data.transaction_id),
		amountMinor: minorAt(totals?.total),
		currency: currencyAt(data.currency_code) ?? currencyAt(totals?.currency_code),
		metadata: objectAt(data.custom_data),
	};
}

/** Both adjustment events: a refund once approved. */
const ADJUSTMENT: EventReader = { kind: 'refund', fields: adjustmentFields };

/** Its purchase and refund events, by type: the Events option values are these keys. */
const EVENTS = {
	'transaction.completed': {
		kind: 'purchase',
		fields: (body) => {
			const data = objectAt(body.data);
			if (data === null) return null;
			const totals = objectAt(objectAt(data.details)?.totals);
			return {
				transactionId: textAt(data.id),
				amountMinor: minorAt(totals?.total),
				currency: currencyAt(data.currency_code) ?? currencyAt(totals?.currency_code),
				metadata: objectAt(data.custom_data),
			};
		},
	},
	'adjustment.created': ADJUSTMENT,
	'adjustment.updated': ADJUSTMENT,
} satisfies EventReaders<string>;

type PaddleEvent = keyof typeof EVENTS;

export const paddle: PaymentProvider<'paddle', PaddleEvent> = {
	id: 'paddle',
	secretProblem: anySecret,
	verify: (request) => verifyTimestampedHex(request, SCHEME),
	credentialText: "the secret key of Paddle's notification destination",
	codexAliases: ['paddle'],
	eventType: (body) => textAt(body.event_type),
	eventId: (body) => textAt(body.event_id),
	eventsParameter: {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		displayOptions: { show: { provider: ['paddle'] } },
		options: [
			{
				name: 'adjustment.created',
				value: 'adjustment.created',
				description: 'An adjustment was created: a refund once its status is approved',
			},
			{
				name: 'adjustment.updated',
				value: 'adjustment.updated',
				description: 'An adjustment changed: a refund once its status is approved',
			},
			ANY_EVENT_OPTION,
			{
				name: 'transaction.completed',
				value: 'transaction.completed',
				description: 'A transaction was paid and completed',
			},
		],
		default: ['transaction.completed', 'adjustment.created', 'adjustment.updated'],
		description: EVENTS_PARAMETER_DESCRIPTION,
	},
	events: EVENTS,
};
