/**
 * The sandbox's control routes outside the API (activity, calls) and the percentile the
 * benchmarks and the queue test print.
 */
import { request } from 'undici';

import { signedCall } from '../../support/services/client';
import { useSandbox } from '../../support/services/sandbox';
import { percentile } from '../../sandbox';
import { scenario } from '../../support/scenarios';
import { balance, sender, V1, V2, withHeaders } from './contractCalls';

const sandbox = useSandbox();
const { post, get } = sender(sandbox);

describe(scenario('sandbox.activityRoute'), () => {
	const activity = (body: object) =>
		request(`${sandbox.url}/__sandbox/activity`, { method: 'POST', body: JSON.stringify(body) });
	const statisticsOf = async (userId: string) =>
		(await get(`/promoters/${userId}/statistics`)).json?.data as Record<string, unknown>;

	it("records clicks, paying customers and credit that the promoter's figures then show", async () => {
		const before = await statisticsOf('user_1002');
		const answer = await activity({
			product: 'prd_videomax',
			userId: 'user_1002',
			clicks: 3,
			payingCustomers: 2,
			credit: { currency: 'GBP', cents: 750 },
		});
		expect(answer.statusCode).toBe(200);
		expect(await answer.body.json()).toEqual({ recorded: true });
		const after = await statisticsOf('user_1002');
		expect([after.clicks, after.signups, after.paying_customers]).toEqual([
			Number(before.clicks) + 3,
			Number(before.signups) + 2,
			Number(before.paying_customers) + 2,
		]);
		const balances = await get('/promoters/user_1002/balances');
		expect(balances.json?.data).toContainEqual(balance('GBP', '7.50', '0.00', '0.00'));
	});

	it('refuses a user who is not a promoter of the product', async () => {
		const answer = await activity({ product: 'prd_videomax', userId: 'nobody', clicks: 1 });
		expect(answer.statusCode).toBe(400);
		expect(await answer.body.json()).toEqual({
			error: 'nobody is not a promoter of prd_videomax',
		});
	});
});
describe(scenario('sandbox.callsRoute'), () => {
	const calls = async () => {
		const answer = await request(`${sandbox.url}/__sandbox/calls`);
		expect(answer.statusCode).toBe(200);
		return ((await answer.body.json()) as { calls: Array<Record<string, unknown>> }).calls;
	};

	it('records each call as received, with its key, key version and signature check', async () => {
		await get('/promoters/user_1001/statistics', {
			start_date: '2026-01-01',
			end_date: '2026-12-31',
		});
		await post('/promoter/login', { user_id: 'calls_v1', username: 'Zoë' }, V1);
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

describe(scenario('sandbox.percentile'), () => {
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
