import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';

import { readCredentials, type AffiliateTrackingCredentials } from './credentials';
import { findHeader, readWireRequest, type SignableRequestOptions } from './httpRequestAdapter';
import {
	jsonBodyFieldNames,
	queryFieldNames,
	signV1,
	signV2,
	v1StringToSign,
	v2StringToSign,
	type SignatureVersion,
} from './signing';
import {
	apiRoot,
	FORM_CONTENT_TYPE,
	toWireRequest,
	type OperationRequest,
	type WireRequest,
} from './wireRequest';

export const TIMESTAMP_HEADER = 'X-Api-Timestamp';

function fieldNamesOf(request: WireRequest): string[] {
	const names = queryFieldNames(request.query);
	if (request.contentType === FORM_CONTENT_TYPE) {
		names.push(...queryFieldNames(request.body));
	} else {
		try {
			names.push(...jsonBodyFieldNames(request.body));
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

/** The key, the timestamp and the signature of a wire request. */
function signatureHeaders(
	credentials: AffiliateTrackingCredentials,
	wire: WireRequest,
	timestamp: string,
): Record<string, string> {
	return {
		'X-Api-Key': credentials.apiKey,
		[TIMESTAMP_HEADER]: timestamp,
		'X-Api-Sign': signWireRequest(
			credentials.signatureVersion,
			wire,
			timestamp,
			credentials.apiSecret,
		),
	};
}

/**
 * The options a node hands n8n's HTTP helper to send a wire request signed at `timestamp`: the
 * URL and the body as they are, and the time in X-Api-Timestamp. n8n calls the credential's
 * `authenticate()` with nothing but the credential and these options, so the header the request
 * carries anyway is how a time corrected for clock skew reaches signRequestOptions, which keeps it.
 */
export function helperOptionsOf(wire: WireRequest, timestamp: string): IHttpRequestOptions {
	const options: IHttpRequestOptions = {
		// Operations send GET or POST only.
		method: wire.method as IHttpRequestMethods,
		url: wire.url,
		headers: { [TIMESTAMP_HEADER]: timestamp },
	};
	if (wire.contentType !== undefined) {
		options.body = wire.body;
		options.headers = { ...options.headers, 'Content-Type': wire.contentType };
	}
	return options;
}

/**
 * Signs a request for the credential's `authenticate()`, in either shape n8n hands it, and
 * returns options that send exactly the signed bytes: the URL with its query written out (in
 * `url`, which n8n prefers to `uri`), the body as a string, and no `qs`, `form` or `baseURL`
 * left for n8n to serialize again. A request that carries X-Api-Timestamp (helperOptionsOf) is
 * signed with that time; any other with `nowSeconds`.
 */
export function signRequestOptions(
	rawCredentials: ICredentialDataDecryptedObject,
	options: SignableRequestOptions,
	nowSeconds: number,
): SignableRequestOptions & IHttpRequestOptions {
	const credentials = readCredentials(rawCredentials);
	const wire = readWireRequest(options, credentials.baseUrl);
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
	const signed: SignableRequestOptions & IHttpRequestOptions = {
		...options,
		url: wire.url,
		headers: { ...headers, ...signatureHeaders(credentials, wire, timestamp) },
	};
	if (signed.uri !== undefined) signed.uri = wire.url;
	delete signed.baseURL;
	delete signed.qs;
	delete signed.form;
	// The wire request leaves a GET's body empty: nothing is sent.
	if (wire.body === '') delete signed.body;
	else signed.body = wire.body;
	return signed;
}

/** What a brand server gives to call the service directly, without n8n. */
export interface SignedRequestInput extends OperationRequest {
	/** The service host without a path, for example https://api.example.com. */
	baseUrl: string;
	apiKey: string;
	apiSecret: string;
	/** The key's signature version; v2 unless the key is a legacy v1 key. */
	signatureVersion?: SignatureVersion;
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
	const credentials = readCredentials({
		baseUrl: input.baseUrl,
		apiKey: input.apiKey,
		apiSecret: input.apiSecret,
		signatureVersion: input.signatureVersion ?? 'v2',
	});
	const timestamp = String(input.timestamp ?? Math.floor(Date.now() / 1000));
	const wire = toWireRequest(input, apiRoot(credentials.baseUrl));
	return {
		method: input.method,
		url: wire.url,
		headers: {
			...(wire.contentType === undefined ? {} : { 'Content-Type': wire.contentType }),
			...signatureHeaders(credentials, wire, timestamp),
		},
		...(wire.contentType === undefined ? {} : { body: wire.body }),
	};
}
