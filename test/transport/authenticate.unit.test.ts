/**
 * The credential's authenticate() (requestSigner.ts): the request it signs is the request sent,
 * byte for byte, from the node's own requests and from the HTTP Request node's request-library
 * options; plain http:// only on loopback. The signatures themselves: signing.unit.test.ts.
 */
import type { SignableRequestOptions } from '../../nodes/shared/transport/httpRequestAdapter';
import { signRequestOptions } from '../../nodes/shared/transport/requestSigner';
import { scenario } from '../../support/scenarios';
import { hmac, SECRET, sha256, TS } from './knownAnswers';

const SERVICE = 'https://api.example.com';
const PREFIX = `${SERVICE}/api/open/v1`;
const credentials = { baseUrl: SERVICE, apiKey: 'pk_x', apiSecret: SECRET, signatureVersion: 'v2' };
const headersOf = (signed: { headers?: unknown }) => signed.headers as Record<string, string>;

interface SignedCase {
	name: string;
	options: SignableRequestOptions;
	url: string;
	body: string | undefined;
	contentType?: string;
}

/** Signed with v2, the request sends `url`, `body` and `contentType`, signed over those bytes. */
function expectSignedAsSent(
	{ options, url, body, contentType }: SignedCase,
	signingCredentials = credentials,
) {
	const signed = signRequestOptions(signingCredentials, options, Number(TS));
	expect(signed.url).toBe(url);
	if (options.uri !== undefined) expect(signed.uri).toBe(url);
	expect(signed.body).toBe(body);
	expect(signed.qs).toBeUndefined();
	expect(signed.form).toBeUndefined();
	const headers = headersOf(signed);
	expect(headers['X-Api-Timestamp']).toBe(TS);
	expect(headers['Content-Type']).toBe(contentType);
	const { pathname, search } = new URL(url);
	expect(headers['X-Api-Sign']).toBe(
		hmac(
			`PS-HMAC-SHA256\n${String(options.method)}\n${pathname}\n${search.replace(/^\?/, '')}\n${TS}\n${sha256(body ?? '')}`,
		),
	);
	expect(JSON.stringify(signed)).not.toContain(SECRET);
}

describe(scenario('transport.authenticate'), () => {
	const withSlash = { ...credentials, baseUrl: `${SERVICE}/` };

	it.each<SignedCase>([
		{
			name: 'serializes an object body once and signs those exact bytes',
			options: { method: 'POST', url: '/promoter/login', body: { user_id: '李雷', n: 1 } },
			url: `${PREFIX}/promoter/login`,
			body: '{"user_id":"李雷","n":1}',
			contentType: 'application/json',
		},
		{
			name: 'writes qs into the URL itself and signs it byte for byte',
			options: { method: 'GET', url: '/promoters/u%201', qs: { expand: 'links,statistics' } },
			url: `${PREFIX}/promoters/u%201?expand=links%2Cstatistics`,
			body: undefined,
		},
	])('$name', (signedCase) => expectSignedAsSent(signedCase, withSlash));

	it('keeps a timestamp given by the caller (clock-skew correction)', () => {
		const signed = signRequestOptions(
			withSlash,
			{ method: 'GET', url: '/promoters/x', headers: { 'x-api-timestamp': '42' } },
			Number(TS),
		);
		expect(headersOf(signed)['X-Api-Timestamp']).toBe('42');
		const timestamps = Object.keys(signed.headers ?? {}).filter((key) => /timestamp/i.test(key));
		expect(timestamps).toHaveLength(1);
	});

	it.each([
		['http://api.example.com', /https/],
		['ftp://api.example.com', /https/],
		['not a url', /not a valid address/],
	])('refuses the base URL %s', (baseUrl, message) => {
		expect(() =>
			signRequestOptions({ ...credentials, baseUrl }, { method: 'GET', url: '/x' }, 0),
		).toThrow(message);
	});

	it.each(['http://127.0.0.1:8787', 'http://localhost:8787', 'http://[::1]:8787'])(
		'accepts plain http on loopback: %s',
		(baseUrl) => {
			expect(() =>
				signRequestOptions({ ...credentials, baseUrl }, { method: 'GET', url: '/x' }, 0),
			).not.toThrow();
		},
	);
});

describe(scenario('transport.authenticateHttpRequestNode'), () => {
	// n8n's requestWithAuthentication (the HTTP Request node v3 and v4.x, its pagination) hands
	// the credential { uri, qs, body, form, formData, json } instead of { url, baseURL, qs, body }.
	/** A request-library POST to `path` below the API prefix. */
	const post = (path: string, options: SignableRequestOptions): SignableRequestOptions => ({
		method: 'POST',
		uri: `${PREFIX}${path}`,
		...options,
	});
	it.each<SignedCase>([
		{
			name: 'absolute uri, JSON body object, json: true',
			options: post('/track/refund', { body: { transaction_id: 't-1', reason: 'x' }, json: true }),
			url: `${PREFIX}/track/refund`,
			body: '{"transaction_id":"t-1","reason":"x"}',
			contentType: 'application/json',
		},
		{
			name: 'query in the URL and in qs at once: the URL first, then qs in order',
			options: {
				method: 'GET',
				uri: `${PREFIX}/promoters/u1/statistics?start_date=2026-01-01`,
				qs: { end_date: '2026-01-31', note: 'a b' },
				json: true,
			},
			url: `${PREFIX}/promoters/u1/statistics?start_date=2026-01-01&end_date=2026-01-31&note=a%20b`,
			body: undefined,
		},
		{
			name: 'a JSON body given as a string is sent and signed as written',
			options: post('/track/refund', { body: '{ "transaction_id" : "t-2" }' }),
			url: `${PREFIX}/track/refund`,
			body: '{ "transaction_id" : "t-2" }',
			contentType: 'application/json',
		},
		{
			name: 'a relative uri resolves below the API prefix',
			options: { method: 'POST', uri: '/track/refund', body: { transaction_id: 't-3' } },
			url: `${PREFIX}/track/refund`,
			body: '{"transaction_id":"t-3"}',
			contentType: 'application/json',
		},
		{
			name: 'form fields, arrays repeated (useQuerystring), in form-urlencoded normal form',
			options: post('/track/refund', {
				form: { transaction_id: 't 4', tags: ['a', 'b'] },
				useQuerystring: true,
			}),
			url: `${PREFIX}/track/refund`,
			body: 'transaction_id=t+4&tags=a&tags=b',
			contentType: 'application/x-www-form-urlencoded',
		},
		{
			name: 'qs arrays default to brackets, as axios sends them',
			options: { method: 'GET', uri: `${PREFIX}/promoters/u1`, qs: { ids: ['1', '2'] } },
			url: `${PREFIX}/promoters/u1?ids%5B%5D=1&ids%5B%5D=2`,
			body: undefined,
		},
		{
			name: 'qs arrays with indices and nested objects (qsStringifyOptions)',
			options: {
				method: 'GET',
				uri: `${PREFIX}/promoters/u1`,
				qs: { ids: ['1'], filter: { from: 'x' } },
				qsStringifyOptions: { arrayFormat: 'indices' },
			},
			url: `${PREFIX}/promoters/u1?ids%5B0%5D=1&filter%5Bfrom%5D=x`,
			body: undefined,
		},
		{
			name: 'the current shape with arrayFormat repeat',
			options: {
				method: 'GET',
				url: '/promoters/u1',
				qs: { ids: ['1', '2'] },
				arrayFormat: 'repeat',
			},
			url: `${PREFIX}/promoters/u1?ids=1&ids=2`,
			body: undefined,
		},
	])('$name', (signedCase) => expectSignedAsSent(signedCase));

	it('signs v1 over the top-level names of the query and the form body', () => {
		const signed = signRequestOptions(
			{ ...credentials, signatureVersion: 'v1' },
			post('/track/conversion?event_name=purchase', {
				form: { invited_user_id: 'u', Amount: '1.00' },
			}),
			Number(TS),
		);
		expect(headersOf(signed)['X-Api-Sign']).toBe(
			sha256(`amount&event_name&invited_user_id${TS}${SECRET}`),
		);
	});

	it('replaces a declared form content type only with its own, and keeps a JSON charset', () => {
		const refund = (transactionId: string, headers: Record<string, string>) =>
			signRequestOptions(
				credentials,
				post('/track/refund', { body: { transaction_id: transactionId }, headers }),
				Number(TS),
			);
		const json = refund('t', { 'content-type': 'application/json; charset=utf-8' });
		expect(headersOf(json)['content-type']).toBe('application/json; charset=utf-8');
		const form = refund('t 5', { 'Content-Type': 'application/x-www-form-urlencoded' });
		expect(form.body).toBe('transaction_id=t+5');
		expect(headersOf(form)['Content-Type']).toBe('application/x-www-form-urlencoded');
	});

	it.each<[string, SignableRequestOptions, RegExp]>([
		['multipart formData', post('/x', { formData: { f: 'v' } }), /Multipart/],
		[
			'a multipart content type',
			post('/x', {
				body: { f: 'v' },
				headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
			}),
			/Multipart/,
		],
		['a Buffer body', post('/x', { body: Buffer.from('{}') }), /Binary/],
		[
			'a stream body',
			post('/x', { body: { pipe: () => undefined } as unknown as string }),
			/Binary/,
		],
		['a body and form fields', post('/x', { body: { a: 1 }, form: { b: 2 } }), /both/],
		[
			'another host',
			{ method: 'GET', uri: 'https://elsewhere.example.com/api/open/v1/x' },
			/not the credential's Base URL/,
		],
		['no URL at all', { method: 'GET' }, /no URL/],
	])('refuses %s before anything is sent, naming what is supported', (_name, options, message) => {
		const sign = () => signRequestOptions(credentials, options, Number(TS));
		expect(sign).toThrow(Error);
		expect(sign).toThrow(message);
		if (/Multipart|Binary|both/.test(message.source))
			expect(sign).toThrow('Supported: a JSON body');
	});
});
