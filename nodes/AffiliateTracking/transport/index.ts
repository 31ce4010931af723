import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type JsonObject,
} from 'n8n-workflow';

import { ENVELOPE_CODES, remedyFor } from './errors';
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
}

export interface Envelope {
	code: number;
	message: string;
	data: unknown;
}

function isEnvelope(value: unknown): value is Envelope {
	return (
		value !== null &&
		typeof value === 'object' &&
		typeof (value as IDataObject).code === 'number' &&
		'data' in value
	);
}

export async function getCredentials(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<AffiliateTrackingCredentials> {
	const raw = await this.getCredentials(CREDENTIAL_NAME, itemIndex);
	try {
		return readCredentials(raw);
	} catch (error) {
		throw new NodeOperationError(this.getNode(), (error as Error).message, {
			itemIndex,
			description: 'Fix the Affiliate Tracking API credential.',
		});
	}
}

/**
 * Builds the request with its body serialized once and its query string written out, so
 * that the credential signs exactly these bytes and the error description can show them.
 */
function buildRequest(
	call: ApiCall,
	credentials: AffiliateTrackingCredentials,
	timestamp: string,
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
	};
	if (call.method === 'POST') {
		options.body = JSON.stringify(call.body ?? {});
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	return options;
}

function currentTimestamp(): string {
	return String(Math.floor(Date.now() / 1000));
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
export function envelopeError(
	this: IExecuteFunctions,
	envelope: Envelope,
	itemIndex: number,
	extraDescription?: string,
): NodeApiError {
	const description = [`Code ${envelope.code}. ${remedyFor(envelope.code, envelope.message)}`, extraDescription]
		.filter(Boolean)
		.join('\n\n');
	const error = new NodeApiError(this.getNode(), envelope as unknown as JsonObject, {
		message: envelope.message,
		description,
		itemIndex,
	});
	error.context.envelopeCode = envelope.code;
	return error;
}

function httpError(
	this: IExecuteFunctions,
	response: IN8nHttpFullResponse,
	itemIndex: number,
): NodeApiError {
	const status = response.statusCode;
	const hint =
		status === 429
			? 'The service is rate limiting requests. Lower the concurrency or add a pause between batches.'
			: status >= 500
				? 'The service or a gateway in front of it failed. Try again later.'
				: 'Check the Base URL of the credential: it must be the service host without a path.';
	return new NodeApiError(this.getNode(), { statusCode: status } as JsonObject, {
		message: `The service answered HTTP ${status} instead of an API envelope`,
		description: hint,
		httpCode: String(status),
		itemIndex,
	});
}

/**
 * Sends one signed call and returns the full response; HTTP and envelope errors are mapped
 * by the callers below.
 */
async function send(
	this: IExecuteFunctions,
	options: IHttpRequestOptions,
	itemIndex: number,
): Promise<IN8nHttpFullResponse> {
	try {
		return (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_NAME,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		throw new NodeApiError(this.getNode(), error as JsonObject, {
			message: `The request did not reach the service: ${(error as Error).message}`,
			description: 'Check the Base URL of the credential and the network between n8n and the service.',
			itemIndex,
		});
	}
}

/** Calls an endpoint and returns the envelope's data; every failure becomes a node error. */
export async function apiRequest(
	this: IExecuteFunctions,
	call: ApiCall,
	itemIndex: number,
): Promise<unknown> {
	const credentials = await getCredentials.call(this, itemIndex);
	const timestamp = currentTimestamp();
	const options = buildRequest(call, credentials, timestamp);
	const response = await send.call(this, options, itemIndex);
	if (response.statusCode !== 200) throw httpError.call(this, response, itemIndex);
	const envelope: unknown = response.body;
	if (!isEnvelope(envelope)) {
		throw new NodeApiError(this.getNode(), {} as JsonObject, {
			message: 'The service answered with a body that is not a JSON API envelope',
			description:
				'The response was cut off or came from something other than the service (a proxy, a login page). Check the Base URL; the request may or may not have been processed.',
			itemIndex,
		});
	}
	if (envelope.code !== ENVELOPE_CODES.success) {
		const diagnostics =
			envelope.message === 'Signature verification failed'
				? signatureDiagnostics(options, credentials, timestamp)
				: undefined;
		throw envelopeError.call(this, envelope, itemIndex, diagnostics);
	}
	return envelope.data;
}

/** Calls the redirect endpoint: a 302's Location on success, an envelope error otherwise. */
export async function redirectRequest(
	this: IExecuteFunctions,
	call: ApiCall,
	itemIndex: number,
): Promise<string> {
	const credentials = await getCredentials.call(this, itemIndex);
	const response = await send.call(
		this,
		buildRequest(call, credentials, currentTimestamp()),
		itemIndex,
	);
	if (response.statusCode >= 300 && response.statusCode < 400) {
		const location = response.headers.location ?? response.headers.Location;
		if (typeof location === 'string' && location !== '') return location;
	}
	if (response.statusCode !== 200) throw httpError.call(this, response, itemIndex);
	if (isEnvelope(response.body) && response.body.code !== ENVELOPE_CODES.success) {
		throw envelopeError.call(this, response.body, itemIndex);
	}
	throw new NodeApiError(this.getNode(), {} as JsonObject, {
		message: 'The service answered without a redirect',
		description: 'Expected HTTP 302 with a Location header. Check the Base URL of the credential.',
		itemIndex,
	});
}
