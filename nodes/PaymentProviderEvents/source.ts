/**
 * What a provider module (providers/<id>.ts) of the Payment Provider Events node holds: its
 * credential and host, and how it reads the provider's event history after an anchor, page by
 * page, oldest first. Each listed event is what the provider's webhook would have delivered (the
 * body the Payment Webhook Trigger verifies), with its anchor (time and ID).
 */
import {
	NodeOperationError,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type INodeCredentialTestResult,
} from 'n8n-workflow';

import type { Anchor } from './cursor';
import type { Send } from './transport';

/**
 * The one credential every provider reads with (credentials/PaymentProviderApi.credentials.ts):
 * its Provider field says whose key it holds.
 */
export const PAYMENT_PROVIDER_CREDENTIAL = {
	type: 'paymentProviderApi',
	displayName: 'Payment Provider API',
} as const;

/** One event of the history, as the trigger would have received it. */
export interface ListedEvent extends Anchor {
	eventType: string;
	/** The webhook body: the event object (Stripe, Paddle) or Apple's verified notification. */
	body: IDataObject;
	/** What the trigger's item says of the signature's time (Unix seconds), here the event's. */
	signedAt: number | null;
}

/** A page of events, oldest first, and whether the provider holds more after it. */
export interface Page {
	events: ListedEvent[];
	more: boolean;
}

export interface EventStream {
	/** The run's own start anchor: the cursor given, or the one a first run found. */
	start: Anchor;
	pages: AsyncGenerator<Page, void, undefined>;
	/** Apple's: the credential's Root Certificate replaced the pinned root (each item says so). */
	pinnedRootReplaced?: true;
}

/** What a module reads with, for one input item. */
export interface ReadRun {
	context: IExecuteFunctions;
	itemIndex: number;
	send: Send;
	/** The host (or the API Base URL option), no trailing slash. */
	baseUrl: string;
	/** Where to start: an event, or a moment (first run). */
	anchor: Anchor;
	nowMs: number;
	credentials: ICredentialDataDecryptedObject;
	/** Apple's environment parameter (empty for the others). */
	environment: string;
}

export interface EventSource {
	/** The trigger's provider ID, which its items name. */
	id: 'stripe' | 'paddle' | 'appStore';
	name: string;
	/** The node's credential test of the provider's fields: offline, nothing is sent. */
	checkKey: (credentials: ICredentialDataDecryptedObject) => INodeCredentialTestResult;
	/** The provider's own host for this credential and environment. */
	baseUrl: (credentials: ICredentialDataDecryptedObject, environment: string) => string;
	/** Checks what it can before any request, then reads. */
	open: (run: ReadRun) => Promise<EventStream>;
}

/** A URL: `base` + `path` + the query, encoded once, in the order given. */
export function urlOf(base: string, path: string, query: Array<[string, string]> = []): string {
	const search = new URLSearchParams(query).toString();
	return `${base}${path}${search === '' ? '' : `?${search}`}`;
}

/** A credential field's text, without the spaces around it; empty when it is not text. */
export const textOf = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** A credential test's OK: what the key was found to be, and that the provider has not seen it. */
export function checkedOffline(found: string, provider: string): INodeCredentialTestResult {
	return {
		status: 'OK',
		message: `${found}; ${provider} checks it on the first run (nothing was sent).`,
	};
}

export function objectOf(value: unknown): IDataObject | null {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: null;
}

/** A list answer's array, or an error that says the provider's answer is not the list expected. */
export function listOf(run: ReadRun, answer: unknown, key: string, provider: string): unknown[] {
	const list = objectOf(answer)?.[key];
	if (Array.isArray(list)) return list as unknown[];
	throw new NodeOperationError(
		run.context.getNode(),
		`${provider} answered without a "${key}" list`,
		{
			description:
				'The answer is not the event list this node reads. Check the API Base URL option, if set: it must be the API host (or a proxy of it), without a path.',
			itemIndex: run.itemIndex,
		},
	);
}

/** An event the list holds that lacks its ID, type or time: named, never skipped. */
export function malformedEvent(run: ReadRun, provider: string, what: string): NodeOperationError {
	return new NodeOperationError(
		run.context.getNode(),
		`${provider} listed an event without ${what}`,
		{
			description: 'The node reads no event it cannot place: the run stops here.',
			itemIndex: run.itemIndex,
		},
	);
}
