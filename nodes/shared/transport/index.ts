import {
	NodeApiError,
	sleep,
	type IDataObject,
	type IHttpRequestOptions,
	type ICredentialsDecrypted,
	type IN8nHttpFullResponse,
	type JsonObject,
} from 'n8n-workflow';

import {
	backoffMs,
	classifyAnswer,
	connectionFailure,
	envelopeError,
	failedAttemptError,
	isRetryable,
	type Attempt,
	type Envelope,
} from './attempts';
import { ClockSkew } from './clockSkew';
import { CREDENTIAL_NAME, credentialsOf, type TransportContext } from './credentials';
import { SERVER_MESSAGES } from './errors';
import type { OperationProfile } from './operationProfile';
import type { RequestSettings } from './requestSettings';
import { describeStringToSign, helperOptionsOf } from './requestSigner';
import { apiRoot, toWireRequest, type OperationRequest, type WireRequest } from './wireRequest';

export { CREDENTIAL_NAME, getCredentials } from './credentials';

/** A request as an operation describes it. */
export interface ApiRequest extends OperationRequest {
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

/**
 * The skew learned per service, for every execution of this process: n8n keeps nothing else for
 * a node between executions but the workflow's static data, and a skew belongs to the host, not
 * to a workflow. Each skew ages (CLOCK_SKEW_MAX_AGE_MS).
 */
const processClockSkew = new ClockSkew(Date.now);

/** The one place that sends: n8n's HTTP helper, the credential signing on the way. */
async function attempt(
	context: TransportContext,
	options: IHttpRequestOptions & { timeout: number },
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
		return connectionFailure(error, options.timeout);
	}
	return classifyAnswer(response);
}

/** A hint on the node's output, or a warning in n8n's log for a poll, which has no output pane. */
function reportClockSkew(context: TransportContext, seconds: number): void {
	const message = `The clock of this n8n host is ${Math.abs(seconds)} s ${seconds > 0 ? 'behind' : 'ahead of'} the service; requests were signed with the service's time. Synchronise the host clock (NTP).`;
	if ('addExecutionHints' in context) {
		context.addExecutionHints({ message, location: 'outputPane' });
	} else {
		context.logger.warn(message);
	}
}

/**
 * One attempt, signed now. A timestamp the service rejects is corrected from its Date header
 * and the request signed and sent once more: the rejected request recorded nothing.
 */
async function attemptWithClockCorrection(
	context: TransportContext,
	wire: WireRequest,
	credentials: ICredentialsDecrypted,
	service: string,
	timeoutMs: number,
	clockSkew: ClockSkew,
): Promise<{ result: Attempt; timestamp: string; skew: number }> {
	const signAndSend = async () => {
		const signed = clockSkew.signingTime(service);
		const options = {
			...helperOptionsOf(wire, signed.timestamp),
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			json: true,
			timeout: timeoutMs,
		};
		return { result: await attempt(context, options, credentials), ...signed };
	};
	const first = await signAndSend();
	if (
		first.result.outcome !== 'envelopeError' ||
		first.result.envelope.message !== SERVER_MESSAGES.timestampExpired
	) {
		return first;
	}
	const lesson = clockSkew.learn(service, first.skew, first.result.response.headers.date);
	if (lesson === 'none') return first;
	if (lesson === 'new') reportClockSkew(context, clockSkew.secondsFor(service));
	return await signAndSend();
}

/**
 * Sends a call under `settings` with the retry policy of its operation: failures where nothing
 * was processed are retried for every call, the others only for calls that are safe to repeat.
 */
async function send(
	context: TransportContext,
	call: ApiCall,
	itemIndex: number,
	settings: RequestSettings,
	clockSkew: ClockSkew,
): Promise<Extract<Attempt, { outcome: 'success' }>> {
	const credentials = await credentialsOf(context);
	const { baseUrl, signatureVersion } = credentials.parsed;
	const wire = toWireRequest(call, apiRoot(baseUrl));
	for (let retry = 0; ; retry++) {
		const { result, timestamp, skew } = await attemptWithClockCorrection(
			context,
			wire,
			credentials.decrypted,
			baseUrl,
			settings.timeoutMs,
			clockSkew,
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
					? `Signed with signature version ${signatureVersion}. String to sign (secret left out):\n${describeStringToSign(signatureVersion, wire, timestamp)}`
					: message === SERVER_MESSAGES.timestampExpired
						? `Local clock offset applied: ${skew} s.`
						: undefined;
			throw envelopeError(context.getNode(), result.envelope, itemIndex, extra);
		}
		if (!isRetryable(result, call.operation) || retry >= settings.maxRetries) {
			throw failedAttemptError(context.getNode(), call.operation, result, itemIndex, retry + 1);
		}
		await sleep(backoffMs(settings, retry, result.retryAfterMs));
	}
}

/** Calls an endpoint and returns the envelope's data; every failure becomes a node error. */
export async function apiRequest(
	context: TransportContext,
	call: ApiCall,
	itemIndex: number,
	settings: RequestSettings,
): Promise<unknown> {
	const result = await send(context, call, itemIndex, settings, processClockSkew);
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
	settings: RequestSettings,
): Promise<string> {
	const result = await send(context, call, itemIndex, settings, processClockSkew);
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
