/**
 * The HTTP Request node adapter: n8n's request options (the current shape, the request-library
 * shape of the HTTP Request node v3 and v4.x, the credential test's) read into the wire request.
 * The signatures over these shapes are in signing.test.ts; here, the bytes.
 */
import {
	readWireRequest,
	type SignableRequestOptions,
} from '../../nodes/shared/transport/httpRequestAdapter';
import { scenario } from '../../support/scenarios';

const BASE = 'https://api.example.com';
const API = `${BASE}/api/open/v1`;
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

const cases: Array<{
	name: string;
	options: SignableRequestOptions;
	url: string;
	body?: string;
	contentType?: string;
}> = [
	{
		name: "the credential test's baseURL and relative url",
		options: {
			method: 'POST',
			baseURL: `${API}/`,
			url: '/oauth/getUserByAuthorizationCode',
			body: { code: 'c' },
		},
		url: `${API}/oauth/getUserByAuthorizationCode`,
		body: '{"code":"c"}',
		contentType: JSON_TYPE,
	},
	{
		name: 'a relative url with leading slashes, below the API prefix',
		options: { method: 'GET', url: '//promoters/u1' },
		url: `${API}/promoters/u1`,
	},
	{
		name: 'an absolute uri given as a URL, its fragment left out',
		options: { method: 'GET', uri: new URL(`${API}/promoters/u1?a=1#part`) },
		url: `${API}/promoters/u1?a=1`,
	},
	{
		name: 'an absolute URL outside the API prefix on the same service',
		options: { method: 'GET', url: `${BASE}/health` },
		url: `${BASE}/health`,
	},
	{
		name: 'no method is a GET, and a GET sends no body',
		options: { url: '/promoters/u1', body: { ignored: 1 }, formData: { f: 'v' } },
		url: `${API}/promoters/u1`,
	},
	{
		name: 'qs arrays joined by commas (arrayFormat comma)',
		options: { method: 'GET', url: '/promoters/u1', qs: { ids: ['1', '2'] }, arrayFormat: 'comma' },
		url: `${API}/promoters/u1?ids=1%2C2`,
	},
	{
		name: 'qs: dates in ISO form, empty values left out, objects in arrays bracketed',
		options: {
			method: 'GET',
			url: '/promoters/u1',
			qs: {
				from: new Date(Date.UTC(2026, 0, 2)),
				none: null,
				rows: [{ id: 7 }],
			},
		},
		url: `${API}/promoters/u1?from=2026-01-02T00%3A00%3A00.000Z&rows%5B%5D%5Bid%5D=7`,
	},
	{
		name: 'a URLSearchParams body is form fields',
		options: { method: 'POST', url: '/track/refund', body: new URLSearchParams({ a: 'x y' }) },
		url: `${API}/track/refund`,
		body: 'a=x+y',
		contentType: FORM,
	},
	{
		name: 'form fields given as a string are sent as written',
		options: { method: 'POST', url: '/track/refund', form: 'a=x%20y' },
		url: `${API}/track/refund`,
		body: 'a=x%20y',
		contentType: FORM,
	},
	{
		name: 'a POST without a body sends none',
		options: { method: 'POST', uri: `${API}/promoter/login`, json: true },
		url: `${API}/promoter/login`,
		body: '',
	},
	{
		name: 'a JSON array body is serialized as JSON',
		options: { method: 'PUT', url: '/x', body: [1, 'a'] },
		url: `${API}/x`,
		body: '[1,"a"]',
		contentType: JSON_TYPE,
	},
];

describe(scenario('transport.httpRequestAdapter'), () => {
	it.each(cases)('$name', ({ options, url, body = '', contentType }) => {
		const wire = readWireRequest(options, BASE);
		const parsed = new URL(url);
		expect(wire).toEqual({
			method: (options.method ?? 'GET').toUpperCase(),
			url,
			path: parsed.pathname,
			query: parsed.search.slice(1),
			body,
			contentType,
		});
	});

	it.each<[string, SignableRequestOptions, RegExp]>([
		['an absolute URL that does not parse', { url: 'https://' }, /not a valid address/],
		['another scheme on the same host', { url: 'http://api.example.com/x' }, /not the credential/],
		['a blank URL', { url: '  ' }, /no URL/],
	])('refuses %s', (_name, options, message) => {
		expect(() => readWireRequest(options, BASE)).toThrow(message);
	});
});
