/**
 * Known-answer tests of the signing core. Every expected value is computed here, apart from the
 * code under test: the string to sign is written out literally and hashed with node:crypto, or
 * the signature is fixed hex computed with Python's hashlib/hmac.
 */
import { createHash, createHmac } from 'node:crypto';

import {
	buildQueryString,
	encodeRfc3986,
	naturalCompare,
	signV1,
	signV2,
	v1StringToSign,
	v2StringToSign,
} from '../../nodes/shared/transport/signing';
import {
	readWireRequest,
	type SignableRequestOptions,
} from '../../nodes/shared/transport/httpRequestAdapter';
import { signRequestOptions } from '../../nodes/shared/transport/requestSigner';
import { strnatcmp } from '../../sandbox/verify';
import { scenario } from '../../support/scenarios';

const SECRET = 'sk_test_vector_secret';
const TS = '1767225600';
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const hmac = (text: string) => createHmac('sha256', SECRET).update(text).digest('hex');
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe(scenario('transport.signatureV1'), () => {
	const v1Vectors: Array<[string, string[], string]> = [
		[
			'spec example',
			['event_name', 'invite_code', 'invited_user_id'],
			'event_name&invite_code&invited_user_id',
		],
		['digit runs compare as numbers', ['a10', 'a2', 'a1'], 'a1&a2&a10'],
		['names are lower-cased before sorting', ['Zeta', 'alpha', 'B'], 'alpha&b&zeta'],
		[
			'names differing only in digits, one with a leading zero',
			['item9', 'item10', 'item09'],
			'item09&item9&item10',
		],
		[
			'underscores sort below letters and above digits',
			['userid', 'user_id', 'user_10', 'user_2'],
			'user_2&user_10&user_id&userid',
		],
		['leading zeros compare left-aligned', ['x1', 'x01', 'x001'], 'x001&x01&x1'],
		['purely numeric names', ['10', '9', '1a'], '1a&9&10'],
		['case variants are two fields', ['ID', 'id'], 'id&id'],
		['no fields at all', [], ''],
		[
			'promoter login fields',
			['user_id', 'theme_mode', 'lang', 'email', 'username', 'phone'],
			'email&lang&phone&theme_mode&user_id&username',
		],
	];
	it.each(v1Vectors)('%s', (_name, names, joined) => {
		expect(v1StringToSign(names, TS)).toBe(`${joined}${TS}`);
		expect(signV1(names, TS, SECRET)).toBe(sha256(`${joined}${TS}${SECRET}`));
	});

	it('matches a fixed hex value computed with Python hashlib', () => {
		expect(signV1(['invited_user_id', 'event_name', 'invite_code'], TS, SECRET)).toBe(
			'32b514ff3bf4ab09aaa0d3d392e41432c27198c22e60e2881907ef4fc5cccc01',
		);
	});

	it.each([
		[
			'counts only top-level names of a nested JSON body and ignores values',
			{ url: '/track/conversion', body: { b: { z: 1, a: [1, 2] }, A: 20260301, c: null } },
			'a&b&c',
		],
		[
			'merges query and body names, a name in both counted once',
			{ url: '/x?b=1&a[k]=2', qs: { c: 'v' }, body: { b: 1, d: 2 } },
			'a&b&c&d',
		],
	])('%s', (_name, request, names) => {
		const signed = signRequestOptions(
			{
				baseUrl: 'https://api.example.com',
				apiKey: 'pk_x',
				apiSecret: SECRET,
				signatureVersion: 'v1',
			},
			{ method: 'POST', ...request, headers: { 'X-Api-Timestamp': TS } },
			0,
		);
		expect((signed.headers as Record<string, string>)['X-Api-Sign']).toBe(
			sha256(`${names}${TS}${SECRET}`),
		);
	});
});

describe(scenario('transport.signatureV2'), () => {
	it('POST with a JSON body', () => {
		const body = '{"event_name":"signup","invited_user_id":"u1","invite_code":"ADA2026"}';
		const expected = `PS-HMAC-SHA256\nPOST\n/api/open/v1/track/conversion\n\n${TS}\n${sha256(body)}`;
		const input = {
			method: 'post',
			path: '/api/open/v1/track/conversion',
			query: '',
			timestamp: TS,
			body,
		};
		expect(v2StringToSign(input)).toBe(expected);
		expect(signV2(input, SECRET)).toBe(hmac(expected));
	});

	it('GET with a query string and an empty body', () => {
		const expected = `PS-HMAC-SHA256\nGET\n/api/open/v1/promoters/user_1001/statistics\nstart_date=2026-03-01&end_date=2026-03-31\n${TS}\n${EMPTY_SHA256}`;
		const input = {
			method: 'GET',
			path: '/api/open/v1/promoters/user_1001/statistics',
			query: 'start_date=2026-03-01&end_date=2026-03-31',
			timestamp: TS,
			body: '',
		};
		expect(signV2(input, SECRET)).toBe(hmac(expected));
	});

	it('GET without a query leaves line 4 empty', () => {
		const expected = `PS-HMAC-SHA256\nGET\n/api/open/v1/promoters/user_1001\n\n${TS}\n${EMPTY_SHA256}`;
		expect(
			signV2(
				{
					method: 'GET',
					path: '/api/open/v1/promoters/user_1001',
					query: '',
					timestamp: TS,
					body: '',
				},
				SECRET,
			),
		).toBe(hmac(expected));
	});

	it('POST with an empty body hashes the empty string', () => {
		const expected = `PS-HMAC-SHA256\nPOST\n/api/open/v1/promoter/login\n\n${TS}\n${EMPTY_SHA256}`;
		expect(
			signV2(
				{ method: 'POST', path: '/api/open/v1/promoter/login', query: '', timestamp: TS, body: '' },
				SECRET,
			),
		).toBe(hmac(expected));
	});

	it('a non-ASCII JSON body is hashed as its UTF-8 bytes (fixed hex from Python)', () => {
		const body = '{"transaction_id":"txn_1001","reason":"客户退款"}';
		expect(
			signV2(
				{ method: 'POST', path: '/api/open/v1/track/refund', query: '', timestamp: TS, body },
				SECRET,
			),
		).toBe('ce990f9508cb804aeccd4f4da7d8bbd1f5236c1ab628146776786de00b2f520d');
		expect(sha256(Buffer.from(body, 'utf8'))).toBe(sha256(body));
	});

	it('integer values are signed as serialized', () => {
		const body = '{"transaction_id":20260301}';
		const expected = `PS-HMAC-SHA256\nPOST\n/api/open/v1/track/refund\n\n${TS}\n${sha256(body)}`;
		expect(
			signV2(
				{ method: 'POST', path: '/api/open/v1/track/refund', query: '', timestamp: TS, body },
				SECRET,
			),
		).toBe(hmac(expected));
	});

	it('a path segment with "/", spaces and non-ASCII is signed percent-encoded (fixed hex from Python)', () => {
		const path = `/api/open/v1/promoters/${encodeRfc3986('a/b c ü')}/statistics`;
		expect(path).toBe('/api/open/v1/promoters/a%2Fb%20c%20%C3%BC/statistics');
		expect(
			signV2(
				{
					method: 'GET',
					path,
					query: 'start_date=2026-03-01&end_date=2026-03-31',
					timestamp: TS,
					body: '',
				},
				SECRET,
			),
		).toBe('e39dfd0e402e40fc838a06d76d043c9503f1384593c6d954317f210f775e02a1');
	});

	it('query values are RFC 3986 encoded in the given order', () => {
		expect(buildQueryString({ z: "a b&c=d+e'f*(g)!", a: 'ü', skip: undefined, n: 5 })).toBe(
			'z=a%20b%26c%3Dd%2Be%27f%2A%28g%29%21&a=%C3%BC&n=5',
		);
	});
});

describe(scenario('transport.authenticate'), () => {
	const credentials = {
		baseUrl: 'https://api.example.com/',
		apiKey: 'pk_x',
		apiSecret: SECRET,
		signatureVersion: 'v2',
	};

	it('serializes an object body once and signs those exact bytes', () => {
		const signed = signRequestOptions(
			credentials,
			{ method: 'POST', url: '/promoter/login', body: { user_id: '李雷', n: 1 } },
			Number(TS),
		);
		expect(signed.body).toBe('{"user_id":"李雷","n":1}');
		expect(signed.url).toBe('https://api.example.com/api/open/v1/promoter/login');
		const headers = signed.headers as Record<string, string>;
		expect(headers['X-Api-Timestamp']).toBe(TS);
		expect(headers['Content-Type']).toBe('application/json');
		expect(headers['X-Api-Sign']).toBe(
			hmac(
				`PS-HMAC-SHA256\nPOST\n/api/open/v1/promoter/login\n\n${TS}\n${sha256('{"user_id":"李雷","n":1}')}`,
			),
		);
		expect(JSON.stringify(signed)).not.toContain(SECRET);
	});

	it('writes qs into the URL itself and signs it byte for byte', () => {
		const signed = signRequestOptions(
			credentials,
			{ method: 'GET', url: '/promoters/u%201', qs: { expand: 'links,statistics' } },
			Number(TS),
		);
		expect(signed.url).toBe(
			'https://api.example.com/api/open/v1/promoters/u%201?expand=links%2Cstatistics',
		);
		expect(signed.qs).toBeUndefined();
		expect(signed.body).toBeUndefined();
		expect((signed.headers as Record<string, string>)['X-Api-Sign']).toBe(
			hmac(
				`PS-HMAC-SHA256\nGET\n/api/open/v1/promoters/u%201\nexpand=links%2Cstatistics\n${TS}\n${EMPTY_SHA256}`,
			),
		);
	});

	it('signs the path in the form the URL parser sends it', () => {
		const wire = readWireRequest(
			{ method: 'GET', url: 'https://api.example.com/api/open/v1/promoters/a b' },
			'https://api.example.com',
		);
		expect(wire.path).toBe('/api/open/v1/promoters/a%20b');
	});

	it('keeps a timestamp given by the caller (clock-skew correction)', () => {
		const signed = signRequestOptions(
			credentials,
			{ method: 'GET', url: '/promoters/x', headers: { 'x-api-timestamp': '42' } },
			Number(TS),
		);
		expect((signed.headers as Record<string, string>)['X-Api-Timestamp']).toBe('42');
		expect(Object.keys(signed.headers ?? {}).filter((key) => /timestamp/i.test(key))).toHaveLength(
			1,
		);
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

describe(scenario('transport.naturalCompare'), () => {
	it('on 5,000 random name pairs', () => {
		let seed = 7;
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed / 2147483648;
		};
		const alphabet = ['a', 'b', '0', '1', '2', '9', '_', 'z'];
		const name = () =>
			Array.from(
				{ length: 1 + Math.floor(random() * 6) },
				() => alphabet[Math.floor(random() * alphabet.length)],
			).join('');
		for (let i = 0; i < 5000; i++) {
			const [x, y] = [name(), name()];
			expect([x, y, Math.sign(naturalCompare(x, y))]).toEqual([x, y, Math.sign(strnatcmp(x, y))]);
		}
	});
});

describe(scenario('transport.authenticateHttpRequestNode'), () => {
	// n8n's requestWithAuthentication (the HTTP Request node v3 and v4.x, its pagination) hands
	// the credential { uri, qs, body, form, formData, json } instead of { url, baseURL, qs, body }.
	const SERVICE = 'https://api.example.com';
	const PREFIX = `${SERVICE}/api/open/v1`;
	const v2 = { baseUrl: SERVICE, apiKey: 'pk_x', apiSecret: SECRET, signatureVersion: 'v2' };
	const v1 = { ...v2, signatureVersion: 'v1' };
	const headersOf = (signed: { headers?: unknown }) => signed.headers as Record<string, string>;
	const v2Sign = (method: string, path: string, query: string, body: string) =>
		hmac(`PS-HMAC-SHA256\n${method}\n${path}\n${query}\n${TS}\n${sha256(body)}`);

	const cases: Array<{
		name: string;
		options: SignableRequestOptions;
		url: string;
		body: string | undefined;
		contentType?: string;
	}> = [
		{
			name: 'absolute uri, JSON body object, json: true',
			options: {
				method: 'POST',
				uri: `${PREFIX}/track/refund`,
				body: { transaction_id: 't-1', reason: 'x' },
				json: true,
			},
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
			options: {
				method: 'POST',
				uri: `${PREFIX}/track/refund`,
				body: '{ "transaction_id" : "t-2" }',
			},
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
			options: {
				method: 'POST',
				uri: `${PREFIX}/track/refund`,
				form: { transaction_id: 't 4', tags: ['a', 'b'] },
				useQuerystring: true,
			},
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
	];

	it.each(cases)('$name', ({ options, url, body, contentType }) => {
		const signed = signRequestOptions(v2, options, Number(TS));
		expect(signed.url).toBe(url);
		if (options.uri !== undefined) expect(signed.uri).toBe(url);
		expect(signed.body).toBe(body);
		expect(signed.qs).toBeUndefined();
		expect(signed.form).toBeUndefined();
		const headers = headersOf(signed);
		expect(headers['Content-Type']).toBe(contentType);
		const parsed = new URL(url);
		expect(headers['X-Api-Sign']).toBe(
			v2Sign(String(options.method), parsed.pathname, parsed.search.replace(/^\?/, ''), body ?? ''),
		);
		expect(JSON.stringify(signed)).not.toContain(SECRET);
	});

	it('signs v1 over the top-level names of the query and the form body', () => {
		const signed = signRequestOptions(
			v1,
			{
				method: 'POST',
				uri: `${PREFIX}/track/conversion?event_name=purchase`,
				form: { invited_user_id: 'u', Amount: '1.00' },
			},
			Number(TS),
		);
		expect(headersOf(signed)['X-Api-Sign']).toBe(
			sha256(`amount&event_name&invited_user_id${TS}${SECRET}`),
		);
	});

	it('replaces a declared form content type only with its own, and keeps a JSON charset', () => {
		const refund = (transactionId: string, headers: Record<string, string>) =>
			signRequestOptions(
				v2,
				{
					method: 'POST',
					uri: `${PREFIX}/track/refund`,
					body: { transaction_id: transactionId },
					headers,
				},
				Number(TS),
			);
		const json = refund('t', { 'content-type': 'application/json; charset=utf-8' });
		expect(headersOf(json)['content-type']).toBe('application/json; charset=utf-8');
		const form = refund('t 5', { 'Content-Type': 'application/x-www-form-urlencoded' });
		expect(form.body).toBe('transaction_id=t+5');
		expect(headersOf(form)['Content-Type']).toBe('application/x-www-form-urlencoded');
	});

	const refused: Array<[string, SignableRequestOptions, RegExp]> = [
		[
			'multipart formData',
			{ method: 'POST', uri: `${PREFIX}/x`, formData: { f: 'v' } },
			/Multipart/,
		],
		[
			'a multipart content type',
			{
				method: 'POST',
				uri: `${PREFIX}/x`,
				body: { f: 'v' },
				headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
			},
			/Multipart/,
		],
		['a Buffer body', { method: 'POST', uri: `${PREFIX}/x`, body: Buffer.from('{}') }, /Binary/],
		[
			'a stream body',
			{ method: 'POST', uri: `${PREFIX}/x`, body: { pipe: () => undefined } as unknown as string },
			/Binary/,
		],
		[
			'a body and form fields',
			{ method: 'POST', uri: `${PREFIX}/x`, body: { a: 1 }, form: { b: 2 } },
			/both/,
		],
		[
			'another host',
			{ method: 'GET', uri: 'https://elsewhere.example.com/api/open/v1/x' },
			/not the credential's Base URL/,
		],
		['no URL at all', { method: 'GET' }, /no URL/],
	];
	it.each(refused)(
		'refuses %s before anything is sent, naming what is supported',
		(_name, options, message) => {
			let thrown: unknown;
			try {
				signRequestOptions(v2, options, Number(TS));
			} catch (error) {
				thrown = error;
			}
			expect(thrown).toBeInstanceOf(Error);
			expect((thrown as Error).message).toMatch(message);
			if (/Multipart|Binary|both/.test(message.source))
				expect((thrown as Error).message).toContain('Supported: a JSON body');
		},
	);
});
