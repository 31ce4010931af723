/**
 * How Payment Provider Events meets a provider's 429 (nodes/PaymentProviderEvents/transport.ts):
 * Retry-After waited out through n8n's sleep (mocked here, its waits recorded), at most 5 times.
 */
import { NodeApiError, sleep } from 'n8n-workflow';

import {
	apis,
	CREDENTIALS,
	DAY,
	overHttp,
	paymentEvents,
	record,
	runNode,
	useProviderApis,
} from './harness';
import {
	MAX_RATE_LIMIT_WAITS,
	retryAfterSeconds,
} from '../../nodes/PaymentProviderEvents/transport';
import { httpAnswer } from '../../support/fakes/fakeContext';
import { scenario } from '../../support/scenarios';

jest.mock('n8n-workflow', () => ({
	...jest.requireActual('n8n-workflow'),
	sleep: jest.fn(async () => {}),
}));
const sleepMock = sleep as jest.MockedFunction<typeof sleep>;
const waits = () => sleepMock.mock.calls.map(([ms]) => ms);

useProviderApis();
beforeEach(() => sleepMock.mockClear());

const EMPTY_STRIPE_PAGE = { object: 'list', data: [], has_more: false };

describe(scenario('paymentEvents.rateLimit'), () => {
	it.each(['stripe', 'paddle'] as const)(
		'%s: two 429s waited out as Retry-After says, then the events',
		async (provider) => {
			record(provider, paymentEvents(provider, 3, Date.now() - DAY));
			apis.throttle(provider, { count: 2, retryAfterSeconds: 7 });
			const { items } = await runNode(provider, { parameters: { cursor: '1:' } });
			expect(items).toHaveLength(3);
			expect(waits()).toEqual([7000, 7000]);
			expect(apis.calls(provider)).toBeGreaterThanOrEqual(3);
		},
	);

	it('the App Store: a 429 waited out, then the history', async () => {
		apis.throttle('appStore', { count: 1, retryAfterSeconds: 2 });
		const { items } = await runNode('appStore', {
			parameters: { cursor: `${Date.now() - DAY}:` },
		});
		expect(items).toEqual([]);
		expect(waits()).toEqual([2000]);
		expect(apis.calls('appStore')).toBe(2);
	});

	it.each([
		['absent', 1, undefined],
		['0', 0, '0'],
		['3600 (more than a minute)', 60, '3600'],
		['not a number', 1, 'soon'],
		['a date 5 s ahead', 5, 'date'],
	])('Retry-After %s: waits %i s', async (_, seconds, header) => {
		const now = Date.now();
		const value = header === 'date' ? new Date(now + 5000).toUTCString() : header;
		expect(retryAfterSeconds(value, header === 'date' ? Math.floor(now / 1000) * 1000 : now)).toBe(
			seconds,
		);
		const answers = [
			httpAnswer(
				429,
				{ error: { message: 'Too many requests' } },
				value === undefined ? {} : { 'Retry-After': value },
			),
			httpAnswer(200, EMPTY_STRIPE_PAGE),
		];
		await runNode('stripe', {
			parameters: { cursor: '1:evt_1' },
			respond: (_options, n) => answers[n - 1],
		});
		expect(waits()).toHaveLength(1);
		expect(waits()[0]).toBeLessThanOrEqual(60_000);
		if (header !== 'date') expect(waits()).toEqual([seconds * 1000]);
	});

	it('429 six times in a row: five waits, then an error naming 429 and what to do', async () => {
		apis.throttle('stripe', { count: 100, retryAfterSeconds: 1 });
		const error = await runNode('stripe', { parameters: { cursor: '1:evt_1' } }).catch(
			(caught: unknown) => caught,
		);
		expect(MAX_RATE_LIMIT_WAITS).toBe(5);
		expect(waits()).toEqual([1000, 1000, 1000, 1000, 1000]);
		expect(apis.calls('stripe')).toBe(6);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error).toMatchObject({
			httpCode: '429',
			message: 'Stripe answered 429 Too Many Requests 6 times in a row',
		});
		expect((error as NodeApiError).description).toMatch(/run this workflow less often/);
		expect((error as NodeApiError).description).toMatch(/Start After/);
	});

	it('a 429 on a later page: the run goes on from that page', async () => {
		const events = paymentEvents('stripe', 150, Date.now() - DAY);
		record('stripe', events);
		let throttled = false;
		const { items } = await runNode('stripe', {
			parameters: { cursor: `1:${String(events[0].id)}` },
			respond: async (options, n) => {
				// The second page is throttled once.
				if (!throttled && n === 2) {
					throttled = true;
					return httpAnswer(429, {}, { 'retry-after': '4' });
				}
				return await overHttp(CREDENTIALS.stripe)(options, n);
			},
		});
		expect(items.map((item) => item.eventId)).toEqual(events.slice(1).map((event) => event.id));
		expect(waits()).toEqual([4000]);
	});
});
