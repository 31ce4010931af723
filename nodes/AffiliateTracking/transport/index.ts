import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type ICredentialsDecrypted,
	type IN8nHttpFullResponse,
	type JsonObject,
} from 'n8n-workflow';

import { ENVELOPE_CODES, isRetryAllowedMessage, remedyFor } from './errors';
import {
	describeStringToSign,
	readCredentials,
	TIMESTAMP_HEADER,
	toWireRequest,
	type AffiliateTrackingCredentials,
} from './requestSigner';
import { API_PREFIX, buildQueryString, type QueryValue } from './signing';

export const CREDENTIAL_NAME = 'affiliateTrackingApi';

export interface ApiCall {
	method: 'GET' | 'POST';
	/** Endpoint path below /api/open/v1, already percent-encoded. */
	path: string;
	body?: IDataObject;
	query?: Record<string, QueryValue | undefined>;
	/**
	 * Whether the call may be sent again after it may have reached the service: true for
	 * reads and idempotent calls, false for those that would record something twice.
	 */
	retrySafe: boolean;
	/** The operation's name, for messages. */
	action: string;
}

export interface Envelope {
	code: number;
	message: string;
	data: unknown;
}

export interface RequestSettings {
	maxRetries: number;
	timeoutMs: number;
	retryDelayMs: number;
}

export const DEFAULT_SETTINGS: RequestSettings = {
	maxRetries: 2,
	timeoutMs: 30_000,
	retryDelayMs: 500,
};

/** Longest wait honoured from a Retry-After header, so that one item cannot stall a run. */
const MAX_RETRY_AFTER_MS = 60_000;

/** Clock skew (service time minus local time, seconds) learned per service host. */
const clockSkewByHost = new Map<string, number>();

function isEnvelope(value: unknown): value is Envelope {
	return (
		value !== null &&
		typeof value === 'object' &&
		typeof (value as IDataObject).code === 'number' &&
		'data' in value
	);
}

function numberOption(options: IDataObject, name: string, fallback: number): number {
	const value = options[name];
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

const settingsByExecution = new WeakMap<IExecuteFunctions, RequestSettings>();

/** The request options, read once per node execution (from the first item). */
export function readSettings(this: IExecuteFunctions): RequestSettings {
	let settings = settingsByExecution.get(this);
	if (settings === undefined) {
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		settings = {
			maxRetries: Math.floor(numberOption(options, 'maxRetries', DEFAULT_SETTINGS.maxRetries)),
			timeoutMs: numberOption(options, 'timeout', DEFAULT_SETTINGS.timeoutMs),
			retryDelayMs: numberOption(options, 'retryDelay', DEFAULT_SETTINGS.retryDelayMs),
		};
		settingsByExecution.set(this, settings);
	}
	return settings;
}

interface LoadedCredentials {
	decrypted: ICredentialsDecrypted;
	parsed: AffiliateTrackingCredentials;
}

/**
 * Credentials are read and decrypted once per node execution, not once per item (and per
 * request), and handed to the HTTP helper already decrypted.
 */
const credentialsByExecution = new WeakMap<IExecuteFunctions, Promise<LoadedCredentials>>();

async function loadCredentials(this: IExecuteFunctions): Promise<LoadedCredentials> {
	const data = await this.getCredentials(CREDENTIAL_NAME, 0);
	const reference = this.getNode().credentials?.[CREDENTIAL_NAME];
	let parsed: AffiliateTrackingCredentials;
	try {
		parsed = readCredentials(data);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), (error as Error).message, {
			description: 'Fix the Affiliate Tracking API credential.',
		});
	}
	return {
		decrypted: {
			id: reference?.id ?? '',
			name: reference?.name ?? '',
			type: CREDENTIAL_NAME,
			data,
		},
		parsed,
	};
}

async function credentialsOf(this: IExecuteFunctions): Promise<LoadedCredentials> {
	let loaded = credentialsByExecution.get(this);
	if (loaded === undefined) {
		loaded = loadCredentials.call(this);
		credentialsByExecution.set(this, loaded);
	}
	return await loaded;
}

export async function getCredentials(
	this: IExecuteFunctions,
): Promise<AffiliateTrackingCredentials> {
	return (await credentialsOf.call(this)).parsed;
}

/**
 * Builds the request with its body serialized once, its query string written out and its
 * timestamp set, so that the credential signs exactly these bytes and an error can show them.
 */
function buildRequest(
	call: ApiCall,
	credentials: AffiliateTrackingCredentials,
	timestamp: string,
	timeoutMs: number,
): IHttpRequestOptions {
	const query = call.query ? buildQueryString(call.query) : '';
	const options: IHttpRequestOptions = {
		method: call.method,
		url: `${credentials.baseUrl}${API_PREFIX}${call.path}${query === '' ? '' : `?${query}`}`,
		headers: { [TIMESTAMP_HEADER]: timestamp },
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		json: true,
		timeout: timeoutMs,
	};
	if (call.method === 'POST') {
		options.body = JSON.stringify(call.body ?? {});
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	return options;
}

function signatureDiagnostics(
	options: IHttpRequestOptions,
	credentials: AffiliateTrackingCredentials,
	timestamp: string,
): string {
	const wire = toWireRequest(options, credentials.baseUrl);
	const stringToSign = describeStringToSign(credentials.signatureVersion, wire, timestamp);
	return `Signed with signature version ${credentials.signatureVersion}. String to sign (secret left out):\n${stringToSign}`;
}

/** An envelope with a non-zero code, as an error that keeps the server's message and code. */
function envelopeError(
	this: IExecuteFunctions,
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
	const error = new NodeApiError(this.getNode(), { ...envelope } as JsonObject, {
		message: envelope.message,
		description,
		itemIndex,
	});
	error.context.envelopeCode = envelope.code;
	return error;
}

/**
 * What an attempt came to. `notProcessed` failures (connection refused, 429) are retried for
 * every operation; `maybeProcessed` ones (timeouts, dropped connections, 5xx, cut-off bodies)
 * only for operations that are safe to repeat; `retryAllowed` are the spec's "server error;
 * retry allowed" answers.
 */
type Attempt =
	| { outcome: 'success'; response: IN8nHttpFullResponse; envelope?: Envelope }
	| { outcome: 'envelopeError'; response: IN8nHttpFullResponse; envelope: Envelope }
	| {
			outcome: 'notProcessed' | 'maybeProcessed' | 'retryAllowed';
			message: string;
			detail: string;
			httpCode?: string;
			retryAfterMs?: number;
			envelope?: Envelope;
	  };

const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
]);

function describeTransportError(error: unknown): { code?: string; message: string } {
	const cause =
		error instanceof NodeApiError && error.cause instanceof Error ? error.cause : (error as Error);
	const code = (cause as { code?: unknown }).code;
	return {
		code: typeof code === 'string' ? code : undefined,
		message: cause?.message ?? String(error),
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

async function attempt(
	this: IExecuteFunctions,
	options: IHttpRequestOptions,
	credentials: ICredentialsDecrypted,
): Promise<Attempt> {
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_NAME,
			options,
			{ credentialsDecrypted: credentials },
		)) as IN8nHttpFullResponse;
	} catch (error) {
		const { code, message } = describeTransportError(error);
		const timedOut = code === 'ECONNABORTED' || code === 'ETIMEDOUT' || /timeout/i.test(message);
		return {
			outcome: code !== undefined && NOT_SENT_CODES.has(code) ? 'notProcessed' : 'maybeProcessed',
			message: timedOut
				? `The service did not answer within ${options.timeout} ms`
				: `The connection to the service failed: ${message}`,
			detail: timedOut ? 'timeout' : (code ?? 'network error'),
		};
	}
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

function backoffMs(settings: RequestSettings, retry: number, retryAfter?: number): number {
	if (retryAfter !== undefined) return Math.min(retryAfter, MAX_RETRY_AFTER_MS);
	const exponential = settings.retryDelayMs * 2 ** retry;
	return exponential / 2 + Math.random() * (exponential / 2);
}

function serverClockSkew(response: IN8nHttpFullResponse): number | undefined {
	const header = response.headers.date;
	const serverMs = typeof header === 'string' ? Date.parse(header) : NaN;
	return Number.isNaN(serverMs) ? undefined : Math.round((serverMs - Date.now()) / 1000);
}

function transportFailure(
	this: IExecuteFunctions,
	call: ApiCall,
	failed: Extract<Attempt, { message: string }>,
	itemIndex: number,
	attempts: number,
): NodeApiError {
	if (failed.envelope) {
		return envelopeError.call(this, failed.envelope, itemIndex, `Tried ${attempts} time(s).`);
	}
	const notResent = failed.outcome === 'maybeProcessed' && !call.retrySafe;
	const description = notResent
		? `The request may have reached the service, and ${call.action} is not safe to repeat, so it was not sent again. Check in the brand dashboard whether it was recorded before running this item again.`
		: `Tried ${attempts} time(s). ${
				failed.httpCode === '429'
					? 'Lower the Concurrency option or add Batching with a pause between batches.'
					: 'Check the Base URL of the credential and the service status; raise Max Retries or Timeout in the options if the service is slow.'
			}`;
	return new NodeApiError(
		this.getNode(),
		{ message: failed.message, detail: failed.detail } as JsonObject,
		{
			message: failed.message,
			description,
			httpCode: failed.httpCode,
			itemIndex,
		},
	);
}

/**
 * Sends a call with the retry policy of its operation: failures where nothing was processed
 * are retried for every call, the others only for calls that are safe to repeat; a clock
 * rejected by the service is corrected from its Date header once.
 */
async function send(
	this: IExecuteFunctions,
	call: ApiCall,
	itemIndex: number,
): Promise<Extract<Attempt, { outcome: 'success' }>> {
	const { decrypted, parsed: credentials } = await credentialsOf.call(this);
	const settings = readSettings.call(this);
	let skewCorrected = false;
	for (let retry = 0; ; retry++) {
		const skew = clockSkewByHost.get(credentials.baseUrl) ?? 0;
		const timestamp = String(Math.floor(Date.now() / 1000) + skew);
		const options = buildRequest(call, credentials, timestamp, settings.timeoutMs);
		const result = await attempt.call(this, options, decrypted);
		if (result.outcome === 'success') return result;
		if (result.outcome === 'envelopeError') {
			const { envelope, response } = result;
			if (envelope.message === 'The request timestamp is invalid or expired' && !skewCorrected) {
				const measured = serverClockSkew(response);
				if (measured !== undefined && measured !== skew) {
					skewCorrected = true;
					// Items in flight together learn the same skew: one hint is enough.
					if (clockSkewByHost.get(credentials.baseUrl) !== measured) {
						clockSkewByHost.set(credentials.baseUrl, measured);
						this.addExecutionHints({
							message: `The clock of this n8n host is ${Math.abs(measured)} s ${measured > 0 ? 'behind' : 'ahead of'} the service; requests were signed with the service's time. Synchronise the host clock (NTP).`,
							location: 'outputPane',
						});
					}
					retry--;
					continue;
				}
			}
			const extra =
				envelope.message === 'Signature verification failed'
					? signatureDiagnostics(options, credentials, timestamp)
					: envelope.message === 'The request timestamp is invalid or expired'
						? `Local clock offset applied: ${skew} s.`
						: undefined;
			throw envelopeError.call(this, envelope, itemIndex, extra);
		}
		const retryable = result.outcome === 'notProcessed' || call.retrySafe;
		if (!retryable || retry >= settings.maxRetries) {
			throw transportFailure.call(this, call, result, itemIndex, retry + 1);
		}
		await sleep(backoffMs(settings, retry, result.retryAfterMs));
	}
}

/** Calls an endpoint and returns the envelope's data; every failure becomes a node error. */
export async function apiRequest(
	this: IExecuteFunctions,
	call: ApiCall,
	itemIndex: number,
): Promise<unknown> {
	const result = await send.call(this, call, itemIndex);
	if (result.envelope === undefined) {
		throw new NodeApiError(this.getNode(), {} as JsonObject, {
			message: `The service answered HTTP ${result.response.statusCode} without an API response`,
			description:
				'Check the Base URL of the credential: it must be the service host without a path.',
			itemIndex,
		});
	}
	return result.envelope.data;
}

/** Calls the redirect endpoint: a 302's Location on success, an envelope error otherwise. */
export async function redirectRequest(
	this: IExecuteFunctions,
	call: ApiCall,
	itemIndex: number,
): Promise<string> {
	const result = await send.call(this, call, itemIndex);
	const location = result.response.headers.location;
	if (
		result.response.statusCode >= 300 &&
		result.response.statusCode < 400 &&
		typeof location === 'string' &&
		location !== ''
	) {
		return location;
	}
	throw new NodeApiError(this.getNode(), {} as JsonObject, {
		message: 'The service answered without a redirect',
		description: 'Expected HTTP 302 with a Location header. Check the Base URL of the credential.',
		itemIndex,
	});
}
