import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';

import {
	API_PREFIX,
	buildQueryString,
	encodeRfc3986,
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
	body: string;
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

/**
 * The request options n8n hands a credential's `authenticate()`. `httpRequestWithAuthentication`
 * (this node) passes the current shape, `{ url, baseURL, qs, body }`; `requestWithAuthentication`
 * (the HTTP Request node v3 and v4.x, and its pagination) passes request-library options,
 * `{ uri, qs, body, form, formData, json }`. n8n sends to `url ?? uri`.
 */
export type SignableRequestOptions = Omit<IHttpRequestOptions, 'url'> & {
	url?: string;
	uri?: string | URL;
	form?: IDataObject | string;
	formData?: unknown;
	/** Request-library switch: `true` sends arrays as repeated names (a=1&a=2). */
	useQuerystring?: boolean;
	qsStringifyOptions?: { arrayFormat?: ArrayFormat };
};

type ArrayFormat = NonNullable<IHttpRequestOptions['arrayFormat']>;

const SUPPORTED_BODIES =
	'Supported: a JSON body (an object or a JSON string) or form-urlencoded fields';

/** The array format n8n's request layer would use: axios's default is brackets (a[]=1). */
function arrayFormatOf(options: SignableRequestOptions): ArrayFormat {
	if (options.useQuerystring === true) return 'repeat';
	return options.qsStringifyOptions?.arrayFormat ?? options.arrayFormat ?? 'brackets';
}

/** Flattens nested objects and arrays into name/value pairs, as n8n's query serializers do. */
function flattenFields(
	fields: IDataObject,
	arrayFormat: ArrayFormat,
	prefix?: string,
): Array<[string, string]> {
	const pairs: Array<[string, string]> = [];
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined || value === null) continue;
		const name = prefix === undefined ? key : `${prefix}[${key}]`;
		if (Array.isArray(value)) {
			if (arrayFormat === 'comma') {
				pairs.push([name, value.map((element) => String(element)).join(',')]);
				continue;
			}
			value.forEach((element, index) => {
				if (element === undefined || element === null) return;
				const elementName =
					arrayFormat === 'repeat'
						? name
						: arrayFormat === 'indices'
							? `${name}[${index}]`
							: `${name}[]`;
				if (typeof element === 'object') {
					pairs.push(...flattenFields(element as IDataObject, arrayFormat, elementName));
				} else pairs.push([elementName, String(element)]);
			});
		} else if (typeof value === 'object' && !(value instanceof Date)) {
			pairs.push(...flattenFields(value as IDataObject, arrayFormat, name));
		} else {
			pairs.push([name, value instanceof Date ? value.toISOString() : String(value)]);
		}
	}
	return pairs;
}

function targetOf(options: SignableRequestOptions): string {
	const target = options.url ?? (options.uri === undefined ? undefined : String(options.uri));
	if (target === undefined || target.trim() === '') {
		throw new Error('The request has no URL: enter the endpoint, for example /track/refund');
	}
	return target.trim();
}

/**
 * Relative URLs resolve below the credential's API prefix; absolute ones must point at the
 * credential's own service, so that its key and signatures are never sent to another host.
 */
function resolveUrl(options: SignableRequestOptions, baseUrl: string): URL {
	const target = targetOf(options);
	if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
		if (!URL.canParse(target)) throw new Error(`The URL "${target}" is not a valid address`);
		const url = new URL(target);
		const service = new URL(baseUrl);
		if (url.origin !== service.origin) {
			throw new Error(
				`The URL ${url.origin} is not the credential's Base URL (${service.origin}): the Affiliate Tracking API credential signs only requests to its own service`,
			);
		}
		return url;
	}
	const base = (options.baseURL ?? baseUrl + API_PREFIX).replace(/\/+$/, '');
	return new URL(`${base}/${target.replace(/^\/+/, '')}`);
}

function isBinary(body: unknown): boolean {
	return (
		Buffer.isBuffer(body) ||
		body instanceof ArrayBuffer ||
		ArrayBuffer.isView(body) ||
		(typeof Blob !== 'undefined' && body instanceof Blob) ||
		(typeof body === 'object' &&
			body !== null &&
			typeof (body as { pipe?: unknown }).pipe === 'function')
	);
}

function isMultipart(options: SignableRequestOptions): boolean {
	const contentType = findHeader(options.headers ?? {}, 'content-type') ?? '';
	return (
		options.formData !== undefined ||
		/multipart\//i.test(contentType) ||
		(typeof FormData !== 'undefined' && options.body instanceof FormData) ||
		(typeof options.body === 'object' &&
			options.body !== null &&
			typeof (options.body as { getBoundary?: unknown }).getBoundary === 'function')
	);
}

/**
 * Form fields in the normal form of application/x-www-form-urlencoded (URLSearchParams), which
 * n8n's request layer may parse and write again: written out in that form, they come back
 * byte-identical.
 */
function serializeForm(
	form: IDataObject | string | URLSearchParams,
	arrayFormat: ArrayFormat,
): string {
	if (typeof form === 'string') return form;
	if (form instanceof URLSearchParams) return form.toString();
	return new URLSearchParams(flattenFields(form, arrayFormat)).toString();
}

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
const JSON_CONTENT_TYPE = 'application/json';

function serializeBody(options: SignableRequestOptions): {
	bytes: string;
	contentType?: string;
} {
	if (isMultipart(options)) {
		throw new Error(`Multipart (form-data) bodies cannot be signed. ${SUPPORTED_BODIES}.`);
	}
	const { body, form } = options;
	if (isBinary(body)) {
		throw new Error(
			`Binary bodies (files, buffers, streams) cannot be signed. ${SUPPORTED_BODIES}.`,
		);
	}
	const hasBody = body !== undefined && body !== null && body !== '';
	if (form !== undefined && hasBody) {
		throw new Error(
			`The request has both a body and form fields; send one of them. ${SUPPORTED_BODIES}.`,
		);
	}
	const declared = findHeader(options.headers ?? {}, 'content-type');
	if (form !== undefined) {
		return { bytes: serializeForm(form, arrayFormatOf(options)), contentType: FORM_CONTENT_TYPE };
	}
	if (!hasBody) return { bytes: '' };
	if (body instanceof URLSearchParams)
		return { bytes: body.toString(), contentType: FORM_CONTENT_TYPE };
	if (typeof body === 'string') return { bytes: body, contentType: JSON_CONTENT_TYPE };
	if (declared !== undefined && declared.toLowerCase().startsWith(FORM_CONTENT_TYPE)) {
		return {
			bytes: serializeForm(body as IDataObject, arrayFormatOf(options)),
			contentType: FORM_CONTENT_TYPE,
		};
	}
	return { bytes: JSON.stringify(body), contentType: JSON_CONTENT_TYPE };
}

/**
 * Fixes the exact bytes of a request: the URL as the HTTP client will send it (the WHATWG
 * parser's normal form, which it leaves unchanged on the way out), the query with `qs`
 * appended, and the body serialized once. Throws, before anything is sent, on a shape that
 * cannot be signed byte for byte.
 */
export function toWireRequest(options: SignableRequestOptions, baseUrl: string): WireRequest {
	const url = resolveUrl(options, baseUrl);
	const extraQuery = options.qs
		? flattenFields(options.qs, arrayFormatOf(options))
				.map(([key, value]) => `${encodeRfc3986(key)}=${encodeRfc3986(value)}`)
				.join('&')
		: '';
	const existingQuery = url.search.replace(/^\?/, '');
	const query = [existingQuery, extraQuery].filter((part) => part !== '').join('&');
	const method = (options.method ?? 'GET').toUpperCase();
	const { bytes, contentType } = method === 'GET' ? { bytes: '' } : serializeBody(options);
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
 * Signs a request for the credential's `authenticate()`, in either shape n8n hands it, and
 * returns options that send exactly the signed bytes: the URL with its query written out (in
 * `url`, which n8n prefers to `uri`), the body as a string, and no `qs`, `form` or `baseURL`
 * left for n8n to serialize again. A caller that corrected for clock skew passes its own
 * X-Api-Timestamp header, which is kept and signed.
 */
export function signRequestOptions(
	rawCredentials: ICredentialDataDecryptedObject,
	options: SignableRequestOptions,
	nowSeconds: number,
): SignableRequestOptions & IHttpRequestOptions {
	const credentials = readCredentials(rawCredentials);
	const wire = toWireRequest(options, credentials.baseUrl);
	const headers: IDataObject = { ...(options.headers ?? {}) };
	const timestamp = findHeader(headers, TIMESTAMP_HEADER) ?? String(nowSeconds);
	for (const key of Object.keys(headers)) {
		if (/^x-api-(key|timestamp|sign)$/i.test(key)) delete headers[key];
	}
	if (wire.contentType !== undefined) {
		const declared = Object.keys(headers).find((key) => key.toLowerCase() === 'content-type');
		// A JSON body keeps a declared type (a charset, say); form fields always say what they are.
		if (declared === undefined || wire.contentType === FORM_CONTENT_TYPE) {
			if (declared !== undefined) delete headers[declared];
			headers['Content-Type'] = wire.contentType;
		}
	}
	headers['X-Api-Key'] = credentials.apiKey;
	headers[TIMESTAMP_HEADER] = timestamp;
	headers['X-Api-Sign'] = signWireRequest(
		credentials.signatureVersion,
		wire,
		timestamp,
		credentials.apiSecret,
	);
	const signed: SignableRequestOptions & IHttpRequestOptions = {
		...options,
		url: wire.url,
		headers,
	};
	if (signed.uri !== undefined) signed.uri = wire.url;
	delete signed.baseURL;
	delete signed.qs;
	delete signed.form;
	// toWireRequest leaves a GET's body empty: nothing is sent.
	if (wire.body === '') delete signed.body;
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
