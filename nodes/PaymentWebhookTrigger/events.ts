/**
 * What an accepted payment webhook delivery becomes: one item whose fields are the same for every
 * provider (kind, transaction ID shared by a purchase and its refund, amount, currency, user ID,
 * metadata; a refund's ID, the refunded total and what was paid), plus the event as the provider
 * sent it. Kind `refund` is money that went back; a refund that failed is `refundFailed`. Pure functions over the parsed body; what
 * each provider's events say comes from its module (providers/), through the registry.
 */
import type { IDataObject } from 'n8n-workflow';

import { majorUnits, type RefundType } from './money';
import {
	readerOf,
	textAt,
	type EventFields,
	type JsonObject,
	type PaymentKind,
	type PaymentProvider,
} from './provider';
import { moduleOf, type ProviderRef } from './providers';

export const DEFAULT_USER_ID_METADATA_KEY = 'user_id';

/**
 * Why the money of a refund item went back: the brand refunded, or a chargeback the brand lost
 * (the card's owner took the whole payment back through their bank).
 */
export type RefundReason = 'refund' | 'chargeback';

/**
 * The fields of the item, in order; `missing` names those an event lacks (a refund's own fields
 * only on a refund or failed refund, which alone have them; refundType only on a refund).
 */
export const ITEM_FIELDS = [
	'eventId',
	'signedAt',
	'refundType',
	'refundId',
	'transactionId',
	'amount',
	'amountMinor',
	'refundedTotalMinor',
	'paidMinor',
	'currency',
	'userId',
	'metadata',
] as const;

export interface PaymentEventItem extends IDataObject {
	provider: string;
	eventType: string;
	eventId: string | null;
	signedAt: string | null;
	kind: PaymentKind;
	refundType: RefundType | null;
	refundReason: RefundReason | null;
	/** A refund or refundFailed item's only (RefundFields). */
	refundId?: string | null;
	transactionId: string | null;
	amount: string | null;
	amountMinor: number | null;
	refundedTotalMinor?: number | null;
	paidMinor?: number | null;
	currency: string | null;
	userId: string | null;
	metadata: IDataObject | null;
	missing: string[];
	event: IDataObject;
	/**
	 * Set (true) only when the delivery verified under a root certificate the credential set in
	 * place of the one the provider's module pins (tests only): the item is not proven genuine.
	 */
	pinnedRootReplaced?: true;
}

/**
 * What only a refund item carries, so that a workflow can add partial refunds up: the provider's
 * ID for this refund (count each once, whatever the redeliveries), the total refunded so far and
 * what the purchase paid, each where the event states it (null, and named in `missing`, where not).
 * A refundFailed item carries them too, so that a ledger finds the refund it counted and takes it
 * out.
 */
export interface RefundFields {
	refundId: string | null;
	refundedTotalMinor: number | null;
	paidMinor: number | null;
}

/** The event type the signed body names; null when it names none (no header stands in). */
export function eventTypeOf(provider: ProviderRef, body: IDataObject): string | null {
	return moduleOf(provider).eventType(body);
}

export interface DeliveryFacts {
	/** The signed timestamp in Unix seconds, if the scheme signs one. */
	signedAt: number | null;
	/** A signed message ID (Standard Webhooks' `webhook-id`). */
	messageId: string | null;
	userIdMetadataKey: string;
}

/**
 * The event's kind and fields: `other` and none for an event the provider's table lacks, `other`
 * for one that does not count (no money moved yet), `refundFailed` for a refund that did not go
 * through.
 */
function kindAndFields(
	provider: PaymentProvider,
	eventType: string,
	body: JsonObject,
): { kind: PaymentKind; fields: EventFields } {
	const event = readerOf(provider.events, eventType);
	const fields = event?.fields(body) ?? null;
	if (event === undefined || fields === null) return { kind: 'other', fields: {} };
	if (fields.counts === false) return { kind: 'other', fields };
	if (event.kind === 'refund' && fields.failed === true) return { kind: 'refundFailed', fields };
	return { kind: event.kind, fields };
}

/** The item for one accepted delivery. */
export function paymentEventItem(
	ref: ProviderRef,
	eventType: string,
	body: IDataObject,
	facts: DeliveryFacts,
): PaymentEventItem {
	const provider = moduleOf(ref);
	const { kind, fields } = kindAndFields(provider, eventType, body);
	const metadata = fields.metadata ?? null;
	const userId =
		fields.userId ??
		[metadata, ...(fields.moreMetadata ?? [])]
			.map((source) => textAt(source?.[facts.userIdMetadataKey]))
			.find((value) => value !== null) ??
		fields.buyerSetUserId ??
		null;
	const amountMinor = fields.amountMinor ?? null;
	const currency = fields.currency ?? null;
	const chargeback = kind === 'refund' && fields.chargeback === true;
	// A failed refund keeps its own fields (the ledger finds the refund by them), not its type or
	// reason: no money went back.
	const own: RefundFields | null =
		kind === 'refund' || kind === 'refundFailed'
			? {
					refundId: fields.refundId ?? null,
					refundedTotalMinor: fields.refundedTotalMinor ?? null,
					paidMinor: fields.paidMinor ?? null,
				}
			: null;
	const item: PaymentEventItem = {
		provider: provider.id,
		eventType,
		eventId: provider.eventId(body, facts.messageId),
		signedAt: facts.signedAt === null ? null : new Date(facts.signedAt * 1000).toISOString(),
		kind,
		refundType: chargeback ? 'full' : kind === 'refund' ? (fields.refundType ?? null) : null,
		refundReason: kind === 'refund' ? (chargeback ? 'chargeback' : 'refund') : null,
		...(own && { refundId: own.refundId }),
		transactionId: fields.transactionId ?? null,
		amount: amountMinor !== null && currency !== null ? majorUnits(amountMinor, currency) : null,
		amountMinor,
		...(own && { refundedTotalMinor: own.refundedTotalMinor, paidMinor: own.paidMinor }),
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
