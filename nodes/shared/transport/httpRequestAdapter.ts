import type { IDataObject, IHttpRequestOptions } from 'n8n-workflow';

import {
	apiRoot,
	FORM_CONTENT_TYPE,
	JSON_CONTENT_TYPE,
	toWireRequest,
	type SerializedBody,
	type WireRequest,
} from './wireRequest';

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

/** A header's value, whatever the case of its name. */
export function findHeader(headers: IDataObject, name: string): string | undefined {
	const key = Object.keys(headers).find(
		(candidate) => candidate.toLowerCase() === name.toLowerCase(),
	);
	return key === undefined ? undefined : String(headers[key]);
}

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
 * Where the request goes, as a root and a path below it. Relative URLs resolve below the
 * credential's API prefix (or the request's baseURL); absolute ones must point at the
 * credential's own service, so that its key and signatures are never sent to another host.
 */
function rootAndPath(
	options: SignableRequestOptions,
	baseUrl: string,
): { root: string; path: string } {
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
		return { root: url.origin, path: `${url.pathname}${url.search}` };
	}
	return {
		root: (options.baseURL ?? apiRoot(baseUrl)).replace(/\/+$/, ''),
		path: `/${target.replace(/^\/+/, '')}`,
	};
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

/**
 * The body's bytes when the options fix them (form fields, a string, no body at all), or the
 * object toWireRequest serializes as JSON.
 */
function bodyOf(options: SignableRequestOptions): {
	serializedBody?: SerializedBody;
	body?: IDataObject;
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
	const asForm = (fields: IDataObject | string | URLSearchParams) => ({
		serializedBody: {
			bytes: serializeForm(fields, arrayFormatOf(options)),
			contentType: FORM_CONTENT_TYPE,
		},
	});
	if (form !== undefined) return asForm(form);
	if (!hasBody) return { serializedBody: { bytes: '' } };
	if (body instanceof URLSearchParams) return asForm(body);
	if (typeof body === 'string') {
		return { serializedBody: { bytes: body, contentType: JSON_CONTENT_TYPE } };
	}
	const declared = findHeader(options.headers ?? {}, 'content-type');
	if (declared !== undefined && declared.toLowerCase().startsWith(FORM_CONTENT_TYPE)) {
		return asForm(body as IDataObject);
	}
	return { body: body as IDataObject };
}

/**
 * Reads the request n8n hands the credential's `authenticate()`, in either shape, into the wire
 * request toWireRequest makes of it. Throws, before anything is sent, on a shape that cannot be
 * signed byte for byte.
 */
export function readWireRequest(options: SignableRequestOptions, baseUrl: string): WireRequest {
	const { root, path } = rootAndPath(options, baseUrl);
	const method = options.method ?? 'GET';
	return toWireRequest(
		{
			method,
			path,
			query: options.qs ? flattenFields(options.qs, arrayFormatOf(options)) : undefined,
			// A GET sends no body: what it carries is neither checked nor signed.
			...(method.toUpperCase() === 'GET' ? {} : bodyOf(options)),
		},
		root,
	);
}
