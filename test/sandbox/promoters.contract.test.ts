/**
 * The sandbox's promoter endpoints against the spec: one test per row of the promoter and login
 * error tables, the reads' shapes, and the stand-in for the hosted promoter center.
 */
import { request } from 'undici';

import { useSandbox } from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';
import { balance, sender, V1, V2 } from './contractCalls';

const sandbox = useSandbox();
const { post, get } = sender(sandbox);

describe(scenario('sandbox.promoterReads'), () => {
	const one = '/promoters/user_1001';
	const badUserId = 'The user_id path parameter has an invalid format';
	const v2Only = 'This endpoint requires signature version 2';
	// [name, code, message, path, the query and the key (V2) it is signed by where given]
	type Row = [string, number, string, string, { qs?: Record<string, string>; by?: string }?];
	const rows: Row[] = [
		['unknown promoter', 1000001, 'The promoter was not found', '/promoters/nobody'],
		['v1 key', 1000004, v2Only, `${one}/links`, { by: V1 }],
		[
			'other authentication failure',
			1000004,
			'The API key is disabled',
			`${one}/balances`,
			{ by: 'pk_test_disabled_v2' },
		],
		[
			'missing promoter:read (reported under 6000000)',
			6000000,
			'Missing required permission: promoter:read',
			one,
			{ by: 'pk_test_adjustonly_v2' },
		],
		['empty user_id', 6000000, badUserId, '/promoters/'],
		['user_id over 255 characters', 6000000, badUserId, `/promoters/${'u'.repeat(256)}/links`],
		[
			'unknown expand value',
			6000000,
			'Unsupported expand value: wallet',
			one,
			{ qs: { expand: 'links,wallet' } },
		],
		[
			'start_date not Y-m-d',
			6000000,
			'The start_date parameter must use the Y-m-d format',
			`${one}/statistics`,
			{ qs: { start_date: '2026-2-1' } },
		],
		[
			'end_date not a real date',
			6000000,
			'The end_date parameter must use the Y-m-d format',
			`${one}/statistics`,
			{ qs: { end_date: '2026-13-01' } },
		],
		[
			'reversed range',
			6000000,
			'The start_date must not be later than the end_date',
			`${one}/statistics`,
			{ qs: { start_date: '2026-03-02', end_date: '2026-03-01' } },
		],
		[
			'a query value holding "=" is read whole, not cut at the "="',
			6000000,
			'The start_date parameter must use the Y-m-d format',
			`${one}/statistics?start_date=2026-03-01=x`,
		],
		[
			'expand given as an array',
			6000000,
			'The expand parameter has an invalid format',
			`${one}?expand[]=links`,
		],
	];
	// The query and key come in one object with a default: jest reads a further parameter as `done`.
	it.each(rows)('%s', async (_name, code, message, path, { qs, by } = {}) => {
		expect((await get(path, qs, by)).json).toEqual({ code, message, data: null });
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
			balance('EUR', '5.00', '0.00', '0.00'),
			// pending: 10.00 + 2.00 (sub) + 5.00 on txn_1001, 3.00 on 20260301; paid and rejected rewards are not pending
			balance('USD', '125.50', '20.00', '20.00'),
		]);
		expect((await get('/promoters/user_1002/balances')).json?.data).toEqual([
			balance('USD', '0.00', '0.00', '0.00'),
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
		const day = { start_date: '2026-03-01', end_date: '2026-03-01' };
		const march1 = (await get('/promoters/user_1001/statistics', day)).json?.data;
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
	const login = (body: object, apiKey?: string) => post('/promoter/login', body, apiKey);
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
		const answer = await post('/promoter/login', { user_id: userId, username: 'Grace <Hopper>' });
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
