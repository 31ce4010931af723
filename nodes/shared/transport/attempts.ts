import {
	NodeApiError,
	type IDataObject,
	type IN8nHttpFullResponse,
	type INode,
	type JsonObject,
} from 'n8n-workflow';

import { ENVELOPE_CODES, ERROR_CONTEXT, isRetryAllowedMessage, remedyFor } from './errors';
import { isSafeToRepeat, type OperationProfile } from './operationProfile';
import type { RequestSettings } from './requestSettings';

export interface Envelope {
	code: number;
	message: string;
	data: unknown;
}

/**
 * What an attempt came to. `notProcessed` failures (connection refused, 429) are retried for
 * every operation; `maybeProcessed` ones (timeouts, dropped connections, 5xx, cut-off bodies)
 * only for operations that are safe to repeat; `retryAllowed` are the spec's "server error;
 * retry allowed" answers.
 */
export type Attempt =
	| { outcome: 'success'; response: IN8nHttpFullResponse; envelope?: Envelope }
	| { outcome: 'envelopeError'; response: IN8nHttpFullResponse; envelope: Envelope }
	| FailedAttempt;

export interface FailedAttempt {
	outcome: 'notProcessed' | 'maybeProcessed' | 'retryAllowed';
	message: string;
	detail: string;
	httpCode?: string;
	retryAfterMs?: number;
	envelope?: Envelope;
}

/** Longest wait honoured from a Retry-After header, so that one item cannot stall a run. */
const MAX_RETRY_AFTER_MS = 60_000;

const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

function isEnvelope(value: unknown): value is Envelope {
	return (
		value !== null &&
		typeof value === 'object' &&
		typeof (value as IDataObject).code === 'number' &&
		'data' in value
	);
}

function describeTransportError(error: unknown): { code?: string; message: string } {
	const cause =
		error instanceof NodeApiError && error.cause instanceof Error ? error.cause : (error as Error);
	const code = (cause as { code?: unknown }).code;
	return {
		code: typeof code === 'string' ? code : undefined,
		message: cause?.message ?? String(error),
	};
}

/** A request that got no answer: refused before sending, or lost on the way. */
export function connectionFailure(error: unknown, timeoutMs: number): FailedAttempt {
	const { code, message } = describeTransportError(error);
	const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(message);
	return {
		outcome: code !== undefined && NOT_SENT_CODES.has(code) ? 'notProcessed' : 'maybeProcessed',
		message: timedOut
			? `The service did not answer within ${timeoutMs} ms`
			: `The connection to the service failed: ${message}`,
		detail: timedOut ? 'timeout' : (code ?? 'network error'),
	};
}

function retryAfterMs(response: IN8nHttpFullResponse): number | undefined {
	const header = response.headers['retry-after'];
	if (typeof header !== 'string' || header.trim() === '') return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
	const date = Date.parse(header);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** What an answer of the service comes to. */
export function classifyAnswer(response: IN8nHttpFullResponse): Attempt {
	const status = response.statusCode;
	if (status === 429) {
		return {
			outcome: 'notProcessed',
			message: 'The service is rate limiting requests (HTTP 429)',
			detail: 'HTTP 429',
			httpCode: '429',
			retryAfterMs: retryAfterMs(response),
		};
	}
	if (status >= 300 && status < 400) return { outcome: 'success', response };
	if (status !== 200) {
		return {
			outcome: 'maybeProcessed',
			message: `The service answered HTTP ${status} instead of an API response`,
			detail: `HTTP ${status}`,
			httpCode: String(status),
		};
	}
	if (!isEnvelope(response.body)) {
		return {
			outcome: 'maybeProcessed',
			message: 'The service answered with a body that is not a JSON API response',
			detail: 'malformed body',
		};
	}
	const envelope = response.body;
	if (envelope.code === ENVELOPE_CODES.success) return { outcome: 'success', response, envelope };
	if (isRetryAllowedMessage(envelope.message)) {
		return {
			outcome: 'retryAllowed',
			message: envelope.message,
			detail: `code ${envelope.code}`,
			envelope,
		};
	}
	return { outcome: 'envelopeError', response, envelope };
}

/** Whether a failed attempt is sent again: always when nothing was processed, else if safe. */
export function isRetryable(failed: FailedAttempt, operation: OperationProfile): boolean {
	return failed.outcome === 'notProcessed' || isSafeToRepeat(operation);
}

/** The wait before retry number `retry` (from 0): Retry-After, else exponential with jitter. */
export function backoffMs(settings: RequestSettings, retry: number, retryAfter?: number): number {
	if (retryAfter !== undefined) return Math.min(retryAfter, MAX_RETRY_AFTER_MS);
	const exponential = settings.retryDelayMs * 2 ** retry;
	return exponential / 2 + Math.random() * (exponential / 2);
}

/** An envelope with a non-zero code, as an error that keeps the server's message and code. */
export function envelopeError(
	node: INode,
	envelope: Envelope,
	itemIndex: number,
	extraDescription?: string,
): NodeApiError {
	const description = [
		`Code ${envelope.code}. ${remedyFor(envelope.code, envelope.message)}`,
		extraDescription,
	]
		.filter(Boolean)
		.join('\n\n');
	const error = new NodeApiError(node, { ...envelope } as JsonObject, {
		message: envelope.message,
		description,
		// Business errors come with HTTP 200; without this n8n would take the envelope code for one.
		httpCode: '200',
		itemIndex,
	});
	error.context[ERROR_CONTEXT.envelopeCode] = envelope.code;
	return error;
}

/** The error a call ends in when its last attempt failed. */
export function failedAttemptError(
	node: INode,
	operation: OperationProfile,
	failed: FailedAttempt,
	itemIndex: number,
	attempts: number,
): NodeApiError {
	if (failed.envelope) {
		return envelopeError(node, failed.envelope, itemIndex, `Tried ${attempts} time(s).`);
	}
	const notResent = failed.outcome === 'maybeProcessed' && !isSafeToRepeat(operation);
	const description = notResent
		? `The request may have reached the service, and ${operation.action} is not safe to repeat, so it was not sent again. Check in the brand dashboard whether it was recorded before running this item again.`
		: `Tried ${attempts} time(s). ${
				failed.httpCode === '429'
					? 'Lower the Concurrency option or add Batching with a pause between batches.'
					: 'Check the Base URL of the credential and the service status; raise Max Retries or Timeout in the options if the service is slow.'
			}`;
	const error = new NodeApiError(
		node,
		{ message: failed.message, detail: failed.detail } as JsonObject,
		{
			message: failed.message,
			description,
			httpCode: failed.httpCode,
			itemIndex,
		},
	);
	if (failed.outcome === 'maybeProcessed' && operation.kind !== 'read') {
		error.context[ERROR_CONTEXT.mayHaveBeenRecorded] = true;
	}
	return error;
}
