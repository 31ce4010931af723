import {
	NodeApiError,
	NodeOperationError,
	sleep,
	type IDataObject,
	type IExecuteFunctions,
	type IPollFunctions,
	type IHttpRequestOptions,
	type ICredentialsDecrypted,
	type IN8nHttpFullResponse,
	type JsonObject,
} from 'n8n-workflow';

import {
	ENVELOPE_CODES,
	ERROR_CONTEXT,
	isRetryAllowedMessage,
	remedyFor,
	SERVER_MESSAGES,
} from './errors';
import { isSafeToRepeat, type OperationProfile } from './operationProfile';
import {
	readOptionsCollection,
	parseRequestSettings,
	type RequestSettings,
} from './requestSettings';
import {
	describeStringToSign,
	readCredentials,
	TIMESTAMP_HEADER,
	toWireRequest,
	type AffiliateTrackingCredentials,
} from './requestSigner';
import { API_PREFIX, buildQueryString, type QueryValue } from './signing';

export const CREDENTIAL_NAME = 'affiliateTrackingApi';

/** The n8n contexts that send requests: a node run, and the trigger's poll. */
export type TransportContext = IExecuteFunctions | IPollFunctions;

/** A request as an operation describes it. */
export interface ApiRequest {
	method: 'GET' | 'POST';
	/** Endpoint path below /api/open/v1, already percent-encoded. */
	path: string;
	body?: IDataObject;
	query?: Record<string, QueryValue | undefined>;
	/**
	 * The result to give for an envelope error the operation expects (for example a signup
	 * reported before), or undefined to fail as usual.
	 */
	recover?: (envelope: Envelope) => IDataObject | undefined;
}

/** A request and the operation that sends it. */
export interface ApiCall extends ApiRequest {
	/** The calling operation: its name for messages, and whether a re-send is safe. */
	operation: OperationProfile;
}

export interface Envelope {
	code: number;
	message: string;
	data: unknown;
}

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

interface LoadedCredentials {
	decrypted: ICredentialsDecrypted;
	parsed: AffiliateTrackingCredentials;
}

/**
 * Credentials are read and decrypted once per node execution, not once per request, and handed
 * to the HTTP helper already decrypted (else it reads them again). In n8n each read is a database
 * query plus decryption (CredentialsHelper.getDecrypted); in n8n-core's test engine, which has no
 * database, a read still costs 0.6-1.0 µs (measured over 20,000 calls).
 */
const credentialsByExecution = new WeakMap<TransportContext, Promise<LoadedCredentials>>();

async function loadCredentials(context: TransportContext): Promise<LoadedCredentials> {
	const data = await context.getCredentials(CREDENTIAL_NAME, 0);
	const reference = context.getNode().credentials?.[CREDENTIAL_NAME];
	let parsed: AffiliateTrackingCredentials;
	try {
		parsed = readCredentials(data);
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message, {
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

async function credentialsOf(context: TransportContext): Promise<LoadedCredentials> {
	let loaded = credentialsByExecution.get(context);
	if (loaded === undefined) {
		loaded = loadCredentials(context);
		credentialsByExecution.set(context, loaded);
	}
	return await loaded;
}

export async function getCredentials(
	context: TransportContext,
): Promise<AffiliateTrackingCredentials> {
	return (await credentialsOf(context)).parsed;
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
	context: TransportContext,
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
	const error = new NodeApiError(context.getNode(), { ...envelope } as JsonObject, {
		message: envelope.message,
		description,
		// Business errors come with HTTP 200; without this n8n would take the envelope code for one.
		httpCode: '200',
		itemIndex,
	});
	error.context[ERROR_CONTEXT.envelopeCode] = envelope.code;
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
	context: TransportContext,
	options: IHttpRequestOptions,
	credentials: ICredentialsDecrypted,
): Promise<Attempt> {
	let response: IN8nHttpFullResponse;
	try {
		// n8n's helper takes its context as `this`.
		response = (await context.helpers.httpRequestWithAuthentication.call(
			context,
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
	context: TransportContext,
	call: ApiCall,
	failed: Extract<Attempt, { message: string }>,
	itemIndex: number,
	attempts: number,
): NodeApiError {
	if (failed.envelope) {
		return envelopeError(context, failed.envelope, itemIndex, `Tried ${attempts} time(s).`);
	}
	const { operation } = call;
	const notResent = failed.outcome === 'maybeProcessed' && !isSafeToRepeat(operation);
	const description = notResent
		? `The request may have reached the service, and ${operation.action} is not safe to repeat, so it was not sent again. Check in the brand dashboard whether it was recorded before running this item again.`
		: `Tried ${attempts} time(s). ${
				failed.httpCode === '429'
					? 'Lower the Concurrency option or add Batching with a pause between batches.'
					: 'Check the Base URL of the credential and the service status; raise Max Retries or Timeout in the options if the service is slow.'
			}`;
	const error = new NodeApiError(
		context.getNode(),
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

/** The timestamp to sign with: local time corrected by the skew learned for this host. */
function signingTimestamp(baseUrl: string): { timestamp: string; skew: number } {
	const skew = clockSkewByHost.get(baseUrl) ?? 0;
	return { timestamp: String(Math.floor(Date.now() / 1000) + skew), skew };
}

/**
 * Learns the service's clock from the Date header of a rejected timestamp. Returns whether the
 * skew changed, so that signing again can help; the first item to learn it adds a hint.
 */
function learnClockSkew(
	context: TransportContext,
	baseUrl: string,
	appliedSkew: number,
	response: IN8nHttpFullResponse,
): boolean {
	const measured = serverClockSkew(response);
	if (measured === undefined || measured === appliedSkew) return false;
	// Items in flight together learn the same skew: one hint is enough.
	if (clockSkewByHost.get(baseUrl) !== measured) {
		clockSkewByHost.set(baseUrl, measured);
		const message = `The clock of this n8n host is ${Math.abs(measured)} s ${measured > 0 ? 'behind' : 'ahead of'} the service; requests were signed with the service's time. Synchronise the host clock (NTP).`;
		// A poll has no output pane to show a hint in: n8n's log gets it.
		if ('addExecutionHints' in context) {
			context.addExecutionHints({ message, location: 'outputPane' });
		} else {
			context.logger.warn(message);
		}
	}
	return true;
}

/**
 * One attempt, signed now. A timestamp the service rejects is corrected from its Date header
 * and the request signed and sent once more: the rejected request recorded nothing.
 */
async function attemptWithClockCorrection(
	context: TransportContext,
	call: ApiCall,
	credentials: LoadedCredentials,
	settings: RequestSettings,
): Promise<{ result: Attempt; options: IHttpRequestOptions; timestamp: string; skew: number }> {
	const { baseUrl } = credentials.parsed;
	let signed = signingTimestamp(baseUrl);
	let options = buildRequest(call, credentials.parsed, signed.timestamp, settings.timeoutMs);
	let result = await attempt(context, options, credentials.decrypted);
	if (
		result.outcome === 'envelopeError' &&
		result.envelope.message === SERVER_MESSAGES.timestampExpired &&
		learnClockSkew(context, baseUrl, signed.skew, result.response)
	) {
		signed = signingTimestamp(baseUrl);
		options = buildRequest(call, credentials.parsed, signed.timestamp, settings.timeoutMs);
		result = await attempt(context, options, credentials.decrypted);
	}
	return { result, options, ...signed };
}

/**
 * Sends a call with the retry policy of its operation: failures where nothing was processed
 * are retried for every call, the others only for calls that are safe to repeat.
 */
async function send(
	context: TransportContext,
	call: ApiCall,
	itemIndex: number,
): Promise<Extract<Attempt, { outcome: 'success' }>> {
	const credentials = await credentialsOf(context);
	const settings = parseRequestSettings(readOptionsCollection(context));
	for (let retry = 0; ; retry++) {
		const { result, options, timestamp, skew } = await attemptWithClockCorrection(
			context,
			call,
			credentials,
			settings,
		);
		if (result.outcome === 'success') return result;
		if (result.outcome === 'envelopeError') {
			const recovered = call.recover?.(result.envelope);
			if (recovered !== undefined) {
				return { ...result, outcome: 'success', envelope: { ...result.envelope, data: recovered } };
			}
			const { message } = result.envelope;
			const extra =
				message === SERVER_MESSAGES.signatureFailed
					? signatureDiagnostics(options, credentials.parsed, timestamp)
					: message === SERVER_MESSAGES.timestampExpired
						? `Local clock offset applied: ${skew} s.`
						: undefined;
			throw envelopeError(context, result.envelope, itemIndex, extra);
		}
		const retryable = result.outcome === 'notProcessed' || isSafeToRepeat(call.operation);
		if (!retryable || retry >= settings.maxRetries) {
			throw transportFailure(context, call, result, itemIndex, retry + 1);
		}
		await sleep(backoffMs(settings, retry, result.retryAfterMs));
	}
}

/** Calls an endpoint and returns the envelope's data; every failure becomes a node error. */
export async function apiRequest(
	context: TransportContext,
	call: ApiCall,
	itemIndex: number,
): Promise<unknown> {
	const result = await send(context, call, itemIndex);
	if (result.envelope === undefined) {
		throw new NodeApiError(context.getNode(), {} as JsonObject, {
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
	context: TransportContext,
	call: ApiCall,
	itemIndex: number,
): Promise<string> {
	const result = await send(context, call, itemIndex);
	const location = result.response.headers.location;
	if (
		result.response.statusCode >= 300 &&
		result.response.statusCode < 400 &&
		typeof location === 'string' &&
		location !== ''
	) {
		return location;
	}
	throw new NodeApiError(context.getNode(), {} as JsonObject, {
		message: 'The service answered without a redirect',
		description: 'Expected HTTP 302 with a Location header. Check the Base URL of the credential.',
		itemIndex,
	});
}
