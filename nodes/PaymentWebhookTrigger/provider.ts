/**
 * What a payment provider module (providers/<provider>.ts) holds: its option in the Provider
 * selector, how it signs and what its secret looks like, where its body names the event type and
 * ID, and its events, each with its kind and its reading of the body. Also the readers of a parsed
 * body that the modules share.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { Verification, VerificationInput } from './hmac';
import type { RefundType } from './money';

export type PaymentKind = 'purchase' | 'refund' | 'other';

export type JsonObject = Record<string, unknown>;

/** What one event says; the item's user ID and other fields derive from it. */
export interface EventFields {
	/**
	 * False when this delivery of the event is no purchase or refund after all (not yet paid, not
	 * approved, failed): the item's kind is then `other`.
	 */
	counts?: boolean;
	refundType?: RefundType | null;
	/**
	 * The money went back through a chargeback the brand lost, not a refund it made: the item is a
	 * full reversal whatever the amount (the card's owner took back the whole payment).
	 */
	chargeback?: boolean;
	transactionId?: string | null;
	amountMinor?: number | null;
	currency?: string | null;
	/** A user ID the event carries apart from metadata (Stripe's client_reference_id). */
	userId?: string | null;
	metadata?: JsonObject | null;
	/** Further metadata to look the user ID up in when `metadata` lacks it. */
	moreMetadata?: Array<JsonObject | null>;
}

export interface ProviderEvent {
	/** The provider's own event type string. */
	value: string;
	/** The item's kind, unless the event's fields say it does not count. */
	kind: Exclude<PaymentKind, 'other'>;
	/** The event's fields, or null when the body lacks the object the event is about. */
	fields: (body: JsonObject) => EventFields | null;
}

export interface PaymentProvider<Id extends string = string> {
	/** Its option in the Provider selector; `value` is the ID saved workflows hold. */
	option: { name: string; value: Id; description: string };
	/** The header that carries the signature (lower case, as Node hands them over). */
	signatureHeader: string;
	/** False when no timestamp is signed: nothing is stale, the tolerance option is hidden. */
	signsTimestamp: boolean;
	/** Why this provider cannot sign with a secret that is neither empty nor padded, or null. */
	secretProblem: (secret: string) => string | null;
	/** The check of a delivery whose signature header is there, once and not blank. */
	verify: (input: VerificationInput, header: string) => Verification;
	/** The event type the signed body names (never an unsigned header). */
	eventType: (body: JsonObject) => string | null;
	/** The event's ID, from the body or the signed message ID. */
	eventId: (body: JsonObject, messageId: string | null) => string | null;
	/**
	 * Its Events parameter, written out so that n8n's lint reads it: shown for this provider only,
	 * an option per event (and Any Event), all of them selected by default. Its option values are
	 * `events`' values (test/paymentWebhook/events.unit.test.ts checks it).
	 */
	eventsParameter: INodeProperties;
	/** Its purchase and refund events, each with its kind and its reading of the body. */
	events: readonly ProviderEvent[];
}

/** The Events value that selects every event the endpoint receives. */
export const ANY_EVENT = '*';

export const ANY_EVENT_OPTION: INodePropertyOptions = {
	name: 'Any Event (*)',
	value: ANY_EVENT,
	description: 'Every event the provider sends to this endpoint',
};

export const EVENTS_PARAMETER_DESCRIPTION =
	'The event types that start the workflow; others are answered 200 and start nothing. The provider sends only the events its endpoint subscribes to: subscribe to one purchase and one refund event, or drop repeats by transactionId.';

export function objectAt(value: unknown): JsonObject | null {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as JsonObject)
		: null;
}

export function textAt(value: unknown): string | null {
	if (typeof value === 'string' && value !== '') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return null;
}

/** An ID field sent as a string or, expanded, as an object with `id`. */
export function idAt(value: unknown): string | null {
	return typeof value === 'string' ? textAt(value) : textAt(objectAt(value)?.id);
}

/** The rule of a provider whose secret can be any text: nothing beyond what every provider checks. */
export const anySecret = (): null => null;

/** The rule of a provider that shows its secret as `whsec_…` and keys with it as shown. */
export const whsecSecret =
	(label: string) =>
	(secret: string): string | null =>
		secret.startsWith('whsec_')
			? null
			: `The Signing Secret is not a ${label} secret: it starts with "whsec_"`;
