import type { IDataObject } from 'n8n-workflow';

import { API_PREFIX, buildQueryString, type QueryFields, type QueryValue } from './signing';

export const JSON_CONTENT_TYPE = 'application/json';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** A request of the open API as an operation describes it. */
export interface OperationRequest {
	method: 'GET' | 'POST';
	/** Endpoint path below /api/open/v1, already percent-encoded. */
	path: string;
	query?: Record<string, QueryValue | undefined>;
	/** A POST's body, serialized once as JSON; an empty object when there is none. */
	body?: IDataObject;
}

/** A body whose bytes are already fixed (form fields, a JSON string as written): sent as is. */
export interface SerializedBody {
	bytes: string;
	contentType?: string;
}

/** What toWireRequest turns into bytes: an operation's request, or one n8n's options describe. */
export interface RequestParts {
	method: string;
	/** Below the root, percent-encoded; it may carry a query already written ("/x?a=1"). */
	path: string;
	/** Appended to the query in the URL, in order. */
	query?: QueryFields;
	body?: IDataObject;
	/** Takes the place of `body` when the bytes are already fixed. */
	serializedBody?: SerializedBody;
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

/** Where an operation's path is below: the credential's Base URL followed by /api/open/v1. */
export function apiRoot(baseUrl: string): string {
	return `${baseUrl}${API_PREFIX}`;
}

/**
 * The one place a request's bytes are fixed: the URL in the form the HTTP client sends unchanged
 * (the WHATWG parser's normal form, which it leaves as is on the way out), the query written out
 * RFC 3986-encoded after any query the path carries, and the body serialized once (none for GET).
 */
export function toWireRequest(request: RequestParts, root: string): WireRequest {
	const url = new URL(`${root}${request.path}`);
	const written = request.query === undefined ? '' : buildQueryString(request.query);
	const query = [url.search.slice(1), written].filter((part) => part !== '').join('&');
	const method = request.method.toUpperCase();
	const body: SerializedBody =
		method === 'GET'
			? { bytes: '' }
			: (request.serializedBody ?? {
					bytes: JSON.stringify(request.body ?? {}),
					contentType: JSON_CONTENT_TYPE,
				});
	return {
		method,
		url: `${url.origin}${url.pathname}${query === '' ? '' : `?${query}`}`,
		path: url.pathname,
		query,
		body: body.bytes,
		contentType: body.contentType,
	};
}
