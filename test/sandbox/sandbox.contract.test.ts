/**
 * The sandbox against the spec, through the credential's authenticate(): every endpoint with
 * both key versions, tampering, and one test per row of the spec's error tables.
 */
import type { IHttpRequestOptions } from 'n8n-workflow';
import { request } from 'undici';

import { signedCall, type Call } from '../../support/services/client';
import { useSandbox, WRONG_SECRET } from '../../support/services/sandbox';
import { SERVER_MESSAGES } from '../../nodes/shared/transport/errors';
import { percentile } from '../../sandbox/server';

const V2 = 'pk_test_videomax_v2';
const V1 = 'pk_test_videomax_v1';

function withHeaders(change: (headers: Record<string, string>) => void) {
	return (signed: IHttpRequestOptions): IHttpRequestOptions => {
		const headers = { ...(signed.headers as Record<string, string>) };
		change(headers);
		return { ...signed, headers };
	};
}

describe('sandbox contract', () => {
	const sandbox = useSandbox();

	const relayBody = {
		product_key: 'prd_photopal',
		target_product_key: 'prd_videomax',
		user_id: 'pp_42',
		extra: { name: 'Ada' },
	};

	async function issueCode(apiKey = 'pk_test_photopal_v2') {
		const answer = await signedCall(sandbox, apiKey, {
			method: 'POST',
			path: '/oauth/authorize',
			body: relayBody,
		});
		expect(answer.json?.code).toBe(0);
		return answer.json?.data as { code: string; redirect_url: string };
	}

	describe('every endpoint accepts a correctly signed request', () => {
		const endpoints: Array<[string, string, Call, boolean]> = [
			[
				'authorize',
				'pk_test_photopal',
				{ method: 'POST', path: '/oauth/authorize', body: relayBody },
				true,
			],
			[
				'debug code',
				'pk_test_photopal',
				{
					method: 'POST',
					path: '/oauth/getDebugAuthCode',
					body: {
						source_product_key: 'prd_photopal',
						target_product_key: 'prd_videomax',
						user_id: 'dbg',
					},
				},
				true,
			],
			[
				'signup',
				'pk_test_videomax',
				{
					method: 'POST',
					path: '/track/conversion',
					body: { event_name: 'signup', invited_user_id: 'new_user', invite_code: 'ADA2026' },
				},
				true,
			],
			[
				'purchase',
				'pk_test_videomax',
				{
					method: 'POST',
					path: '/track/conversion',
					body: {
						event_name: 'purchase',
						invited_user_id: 'buyer_1',
						transaction_id: 'txn_new',
						conversion_value: 19.99,
					},
				},
				true,
			],
			[
				'custom event',
				'pk_test_videomax',
				{
					method: 'POST',
					path: '/track/conversion',
					body: { event_name: 'renewal', invited_user_id: 'buyer_1', conversion_value: 5 },
				},
				true,
			],
			[
				'promoter login',
				'pk_test_videomax',
				{
					method: 'POST',
					path: '/promoter/login',
					body: { user_id: 'new_promoter', email: 'a@b.co', lang: 'zh', theme_mode: 'dark' },
				},
				true,
			],
			[
				'refund',
				'pk_test_videomax',
				{ method: 'POST', path: '/track/refund', body: { transaction_id: 'txn_1002' } },
				false,
			],
			[
				'get promoter',
				'pk_test_videomax',
				{
					method: 'GET',
					path: '/promoters/user_1001',
					qs: { expand: 'links,statistics,balances' },
				},
				false,
			],
			['links', 'pk_test_videomax', { method: 'GET', path: '/promoters/user_1001/links' }, false],
			[
				'statistics',
				'pk_test_videomax',
				{
					method: 'GET',
					path: '/promoters/user_1001/statistics',
					qs: { start_date: '2026-02-01', end_date: '2026-03-31' },
				},
				false,
			],
			[
				'balances',
				'pk_test_videomax',
				{ method: 'GET', path: '/promoters/user_1001/balances' },
				false,
			],
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
				const { code } = await issueCode();
				const answer = await signedCall(sandbox, apiKey, {
					method: 'POST',
					path: '/oauth/getUserByAuthorizationCode',
					body: { code },
				});
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
				const answer = await signedCall(sandbox, apiKey, {
					method: 'GET',
					path: '/oauth/authorizeAndRedirect',
					qs: {
						product_key: 'prd_photopal',
						target_product_key: 'prd_videomax',
						user_id: 'pp 42/ü',
						extra: '{"name":"Ada"}',
					},
				});
				expect(answer.status).toBe(302);
				expect(String(answer.headers.location)).toMatch(
					/^https:\/\/videomax\.example\/landing\?ps_ref=rl_[0-9a-f]+&x_auth_code=[0-9a-f]{32}$/,
				);
			}
		});
		it('a user id with "/", space and non-ASCII travels as one percent-encoded path segment', async () => {
			const answer = await signedCall(sandbox, V2, {
				method: 'GET',
				path: `/promoters/${encodeURIComponent('user/with space&ü')}`,
			});
			expect(answer.json).toMatchObject({
				code: 0,
				data: { external_user_id: 'user/with space&ü', referral_code: null, joined_at: null },
			});
		});
	});

	describe('tampering after signing', () => {
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
			expect(answer.json).toEqual({
				code: 1000004,
				message: SERVER_MESSAGES.signatureFailed,
				data: null,
			});
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
			expect(answer.json?.message).toBe(SERVER_MESSAGES.signatureFailed);
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
			expect(addedField.json?.message).toBe(SERVER_MESSAGES.signatureFailed);
		});
	});

	describe('authentication failures (code 1000004)', () => {
		const promoterRead: Call = { method: 'GET', path: '/promoters/user_1001' };
		const rows: Array<[string, string, object, string, Call?]> = [
			[
				'missing key header',
				V2,
				{ tamper: withHeaders((h) => delete h['X-Api-Key']) },
				'The API key and signature are required',
			],
			[
				'missing signature header',
				V2,
				{ tamper: withHeaders((h) => delete h['X-Api-Sign']) },
				'The API key and signature are required',
			],
			['unknown key', V2, { credential: { apiKey: 'pk_unknown' } }, 'The API key was not found'],
			['deleted key', 'pk_test_deleted_v2', {}, 'The API key was not found'],
			['v1 key on a v2-only endpoint', V1, {}, 'This endpoint requires signature version 2'],
			[
				'v2 key without timestamp',
				V2,
				{ tamper: withHeaders((h) => delete h['X-Api-Timestamp']) },
				'The request timestamp is required',
			],
			[
				'timestamp 301 s behind',
				V2,
				{
					tamper: withHeaders(
						(h) => (h['X-Api-Timestamp'] = String(Number(h['X-Api-Timestamp']) - 301)),
					),
				},
				SERVER_MESSAGES.timestampExpired,
			],
			[
				'timestamp not a number',
				V2,
				{ tamper: withHeaders((h) => (h['X-Api-Timestamp'] = 'yesterday')) },
				SERVER_MESSAGES.timestampExpired,
			],
			[
				'wrong secret',
				V2,
				{ credential: { apiSecret: WRONG_SECRET } },
				SERVER_MESSAGES.signatureFailed,
			],
			[
				'wrong signature version',
				V2,
				{ credential: { signatureVersion: 'v1' } },
				SERVER_MESSAGES.signatureFailed,
			],
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
				{ method: 'POST', path: '/track/refund', body: { transaction_id: 'txn_1002' } },
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
				{
					tamper: withHeaders((h) => delete h['X-Api-Timestamp']),
				},
			);
			// The signature was made with the client's timestamp; only a same-second server time would match it.
			expect([SERVER_MESSAGES.signatureFailed, 'success']).toContain(answer.json?.message);
		});
		it('an allowlist that contains loopback lets the request through', async () => {
			expect((await signedCall(sandbox, 'pk_test_loopback_v2', promoterRead)).json?.code).toBe(0);
		});
		it('a key with promoter:read only can read promoters', async () => {
			expect((await signedCall(sandbox, 'pk_test_readonly_v2', promoterRead)).json?.code).toBe(0);
		});
	});

	describe('track/refund errors and states', () => {
		const refund = (body: object, apiKey = V2) =>
			signedCall(sandbox, apiKey, { method: 'POST', path: '/track/refund', body });
		const rows: Array<[string, object, number, string]> = [
			[
				'no conversion with that id',
				{ transaction_id: 'txn_missing' },
				1000001,
				'The conversion for the specified transaction was not found',
			],
			[
				'empty transaction_id',
				{ transaction_id: '' },
				1000005,
				'The transaction_id field is required',
			],
			[
				'whitespace-only transaction_id',
				{ transaction_id: '   ' },
				1000005,
				'The transaction_id field is required',
			],
			[
				'transaction_id neither string nor integer',
				{ transaction_id: 1.5 },
				1000005,
				'The transaction_id field has an invalid format',
			],
			[
				'transaction_id as an object',
				{ transaction_id: { id: 1 } },
				1000005,
				'The transaction_id field has an invalid format',
			],
			[
				'transaction_id over 255 characters',
				{ transaction_id: 'x'.repeat(256) },
				1000005,
				'The transaction_id field must not exceed 255 characters',
			],
			[
				'reason not a string',
				{ transaction_id: 'txn_1002', reason: 42 },
				1000005,
				'The reason field has an invalid format',
			],
			[
				'reason over 255 characters',
				{ transaction_id: 'txn_1002', reason: 'r'.repeat(256) },
				1000005,
				'The reason field must not exceed 255 characters',
			],
			[
				'several conversions match',
				{ transaction_id: 'txn_duplicate' },
				1000005,
				'Multiple conversion records match the specified transaction_id; the request cannot be processed automatically',
			],
			[
				'not a paid-type conversion',
				{ transaction_id: 'txn_trial' },
				1000005,
				'This conversion type does not support refunds or voids',
			],
			[
				'voided conversion',
				{ transaction_id: 'txn_voided' },
				6000000,
				'This conversion has already been voided and cannot be fully refunded again',
			],
		];
		it.each(rows)('%s', async (_name, body, code, message) => {
			expect((await refund(body)).json).toEqual({ code, message, data: null });
		});
		it('server failure (retry allowed)', async () => {
			sandbox.addFault({ kind: 'appError', match: 'refund', times: 1 });
			expect((await refund({ transaction_id: 'txn_1002' })).json).toEqual({
				code: 6000000,
				message: 'Failed to apply the conversion adjustment',
				data: null,
			});
			expect((await refund({ transaction_id: 'txn_1002' })).json?.data.status).toBe('APPLIED');
		});
		it('applies once, counts paid rewards and sub-rewards, then answers ALREADY_PROCESSED with zero counts', async () => {
			const first = await refund({ transaction_id: '  txn_1001 ', reason: 'customer request' });
			expect(first.json?.data).toMatchObject({
				transaction_id: 'txn_1001',
				adjustment_type: 1,
				status: 'APPLIED',
				cancelled_reward_count: 2,
				preserved_paid_reward_count: 1,
				cancelled_sub_reward_count: 1,
				preserved_paid_sub_reward_count: 1,
			});
			expect(first.json?.data.adjusted_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
			const repeat = await refund({ transaction_id: 'txn_1001' });
			expect(repeat.json?.data).toMatchObject({
				status: 'ALREADY_PROCESSED',
				cancelled_reward_count: 0,
				preserved_paid_reward_count: 0,
				cancelled_sub_reward_count: 0,
				preserved_paid_sub_reward_count: 0,
			});
			const rejected = sandbox.state.rewards.filter(
				(r) => r.status === 'rejected' && r.note.startsWith('API全额退款'),
			);
			expect(rejected).toHaveLength(3);
			expect(rejected[0].note).toBe('API全额退款 customer request');
		});
		it('accepts an integer transaction_id', async () => {
			expect((await refund({ transaction_id: 20260301 })).json?.data).toMatchObject({
				status: 'APPLIED',
				transaction_id: '20260301',
				cancelled_reward_count: 1,
			});
		});
		it('a refunded purchase leaves the paying-customer statistics', async () => {
			const stats = async () =>
				(await signedCall(sandbox, V2, { method: 'GET', path: '/promoters/user_1001/statistics' }))
					.json?.data.paying_customers;
			const track = (body: object) =>
				signedCall(sandbox, V2, { method: 'POST', path: '/track/conversion', body });
			await track({ event_name: 'signup', invited_user_id: 'new_buyer', invite_code: 'ADA2026' });
			await track({
				event_name: 'purchase',
				invited_user_id: 'new_buyer',
				transaction_id: 'txn_new',
				conversion_value: 30,
			});
			expect(await stats()).toBe(3);
			expect((await refund({ transaction_id: 'txn_new' })).json?.data.status).toBe('APPLIED');
			expect(await stats()).toBe(2);
		});
	});

	describe('promoter resource errors', () => {
		const get = (path: string, qs?: Record<string, string>, apiKey = V2) =>
			signedCall(sandbox, apiKey, { method: 'GET', path, qs });
		const rows: Array<
			[string, string, Record<string, string> | undefined, string, number, string]
		> = [
			[
				'unknown promoter',
				'/promoters/nobody',
				undefined,
				V2,
				1000001,
				'The promoter was not found',
			],
			[
				'v1 key',
				'/promoters/user_1001/links',
				undefined,
				V1,
				1000004,
				'This endpoint requires signature version 2',
			],
			[
				'other authentication failure',
				'/promoters/user_1001/balances',
				undefined,
				'pk_test_disabled_v2',
				1000004,
				'The API key is disabled',
			],
			[
				'missing promoter:read (reported under 6000000)',
				'/promoters/user_1001',
				undefined,
				'pk_test_adjustonly_v2',
				6000000,
				'Missing required permission: promoter:read',
			],
			[
				'empty user_id',
				'/promoters/',
				undefined,
				V2,
				6000000,
				'The user_id path parameter has an invalid format',
			],
			[
				'user_id over 255 characters',
				`/promoters/${'u'.repeat(256)}/links`,
				undefined,
				V2,
				6000000,
				'The user_id path parameter has an invalid format',
			],
			[
				'unknown expand value',
				'/promoters/user_1001',
				{ expand: 'links,wallet' },
				V2,
				6000000,
				'Unsupported expand value: wallet',
			],
			[
				'start_date not Y-m-d',
				'/promoters/user_1001/statistics',
				{ start_date: '2026-2-1' },
				V2,
				6000000,
				'The start_date parameter must use the Y-m-d format',
			],
			[
				'end_date not a real date',
				'/promoters/user_1001/statistics',
				{ end_date: '2026-13-01' },
				V2,
				6000000,
				'The end_date parameter must use the Y-m-d format',
			],
			[
				'reversed range',
				'/promoters/user_1001/statistics',
				{ start_date: '2026-03-02', end_date: '2026-03-01' },
				V2,
				6000000,
				'The start_date must not be later than the end_date',
			],
		];
		it.each(rows)('%s', async (_name, path, qs, apiKey, code, message) => {
			expect((await get(path, qs, apiKey)).json).toEqual({ code, message, data: null });
		});
		it('a query value holding "=" is read whole, not cut at the "="', async () => {
			expect((await get('/promoters/user_1001/statistics?start_date=2026-03-01=x')).json).toEqual({
				code: 6000000,
				message: 'The start_date parameter must use the Y-m-d format',
				data: null,
			});
		});
		it('expand given as an array', async () => {
			expect((await get('/promoters/user_1001?expand[]=links')).json).toEqual({
				code: 6000000,
				message: 'The expand parameter has an invalid format',
				data: null,
			});
		});
		it('server failure (retry allowed)', async () => {
			sandbox.addFault({ kind: 'appError', match: 'promoterRead', times: 1 });
			expect((await get('/promoters/user_1001')).json).toEqual({
				code: 6000000,
				message: 'Failed to retrieve promoter data',
				data: null,
			});
		});
		it('balances are sorted by currency; a promoter without funds gets one zero entry', async () => {
			expect((await get('/promoters/user_1001/balances')).json?.data).toEqual([
				{
					object: 'balance',
					currency: 'EUR',
					available: '5.00',
					pending: '0.00',
					withdrawing: '0.00',
				},
				// pending: 10.00 + 2.00 (sub) + 5.00 on txn_1001, 3.00 on 20260301; paid and rejected rewards are not pending
				{
					object: 'balance',
					currency: 'USD',
					available: '125.50',
					pending: '20.00',
					withdrawing: '20.00',
				},
			]);
			expect((await get('/promoters/user_1002/balances')).json?.data).toEqual([
				{
					object: 'balance',
					currency: 'USD',
					available: '0.00',
					pending: '0.00',
					withdrawing: '0.00',
				},
			]);
		});
		it('links use the tracking domain of the promoter language and skip disabled links', async () => {
			const zh = (await get('/promoters/user_1002/links')).json?.data;
			expect(zh).toEqual([
				expect.objectContaining({
					url: 'https://cn.go.videomax.example/LILEI88',
					introduction: expect.objectContaining({ locale: 'zh' }),
				}),
			]);
			const en = (
				(await get('/promoters/user_1001/links')).json?.data as unknown as Array<{ url: string }>
			).map((l) => l.url);
			expect(en).toEqual([
				'https://go.videomax.example/ADA2026',
				'https://go.videomax.example/ADA-SPRING',
			]);
		});
		it('statistics filter on creation time read in UTC+8 and echo the dates', async () => {
			const march1 = (
				await get('/promoters/user_1001/statistics', {
					start_date: '2026-03-01',
					end_date: '2026-03-01',
				})
			).json?.data;
			expect(march1).toMatchObject({
				clicks: 1,
				signups: 0,
				start_date: '2026-03-01',
				end_date: '2026-03-01',
				currency: 'USD',
			});
			const all = (await get('/promoters/user_1001/statistics')).json?.data;
			expect(all).toMatchObject({
				clicks: 4,
				signups: 2,
				paying_customers: 2,
				rewards_paid: '12.90',
				start_date: null,
				end_date: null,
			});
		});
	});

	describe('promoter/login errors', () => {
		const login = (body: object, apiKey = V2) =>
			signedCall(sandbox, apiKey, { method: 'POST', path: '/promoter/login', body });
		it.each([
			['user_id missing', { email: 'a@b.co' }, V2, 'The user_id field is required'],
			[
				'bad email',
				{ user_id: 'u1', email: 'not-an-email' },
				V2,
				'The email address has an invalid format',
			],
			[
				'no referral campaign',
				{ user_id: 'u1' },
				'pk_test_paused_v2',
				'No referral campaign exists for this product',
			],
		])('%s', async (_name, body, apiKey, message) => {
			expect((await login(body, apiKey)).json).toEqual({ code: 6000000, message, data: null });
		});
		it('authentication messages as above', async () => {
			expect((await login({ user_id: 'u1' }, 'pk_test_expired_v2')).json).toEqual({
				code: 1000004,
				message: 'The API key has expired',
				data: null,
			});
		});
		it('is idempotent on user_id and returns a fresh token each time', async () => {
			const first = (await login({ user_id: 'u9' })).json?.data;
			const second = (await login({ user_id: 'u9' })).json?.data;
			expect(second?.user_string_id).toBe(first?.user_string_id);
			expect(second?.token).not.toBe(first?.token);
		});
	});

	describe('authorization codes and conversions', () => {
		it('a code is redeemed once, by the target product only, before it expires', async () => {
			const exchange = (code: string, apiKey = V2) =>
				signedCall(sandbox, apiKey, {
					method: 'POST',
					path: '/oauth/getUserByAuthorizationCode',
					body: { code },
				});
			const { code } = await issueCode();
			expect((await exchange(code, 'pk_test_photopal_v2')).json?.message).toBe(
				'The authorization code does not belong to this product',
			);
			expect((await exchange(code)).json?.code).toBe(0);
			expect((await exchange(code)).json?.message).toBe(
				'The authorization code has already been used',
			);
			const late = await issueCode();
			sandbox.clockOffsetSeconds = 601;
			try {
				const serverNow = String(Math.floor(Date.now() / 1000) + 601);
				const answer = await signedCall(sandbox, V2, {
					method: 'POST',
					path: '/oauth/getUserByAuthorizationCode',
					body: { code: late.code },
					headers: { 'X-Api-Timestamp': serverNow },
				});
				expect(answer.json?.message).toBe('The authorization code has expired');
			} finally {
				sandbox.clockOffsetSeconds = 0;
			}
			expect((await exchange('never-issued')).json?.code).toBe(1000001);
			expect(
				(
					await signedCall(sandbox, V2, {
						method: 'POST',
						path: '/oauth/getUserByAuthorizationCode',
						body: { x_auth_code: code },
					})
				).json?.message,
			).toBe('The code field is required');
		});
		it('authorizeAndRedirect to an unknown product answers the envelope, not a redirect', async () => {
			const answer = await signedCall(sandbox, 'pk_test_photopal_v2', {
				method: 'GET',
				path: '/oauth/authorizeAndRedirect',
				qs: { product_key: 'prd_photopal', target_product_key: 'prd_nope', user_id: 'u' },
			});
			expect(answer.status).toBe(200);
			expect(answer.json).toEqual({
				code: 1000001,
				message: 'The authorization target product does not exist',
				data: null,
			});
		});
		it('authorize to a product whose affiliate campaign is paused fails', async () => {
			const answer = await signedCall(sandbox, 'pk_test_photopal_v2', {
				method: 'POST',
				path: '/oauth/authorize',
				body: { ...relayBody, target_product_key: 'prd_pausedapp' },
			});
			expect(answer.json).toEqual({
				code: 6000000,
				message: 'The target product has no affiliate campaign in progress',
				data: null,
			});
		});
		it('a relayed user signs up with the landing ps_ref, once', async () => {
			const { redirect_url: redirectUrl } = await issueCode();
			const psRef = new URL(redirectUrl).searchParams.get('ps_ref');
			const signup = { event_name: 'signup', invited_user_id: 'vm_77', invite_code: psRef };
			const first = await signedCall(sandbox, V2, {
				method: 'POST',
				path: '/track/conversion',
				body: signup,
			});
			expect(first.json?.data).toMatchObject({
				event_type: 1,
				event_name: 'signup',
				status: 1,
				campaign_id: 201,
			});
			const again = await signedCall(sandbox, V2, {
				method: 'POST',
				path: '/track/conversion',
				body: signup,
			});
			expect(again.json?.message).toBe('The conversion event already exists');
		});
		it('a purchase needs an earlier signup of the same user', async () => {
			const answer = await signedCall(sandbox, V2, {
				method: 'POST',
				path: '/track/conversion',
				body: {
					event_name: 'purchase',
					invited_user_id: 'stranger',
					transaction_id: 't',
					conversion_value: 1,
				},
			});
			expect(answer.json?.code).toBe(1000005);
		});
	});

	describe('hosted promoter center stand-in', () => {
		async function login(userId: string) {
			const answer = await signedCall(sandbox, V2, {
				method: 'POST',
				path: '/promoter/login',
				body: { user_id: userId, username: 'Grace <Hopper>' },
			});
			return (answer.json?.data as { token: string }).token;
		}

		it('opens a fresh token in both address shapes and escapes the name', async () => {
			const token = await login('center_user');
			for (const address of [
				`${sandbox.url}/promoter-center/iframe/${token}`,
				`${sandbox.url}/promoter-center?at=${token}`,
			]) {
				const page = await request(address);
				const html = await page.body.text();
				expect(page.statusCode).toBe(200);
				expect(html).toContain('<h1 id="promoter">Grace &#60;Hopper&#62;</h1>');
				expect(html).toContain('Promoter center of VideoMax');
			}
		});

		it('shows an expired login for a token it never issued', async () => {
			const page = await request(`${sandbox.url}/promoter-center/iframe/not-a-token`);
			expect(page.statusCode).toBe(401);
			expect(await page.body.text()).toContain('Your login has expired');
		});
	});

	describe('control route /__sandbox/activity (for a sandbox in another process)', () => {
		const statisticsOf = async (userId: string) =>
			(
				await signedCall(sandbox, V2, {
					method: 'GET',
					path: `/promoters/${userId}/statistics`,
				})
			).json?.data as Record<string, unknown>;

		it("records clicks, paying customers and credit that the promoter's figures then show", async () => {
			const before = await statisticsOf('user_1002');
			const answer = await request(`${sandbox.url}/__sandbox/activity`, {
				method: 'POST',
				body: JSON.stringify({
					product: 'prd_videomax',
					userId: 'user_1002',
					clicks: 3,
					payingCustomers: 2,
					credit: { currency: 'GBP', cents: 750 },
				}),
			});
			expect(answer.statusCode).toBe(200);
			expect(await answer.body.json()).toEqual({ recorded: true });
			const after = await statisticsOf('user_1002');
			expect([after.clicks, after.signups, after.paying_customers]).toEqual([
				Number(before.clicks) + 3,
				Number(before.signups) + 2,
				Number(before.paying_customers) + 2,
			]);
			const balances = await signedCall(sandbox, V2, {
				method: 'GET',
				path: '/promoters/user_1002/balances',
			});
			expect(balances.json?.data).toContainEqual({
				object: 'balance',
				currency: 'GBP',
				available: '7.50',
				pending: '0.00',
				withdrawing: '0.00',
			});
		});

		it('refuses a user who is not a promoter of the product', async () => {
			const answer = await request(`${sandbox.url}/__sandbox/activity`, {
				method: 'POST',
				body: JSON.stringify({ product: 'prd_videomax', userId: 'nobody', clicks: 1 }),
			});
			expect(answer.statusCode).toBe(400);
			expect(await answer.body.json()).toEqual({
				error: 'nobody is not a promoter of prd_videomax',
			});
		});
	});
	describe('control route /__sandbox/calls (what the sandbox received and verified)', () => {
		const calls = async () => {
			const answer = await request(`${sandbox.url}/__sandbox/calls`);
			expect(answer.statusCode).toBe(200);
			return ((await answer.body.json()) as { calls: Array<Record<string, unknown>> }).calls;
		};

		it('records each call as received, with its key, key version and signature check', async () => {
			await signedCall(sandbox, V2, {
				method: 'GET',
				path: '/promoters/user_1001/statistics',
				qs: { start_date: '2026-01-01', end_date: '2026-12-31' },
			});
			await signedCall(sandbox, V1, {
				method: 'POST',
				path: '/promoter/login',
				body: { user_id: 'calls_v1', username: 'Zoë' },
			});
			await signedCall(
				sandbox,
				V2,
				{ method: 'POST', path: '/track/refund', body: { transaction_id: 'txn_1001' } },
				{ tamper: withHeaders((headers) => (headers['X-Api-Sign'] = '0'.repeat(64))) },
			);
			const [statistics, login, tampered] = await calls();
			expect(statistics).toEqual({
				method: 'GET',
				path: '/api/open/v1/promoters/user_1001/statistics',
				query: 'start_date=2026-01-01&end_date=2026-12-31',
				contentType: null,
				body: '',
				apiKey: V2,
				keyVersion: 'v2',
				signature: 'valid',
				code: 0,
			});
			expect(login).toMatchObject({
				method: 'POST',
				path: '/api/open/v1/promoter/login',
				query: '',
				apiKey: V1,
				keyVersion: 'v1',
				signature: 'valid',
				code: 0,
			});
			expect(JSON.parse(String(login.body))).toEqual({ user_id: 'calls_v1', username: 'Zoë' });
			expect(tampered).toMatchObject({
				path: '/api/open/v1/track/refund',
				apiKey: V2,
				signature: 'invalid',
				code: 1000004,
			});
		});

		it('says "not checked" when the call failed before the signature, and forgets on reset', async () => {
			await request(`${sandbox.url}/api/open/v1/promoters/user_1001`);
			expect(await calls()).toEqual([
				expect.objectContaining({ apiKey: null, keyVersion: null, signature: 'not checked' }),
			]);
			await request(`${sandbox.url}/__sandbox/reset`, { method: 'POST' });
			expect(await calls()).toEqual([]);
		});
	});
});

describe("the sandbox's percentile, the one the benchmarks and the queue test print", () => {
	it('is the nearest rank: the smallest value with p % of the values at or below it', () => {
		const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
		expect(percentile(hundred, 50)).toBe(50);
		expect(percentile(hundred, 99)).toBe(99);
		expect(percentile(hundred, 100)).toBe(100);
		expect(percentile([7, 3], 50)).toBe(3);
		expect(percentile([7, 3], 51)).toBe(7);
		expect(percentile([5], 0)).toBe(5);
	});
	it('is null for no values (JSON has no NaN)', () => {
		expect(percentile([], 99)).toBeNull();
	});
});
