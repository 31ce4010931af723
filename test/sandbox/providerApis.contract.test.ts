/**
 * The provider APIs emulator (sandbox/providerApis/) against the real APIs' paging, filters and
 * refusals, over real HTTP: Stripe's events, Paddle's events, the App Store's notification
 * history, a throttle's 429s and the call counts.
 */
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

import { ProviderApis } from '../../sandbox';
import { scenario } from '../../support/scenarios';

// Made for this run, in each provider's format.
const STRIPE_KEY = `sk_test_${randomBytes(16).toString('hex')}`;
const PADDLE_KEY = `pdl_sdbx_apikey_${randomBytes(16).toString('hex')}`;
const ISSUER = '57246542-96fe-1a63-e053-0824d011072a';
const KEY_ID = '2X9R4HXF34';
const BUNDLE = 'com.example.videomax';

const appleKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const otherKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const publicKeyPem = appleKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

const apis = new ProviderApis({
	stripeSecretKey: STRIPE_KEY,
	paddleApiKey: PADDLE_KEY,
	appStore: { issuerId: ISSUER, keyId: KEY_ID, publicKeyPem, bundleId: BUNDLE },
});
beforeAll(() => apis.start());
afterAll(() => apis.stop());

type Json = Record<string, unknown>;

/** The fields the tests read of the three APIs' answers (each answer has some of them). */
interface Answer {
	data: Json[];
	has_more: boolean;
	error: Json;
	meta: {
		pagination: { per_page: number; next: string; has_more: boolean; estimated_total: number };
	};
	notificationHistory: { signedPayload: string; sendAttempts: Json[] }[];
	hasMore: boolean;
	paginationToken?: string;
	errorCode: number;
	errorMessage: string;
}

async function call(url: string, init: RequestInit = {}) {
	const response = await fetch(url, init);
	return {
		status: response.status,
		headers: response.headers,
		json: (await response.json()) as Answer,
	};
}

/** `evt_0042`: IDs that sort as their index. */
const pad = (index: number) => String(index).padStart(4, '0');
/** The indexes from `first` down to `last`, as IDs. */
const idsDown = (first: number, last: number, prefix = 'evt_') =>
	Array.from({ length: first - last + 1 }, (_, at) => `${prefix}${pad(first - at)}`);
const idsOf = (items: Json[], field = 'id') => items.map((item) => item[field] as string);

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A compact JWS signed ES256 in JOSE form, as Apple and App Store Connect tokens are. */
function jws(header: object, payload: object, key: KeyObject = appleKeys.privateKey) {
	const signingInput = `${base64url(header)}.${base64url(payload)}`;
	const signature = sign('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' });
	return `${signingInput}.${signature.toString('base64url')}`;
}
const DAY = 86_400_000;
const now = () => Math.floor(Date.now() / 1000);
/** An App Store Connect API token, valid unless `header`, `payload` or `key` say otherwise. */
const appleToken = ({ header = {}, payload = {}, key = appleKeys.privateKey } = {}) =>
	jws(
		{ alg: 'ES256', kid: KEY_ID, typ: 'JWT', ...header },
		{
			iss: ISSUER,
			iat: now(),
			exp: now() + 1200,
			aud: 'appstoreconnect-v1',
			bid: BUNDLE,
			...payload,
		},
		key,
	);

describe(scenario('sandbox.providerApis'), () => {
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

	describe('App Store POST /inApps/v1/notifications/history', () => {
		const START = Date.now() - 10 * DAY;
		const TYPES = ['REFUND', 'DID_RENEW', 'CONSUMPTION_REQUEST'];
		const signedDate = (index: number) => START + index * 60_000;
		const signedPayload = (index: number) =>
			jws(
				{ alg: 'ES256', x5c: [] },
				{
					notificationType: TYPES[index % 3],
					notificationUUID: `uuid-${pad(index)}`,
					data: {
						bundleId: BUNDLE,
						signedTransactionInfo: jws(
							{ alg: 'ES256' },
							{ transactionId: `20000${pad(index)}`, originalTransactionId: `10000${pad(index)}` },
						),
					},
					signedDate: signedDate(index),
				},
			);
		const payloads = Array.from({ length: 45 }, (_, index) => signedPayload(index));
		const history = (
			body: object,
			paginationToken?: string,
			authorization = `Bearer ${appleToken()}`,
		) =>
			call(
				`${apis.baseUrls.appStore}/inApps/v1/notifications/history${paginationToken ? `?paginationToken=${paginationToken}` : ''}`,
				{
					method: 'POST',
					headers: { Authorization: authorization, 'Content-Type': 'application/json' },
					body: JSON.stringify(body),
				},
			);
		const all = { startDate: START, endDate: Date.now() };
		const payloadsOf = (answer: Answer) =>
			answer.notificationHistory.map((entry) => entry.signedPayload);

		beforeAll(() => {
			apis.reset();
			for (let index = 44; index >= 0; index--)
				apis.record('appStore', { signedPayload: payloads[index], signedDate: signedDate(index) });
		});

		it('pages 45 notifications 20, 20 and 5 in signedDate order with paginationToken', async () => {
			const pages: Answer[] = [(await history(all)).json];
			for (let last = pages[0]; last.hasMore; pages.push(last))
				last = (await history(all, last.paginationToken)).json;
			const shapes = pages.map((page) => [
				page.notificationHistory.length,
				page.hasMore,
				'paginationToken' in page,
			]);
			expect(shapes).toEqual([
				[20, true, true],
				[20, true, true],
				[5, false, false],
			]);
			expect(pages.flatMap(payloadsOf)).toEqual(payloads);
			expect(pages[0].notificationHistory[0]).toEqual({
				signedPayload: payloads[0],
				sendAttempts: [{ attemptDate: signedDate(0), sendAttemptResult: 'SUCCESS' }],
			});
		});

		it('keeps startDate ≤ signedDate < endDate and filters by notificationType or transactionId', async () => {
			const range = await history({ startDate: signedDate(10), endDate: signedDate(15) });
			expect([range.json.hasMore, 'paginationToken' in range.json]).toEqual([false, false]);
			expect(payloadsOf(range.json)).toEqual(payloads.slice(10, 15));
			const refunds = await history({ ...all, notificationType: 'REFUND' });
			expect(payloadsOf(refunds.json)).toEqual(payloads.filter((_, index) => index % 3 === 0));
			const one = await history({ ...all, transactionId: `10000${pad(7)}` });
			expect(payloadsOf(one.json)).toEqual([payloads[7]]);
			expect(payloadsOf((await history({ ...all, onlyFailures: true })).json)).toEqual([]);
		});

		/** `token` with the payload of `other`: its signature no longer fits. */
		const tampered = (token: string, other: string) =>
			[token.split('.')[0], other.split('.')[1], token.split('.')[2]].join('.');
		const bearer = (...token: Parameters<typeof appleToken>) => `Bearer ${appleToken(...token)}`;
		const unauthenticated: Array<[string, string | undefined]> = [
			['no Authorization', undefined],
			['a malformed token', 'Bearer not.a-jwt'],
			['a Basic scheme', `Basic ${appleToken()}`],
			['alg HS256', bearer({ header: { alg: 'HS256' } })],
			['another kid', bearer({ header: { kid: 'OTHERKEY00' } })],
			['another iss', bearer({ payload: { iss: 'another-issuer' } })],
			['another aud', bearer({ payload: { aud: 'appstoreconnect-v2' } })],
			['another bid', bearer({ payload: { bid: 'com.example.other' } })],
			['another key', bearer({ key: otherKeys.privateKey })],
			[
				'a tampered payload',
				`Bearer ${tampered(appleToken(), appleToken({ payload: { exp: now() + 1300 } }))}`,
			],
			['an expired token', bearer({ payload: { iat: now() - 600, exp: now() } })],
			['iat 2 minutes ahead', bearer({ payload: { iat: now() + 120, exp: now() + 600 } })],
			['a lifetime over an hour', bearer({ payload: { iat: now(), exp: now() + 3601 } })],
		];
		it.each(unauthenticated)('refuses %s with 401', async (_, authorization) => {
			const answer = await call(`${apis.baseUrls.appStore}/inApps/v1/notifications/history`, {
				method: 'POST',
				headers: authorization === undefined ? {} : { Authorization: authorization },
				body: JSON.stringify(all),
			});
			expect(answer).toMatchObject({
				status: 401,
				json: { errorCode: 4010000, errorMessage: 'Unauthenticated' },
			});
		});

		it('accepts a token issued up to a minute ahead and living an hour', async () => {
			const aheadAnHour = bearer({ payload: { iat: now() + 30, exp: now() + 3630 } });
			const answer = await history(all, undefined, aheadAnHour);
			expect(answer.status).toBe(200);
		});

		const badRequests: Array<[string, object, string]> = [
			['no startDate', { endDate: Date.now() }, 'startDate'],
			['no endDate', { startDate: START }, 'endDate'],
			['start after end', { startDate: signedDate(5), endDate: signedDate(4) }, 'startDate'],
			['a start 181 days ago', { ...all, startDate: Date.now() - 181 * DAY }, 'startDate'],
		];
		it.each(badRequests)('refuses %s with 400 naming the field', async (_, body, field) => {
			const answer = await history(body);
			expect(answer).toMatchObject({
				status: 400,
				json: { errorCode: 4000000, errorMessage: expect.stringContaining(field) },
			});
		});

		it("refuses another body's paginationToken with 400", async () => {
			const first = (await history(all)).json;
			const other = await history({ ...all, notificationType: 'REFUND' }, first.paginationToken);
			expect(other).toMatchObject({
				status: 400,
				json: { errorCode: 4000000, errorMessage: expect.stringContaining('paginationToken') },
			});
			expect((await history(all, 'garbage')).status).toBe(400);
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
