/**
 * Cursors of Payment Provider Events (nodes/PaymentProviderEvents/cursor.ts), on their own and
 * across runs on the Stripe emulator: the overlap, Max Events, and the guard that makes every run
 * progress.
 */
import {
	cursorsOf,
	formatCursor,
	parseCursor,
	type Anchor,
} from '../../nodes/PaymentProviderEvents/cursor';
import { DAY, MINUTE, paymentEvents, record, runNode, useProviderApis } from './harness';
import { scenario } from '../../support/scenarios';

useProviderApis();

const START: Anchor = { timeMs: 1_000_000, id: 'evt_start' };
/** Events `gapsMs` apart after the start, named e0, e1, … */
function placed(gapsMs: number[]): Anchor[] {
	let timeMs = START.timeMs;
	return gapsMs.map((gap, index) => ({ timeMs: (timeMs += gap), id: `e${index}` }));
}
const names = (cursors: string[]) =>
	cursors.map((cursor) => (cursor === formatCursor(START) ? 'start' : cursor.split(':')[1]));

describe(scenario('paymentEvents.cursor'), () => {
	it.each([
		['1764000000000:evt_1QxY', { timeMs: 1764000000000, id: 'evt_1QxY' }],
		['1764000000000:', { timeMs: 1764000000000, id: '' }],
		[
			'1795763993000:7b1c0000-0000-4000-8000-000000000001',
			{ timeMs: 1795763993000, id: '7b1c0000-0000-4000-8000-000000000001' },
		],
	])('reads %s', (cursor, anchor) => {
		expect(parseCursor(cursor)).toEqual(anchor);
		expect(formatCursor(anchor)).toBe(cursor);
	});

	it.each(['evt_1', ':evt_1', '-5:evt_1', '17640000000a:evt_1', '1764:evt 1', '1.5:evt'])(
		'refuses %s',
		(cursor) => expect(parseCursor(cursor)).toBeNull(),
	);

	it('overlap 0: each item is its own cursor', () => {
		const events = placed([MINUTE, MINUTE, MINUTE]);
		expect(names(cursorsOf(events, START, 0, false))).toEqual(['e0', 'e1', 'e2']);
	});

	it('overlap: the newest emitted event at least that much older, else the start anchor', () => {
		const events = placed([MINUTE, MINUTE, 5 * MINUTE, MINUTE, 10 * MINUTE, 0]);
		// e0 1, e1 2, e2 7, e3 8, e4 18, e5 18 (minutes after the start)
		expect(names(cursorsOf(events, START, 6 * MINUTE, false))).toEqual([
			'start',
			'start',
			'e0',
			'e1',
			'e3',
			'e3',
		]);
	});

	it('stopped at Max Events with no cursor past the start: every item is its own cursor', () => {
		const events = placed([MINUTE, MINUTE, MINUTE]);
		expect(names(cursorsOf(events, START, 10 * MINUTE, true))).toEqual(['e0', 'e1', 'e2']);
		// Read to the end, the overlap stays: the next run reads them again, and no more.
		expect(names(cursorsOf(events, START, 10 * MINUTE, false))).toEqual([
			'start',
			'start',
			'start',
		]);
	});

	it('stopped at Max Events with a cursor past the start: the overlap stays', () => {
		const events = placed([MINUTE, 20 * MINUTE, MINUTE]);
		expect(names(cursorsOf(events, START, 10 * MINUTE, true))).toEqual(['start', 'e0', 'e0']);
	});

	it('events listed out of time order: never a cursor past the item itself', () => {
		const at = (minutes: number, id: string) => ({ timeMs: START.timeMs + minutes * MINUTE, id });
		const events = [at(5, 'a'), at(30, 'b'), at(10, 'c'), at(25, 'd'), at(60, 'e')];
		expect(names(cursorsOf(events, START, 10 * MINUTE, false))).toEqual([
			'start',
			'a',
			'a',
			'a',
			'd',
		]);
	});

	it('no event: no cursor', () => {
		expect(cursorsOf([], START, MINUTE, true)).toEqual([]);
	});

	it('runs of Max Events 100 from each last cursor read every event, each again only within the overlap', async () => {
		const events = paymentEvents('stripe', 250, Date.now() - 2 * DAY);
		record('stripe', events);
		const seen: string[] = [];
		let cursor = '';
		const runs: number[] = [];
		for (let run = 0; run < 5; run++) {
			const { items } = await runNode('stripe', {
				parameters: { cursor, maxEvents: 100, overlapMinutes: 10 },
			});
			runs.push(items.length);
			if (items.length === 0) break;
			seen.push(...items.map((item) => String(item.eventId)));
			cursor = String(items[items.length - 1].cursor);
		}
		// 100, then 10 again + 90 new, then 10 again + 60 new; the last run reads its overlap again.
		expect(runs).toEqual([100, 100, 70, 10, 10]);
		expect(new Set(seen)).toEqual(new Set(events.map((event) => String(event.id))));
		const repeats = seen.length - new Set(seen).size;
		expect(repeats).toBe(10 + 10 + 10 + 10);
	});

	it('Max Events reached inside the overlap: each item is its own cursor, so the next run moves on', async () => {
		// 30 events 10 seconds apart: Max Events 20 ends within 10 minutes of the first.
		const events = paymentEvents('stripe', 30, Date.now() - DAY, { stepMs: 10_000 });
		record('stripe', events);
		const first = await runNode('stripe', { parameters: { maxEvents: 20, overlapMinutes: 10 } });
		expect(first.items).toHaveLength(20);
		expect(first.items.map((item) => item.cursor)).toEqual(
			events.slice(0, 20).map((event) => `${Number(event.created) * 1000}:${String(event.id)}`),
		);
		const second = await runNode('stripe', {
			parameters: { cursor: first.items[19].cursor, maxEvents: 20, overlapMinutes: 10 },
		});
		expect(second.items.map((item) => item.eventId)).toEqual(
			events.slice(20).map((event) => event.id),
		);
		// Read to the end within the overlap: the next run starts where this one started.
		expect(second.items.every((item) => item.cursor === first.items[19].cursor)).toBe(true);
	});

	it('Max Events equal to what is left: the run ends there and asks for no further page', async () => {
		const events = paymentEvents('stripe', 100, Date.now() - DAY);
		record('stripe', events);
		const { items, requests } = await runNode('stripe', {
			parameters: { cursor: `1:${String(events[0].id)}`, maxEvents: 99 },
		});
		expect(items).toHaveLength(99);
		expect(requests).toHaveLength(1);
	});
});
