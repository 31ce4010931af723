/**
 * The sandbox's promoter endpoints against the spec: one test per row of the promoter and login
 * error tables, the reads' shapes, and the stand-in for the hosted promoter center.
 */
import { request } from 'undici';

import { signedCall } from '../../support/services/client';
import { useSandbox } from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';
import { V1, V2 } from './contractCalls';

const sandbox = useSandbox();

describe(scenario('sandbox.promoterReads'), () => {
	const get = (path: string, qs?: Record<string, string>, apiKey = V2) =>
		signedCall(sandbox, apiKey, { method: 'GET', path, qs });
	const rows: Array<[string, string, Record<string, string> | undefined, string, number, string]> =
		[
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

describe(scenario('sandbox.promoterLogin'), () => {
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

describe(scenario('sandbox.promoterCenter'), () => {
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
