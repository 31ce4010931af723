/**
 * The sandbox's conversions against the spec: one test per row of the track and refund error
 * tables, refunds applied once, and the relay's one-time codes and the conversions they lead to.
 */

import { signedCall } from '../../support/services/client';
import { useSandbox } from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';
import { issueCode, relayBody, sender, V2 } from './contractCalls';

const sandbox = useSandbox();
const { post, get } = sender(sandbox);
const PHOTOPAL = 'pk_test_photopal_v2';

describe(scenario('sandbox.trackRefund'), () => {
	const refund = (body: object) => post('/track/refund', body);
	const required = 'The transaction_id field is required';
	const badFormat = 'The transaction_id field has an invalid format';
	const rows: Array<[string, object, number, string]> = [
		[
			'no conversion with that id',
			{ transaction_id: 'txn_missing' },
			1000001,
			'The conversion for the specified transaction was not found',
		],
		['empty transaction_id', { transaction_id: '' }, 1000005, required],
		['whitespace-only transaction_id', { transaction_id: '   ' }, 1000005, required],
		['transaction_id neither string nor integer', { transaction_id: 1.5 }, 1000005, badFormat],
		['transaction_id as an object', { transaction_id: { id: 1 } }, 1000005, badFormat],
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
	it('a request held and then dropped before the endpoint ran is not applied', async () => {
		sandbox.addFault({ kind: 'drop', match: 'refund', latencyMs: 50, times: 1 });
		const started = Date.now();
		await expect(refund({ transaction_id: 'txn_1002' })).rejects.toThrow();
		expect(Date.now() - started).toBeGreaterThanOrEqual(50);
		const conversion = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1002');
		expect(conversion?.adjustments).toBe(0);
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
			(await get('/promoters/user_1001/statistics')).json?.data.paying_customers;
		const track = (body: object) => post('/track/conversion', body);
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

describe(scenario('sandbox.relay'), () => {
	it('a code is redeemed once, by the target product only, before it expires', async () => {
		const exchange = (code: string, apiKey = V2) =>
			post('/oauth/getUserByAuthorizationCode', { code }, apiKey);
		const { code } = await issueCode(sandbox);
		expect((await exchange(code, PHOTOPAL)).json?.message).toBe(
			'The authorization code does not belong to this product',
		);
		expect((await exchange(code)).json?.code).toBe(0);
		expect((await exchange(code)).json?.message).toBe(
			'The authorization code has already been used',
		);
		const late = await issueCode(sandbox);
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
		const misnamed = await post('/oauth/getUserByAuthorizationCode', { x_auth_code: code });
		expect(misnamed.json?.message).toBe('The code field is required');
	});
	it('authorizeAndRedirect to an unknown product answers the envelope, not a redirect', async () => {
		const qs = { product_key: 'prd_photopal', target_product_key: 'prd_nope', user_id: 'u' };
		const answer = await get('/oauth/authorizeAndRedirect', qs, PHOTOPAL);
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual({
			code: 1000001,
			message: 'The authorization target product does not exist',
			data: null,
		});
	});
	it('authorize to a product whose affiliate campaign is paused fails', async () => {
		const body = { ...relayBody, target_product_key: 'prd_pausedapp' };
		const answer = await post('/oauth/authorize', body, PHOTOPAL);
		expect(answer.json).toEqual({
			code: 6000000,
			message: 'The target product has no affiliate campaign in progress',
			data: null,
		});
	});
	it('a relayed user signs up with the landing ps_ref, once', async () => {
		const { redirect_url: redirectUrl } = await issueCode(sandbox);
		const psRef = new URL(redirectUrl).searchParams.get('ps_ref');
		const signup = { event_name: 'signup', invited_user_id: 'vm_77', invite_code: psRef };
		const first = await post('/track/conversion', signup);
		expect(first.json?.data).toMatchObject({
			event_type: 1,
			event_name: 'signup',
			status: 1,
			campaign_id: 201,
		});
		const again = await post('/track/conversion', signup);
		expect(again.json?.message).toBe('The conversion event already exists');
	});
	it('a purchase needs an earlier signup of the same user', async () => {
		const answer = await post('/track/conversion', {
			event_name: 'purchase',
			invited_user_id: 'stranger',
			transaction_id: 't',
			conversion_value: 1,
		});
		expect(answer.json?.code).toBe(1000005);
	});
});
