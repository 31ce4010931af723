/**
 * Payment Provider Events on Stripe's Events API (the emulator over HTTP): forward paging from a
 * cursor and from a first run, the trigger's event types only, each item the trigger's own.
 */
import { NodeApiError } from 'n8n-workflow';

import {
	DAY,
	expectFirstRunCursors,
	MINUTE,
	paymentEvents,
	queryOf,
	record,
	recordHistory,
	runNode,
	stripeCustomerEvent,
	triggerItems,
	useProviderApis,
	withoutCursor,
} from './harness';
import { STRIPE_EVENT_TYPES } from '../../nodes/PaymentProviderEvents/providers/stripe';
import { providerOf } from '../../nodes/PaymentWebhookTrigger/providers';
import { scenario } from '../../support/scenarios';

/** 50 events before the first run's start (3 days back), 250 after it, and others between. */
const history = () =>
	recordHistory(
		'stripe',
		{ before: 50, after: 250 },
		{ before: 'evt_old_', after: 'evt_new_' },
		(now) =>
			[0, 1, 2].map((n) =>
				stripeCustomerEvent(`evt_cus_${n}`, now - 2 * DAY + n * 90 * MINUTE + 30_000),
			),
	);

const ids = (items: Array<{ eventId?: unknown; event?: unknown }>) =>
	items.map((item) => (item.event as { id: string }).id);

describe(scenario('paymentEvents.stripe'), () => {
	useProviderApis();

	it("asks for exactly the trigger's Stripe purchase and refund events", () => {
		expect(STRIPE_EVENT_TYPES).toEqual(Object.keys(providerOf('stripe').events));
		expect(STRIPE_EVENT_TYPES).toContain('payment_intent.succeeded');
		expect(STRIPE_EVENT_TYPES).toContain('charge.refunded');
	});

	it('a first run: the newest event before the start is the anchor, then 250 events forward, oldest first, in pages of 100', async () => {
		const { before, after } = history();
		const { items, requests } = await runNode('stripe', { parameters: { overlapMinutes: 10 } });

		expect(ids(items)).toEqual(after.map((event) => event.id));
		const queries = requests.map(queryOf);
		expect(queries[0]).toMatchObject({ limit: '1' });
		expect(Number(queries[0]['created[lt]'])).toBeGreaterThan(Number(before[49].created));
		expect(Number(queries[0]['created[lt]'])).toBeLessThanOrEqual(Number(after[0].created));
		// Forward: ending_before the anchor, then each page's newest.
		expect(queries.slice(1).map((query) => query.ending_before)).toEqual([
			'evt_old_00049',
			'evt_new_00099',
			'evt_new_00199',
		]);
		expect(queries.slice(1).every((query) => query.limit === '100')).toBe(true);
		const types = new URL(requests[0].url).searchParams.getAll('types[]');
		expect(types).toEqual(STRIPE_EVENT_TYPES);
		// Events a minute apart, 10 minutes of overlap: the first ten items' cursor is the run's
		// start anchor (the event found before the start), each later one's the item ten before it.
		const cursorOf = (event: (typeof after)[number]) =>
			`${Number(event.created) * 1000}:${String(event.id)}`;
		expectFirstRunCursors(items, cursorOf(before[49]), after.map(cursorOf));
	});

	it('each item is what the Payment Webhook Trigger makes of the same event, plus its cursor', async () => {
		const { after } = history();
		const { items } = await runNode('stripe');
		expect(items.map(withoutCursor)).toEqual(await triggerItems('stripe', after));
		expect(items.map((item) => item.kind)).toEqual(
			after.map((_, index) => (index % 2 === 0 ? 'purchase' : 'refund')),
		);
		expect(items[0]).toMatchObject({
			provider: 'stripe',
			eventType: 'payment_intent.succeeded',
			transactionId: 'pi_evt_new_0',
			signedAt: new Date(Number(after[0].created) * 1000).toISOString(),
		});
	});

	it('from a cursor: the 150 events after its anchor, in pages of 100', async () => {
		const { after } = history();
		const anchor = after[99];
		const cursor = `${Number(anchor.created) * 1000}:${String(anchor.id)}`;
		const { items, requests } = await runNode('stripe', { parameters: { cursor } });

		expect(ids(items)).toEqual(after.slice(100).map((event) => event.id));
		// Overlap 0: each item's cursor is the item itself.
		expect(items.map((item) => item.cursor)).toEqual(
			after.slice(100).map((event) => `${Number(event.created) * 1000}:${String(event.id)}`),
		);
		expect(requests.map((request) => queryOf(request).ending_before)).toEqual([
			'evt_new_00099',
			'evt_new_00199',
		]);
	});

	it('a first run with no event before the start walks back to the oldest page, then reads forward', async () => {
		const after = paymentEvents('stripe', 250, Date.now() - 2 * DAY);
		record('stripe', after);
		const { items, requests } = await runNode('stripe', { parameters: { overlapMinutes: 10 } });

		expect(ids(items)).toEqual(after.map((event) => event.id));
		const queries = requests.map(queryOf);
		expect(queries[0]).toMatchObject({ limit: '1' });
		// Back: the newest page, then starting_after each page's oldest, to the oldest page.
		expect(queries.slice(1, 4).map((query) => query.starting_after ?? null)).toEqual([
			null,
			'evt_00150',
			'evt_00050',
		]);
		// Forward from the oldest page's newest.
		expect(queries.slice(4).map((query) => query.ending_before)).toEqual([
			'evt_00049',
			'evt_00149',
		]);
		// No event before the start: the run's start anchor is the moment itself, <timeMs>: with no
		// event, and the next run from it reads the same way.
		const start = Number(String(items[0].cursor).split(':')[0]);
		expect(items[0].cursor).toBe(`${start}:`);
		expect(Math.abs(start - (Date.now() - 3 * DAY))).toBeLessThan(MINUTE);
	});

	it('a first run over a short history reads its one page and asks for nothing more', async () => {
		const after = paymentEvents('stripe', 30, Date.now() - DAY);
		record('stripe', after);
		const { items, requests } = await runNode('stripe');
		expect(ids(items)).toEqual(after.map((event) => event.id));
		expect(requests).toHaveLength(2);
	});

	it('nothing after the cursor: no item', async () => {
		const { after } = history();
		const last = after[249];
		const { items, requests } = await runNode('stripe', {
			parameters: { cursor: `${Number(last.created) * 1000}:${String(last.id)}` },
		});
		expect(items).toEqual([]);
		expect(requests).toHaveLength(1);
	});

	it("a cursor whose event Stripe no longer has: Stripe's 404 and message, named", async () => {
		history();
		const error = await runNode('stripe', {
			parameters: { cursor: '1764000000000:evt_expired' },
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error).toMatchObject({
			httpCode: '404',
			message: "Stripe answered HTTP 404: No such event: 'evt_expired'",
		});
	});
});
