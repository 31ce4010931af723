import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';

import {
	API_PREFIX,
	buildQueryString,
	jsonBodyFieldNames,
	queryFieldNames,
	signV1,
	signV2,
	v1StringToSign,
	v2StringToSign,
	type QueryValue,
	type SignatureVersion,
} from './signing';

export interface AffiliateTrackingCredentials {
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
	signatureVersion: SignatureVersion;
	promoterCenterUrl?: string;
}

/** A request reduced to the exact bytes that go on the wire and get signed. */
export interface WireRequest {
	method: string;
	/** Absolute URL, query included, in the form the HTTP client sends unchanged. */
	url: string;
	path: string;
	query: string;
	body: string | Buffer;
	contentType?: string;
}

export const TIMESTAMP_HEADER = 'X-Api-Timestamp';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackHost(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * Reads and checks the credential's fields. Plain http is refused except on loopback,
 * because the key, the timestamp and the signed payload would travel readable.
 */
export function readCredentials(raw: ICredentialDataDecryptedObject): AffiliateTrackingCredentials {
	const baseUrl = String(raw.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	const parsed = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
	if (parsed === undefined) {
		throw new Error(
			`Base URL "${baseUrl}" is not a valid address: enter the service host, for example https://api.example.com`,
		);
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		throw new Error(`Base URL must start with https:// (got "${parsed.protocol}")`);
	}
	if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
		throw new Error(
			'Base URL must use https://; plain http:// is only allowed for a local sandbox on 127.0.0.1 or localhost',
		);
	}
	const apiKey = String(raw.apiKey ?? '').trim();
	const apiSecret = String(raw.apiSecret ?? '').trim();
	if (apiKey === '' || apiSecret === '') {
		throw new Error('The credential needs both an API Key (pk_…) and an API Secret (sk_…)');
	}
	const signatureVersion: SignatureVersion = raw.signatureVersion === 'v1' ? 'v1' : 'v2';
	const promoterCenterUrl = String(raw.promoterCenterUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	return {
		baseUrl,
		apiKey,
		apiSecret,
		signatureVersion,
		promoterCenterUrl: promoterCenterUrl === '' ? undefined : promoterCenterUrl,
	};
}

function qsToQueryValues(qs: IDataObject): Record<string, QueryValue | undefined> {
	const values: Record<string, QueryValue | undefined> = {};
	for (const [key, value] of Object.entries(qs)) {
		if (value === undefined || value === null) continue;
		values[key] =
			typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
				? value
				: JSON.stringify(value);
	}
	return values;
}

function resolveUrl(options: IHttpRequestOptions, baseUrl: string): URL {
	if (/^https?:\/\//i.test(options.url)) return new URL(options.url);
	const base = (options.baseURL ?? baseUrl + API_PREFIX).replace(/\/+$/, '');
	return new URL(`${base}/${options.url.replace(/^\/+/, '')}`);
}

function serializeBody(body: IHttpRequestOptions['body']): {
	bytes: string | Buffer;
	contentType?: string;
} {
	if (body === undefined || body === null || body === '') return { bytes: '' };
	if (typeof body === 'string') return { bytes: body, contentType: 'application/json' };
	if (Buffer.isBuffer(body)) return { bytes: body, contentType: 'application/json' };
	if (body instanceof URLSearchParams) {
		return { bytes: body.toString(), contentType: 'application/x-www-form-urlencoded' };
	}
	if (typeof FormData !== 'undefined' && body instanceof FormData) {
		throw new Error('Multipart bodies cannot be signed: send the fields as a JSON body instead');
	}
	return { bytes: JSON.stringify(body), contentType: 'application/json' };
}

/**
 * Fixes the exact bytes of a request: the URL as the HTTP client will send it (the WHATWG
 * parser's normal form, which it leaves unchanged on the way out), the query with `qs`
 * appended, and the body serialized once.
 */
export function toWireRequest(options: IHttpRequestOptions, baseUrl: string): WireRequest {
	const url = resolveUrl(options, baseUrl);
	const extraQuery = options.qs ? buildQueryString(qsToQueryValues(options.qs)) : '';
	const existingQuery = url.search.replace(/^\?/, '');
	const query = [existingQuery, extraQuery].filter((part) => part !== '').join('&');
	const method = (options.method ?? 'GET').toUpperCase();
	const { bytes, contentType } = method === 'GET' ? { bytes: '' } : serializeBody(options.body);
	return {
		method,
		url: `${url.origin}${url.pathname}${query === '' ? '' : `?${query}`}`,
		path: url.pathname,
		query,
		body: bytes,
		contentType,
	};
}

function fieldNamesOf(request: WireRequest): string[] {
	const names = queryFieldNames(request.query);
	const body = request.body.toString();
	if (request.contentType === 'application/x-www-form-urlencoded') {
		names.push(...queryFieldNames(body));
	} else {
		try {
			names.push(...jsonBodyFieldNames(body));
		} catch {
			// A body that is not JSON has no field names for v1.
		}
	}
	return names;
}

/** What the signature covers, without the secret: safe to show in an error description. */
export function describeStringToSign(
	version: SignatureVersion,
	request: WireRequest,
	timestamp: string,
): string {
	return version === 'v1'
		? `${v1StringToSign(fieldNamesOf(request), timestamp)}<API secret>`
		: v2StringToSign({ ...request, timestamp });
}

export function signWireRequest(
	version: SignatureVersion,
	request: WireRequest,
	timestamp: string,
	secret: string,
): string {
	return version === 'v1'
		? signV1(fieldNamesOf(request), timestamp, secret)
		: signV2({ ...request, timestamp }, secret);
}

function findHeader(headers: IDataObject, name: string): string | undefined {
	const key = Object.keys(headers).find(
		(candidate) => candidate.toLowerCase() === name.toLowerCase(),
	);
	return key === undefined ? undefined : String(headers[key]);
}

/**
 * Signs a request for the credential's `authenticate()`. A caller that corrected for clock
 * skew passes its own X-Api-Timestamp header, which is kept and signed.
 */
export function signRequestOptions(
	rawCredentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
	nowSeconds: number,
): IHttpRequestOptions {
	const credentials = readCredentials(rawCredentials);
	const wire = toWireRequest(options, credentials.baseUrl);
	const headers: IDataObject = { ...(options.headers ?? {}) };
	const timestamp = findHeader(headers, TIMESTAMP_HEADER) ?? String(nowSeconds);
	for (const key of Object.keys(headers)) {
		if (/^x-api-(key|timestamp|sign)$/i.test(key)) delete headers[key];
	}
	if (wire.contentType !== undefined && findHeader(headers, 'content-type') === undefined) {
		headers['Content-Type'] = wire.contentType;
	}
	headers['X-Api-Key'] = credentials.apiKey;
	headers[TIMESTAMP_HEADER] = timestamp;
	headers['X-Api-Sign'] = signWireRequest(
		credentials.signatureVersion,
		wire,
		timestamp,
		credentials.apiSecret,
	);
	const signed: IHttpRequestOptions = { ...options, url: wire.url, headers };
	delete signed.baseURL;
	delete signed.qs;
	if (wire.method === 'GET') delete signed.body;
	else signed.body = wire.body;
	return signed;
}

/** What a brand server gives to call the service directly, without n8n. */
export interface SignedRequestInput {
	/** The service host without a path, for example https://api.example.com. */
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
	/** The key's signature version; v2 unless the key is a legacy v1 key. */
	signatureVersion?: SignatureVersion;
	method: 'GET' | 'POST';
	/** The endpoint below /api/open/v1, for example "/track/refund"; path segments percent-encoded. */
	path: string;
	query?: Record<string, QueryValue | undefined>;
	/** A POST body, serialized once as JSON and signed as sent. */
	body?: IDataObject;
	/** Unix time in seconds to sign with; now by default. */
	timestamp?: number;
}

/** A request ready for `fetch(request.url, request)` or any HTTP client, sent byte for byte. */
export interface SignedRequest {
	method: 'GET' | 'POST';
	url: string;
	headers: Record<string, string>;
	body?: string;
}

/**
 * Builds and signs one request of the open API: the URL with its query written out, the JSON
 * body serialized once, and the X-Api-Key, X-Api-Timestamp and X-Api-Sign headers, computed by
 * the same code as the n8n credential. The secret is used, never included.
 */
export function buildSignedRequest(input: SignedRequestInput): SignedRequest {
	const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
	const query = input.query ? buildQueryString(input.query) : '';
	const base = input.baseUrl.trim().replace(/\/+$/, '');
	const options: IHttpRequestOptions = {
		method: input.method,
		url: `${base}${API_PREFIX}${input.path}${query === '' ? '' : `?${query}`}`,
		headers: { [TIMESTAMP_HEADER]: String(timestamp) },
	};
	if (input.method === 'POST') {
		options.body = JSON.stringify(input.body ?? {});
		options.headers = { ...options.headers, 'Content-Type': 'application/json' };
	}
	const signed = signRequestOptions(
		{
			baseUrl: base,
			apiKey: input.apiKey,
			apiSecret: input.apiSecret,
			signatureVersion: input.signatureVersion ?? 'v2',
		},
		options,
		timestamp,
	);
	const headers = Object.fromEntries(
		Object.entries(signed.headers ?? {}).map(([name, value]) => [name, String(value)]),
	);
	return {
		method: input.method,
		url: signed.url,
		headers,
		...(input.method === 'POST' ? { body: String(signed.body) } : {}),
	};
}
