/**
 * The bytes of a request: toWireRequest; the HTTP Request node adapter (readWireRequest) over n8n's
 * request-option shapes; and that every way in (the node's options read back by the credential,
 * buildSignedRequest) comes to the same bytes. The signatures: signing.unit.test.ts.
 */
import { createHash, createHmac } from 'node:crypto';

import {
	readWireRequest,
	type SignableRequestOptions,
} from '../../nodes/shared/transport/httpRequestAdapter';
import { buildSignedRequest, helperOptionsOf } from '../../nodes/shared/transport/requestSigner';
import {
	apiRoot,
	toWireRequest,
	type OperationRequest,
	type RequestParts,
	type WireRequest,
} from '../../nodes/shared/transport/wireRequest';
import { scenario } from '../../support/scenarios';

const BASE = 'https://api.example.com';
const ROOT = `${BASE}/api/open/v1`;
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/** A request in, and the URL, body and content type of the wire request out. */
interface WireCase<Request> {
	name: string;
	options: Request;
	url: string;
	body?: string;
	contentType?: string;
}

/** The whole wire request: its path and query are those of `url`. */
function expectWire(
	wire: WireRequest,
	{ options, url, body = '', contentType }: WireCase<{ method?: string }>,
) {
	const parsed = new URL(url);
	expect(wire).toEqual({
		method: (options.method ?? 'GET').toUpperCase(),
		url,
		path: parsed.pathname,
		query: parsed.search.slice(1),
		body,
		contentType,
	});
}

describe(scenario('transport.wireRequest'), () => {
	it.each<WireCase<RequestParts>>([
		{
			name: 'a POST: the URL below the API prefix, the body serialized once as JSON',
			options: { method: 'POST', path: '/track/refund', body: { transaction_id: 't1', n: 1 } },
			url: `${ROOT}/track/refund`,
			body: '{"transaction_id":"t1","n":1}',
			contentType: JSON_TYPE,
		},
		{
			name: 'a POST without a body sends an empty JSON object',
			options: { method: 'post', path: '/promoter/login' },
			url: `${ROOT}/promoter/login`,
			body: '{}',
			contentType: JSON_TYPE,
		},
		{
			name: 'a GET: the query written out RFC 3986-encoded in the given order, no body',
			options: {
				method: 'GET',
				path: '/promoters/u%201/statistics',
				query: { start_date: '2026-03-01', skipped: undefined, note: "a b&c'", n: 5 },
				body: { ignored: true },
			},
			url: `${ROOT}/promoters/u%201/statistics?start_date=2026-03-01&note=a%20b%26c%27&n=5`,
		},
		{
			name: 'the path in the form the URL parser sends it; a query it carries comes first',
			options: {
				method: 'GET',
				path: '/promoters/a b?x=1',
				query: [
					['y', '2'],
					['y', '3'],
				],
			},
			url: `${ROOT}/promoters/a%20b?x=1&y=2&y=3`,
		},
		{
			name: 'bytes already fixed are sent as they are',
			options: {
				method: 'POST',
				path: '/track/refund',
				body: { not: 'this' },
				serializedBody: { bytes: 'transaction_id=t+1', contentType: FORM },
			},
			url: `${ROOT}/track/refund`,
			body: 'transaction_id=t+1',
			contentType: FORM,
		},
	])('$name', (wireCase) => expectWire(toWireRequest(wireCase.options, apiRoot(BASE)), wireCase));
});

describe(scenario('transport.sameBytes'), () => {
	const requests: OperationRequest[] = [
		{ method: 'POST', path: '/track/refund', body: { transaction_id: 't 1', reason: '退款' } },
		{ method: 'POST', path: '/promoter/login' },
		{
			method: 'GET',
			path: `/promoters/${encodeURIComponent('a/b ü')}/statistics`,
			query: { start_date: '2026-03-01', end_date: '2026-03-31' },
		},
		{ method: 'GET', path: '/promoters/u1', query: { expand: 'links,statistics' } },
	];

	it.each(requests)(
		'the credential reads back what the node hands n8n: $method $path',
		(request) => {
			const wire = toWireRequest(request, apiRoot(BASE));
			expect(readWireRequest(helperOptionsOf(wire, '1767225600'), BASE)).toEqual(wire);
		},
	);

	it.each(requests)('buildSignedRequest sends the wire request: $method $path', (request) => {
		const secret = 'sk_wire_test';
		const signed = buildSignedRequest({
			...request,
			baseUrl: `${BASE}/`,
			apiKey: 'pk_wire',
			apiSecret: secret,
			timestamp: 1767225600,
		});
		const wire = toWireRequest(request, apiRoot(BASE));
		expect(signed.url).toBe(wire.url);
		expect(signed.body).toBe(request.method === 'POST' ? wire.body : undefined);
		const stringToSign = `PS-HMAC-SHA256\n${wire.method}\n${wire.path}\n${wire.query}\n1767225600\n${createHash('sha256').update(wire.body).digest('hex')}`;
		expect(signed.headers['X-Api-Sign']).toBe(
			createHmac('sha256', secret).update(stringToSign).digest('hex'),
		);
	});
});

const cases: Array<WireCase<SignableRequestOptions>> = [
	{
		name: "the credential test's baseURL and relative url",
		options: {
			method: 'POST',
			baseURL: `${ROOT}/`,
			url: '/oauth/getUserByAuthorizationCode',
			body: { code: 'c' },
		},
		url: `${ROOT}/oauth/getUserByAuthorizationCode`,
		body: '{"code":"c"}',
		contentType: JSON_TYPE,
	},
	{
		name: 'an absolute url, its path in the form the URL parser sends it',
		options: { method: 'GET', url: `${ROOT}/promoters/a b` },
		url: `${ROOT}/promoters/a%20b`,
	},
	{
		name: 'a relative url with leading slashes, below the API prefix',
		options: { method: 'GET', url: '//promoters/u1' },
		url: `${ROOT}/promoters/u1`,
	},
	{
		name: 'an absolute uri given as a URL, its fragment left out',
		options: { method: 'GET', uri: new URL(`${ROOT}/promoters/u1?a=1#part`) },
		url: `${ROOT}/promoters/u1?a=1`,
	},
	{
		name: 'an absolute URL outside the API prefix on the same service',
		options: { method: 'GET', url: `${BASE}/health` },
		url: `${BASE}/health`,
	},
	{
		name: 'no method is a GET, and a GET sends no body',
		options: { url: '/promoters/u1', body: { ignored: 1 }, formData: { f: 'v' } },
		url: `${ROOT}/promoters/u1`,
	},
	{
		name: 'qs arrays joined by commas (arrayFormat comma)',
		options: { method: 'GET', url: '/promoters/u1', qs: { ids: ['1', '2'] }, arrayFormat: 'comma' },
		url: `${ROOT}/promoters/u1?ids=1%2C2`,
	},
	{
		name: 'qs: dates in ISO form, empty values left out, objects in arrays bracketed',
		options: {
			method: 'GET',
			url: '/promoters/u1',
			qs: { from: new Date(Date.UTC(2026, 0, 2)), none: null, rows: [{ id: 7 }] },
		},
		url: `${ROOT}/promoters/u1?from=2026-01-02T00%3A00%3A00.000Z&rows%5B%5D%5Bid%5D=7`,
	},
	{
		name: 'a URLSearchParams body is form fields',
		options: { method: 'POST', url: '/track/refund', body: new URLSearchParams({ a: 'x y' }) },
		url: `${ROOT}/track/refund`,
		body: 'a=x+y',
		contentType: FORM,
	},
	{
		name: 'form fields given as a string are sent as written',
		options: { method: 'POST', url: '/track/refund', form: 'a=x%20y' },
		url: `${ROOT}/track/refund`,
		body: 'a=x%20y',
		contentType: FORM,
	},
	{
		name: 'a POST without a body sends none',
		options: { method: 'POST', uri: `${ROOT}/promoter/login`, json: true },
		url: `${ROOT}/promoter/login`,
		body: '',
	},
	{
		name: 'a JSON array body is serialized as JSON',
		options: { method: 'PUT', url: '/x', body: [1, 'a'] },
		url: `${ROOT}/x`,
		body: '[1,"a"]',
		contentType: JSON_TYPE,
	},
];

describe(scenario('transport.httpRequestAdapter'), () => {
	it.each(cases)('$name', (wireCase) =>
		expectWire(readWireRequest(wireCase.options, BASE), wireCase),
	);

	it.each<[string, SignableRequestOptions, RegExp]>([
		['an absolute URL that does not parse', { url: 'https://' }, /not a valid address/],
		['another scheme on the same host', { url: 'http://api.example.com/x' }, /not the credential/],
		['a blank URL', { url: '  ' }, /no URL/],
	])('refuses %s', (_name, options, message) => {
		expect(() => readWireRequest(options, BASE)).toThrow(message);
	});
});
