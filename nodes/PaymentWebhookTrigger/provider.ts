/**
 * What a payment provider module (providers/<id>/<id>.ts) holds: how it checks a delivery with
 * the credential's fields and its own node parameters, what it answers, where its verified body
 * names the event type and ID, and its events, each with its kind and its reading of the body.
 * Also the readers of a parsed body that the modules share.
 */
import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { currencyAt, type RefundType } from './money';

/**
 * An item's kind: `refund` only for money that went back; `refundFailed` for a refund that did
 * not go through, so a ledger that counted it can take it out again.
 */
export type PaymentKind = 'purchase' | 'refund' | 'refundFailed' | 'other';

export type JsonObject = Record<string, unknown>;

/** Request headers as Node's IncomingMessage gives them (names in lower case). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The fields of the Payment Webhook Signing API credential a provider may use. An empty string
 * means not set; each provider says in `secretProblem` which it needs.
 */
export interface ProviderSecrets {
	/** The shared secret of HMAC schemes, as the provider shows it. */
	signingSecret: string;
	/** A public key of the provider (PEM or base64 DER), for providers that sign with a key pair. */
	publicKey: string;
	/** The ID of `publicKey`, where the provider names in each delivery the key it signed with. */
	publicKeyId: string;
	/** A symmetric key that decrypts the delivery's content, for providers that encrypt it. */
	decryptionSecret: string;
	/** A PEM root certificate to trust instead of the one the provider's module pins. */
	rootCa: string;
}

/** The credential fields, in the order the credential shows them. */
export const SECRET_FIELDS = [
	'signingSecret',
	'publicKey',
	'publicKeyId',
	'decryptionSecret',
	'rootCa',
] as const satisfies ReadonlyArray<keyof ProviderSecrets>;

/** One delivery as the provider's `verify` sees it. */
export interface DeliveryRequest {
	/** The body bytes exactly as received. */
	rawBody: Uint8Array;
	headers: RequestHeaders;
	secrets: ProviderSecrets;
	/** The provider's own node parameters (its `parameters`), by name, as strings. */
	settings: Readonly<Record<string, string>>;
	toleranceSeconds: number;
	/** Now, in Unix seconds. */
	nowSeconds: number;
	/**
	 * What the provider's `fetchForCheck` fetched for this delivery (a certificate chain, published
	 * keys), by its own names; absent for providers that check offline.
	 */
	fetched?: Readonly<Record<string, string>>;
	/** The fields of the provider's API credential (`apiCredential`), when it has one. */
	api?: Readonly<Record<string, string>>;
}

/** An answer to a request a provider module asked the trigger's network to send. */
export interface NetworkAnswer {
	status: number;
	/** The body as text (JSON is parsed by the module, which knows what it asked for). */
	body: string;
	/** The answer's headers, names in lower case. */
	headers: Readonly<Record<string, string>>;
}

export interface NetworkRequest {
	method: 'GET' | 'POST';
	url: string;
	headers?: Readonly<Record<string, string>>;
	/** A form, sent as application/x-www-form-urlencoded. */
	form?: Readonly<Record<string, string>>;
}

/**
 * What a provider module may send, through the trigger's one transport (network.ts): any answer
 * comes back, whatever its status; a request that gets no answer (refused, timed out) throws.
 */
export type ProviderNetwork = (request: NetworkRequest) => Promise<NetworkAnswer>;

/**
 * Thrown by a module's `fetchForCheck` or `complete` when the provider could not give what the
 * delivery needs (its keys, its API's answer): the delivery is answered 503, which the provider
 * retries; nothing starts. The message names what failed, never a secret.
 */
export class ProviderUnavailableError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ProviderUnavailableError';
	}
}

/** What `complete` is given besides the verified body. */
export interface CompletionContext {
	network: ProviderNetwork;
	/** The fields of the provider's API credential. */
	api: Readonly<Record<string, string>>;
	/** The provider's own node parameters, by name, as strings. */
	settings: Readonly<Record<string, string>>;
	/** Now, in Unix seconds. */
	nowSeconds: number;
}

/** The refusals' statuses: 400 for a body that is not what the provider sends, 401 otherwise. */
export type RefusalStatus = 400 | 401;

export type Verification =
	| {
			valid: true;
			/** The signed timestamp (Unix seconds), null when the scheme signs none. */
			signedAt: number | null;
			/** A signed message ID that names the delivery (Standard Webhooks' `webhook-id`), or null. */
			messageId: string | null;
			/**
			 * The verified content when it is not the raw body parsed as JSON (a decoded JWS payload,
			 * a decrypted resource, form fields as an object).
			 */
			body?: JsonObject;
	  }
	| {
			valid: false;
			/** Why, without the secret, the body or any header value: it goes to n8n's log. */
			reason: string;
			/** The secret itself is unusable (empty, badly formed): a setup error, not a bad delivery. */
			unusableSecret?: true;
			/** 401 unless set. */
			status?: RefusalStatus;
	  };

/** What the trigger answers, when the provider reads the answer. */
export interface ProviderAnswer {
	status: number;
	/** A string is sent as it is; an object as JSON. */
	body: string | IDataObject;
}

export interface ProviderAnswers {
	/**
	 * The answer to a verified delivery, when the Respond parameter is Immediately or the event
	 * starts nothing (n8n's default answer otherwise).
	 */
	accepted?: ProviderAnswer;
	/** The answer to a refused delivery (a generic JSON error otherwise). */
	refused?: (status: RefusalStatus) => ProviderAnswer;
}

/** What one event says; the item's user ID and other fields derive from it. */
export interface EventFields {
	/**
	 * False when this delivery of the event is no purchase or refund after all (not yet paid, not
	 * approved, failed): the item's kind is then `other`.
	 */
	counts?: boolean;
	/**
	 * True when this event says the refund did not go through (failed or canceled): the item's kind
	 * is then `refundFailed`, with the refund's own fields, so a ledger can take it out of what it
	 * counted.
	 */
	failed?: boolean;
	refundType?: RefundType | null;
	/**
	 * The money went back through a chargeback the brand lost, not a refund it made: the item is a
	 * full reversal whatever the amount (the card's owner took back the whole payment).
	 */
	chargeback?: boolean;
	transactionId?: string | null;
	amountMinor?: number | null;
	/**
	 * The provider's ID for this refund (not the event's, not the purchase's): the same on every
	 * delivery of it, another for the next refund of the same purchase. Null where none is sent.
	 */
	refundId?: string | null;
	/** The total refunded of the purchase so far, this refund included, where the event states it. */
	refundedTotalMinor?: number | null;
	/** What the purchase paid, where the refund event states it (on the basis `refundedTotalMinor` has). */
	paidMinor?: number | null;
	currency?: string | null;
	/** A user ID the event carries apart from metadata, that only the brand's server sets. */
	userId?: string | null;
	/**
	 * A user ID a buyer may set (Stripe's client_reference_id, from a Payment Link's URL): read only
	 * when neither `userId` nor the metadata holds one.
	 */
	buyerSetUserId?: string | null;
	metadata?: JsonObject | null;
	/** Further metadata to look the user ID up in when `metadata` lacks it. */
	moreMetadata?: Array<JsonObject | null>;
}

export interface EventReader {
	/**
	 * The item's kind, unless the event's fields say it does not count (`other`) or that the refund
	 * failed (`refundFailed`, which no event declares).
	 */
	kind: 'purchase' | 'refund';
	/** Its option's description in the Events parameter. */
	description: string;
	/** Its option's name, when not the event type itself. */
	name?: string;
	/** The event's fields, or null when the body lacks the object the event is about. */
	fields: (body: JsonObject) => EventFields | null;
}

/** A provider's readers, one per event type it knows: the keys are its Events option values. */
export type EventReaders<Event extends string> = { readonly [E in Event]: EventReader };

/** The Events value that selects every event the endpoint receives. */
export const ANY_EVENT = '*';

/** An option of a provider's Events parameter: one of its event types, or Any Event. */
export interface EventOption<Event extends string> extends INodePropertyOptions {
	value: Event | typeof ANY_EVENT;
}

/**
 * A root certificate the credential sets in place of the one a provider's module pins: deliveries
 * signed under it are taken as the provider's, so the credential test, n8n's log and each item say
 * so.
 */
export interface ReplacedRoot {
	/** The pinned root it replaces, by name. */
	pinned: string;
	/** Its subject, one line (`C=US, O=…, CN=…`). */
	subject: string;
	/** Its SHA-256 fingerprint, as OpenSSL prints it (`AB:CD:…`); empty for what is no certificate. */
	fingerprint256: string;
	/** The credential field that replaces it, when not the Root Certificate. */
	field?: string;
}

/** What the credential's help text says of a provider: in which field, in its own words. */
export interface CredentialHelp {
	field: 'signingSecret' | 'publicKey' | 'rootCa';
	/** Names the provider and what to paste for it. */
	text: string;
}

export interface PaymentProvider<Id extends string = string> {
	/** The ID saved workflows hold in the `provider` parameter. */
	id: Id;
	/** Its option in the Provider selector: the name, and how it signs (the option's description). */
	name: string;
	signing: string;
	/** False when it signs no timestamp: nothing is stale, the tolerance option is hidden. */
	signsTimestamp: boolean;
	/** Why the credential cannot be used by this provider (credential test, setup error), or null. */
	secretProblem: (secrets: ProviderSecrets) => string | null;
	/** The check of one delivery (the secrets are those `secretProblem` accepted); never throws. */
	verify: (request: DeliveryRequest) => Verification;
	/**
	 * Its own node parameters, written out, each shown for this provider only; `verify` reads
	 * them from `settings` by name.
	 */
	parameters?: INodeProperties[];
	/** The answers the provider reads, when n8n's are not what it expects. */
	answers?: ProviderAnswers;
	credentialHelp: CredentialHelp;
	/**
	 * For a provider that pins a root certificate: the credential's root when it replaces the pinned
	 * one (null when the credential sets none, sets the pinned one, or sets no certificate).
	 */
	replacedRoot?: (
		secrets: ProviderSecrets,
		api?: Readonly<Record<string, string>>,
	) => ReplacedRoot | null;
	/** The words the node's codex holds for this provider (searched in the nodes panel). */
	codexAliases: readonly string[];
	/** The event type the verified body names (never an unsigned header). */
	eventType: (body: JsonObject) => string | null;
	/** The event's ID, from the body or the signed message ID. */
	eventId: (body: JsonObject, messageId: string | null) => string | null;
	/**
	 * Its purchase and refund events, by type, each with its kind, its Events option and its
	 * reading of the body; all are selected by default, in this order.
	 */
	events: EventReaders<string>;
	/**
	 * For a provider whose check needs what it publishes online (a certificate, its signing keys):
	 * fetches it, before `verify`, which finds it in `fetched`. Fetches only from the provider's own
	 * pinned hosts (a host it does not pin fetches nothing, and `verify` refuses); throws
	 * ProviderUnavailableError when the provider does not answer.
	 */
	fetchForCheck?: (
		request: DeliveryRequest,
		network: ProviderNetwork,
	) => Promise<Record<string, string>>;
	/**
	 * For a provider whose verified event lacks what the item needs (the user, the price): asks
	 * the provider's API with `apiCredential`, and returns the body the readers get. Throws
	 * ProviderUnavailableError when the API fails, so that the delivery is answered 503 and retried.
	 */
	complete?: (body: JsonObject, context: CompletionContext) => Promise<JsonObject>;
	/** The credential type `complete` (and the check) read the provider's API with. */
	apiCredential?: string;
	/** Why that credential's fields cannot be used, checked offline (its credential test), or null. */
	apiCredentialProblem?: (api: Readonly<Record<string, string>>) => string | null;
}

export const ANY_EVENT_OPTION: EventOption<never> = {
	name: 'Any Event (*)',
	value: ANY_EVENT,
	description: 'Every event the provider sends to this endpoint',
};

const EVENTS_PARAMETER_DESCRIPTION =
	'The event types that start the workflow; others are answered 200 and start nothing. The provider sends only the events its endpoint subscribes to: subscribe to one purchase and one refund event, or drop repeats by transactionId.';

/**
 * A provider's Events parameter, shown for it only: Any Event and an option per event it reads
 * (sorted by name, as n8n's lint asks), all of them selected by default.
 */
export function eventsParameterOf({ id, events }: PaymentProvider): INodeProperties {
	const types = Object.keys(events);
	const options: Array<EventOption<string>> = [
		ANY_EVENT_OPTION,
		...types.map((type) => ({
			name: events[type].name ?? type,
			value: type,
			description: events[type].description,
		})),
	].sort((a, b) => a.name.localeCompare(b.name));
	return {
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		displayOptions: { show: { provider: [id] } },
		options,
		default: [...types],
		description: EVENTS_PARAMETER_DESCRIPTION,
	};
}

/** The reader of `eventType`, if the provider knows it (own keys only: no `constructor`). */
export function readerOf(
	events: Readonly<Record<string, EventReader>>,
	eventType: string,
): EventReader | undefined {
	return Object.prototype.hasOwnProperty.call(events, eventType) ? events[eventType] : undefined;
}

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

/**
 * The event's object in `data` (the envelope of Standard Webhooks senders), with what such objects
 * carry alike: the transaction ID at `idKey`, the currency and the metadata; then what `fields`
 * reads of it. Null when the body has no object in `data`.
 */
export function readDataObject(
	body: JsonObject,
	idKey: string,
	fields: (object: JsonObject) => EventFields,
): EventFields | null {
	const object = objectAt(body.data);
	if (object === null) return null;
	return {
		transactionId: textAt(object[idKey]),
		currency: currencyAt(object.currency),
		metadata: objectAt(object.metadata),
		...fields(object),
	};
}

/** An ID field sent as a string or, expanded, as an object with `id`. */
export function idAt(value: unknown): string | null {
	return typeof value === 'string' ? textAt(value) : textAt(objectAt(value)?.id);
}

/**
 * The rule of a provider keyed by the Signing Secret: set, not padded with white space, and then
 * whatever `rule` asks of its form. The answer never quotes the secret.
 */
export const signingSecretRule =
	(rule: (secret: string) => string | null) =>
	({ signingSecret }: ProviderSecrets): string | null => {
		if (signingSecret === '') return 'The Signing Secret is empty';
		if (signingSecret !== signingSecret.trim()) {
			return 'The Signing Secret starts or ends with white space';
		}
		return rule(signingSecret);
	};

/** A provider whose Signing Secret can be any text. */
export const anySecret = signingSecretRule(() => null);

/** A provider that shows its secret as `whsec_…` and keys with it as shown. */
export const whsecSecret = (label: string) =>
	signingSecretRule((secret) =>
		secret.startsWith('whsec_')
			? null
			: `The Signing Secret is not a ${label} secret: it starts with "whsec_"`,
	);
