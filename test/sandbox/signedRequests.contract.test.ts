/**
 * The sandbox's gateway against the spec, through the credential's authenticate(): every endpoint
 * with both key versions, tampering after signing, and each authentication failure (1000004).
 */

import { signedCall, type Call } from '../../support/services/client';
import { useSandbox, WRONG_SECRET } from '../../support/services/sandbox';
import { SERVER_MESSAGES } from '../../nodes/shared/transport/errors';
import { scenario } from '../../support/scenarios';
import { issueCode, relayBody, V1, V2, withHeaders } from './contractCalls';

const sandbox = useSandbox();
const { timestampExpired, signatureFailed } = SERVER_MESSAGES;

describe(scenario('sandbox.signedRequests'), () => {
	const post = (path: string, body: object): Call => ({ method: 'POST', path, body });
	const get = (path: string, qs?: Call['qs']): Call => ({ method: 'GET', path, qs });
	// The key prefixes: PhotoPal relays its users, VideoMax is relayed to.
	const [pp, vm] = ['pk_test_photopal', 'pk_test_videomax'];
	const debugBody = {
		source_product_key: 'prd_photopal',
		target_product_key: 'prd_videomax',
		user_id: 'dbg',
	};
	const signup = { event_name: 'signup', invited_user_id: 'new_user', invite_code: 'ADA2026' };
	const purchase = {
		event_name: 'purchase',
		invited_user_id: 'buyer_1',
		transaction_id: 'txn_new',
		conversion_value: 19.99,
	};
	const custom = { event_name: 'renewal', invited_user_id: 'buyer_1', conversion_value: 5 };
	const login = { user_id: 'new_promoter', email: 'a@b.co', lang: 'zh', theme_mode: 'dark' };
	const endpoints: Array<[string, string, Call, boolean]> = [
		['authorize', pp, post('/oauth/authorize', relayBody), true],
		['debug code', pp, post('/oauth/getDebugAuthCode', debugBody), true],
		['signup', vm, post('/track/conversion', signup), true],
		['purchase', vm, post('/track/conversion', purchase), true],
		['custom event', vm, post('/track/conversion', custom), true],
		['promoter login', vm, post('/promoter/login', login), true],
		['refund', vm, post('/track/refund', { transaction_id: 'txn_1002' }), false],
		[
			'get promoter',
			vm,
			get('/promoters/user_1001', { expand: 'links,statistics,balances' }),
			false,
		],
		['links', vm, get('/promoters/user_1001/links'), false],
		[
			'statistics',
			vm,
			get('/promoters/user_1001/statistics', { start_date: '2026-02-01', end_date: '2026-03-31' }),
			false,
		],
		['balances', vm, get('/promoters/user_1001/balances'), false],
	];
	it.each(endpoints)('%s with a v2 key', async (_name, keyPrefix, call) => {
		const answer = await signedCall(sandbox, `${keyPrefix}_v2`, call);
		expect(answer.json).toMatchObject({ code: 0 });
		expect(answer.json?.data).not.toBeNull();
	});
	it.each(endpoints)('%s with a v1 key', async (_name, keyPrefix, call, v1Allowed) => {
		const answer = await signedCall(sandbox, `${keyPrefix}_v1`, call);
		if (v1Allowed) expect(answer.json).toMatchObject({ code: 0 });
		else
			expect(answer.json).toEqual({
				code: 1000004,
				message: 'This endpoint requires signature version 2',
				data: null,
			});
	});
	it('exchange code with both versions', async () => {
		for (const apiKey of [V2, V1]) {
			const { code } = await issueCode(sandbox);
			const exchange = post('/oauth/getUserByAuthorizationCode', { code });
			const answer = await signedCall(sandbox, apiKey, exchange);
			expect(answer.json).toMatchObject({
				code: 0,
				data: {
					ref: 'PhotoPal',
					ref_product_key: 'prd_photopal',
					user_name: 'Ada',
					extra: { name: 'Ada' },
				},
			});
			expect(JSON.stringify(answer.json)).not.toContain('pp_42');
		}
	});
	it('authorize and redirect answers a real 302 for both versions', async () => {
		for (const apiKey of ['pk_test_photopal_v2', 'pk_test_photopal_v1']) {
			const qs = {
				product_key: 'prd_photopal',
				target_product_key: 'prd_videomax',
				user_id: 'pp 42/ü',
				extra: '{"name":"Ada"}',
			};
			const answer = await signedCall(sandbox, apiKey, get('/oauth/authorizeAndRedirect', qs));
			expect(answer.status).toBe(302);
			expect(String(answer.headers.location)).toMatch(
				/^https:\/\/videomax\.example\/landing\?ps_ref=rl_[0-9a-f]+&x_auth_code=[0-9a-f]{32}$/,
			);
		}
	});
	it('a user id with "/", space and non-ASCII travels as one percent-encoded path segment', async () => {
		const path = `/promoters/${encodeURIComponent('user/with space&ü')}`;
		const answer = await signedCall(sandbox, V2, { method: 'GET', path });
		expect(answer.json).toMatchObject({
			code: 0,
			data: { external_user_id: 'user/with space&ü', referral_code: null, joined_at: null },
		});
	});
});

describe(scenario('sandbox.tampering'), () => {
	it('a v2 body re-serialized after signing is rejected', async () => {
		const answer = await signedCall(
			sandbox,
			V2,
			{ method: 'POST', path: '/promoter/login', body: { user_id: 'u1', email: 'a@b.co' } },
			{
				tamper: (signed) => ({
					...signed,
					body: JSON.stringify(JSON.parse(String(signed.body)), null, 2),
				}),
			},
		);
		expect(answer.json).toEqual({ code: 1000004, message: signatureFailed, data: null });
	});
	it('a v2 query reordered after signing is rejected', async () => {
		const answer = await signedCall(
			sandbox,
			V2,
			{
				method: 'GET',
				path: '/promoters/user_1001/statistics',
				qs: { start_date: '2026-01-01', end_date: '2026-12-31' },
			},
			{
				tamper: (signed) => ({ ...signed, url: signed.url.replace(/\?(.*)&(.*)$/, '?$2&$1') }),
			},
		);
		expect(answer.json?.message).toBe(signatureFailed);
	});
	it('a v1 signature covers names only: changed values pass, an added field fails', async () => {
		const call: Call = { method: 'POST', path: '/promoter/login', body: { user_id: 'u1' } };
		const changedValue = await signedCall(sandbox, V1, call, {
			tamper: (s) => ({ ...s, body: '{"user_id":"u2"}' }),
		});
		expect(changedValue.json?.code).toBe(0);
		const addedField = await signedCall(sandbox, V1, call, {
			tamper: (s) => ({ ...s, body: '{"user_id":"u2","email":"a@b.co"}' }),
		});
		expect(addedField.json?.message).toBe(signatureFailed);
	});
});

describe(scenario('sandbox.authFailures'), () => {
	const promoterRead: Call = { method: 'GET', path: '/promoters/user_1001' };
	const without = (header: string) => ({ tamper: withHeaders((h) => delete h[header]) });
	const noTimestamp = without('X-Api-Timestamp');
	const timestamp = (change: (sent: string) => string) => ({
		tamper: withHeaders((h) => (h['X-Api-Timestamp'] = change(h['X-Api-Timestamp']))),
	});
	const behind301 = timestamp((sent) => String(Number(sent) - 301));
	const noKeyOrSign = 'The API key and signature are required';
	const refund: Call = {
		method: 'POST',
		path: '/track/refund',
		body: { transaction_id: 'txn_1002' },
	};
	const rows: Array<[string, string, object, string, Call?]> = [
		['missing key header', V2, without('X-Api-Key'), noKeyOrSign],
		['missing signature header', V2, without('X-Api-Sign'), noKeyOrSign],
		['unknown key', V2, { credential: { apiKey: 'pk_unknown' } }, 'The API key was not found'],
		['deleted key', 'pk_test_deleted_v2', {}, 'The API key was not found'],
		['v1 key on a v2-only endpoint', V1, {}, 'This endpoint requires signature version 2'],
		['v2 key without timestamp', V2, noTimestamp, 'The request timestamp is required'],
		['timestamp 301 s behind', V2, behind301, timestampExpired],
		['timestamp not a number', V2, timestamp(() => 'yesterday'), timestampExpired],
		['wrong secret', V2, { credential: { apiSecret: WRONG_SECRET } }, signatureFailed],
		['wrong signature version', V2, { credential: { signatureVersion: 'v1' } }, signatureFailed],
		['disabled key', 'pk_test_disabled_v2', {}, 'The API key is disabled'],
		['expired key', 'pk_test_expired_v2', {}, 'The API key has expired'],
		[
			'source IP outside the allowlist',
			'pk_test_allowlist_v2',
			{},
			'The client IP address is not allowlisted',
		],
		[
			'key without conversion:adjust on refund',
			'pk_test_readonly_v2',
			{},
			'Missing required permission: conversion:adjust',
			refund,
		],
	];
	it.each(rows)('%s', async (_name, apiKey, options, message, call = promoterRead) => {
		const answer = await signedCall(sandbox, apiKey, call, options);
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual({ code: 1000004, message, data: null });
	});
	it('a v1 key without timestamp is verified against the server time, so it fails', async () => {
		const answer = await signedCall(
			sandbox,
			V1,
			{ method: 'POST', path: '/promoter/login', body: { user_id: 'u1' } },
			noTimestamp,
		);
		// The signature was made with the client's timestamp; only a same-second server time would match it.
		expect([signatureFailed, 'success']).toContain(answer.json?.message);
	});
	it('an allowlist that contains loopback lets the request through', async () => {
		expect((await signedCall(sandbox, 'pk_test_loopback_v2', promoterRead)).json?.code).toBe(0);
	});
	it('a key with promoter:read only can read promoters', async () => {
		expect((await signedCall(sandbox, 'pk_test_readonly_v2', promoterRead)).json?.code).toBe(0);
	});
});
