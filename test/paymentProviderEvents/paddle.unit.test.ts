/**
 * Payment Provider Events on Paddle Billing's events list (the emulator over HTTP): forward paging
 * by ID from a cursor and from a first run, the trigger's event types only, each item the
 * trigger's own, the credential's Environment picking the host.
 */
import { NodeApiError } from 'n8n-workflow';

import {
	CREDENTIALS,
	expectFirstRunCursors,
	DAY,
	paymentEvents,
	queryOf,
	record,
	recordHistory,
	runNode,
	triggerItems,
	useProviderApis,
	withoutCursor,
} from './harness';
import {
	PADDLE_EVENT_TYPES,
	PADDLE_HOSTS,
	paddleHostOf,
} from '../../nodes/PaymentProviderEvents/providers/paddle';
import { providerOf } from '../../nodes/PaymentWebhookTrigger/providers';
import { httpAnswer } from '../../support/fakes/fakeContext';
import { scenario } from '../../support/scenarios';

useProviderApis();

/** 60 events before the first run's start (3 days back), 250 after it, and one of another type. */
const history = () =>
	recordHistory(
		'paddle',
		{ before: 60, after: 250 },
		{ before: 'evt_01a', after: 'evt_01b' },
		(now) => [
			{
				event_id: 'evt_01b00100x',
				event_type: 'customer.created',
				occurred_at: new Date(now - DAY).toISOString(),
				data: { id: 'ctm_1' },
			},
		],
	);

const ids = (items: Array<{ event?: unknown }>) =>
	items.map((item) => (item.event as { event_id: string }).event_id);
const cursorOf = (event: { event_id?: unknown; occurred_at?: unknown }) =>
	`${Date.parse(String(event.occurred_at))}:${String(event.event_id)}`;

describe(scenario('paymentEvents.paddle'), () => {
	it("asks for exactly the trigger's Paddle events, comma-separated, 200 a page, by ID", async () => {
		expect(PADDLE_EVENT_TYPES).toEqual(Object.keys(providerOf('paddle').events));
		history();
		const { requests } = await runNode('paddle', {
			parameters: {
				cursor: cursorOf({ event_id: 'evt_01b00000', occurred_at: '2026-01-01T00:00:00Z' }),
			},
		});
		expect(queryOf(requests[0])).toEqual({
			order_by: 'id[ASC]',
			per_page: '200',
			after: 'evt_01b00000',
			event_type: PADDLE_EVENT_TYPES.join(','),
		});
	});

	it('a first run: walks back by ID to the newest event before the start, then reads 250 forward, oldest first', async () => {
		const { before, after } = history();
		const { items, requests } = await runNode('paddle', { parameters: { overlapMinutes: 10 } });

		expect(ids(items)).toEqual(after.map((event) => event.event_id));
		const queries = requests.map(queryOf);
		// Back: the newest 200 (all after the start), then the next 200 after the last one seen.
		expect(queries.slice(0, 2).map(({ order_by, after: id }) => [order_by, id ?? null])).toEqual([
			['id[DESC]', null],
			['id[DESC]', 'evt_01b00050'],
		]);
		// Forward from the anchor found, then from each page's last.
		expect(queries.slice(2).map(({ order_by, after: id }) => [order_by, id])).toEqual([
			['id[ASC]', 'evt_01a00059'],
			['id[ASC]', 'evt_01b00199'],
		]);
		expectFirstRunCursors(items, cursorOf(before[59]), after.map(cursorOf));
	});

	it('each item is what the Payment Webhook Trigger makes of the same event, plus its cursor', async () => {
		const { after } = history();
		const { items } = await runNode('paddle');
		expect(items.map(withoutCursor)).toEqual(await triggerItems('paddle', after));
		expect(items[0]).toMatchObject({
			provider: 'paddle',
			eventType: 'transaction.completed',
			kind: 'purchase',
			transactionId: 'pi_evt_01b0',
			// Paddle signs whole seconds: the trigger's signedAt, from the event's own time.
			signedAt: new Date(
				Math.floor(Date.parse(String(after[0].occurred_at)) / 1000) * 1000,
			).toISOString(),
		});
		expect(items[1]).toMatchObject({ kind: 'refund', eventType: 'adjustment.updated' });
	});

	it('from a cursor: the 150 events after its anchor, in pages of 200', async () => {
		const { after } = history();
		const { items, requests } = await runNode('paddle', {
			parameters: { cursor: cursorOf(after[99]) },
		});
		expect(ids(items)).toEqual(after.slice(100).map((event) => event.event_id));
		expect(requests).toHaveLength(1);
		expect(items.map((item) => item.cursor)).toEqual(after.slice(100).map(cursorOf));
	});

	it('a first run with no event before the start reads the list from its beginning', async () => {
		const after = paymentEvents('paddle', 250, Date.now() - 2 * DAY);
		record('paddle', after);
		const { items, requests } = await runNode('paddle');
		expect(ids(items)).toEqual(after.map((event) => event.event_id));
		const queries = requests.map(queryOf);
		expect(queries.slice(0, 2).map((query) => query.order_by)).toEqual(['id[DESC]', 'id[DESC]']);
		expect(queries[2]).toMatchObject({ order_by: 'id[ASC]' });
		expect(queries[2].after).toBeUndefined();
		expect(queries[3]).toMatchObject({ order_by: 'id[ASC]', after: 'evt_00199' });
	});

	it("the credential's environment picks the host: Live api.paddle.com, Sandbox sandbox-api.paddle.com", async () => {
		expect(paddleHostOf({ environment: 'live' })).toBe('https://api.paddle.com');
		expect(paddleHostOf({ environment: 'sandbox' })).toBe('https://sandbox-api.paddle.com');
		expect(paddleHostOf({})).toBe(PADDLE_HOSTS.live);
		for (const environment of ['live', 'sandbox']) {
			const { requests } = await runNode('paddle', {
				credentials: { ...CREDENTIALS.paddle, environment },
				parameters: { cursor: '1:evt_1', options: {} },
				respond: () => httpAnswer(200, { data: [], meta: { pagination: { has_more: false } } }),
			});
			expect(requests[0].url.startsWith(`${PADDLE_HOSTS[environment]}/events?`)).toBe(true);
		}
	});

	it('a key Paddle refuses: its 403 names the Payment Provider API credential', async () => {
		history();
		const error = await runNode('paddle', {
			credentials: { ...CREDENTIALS.paddle, apiKey: 'pdl_sdbx_apikey_dummy_revoked' },
		}).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error).toMatchObject({
			httpCode: '403',
			message: expect.stringContaining(
				'Paddle Billing refused the Payment Provider API credential (HTTP 403)',
			),
		});
	});
});
