/**
 * The provider APIs emulator (sandbox/providerApis/) against the real APIs' paging, filters and
 * refusals, over real HTTP: Stripe's events, Paddle's events, a throttle's 429s and the call
 * counts. The App Store's notification history: providerApisAppStore.contract.test.ts.
 */
import { scenario } from '../../support/scenarios';
import {
	STRIPE_KEY,
	PADDLE_KEY,
	startedProviderApis,
	call,
	pad,
	idsDown,
	idsOf,
	DAY,
	appleToken,
	type Answer,
} from './providerApisHarness';

describe(scenario('sandbox.providerApis'), () => {
	const apis = startedProviderApis();

	describe('Stripe GET /v1/events', () => {
		const T0 = 1_767_225_600;
		const TYPES = ['charge.refunded', 'charge.succeeded', 'invoice.paid'];
		const stripeEvent = (index: number, created = T0 + index * 60) => ({
			id: `evt_${pad(index)}`,
			object: 'event',
			created,
			type: TYPES[index % 3],
			data: { object: { id: `ch_${pad(index)}`, object: 'charge' } },
		});
		const events = (query: string, key = STRIPE_KEY) =>
			call(`${apis.baseUrls.stripe}/v1/events?${query}`, {
				headers: { Authorization: `Bearer ${key}` },
			});
		/** Every page from `query`, each next one's cursor taken from the last. */
		async function walk(query: string, cursor: 'starting_after' | 'ending_before', from: string) {
			const pages: Answer[] = [];
			let at = from;
			for (let more = true; more; ) {
				const page = (await events(`${query}&${cursor}=${at}`)).json;
				pages.push(page);
				more = page.has_more;
				at = String(cursor === 'starting_after' ? page.data.at(-1)?.id : page.data[0]?.id);
			}
			return pages;
		}

		beforeEach(() => {
			apis.reset();
			// The odd ones recorded after all the even ones: each lands in time order.
			for (const parity of [0, 1])
				for (let index = parity; index < 250; index += 2) apis.record('stripe', stripeEvent(index));
		});

		it('walks back from the newest with starting_after: pages of 100, 100 and 50', async () => {
			const first = await events('limit=100');
			expect(first.status).toBe(200);
			expect(first.json).toMatchObject({ object: 'list', url: '/v1/events', has_more: true });
			expect(first.json.data[0]).toEqual(stripeEvent(249));
			const pages = [first.json, ...(await walk('limit=100', 'starting_after', 'evt_0150'))];
			expect(pages.map((page) => page.data.length)).toEqual([100, 100, 50]);
			expect(pages.map((page) => page.has_more)).toEqual([true, true, false]);
			expect(pages.flatMap((page) => idsOf(page.data))).toEqual(idsDown(249, 0));
			expect((await events('')).json.data).toHaveLength(10);
		});

		it('comes forward from an anchor with ending_before: the nearest newer events, newest first', async () => {
			const pages = await walk('limit=30', 'ending_before', 'evt_0100');
			expect(pages.map((page) => page.data.length)).toEqual([30, 30, 30, 30, 29]);
			expect(pages.map((page) => page.has_more)).toEqual([true, true, true, true, false]);
			expect(idsOf(pages[0].data)).toEqual(idsDown(130, 101));
			expect(idsOf(pages[1].data)).toEqual(idsDown(160, 131));
			expect(idsOf(pages[4].data)).toEqual(idsDown(249, 221));
		});

		it('applies the created bounds before paging', async () => {
			const gteLt = `created[gte]=${T0 + 600}&created[lt]=${T0 + 1200}`;
			expect(idsOf((await events(gteLt)).json.data)).toEqual(idsDown(19, 10));
			const gtLte = `created%5Bgt%5D=${T0 + 600}&created%5Blte%5D=${T0 + 1200}`;
			expect(idsOf((await events(gtLte)).json.data)).toEqual(idsDown(20, 11));
			const pages = await walk(`limit=4&${gteLt}`, 'starting_after', 'evt_0020');
			expect(pages.map((page) => [idsOf(page.data), page.has_more])).toEqual([
				[idsDown(19, 16), true],
				[idsDown(15, 12), true],
				[idsDown(11, 10), false],
			]);
			const forward = await events(`limit=4&${gteLt}&ending_before=evt_0005`);
			expect([idsOf(forward.json.data), forward.json.has_more]).toEqual([idsDown(13, 10), true]);
		});

		it('filters by types[] or type (a trailing * a wildcard) before paging', async () => {
			const both = await events('limit=100&types[]=charge.refunded&types[]=invoice.paid');
			expect(both.json.has_more).toBe(true);
			expect(idsOf(both.json.data).slice(0, 4).join()).toBe('evt_0249,evt_0248,evt_0246,evt_0245');
			const rest = await events(
				`limit=100&types[0]=charge.refunded&types[1]=invoice.paid&starting_after=${both.json.data[99].id}`,
			);
			expect([rest.json.data.length, rest.json.has_more]).toEqual([67, false]);
			const refunds = await events('limit=100&type=charge.refunded');
			expect([refunds.json.data.length, refunds.json.has_more]).toEqual([84, false]);
			expect(new Set(idsOf(refunds.json.data, 'type'))).toEqual(new Set(['charge.refunded']));
			const charges = await events('limit=100&type=charge.*&created[lt]=' + (T0 + 6 * 60));
			expect(idsOf(charges.json.data)).toEqual(['evt_0004', 'evt_0003', 'evt_0001', 'evt_0000']);
		});

		it('lists events of one second newest recorded first', async () => {
			for (const id of ['evt_0900', 'evt_0800', 'evt_0700'])
				apis.record('stripe', { ...stripeEvent(0, T0 + 100_000), id });
			const page = await events('limit=4');
			expect(idsOf(page.json.data)).toEqual(['evt_0700', 'evt_0800', 'evt_0900', 'evt_0249']);
			const after = await events('limit=2&starting_after=evt_0800');
			expect(idsOf(after.json.data)).toEqual(['evt_0900', 'evt_0249']);
			const before = await events('limit=1&ending_before=evt_0900');
			expect(idsOf(before.json.data)).toEqual(['evt_0800']);
		});

		it('refuses an unknown cursor (404), both cursors, a bad limit or parameter (400), a bad key (401)', async () => {
			const missing = await events('starting_after=evt_nope');
			expect(missing.status).toBe(404);
			expect(missing.json.error).toEqual({
				type: 'invalid_request_error',
				code: 'resource_missing',
				message: "No such event: 'evt_nope'",
				param: 'starting_after',
			});
			expect((await events('ending_before=evt_nope')).json.error.param).toBe('ending_before');
			const both = await events('starting_after=evt_0001&ending_before=evt_0003');
			expect([both.status, both.json.error.type]).toEqual([400, 'invalid_request_error']);
			for (const query of ['limit=0', 'limit=101', 'limit=ten', 'created[gte]=soon', 'sort=asc'])
				expect((await events(query)).status).toBe(400);
			expect((await events('limit=100')).json.data).toHaveLength(100);
			const wrongKey = await events('', 'sk_test_51SomeoneElsesKey9999');
			expect([wrongKey.status, wrongKey.json.error.type]).toEqual([401, 'invalid_request_error']);
			expect(wrongKey.json.error.message).toMatch(/^Invalid API Key provided: sk_test_\*+9999$/);
			const noKey = await call(`${apis.baseUrls.stripe}/v1/events`);
			expect([noKey.status, noKey.json.error.type]).toEqual([401, 'invalid_request_error']);
		});
	});

	describe('Paddle GET /events', () => {
		const TYPES = ['transaction.completed', 'subscription.updated', 'adjustment.updated'];
		const paddleId = (index: number) => `evt_01hv${pad(index)}`;
		const paddleEvent = (index: number) => ({
			event_id: paddleId(index),
			event_type: TYPES[index % 3],
			occurred_at: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(),
			notification_id: `ntf_01hv${pad(index)}`,
			data: { id: `txn_01hv${pad(index)}` },
		});
		const events = (query: string, key = PADDLE_KEY) =>
			call(`${apis.baseUrls.paddle}/events?${query}`, {
				headers: { Authorization: `Bearer ${key}` },
			});
		/** Every page from `query`, following meta.pagination.next. */
		async function walk(query: string) {
			const pages: Answer[] = [(await events(query)).json];
			const headers = { Authorization: `Bearer ${PADDLE_KEY}` };
			for (let last = pages[0]; last.meta.pagination.has_more; pages.push(last))
				last = (await call(last.meta.pagination.next, { headers })).json;
			return pages;
		}
		const ascending = Array.from({ length: 450 }, (_, index) => paddleId(index));

		beforeAll(() => {
			apis.reset();
			for (let index = 449; index >= 0; index--) apis.record('paddle', paddleEvent(index));
		});

		it('walks ascending by ID following meta.pagination.next: 200, 200, 50', async () => {
			const pages = await walk('per_page=200');
			expect(pages.map((page) => [page.data.length, page.meta.pagination.has_more])).toEqual([
				[200, true],
				[200, true],
				[50, false],
			]);
			expect(pages.flatMap((page) => idsOf(page.data, 'event_id'))).toEqual(ascending);
			expect(pages[0].data[0]).toEqual(paddleEvent(0));
			expect(pages[0].meta).toEqual({
				request_id: expect.any(String),
				pagination: {
					per_page: 200,
					next: `${apis.baseUrls.paddle}/events?per_page=200&after=${paddleId(199)}`,
					has_more: true,
					estimated_total: 450,
				},
			});
		});

		it('walks descending with order_by=id[DESC], after counting down', async () => {
			const pages = await walk('order_by=id[DESC]&per_page=200');
			expect(pages.map((page) => page.data.length)).toEqual([200, 200, 50]);
			expect(pages.flatMap((page) => idsOf(page.data, 'event_id'))).toEqual(
				[...ascending].reverse(),
			);
			const after = await events(`order_by=id[DESC]&per_page=2&after=${paddleId(10)}`);
			expect(idsOf(after.json.data, 'event_id')).toEqual([paddleId(9), paddleId(8)]);
		});

		it('pages 50 by default, at most 200, and compares after as a string', async () => {
			const first = await events('');
			expect([first.json.data.length, first.json.meta.pagination.per_page]).toEqual([50, 50]);
			const capped = await events('per_page=500');
			expect([capped.json.data.length, capped.json.meta.pagination.per_page]).toEqual([200, 200]);
			const between = await events(`per_page=2&after=${paddleId(20)}0`);
			expect(idsOf(between.json.data, 'event_id')).toEqual([paddleId(21), paddleId(22)]);
		});

		it('filters by event_type (comma-separated), estimated_total counting the matches', async () => {
			const pages = await walk('event_type=transaction.completed,adjustment.updated&per_page=200');
			expect(pages.map((page) => page.data.length)).toEqual([200, 100]);
			expect(pages[0].meta.pagination.estimated_total).toBe(300);
			expect(pages[0].meta.pagination.next).toContain(
				'event_type=transaction.completed%2Cadjustment.updated',
			);
			const types = new Set(pages.flatMap((page) => idsOf(page.data, 'event_type')));
			expect(types).toEqual(new Set(['transaction.completed', 'adjustment.updated']));
		});

		it('refuses a bad key (403), a bad order_by or per_page (400)', async () => {
			const refusal = {
				error: {
					type: 'request_error',
					code: 'authentication_malformed',
					detail: expect.any(String),
				},
				meta: { request_id: expect.any(String) },
			};
			const forbidden = { status: 403, json: refusal };
			expect(await events('', 'pdl_sdbx_apikey_someoneelse')).toMatchObject(forbidden);
			expect(await call(`${apis.baseUrls.paddle}/events`)).toMatchObject(forbidden);
			for (const query of ['order_by=occurred_at[ASC]', 'per_page=0', 'per_page=many'])
				expect(await events(query)).toMatchObject({
					status: 400,
					json: { error: { type: 'request_error' } },
				});
		});
	});

	describe('throttles, routes and counts', () => {
		const PROVIDERS = ['stripe', 'paddle', 'appStore'] as const;
		const provider = {
			stripe: { path: '/v1/events', method: 'GET', key: STRIPE_KEY },
			paddle: { path: '/events', method: 'GET', key: PADDLE_KEY },
			appStore: { path: '/inApps/v1/notifications/history', method: 'POST', key: '' },
		} as const;
		const lastDay = JSON.stringify({ startDate: Date.now() - DAY, endDate: Date.now() });
		const request = (name: keyof typeof provider, path?: string, method?: string) => {
			const { key, ...route } = provider[name];
			return call(`${apis.baseUrls[name]}${path ?? route.path}`, {
				method: method ?? route.method,
				headers: { Authorization: `Bearer ${key || appleToken()}` },
				body: (method ?? route.method) === 'POST' ? lastDay : undefined,
			});
		};
		const tooMany = {
			stripe: {
				error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests' },
			},
			paddle: {
				error: { type: 'request_error', code: 'too_many_requests', detail: expect.any(String) },
				meta: { request_id: expect.any(String) },
			},
			appStore: { errorCode: 4290000, errorMessage: 'Rate limit exceeded.' },
		};

		beforeEach(() => apis.reset());

		it.each(PROVIDERS)(
			'%s: two 429s with Retry-After, then an answer; calls() counts all three',
			async (name) => {
				apis.throttle(name, { count: 2, retryAfterSeconds: 7 });
				const answers = [await request(name), await request(name), await request(name)];
				expect(answers.map((answer) => [answer.status, answer.headers.get('retry-after')])).toEqual(
					[
						[429, '7'],
						[429, '7'],
						[200, null],
					],
				);
				expect(answers[0].json).toEqual(tooMany[name]);
				expect(apis.calls(name)).toBe(3);
				const counts = PROVIDERS.map((each) => apis.calls(each));
				expect(counts).toEqual(PROVIDERS.map((each) => (each === name ? 3 : 0)));
			},
		);

		it('answers 404 for an unknown route, 405 for a wrong method; reset() forgets events and counts', async () => {
			expect((await request('stripe', '/v1/charges')).status).toBe(404);
			expect((await request('paddle', '/events', 'POST')).status).toBe(405);
			const wrongMethod = await request('appStore', provider.appStore.path, 'GET');
			expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'POST']);
			expect((await call(`${apis.url}/square/v2/events`)).status).toBe(404);
			expect(PROVIDERS.map((each) => apis.calls(each))).toEqual([1, 1, 1]);
			apis.record('stripe', { id: 'evt_1', object: 'event', created: 1, type: 't', data: {} });
			apis.reset();
			expect(apis.calls('stripe')).toBe(0);
			expect((await request('stripe')).json.data).toEqual([]);
		});
	});
});
