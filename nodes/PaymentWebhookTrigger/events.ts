/**
 * What an accepted payment webhook delivery becomes: one item whose fields are the same for every
 * provider (kind, transaction ID shared by a purchase and its refund, amount, currency, user ID,
 * metadata), plus the event as the provider sent it. Pure functions over the parsed body.
 *
 * The transaction ID is the one a purchase and its refund share:
 * - Stripe: the PaymentIntent ID (`checkout.session.completed.payment_intent`,
 *   `payment_intent.succeeded.id`, `invoice.paid` through `invoice.payments` since API version
 *   basil or `invoice.payment_intent` before, `charge.refunded.payment_intent`,
 *   `refund.created.payment_intent`);
 * - Paddle Billing: the `txn_…` ID (`transaction.completed.id`; a refund is an adjustment with
 *   `action: refund` and `transaction_id`, a refund once `status: approved`);
 * - Lemon Squeezy: the order ID (`order_created` / `order_refunded`, `data.id`);
 * - Standard Webhooks: Polar's `order.paid` / `order.refunded`, `data.id`.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Provider } from './signatures';

export type PaymentKind = 'purchase' | 'refund' | 'other';
export type RefundType = 'full' | 'partial';

export const DEFAULT_USER_ID_METADATA_KEY = 'user_id';
/** Selects every event type. */
export const ANY_EVENT = '*';

export interface ProviderEvent {
	/** The provider's own event type string. */
	value: string;
	kind: Exclude<PaymentKind, 'other'>;
	description: string;
}

/** The purchase and refund events each provider sends; all of them are selected by default. */
export const PROVIDER_EVENTS: Readonly<Record<Provider, readonly ProviderEvent[]>> = {
	stripe: [
		{
			value: 'checkout.session.completed',
			kind: 'purchase',
			description: 'A Checkout Session was paid (payment_status paid or no_payment_required)',
		},
		{
			value: 'payment_intent.succeeded',
			kind: 'purchase',
			description: 'A PaymentIntent succeeded (one-time payments and subscription invoices alike)',
		},
		{
			value: 'invoice.paid',
			kind: 'purchase',
			description: 'An invoice was paid (subscriptions)',
		},
		{
			value: 'charge.refunded',
			kind: 'refund',
			description: 'A charge was refunded, fully or partly (amount: the total refunded so far)',
		},
		{ value: 'refund.created', kind: 'refund', description: 'A refund was created' },
	],
	paddle: [
		{
			value: 'transaction.completed',
			kind: 'purchase',
			description: 'A transaction was paid and completed',
		},
		{
			value: 'adjustment.created',
			kind: 'refund',
			description: 'An adjustment was created: a refund once its status is approved',
		},
		{
			value: 'adjustment.updated',
			kind: 'refund',
			description: 'An adjustment changed: a refund once its status is approved',
		},
	],
	lemonSqueezy: [
		{ value: 'order_created', kind: 'purchase', description: 'An order was placed and paid' },
		{
			value: 'order_refunded',
			kind: 'refund',
			description: 'An order was refunded, fully or partly',
		},
	],
	standardWebhooks: [
		{ value: 'order.paid', kind: 'purchase', description: "An order was paid (Polar's event)" },
		{
			value: 'order.refunded',
			kind: 'refund',
			description: "An order was refunded, fully or partly (Polar's event)",
		},
	],
};

/** Currencies whose smallest unit is the unit itself (Stripe's list; Paddle's JPY and KRW). */
const ZERO_DECIMAL_CURRENCIES = new Set([
	'BIF',
	'CLP',
	'DJF',
	'GNF',
	'JPY',
	'KMF',
	'KRW',
	'MGA',
	'PYG',
	'RWF',
	'UGX',
	'VND',
	'VUV',
	'XAF',
	'XOF',
	'XPF',
]);
/** Currencies with three decimals (a thousandth is their smallest unit). */
const THREE_DECIMAL_CURRENCIES = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

export function currencyDecimals(currency: string): number {
	const code = currency.toUpperCase();
	if (ZERO_DECIMAL_CURRENCIES.has(code)) return 0;
	if (THREE_DECIMAL_CURRENCIES.has(code)) return 3;
	return 2;
}

/** An amount in the smallest unit as a decimal string in major units: 10000 USD → "100.00". */
export function majorUnits(amountMinor: number, currency: string): string {
	const decimals = currencyDecimals(currency);
	const digits = String(Math.abs(amountMinor)).padStart(decimals + 1, '0');
	const sign = amountMinor < 0 ? '-' : '';
	if (decimals === 0) return `${sign}${digits}`;
	return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** The fields of the item, in order; `missing` names those an event lacks. */
export const ITEM_FIELDS = [
	'eventId',
	'signedAt',
	'refundType',
	'transactionId',
	'amount',
	'amountMinor',
	'currency',
	'userId',
	'metadata',
] as const;

export interface PaymentEventItem extends IDataObject {
	provider: Provider;
	eventType: string;
	eventId: string | null;
	signedAt: string | null;
	kind: PaymentKind;
	refundType: RefundType | null;
	transactionId: string | null;
	amount: string | null;
	amountMinor: number | null;
	currency: string | null;
	userId: string | null;
	metadata: IDataObject | null;
	missing: string[];
	event: IDataObject;
}

type JsonObject = Record<string, unknown>;

function objectAt(value: unknown): JsonObject | null {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as JsonObject)
		: null;
}

function textAt(value: unknown): string | null {
	if (typeof value === 'string' && value !== '') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return null;
}

/** An ID field that Stripe may send as a string or, expanded, as an object with `id`. */
function idAt(value: unknown): string | null {
	return typeof value === 'string' ? textAt(value) : textAt(objectAt(value)?.id);
}

/** A whole amount in the smallest unit, sent as a number (Stripe) or a digit string (Paddle). */
function minorAt(value: unknown): number | null {
	if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
	if (typeof value === 'string' && /^-?\d+$/.test(value)) {
		const amount = Number(value);
		return Number.isSafeInteger(amount) ? amount : null;
	}
	return null;
}

function currencyAt(value: unknown): string | null {
	return typeof value === 'string' && /^[A-Za-z]{3}$/.test(value) ? value.toUpperCase() : null;
}

/** What one provider's event says; the user ID and the item's other fields derive from it. */
interface Mapped {
	kind: PaymentKind;
	refundType?: RefundType | null;
	transactionId?: string | null;
	amountMinor?: number | null;
	currency?: string | null;
	/** A user ID the event carries apart from metadata (Stripe's client_reference_id). */
	userId?: string | null;
	metadata?: JsonObject | null;
	/** Further metadata to look the user ID up in when `metadata` lacks it. */
	moreMetadata?: Array<JsonObject | null>;
}

const OTHER: Mapped = { kind: 'other' };

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

function mapStripe(eventType: string, body: JsonObject): Mapped {
	const object = objectAt(objectAt(body.data)?.object);
	if (object === null) return OTHER;
	const common = {
		currency: currencyAt(object.currency),
		metadata: objectAt(object.metadata),
	};
	switch (eventType) {
		case 'checkout.session.completed':
			return {
				...common,
				kind: object.payment_status === 'unpaid' ? 'other' : 'purchase',
				transactionId: idAt(object.payment_intent),
				amountMinor: minorAt(object.amount_total),
				userId: textAt(object.client_reference_id),
			};
		case 'payment_intent.succeeded':
			return {
				...common,
				kind: 'purchase',
				transactionId: idAt(object.id),
				amountMinor: minorAt(object.amount_received) ?? minorAt(object.amount),
			};
		case 'invoice.paid': {
			const parent = objectAt(object.parent);
			return {
				...common,
				kind: 'purchase',
				transactionId: invoicePaymentIntent(object),
				amountMinor: minorAt(object.amount_paid),
				moreMetadata: [
					objectAt(objectAt(parent?.subscription_details)?.metadata),
					objectAt(objectAt(object.subscription_details)?.metadata),
				],
			};
		}
		case 'charge.refunded': {
			const refunded = minorAt(object.amount_refunded);
			const charged = minorAt(object.amount_captured) ?? minorAt(object.amount);
			const refundType: RefundType | null =
				typeof object.refunded === 'boolean'
					? object.refunded
						? 'full'
						: 'partial'
					: refunded !== null && charged !== null
						? refunded >= charged
							? 'full'
							: 'partial'
						: null;
			return {
				...common,
				kind: 'refund',
				refundType,
				transactionId: idAt(object.payment_intent),
				amountMinor: refunded,
			};
		}
		case 'refund.created': {
			// The charge tells full from partial only when it arrives expanded.
			const charge = objectAt(object.charge);
			const chargeRefunded = charge === null ? null : minorAt(charge.amount_refunded);
			const charged =
				charge === null ? null : (minorAt(charge.amount_captured) ?? minorAt(charge.amount));
			return {
				...common,
				kind: object.status === 'failed' || object.status === 'canceled' ? 'other' : 'refund',
				refundType:
					chargeRefunded !== null && charged !== null
						? chargeRefunded >= charged
							? 'full'
							: 'partial'
						: null,
				transactionId: idAt(object.payment_intent),
				amountMinor: minorAt(object.amount),
			};
		}
		default:
			return OTHER;
	}
}

function mapPaddle(eventType: string, body: JsonObject): Mapped {
	const data = objectAt(body.data);
	if (data === null) return OTHER;
	if (eventType === 'transaction.completed') {
		const totals = objectAt(objectAt(data.details)?.totals);
		return {
			kind: 'purchase',
			transactionId: textAt(data.id),
			amountMinor: minorAt(totals?.total),
			currency: currencyAt(data.currency_code) ?? currencyAt(totals?.currency_code),
			metadata: objectAt(data.custom_data),
		};
	}
	if (eventType === 'adjustment.created' || eventType === 'adjustment.updated') {
		const totals = objectAt(data.totals);
		const isRefund = data.action === 'refund' && data.status === 'approved';
		return {
			kind: isRefund ? 'refund' : 'other',
			refundType: data.type === 'full' || data.type === 'partial' ? data.type : null,
			transactionId: textAt(data.transaction_id),
			amountMinor: minorAt(totals?.total),
			currency: currencyAt(data.currency_code) ?? currencyAt(totals?.currency_code),
			metadata: objectAt(data.custom_data),
		};
	}
	return OTHER;
}

function mapLemonSqueezy(eventType: string, body: JsonObject): Mapped {
	const data = objectAt(body.data);
	const attributes = objectAt(data?.attributes);
	if (data === null || attributes === null) return OTHER;
	const common = {
		transactionId: textAt(data.id),
		currency: currencyAt(attributes.currency),
		metadata: objectAt(objectAt(body.meta)?.custom_data),
	};
	if (eventType === 'order_created') {
		const paid = attributes.status === undefined || attributes.status === 'paid';
		return { ...common, kind: paid ? 'purchase' : 'other', amountMinor: minorAt(attributes.total) };
	}
	if (eventType === 'order_refunded') {
		const refundType: RefundType | null =
			attributes.status === 'refunded' || attributes.refunded === true
				? 'full'
				: attributes.status === 'partial_refund'
					? 'partial'
					: null;
		return {
			...common,
			kind: 'refund',
			refundType,
			amountMinor: minorAt(attributes.refunded_amount),
		};
	}
	return OTHER;
}

function mapStandardWebhooks(eventType: string, body: JsonObject): Mapped {
	const data = objectAt(body.data);
	if (data === null) return OTHER;
	const common = {
		transactionId: textAt(data.id),
		currency: currencyAt(data.currency),
		metadata: objectAt(data.metadata),
	};
	if (eventType === 'order.paid') {
		return {
			...common,
			kind: 'purchase',
			amountMinor: minorAt(data.total_amount) ?? minorAt(data.amount),
		};
	}
	if (eventType === 'order.refunded') {
		const refundType: RefundType | null =
			data.status === 'refunded' ? 'full' : data.status === 'partially_refunded' ? 'partial' : null;
		return { ...common, kind: 'refund', refundType, amountMinor: minorAt(data.refunded_amount) };
	}
	return OTHER;
}

/** The event type a provider's body names (Lemon Squeezy's also travels in `X-Event-Name`). */
export function eventTypeOf(
	provider: Provider,
	body: IDataObject,
	eventNameHeader?: string,
): string | null {
	switch (provider) {
		case 'stripe':
		case 'standardWebhooks':
			return textAt(body.type);
		case 'paddle':
			return textAt(body.event_type);
		case 'lemonSqueezy':
			return textAt(objectAt(body.meta)?.event_name) ?? textAt(eventNameHeader);
	}
}

export interface DeliveryFacts {
	/** The signed timestamp in Unix seconds, if the scheme signs one. */
	signedAt: number | null;
	/** Standard Webhooks' `webhook-id`. */
	messageId: string | null;
	userIdMetadataKey: string;
}

/** The item for one accepted delivery. */
export function paymentEventItem(
	provider: Provider,
	eventType: string,
	body: IDataObject,
	facts: DeliveryFacts,
): PaymentEventItem {
	const mapped = (() => {
		switch (provider) {
			case 'stripe':
				return mapStripe(eventType, body);
			case 'paddle':
				return mapPaddle(eventType, body);
			case 'lemonSqueezy':
				return mapLemonSqueezy(eventType, body);
			case 'standardWebhooks':
				return mapStandardWebhooks(eventType, body);
		}
	})();
	const metadata = mapped.metadata ?? null;
	const userId =
		mapped.userId ??
		[metadata, ...(mapped.moreMetadata ?? [])]
			.map((source) => textAt(source?.[facts.userIdMetadataKey]))
			.find((value) => value !== null) ??
		null;
	const amountMinor = mapped.amountMinor ?? null;
	const currency = mapped.currency ?? null;
	const eventId =
		provider === 'stripe'
			? textAt(body.id)
			: provider === 'paddle'
				? textAt(body.event_id)
				: provider === 'standardWebhooks'
					? facts.messageId
					: null;
	const item: PaymentEventItem = {
		provider,
		eventType,
		eventId,
		signedAt: facts.signedAt === null ? null : new Date(facts.signedAt * 1000).toISOString(),
		kind: mapped.kind,
		refundType: mapped.kind === 'refund' ? (mapped.refundType ?? null) : null,
		transactionId: mapped.transactionId ?? null,
		amount: amountMinor !== null && currency !== null ? majorUnits(amountMinor, currency) : null,
		amountMinor,
		currency,
		userId,
		metadata: metadata as IDataObject | null,
		missing: [],
		event: body,
	};
	item.missing = ITEM_FIELDS.filter(
		(field) => item[field] === null && (field !== 'refundType' || item.kind === 'refund'),
	);
	return item;
}
