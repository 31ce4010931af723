/**
 * Known-answer tests of the signing core. Every expected value is computed here, apart from the
 * code under test: the string to sign is written out literally and hashed with node:crypto, or
 * the signature is fixed hex computed with Python's hashlib/hmac.
 */
import {
	buildQueryString,
	encodeRfc3986,
	naturalCompare,
	signV1,
	signV2,
	v1StringToSign,
	v2StringToSign,
} from '../../nodes/shared/transport/signing';
import { signRequestOptions } from '../../nodes/shared/transport/requestSigner';
import { strnatcmp } from '../../sandbox/verify';
import { scenario } from '../../support/scenarios';
import { EMPTY_SHA256, hmac, SECRET, sha256, TS } from './knownAnswers';

describe(scenario('transport.signatureV1'), () => {
	it.each<[string, string[], string]>([
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
	])('%s', (_name, names, joined) => {
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
	const SIGNUP = '{"event_name":"signup","invited_user_id":"u1","invite_code":"ADA2026"}';
	const INTEGER = '{"transaction_id":20260301}';
	const v2 = (method: string, path: string, query: string, body: string) => ({
		method,
		path: `/api/open/v1${path}`,
		query,
		timestamp: TS,
		body,
	});
	it.each([
		[
			'POST with a JSON body',
			v2('post', '/track/conversion', '', SIGNUP),
			`PS-HMAC-SHA256\nPOST\n/api/open/v1/track/conversion\n\n${TS}\n${sha256(SIGNUP)}`,
		],
		[
			'GET with a query string and an empty body',
			v2('GET', '/promoters/user_1001/statistics', 'start_date=2026-03-01&end_date=2026-03-31', ''),
			`PS-HMAC-SHA256\nGET\n/api/open/v1/promoters/user_1001/statistics\nstart_date=2026-03-01&end_date=2026-03-31\n${TS}\n${EMPTY_SHA256}`,
		],
		[
			'GET without a query leaves line 4 empty',
			v2('GET', '/promoters/user_1001', '', ''),
			`PS-HMAC-SHA256\nGET\n/api/open/v1/promoters/user_1001\n\n${TS}\n${EMPTY_SHA256}`,
		],
		[
			'POST with an empty body hashes the empty string',
			v2('POST', '/promoter/login', '', ''),
			`PS-HMAC-SHA256\nPOST\n/api/open/v1/promoter/login\n\n${TS}\n${EMPTY_SHA256}`,
		],
		[
			'integer values are signed as serialized',
			v2('POST', '/track/refund', '', INTEGER),
			`PS-HMAC-SHA256\nPOST\n/api/open/v1/track/refund\n\n${TS}\n${sha256(INTEGER)}`,
		],
	])('%s', (_name, input, stringToSign) => {
		expect(v2StringToSign(input)).toBe(stringToSign);
		expect(signV2(input, SECRET)).toBe(hmac(stringToSign));
	});

	it('a non-ASCII JSON body is hashed as its UTF-8 bytes (fixed hex from Python)', () => {
		const body = '{"transaction_id":"txn_1001","reason":"客户退款"}';
		expect(signV2(v2('POST', '/track/refund', '', body), SECRET)).toBe(
			'ce990f9508cb804aeccd4f4da7d8bbd1f5236c1ab628146776786de00b2f520d',
		);
		expect(sha256(Buffer.from(body, 'utf8'))).toBe(sha256(body));
	});

	it('a path segment with "/", spaces and non-ASCII is signed percent-encoded (fixed hex from Python)', () => {
		const input = v2(
			'GET',
			`/promoters/${encodeRfc3986('a/b c ü')}/statistics`,
			'start_date=2026-03-01&end_date=2026-03-31',
			'',
		);
		expect(input.path).toBe('/api/open/v1/promoters/a%2Fb%20c%20%C3%BC/statistics');
		expect(signV2(input, SECRET)).toBe(
			'e39dfd0e402e40fc838a06d76d043c9503f1384593c6d954317f210f775e02a1',
		);
	});

	it('query values are RFC 3986 encoded in the given order', () => {
		expect(buildQueryString({ z: "a b&c=d+e'f*(g)!", a: 'ü', skip: undefined, n: 5 })).toBe(
			'z=a%20b%26c%3Dd%2Be%27f%2A%28g%29%21&a=%C3%BC&n=5',
		);
	});
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
