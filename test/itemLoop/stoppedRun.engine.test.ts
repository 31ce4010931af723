/**
 * A concurrent batch stopped by one item's error: no item starts after it, those under way finish,
 * and the error accounts for every item as the sandbox's own records confirm.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../../support/n8n/core/runWorkflow';
import { singleNodeWorkflow } from '../../support/n8n/core/workflows';
import { printTable } from '../../support/testing/report';
import {
	allCredentials,
	PAST_TIMEOUT_MS,
	REQUEST_TIMEOUT_MS,
	TIMED_OUT,
	useSandbox,
} from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';

const ITEMS = 20;
const FAILING_ITEM = 10;
/** No retries, so that the failing item fails while the others of its wave are under way. */
const OPTIONS = { concurrency: 5, maxRetries: 0 };

/** "0-3, 7, 9-10" → [0, 1, 2, 3, 7, 9, 10]. */
function expandRanges(ranges: unknown): number[] {
	if (typeof ranges !== 'string' || ranges === '') return [];
	return ranges.split(', ').flatMap((range) => {
		const [first, last = first] = range.split('-').map(Number);
		return Array.from({ length: last - first + 1 }, (_, offset) => first + offset);
	});
}

const GROUPS = ['succeeded', 'failed', 'uncertain', 'notSent'] as const;
type ItemStates = Record<(typeof GROUPS)[number], number[]>;
type StoppedRunError = Error & { description?: string; context?: IDataObject };

function itemStatesOf(error: StoppedRunError | undefined): ItemStates {
	const states = error?.context?.itemStates as IDataObject | undefined;
	expect(states).toBeDefined();
	return Object.fromEntries(
		GROUPS.map((group) => [group, expandRanges(states?.[group])]),
	) as ItemStates;
}

function expectEveryItemOnce(states: ItemStates): void {
	const all = GROUPS.flatMap((group) => states[group]);
	expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: ITEMS }, (_, index) => index));
}

/**
 * Every item accounted for once; the failing item failed; items under way when it failed
 * finished (some after it succeeded), and no item started after it (some never sent).
 */
function expectStoppedAtFailingItem(states: ItemStates): void {
	expectEveryItemOnce(states);
	expect(states.failed).toEqual([FAILING_ITEM]);
	expect(states.uncertain).toEqual([]);
	expect(states.succeeded.some((index) => index > FAILING_ITEM)).toBe(true);
	expect(states.notSent.length).toBeGreaterThan(0);
}

describe(scenario('itemLoop.stoppedBatch'), () => {
	const sandbox = useSandbox();

	/** Runs the node over ITEMS items (`json` gives each one's fields), stopping on the first error. */
	async function stoppedRun(parameters: INodeParameters, json: (i: number) => IDataObject) {
		const result = await runWorkflow(singleNodeWorkflow(parameters), {
			credentials: allCredentials(sandbox),
			input: Array.from({ length: ITEMS }, (_, i) => ({ json: json(i) })),
		});
		return result.error as StoppedRunError | undefined;
	}

	/** Track Purchase for ITEMS signed-up users (order_acct_0 …). */
	async function trackPurchases(options: INodeParameters): Promise<StoppedRunError | undefined> {
		sandbox.instrumentation.addPurchases('prd_videomax', ITEMS, 'acct');
		return await stoppedRun(
			{
				resource: 'conversion',
				operation: 'trackPurchase',
				invitedUserId: '={{ $json.user }}',
				transactionId: '={{ $json.order }}',
				conversionValue: 10,
				options,
			},
			(i) => ({ user: `acct_user_${i}`, order: `order_acct_${i}` }),
		);
	}

	// Every request takes a while, so that others are under way when one fails.
	beforeEach(() => (sandbox.latencyMs = 30));
	afterEach(() => (sandbox.latencyMs = 0));

	it('Track Purchase: the error names what the service recorded, what failed and what was never sent', async () => {
		sandbox.addFault({
			kind: 'appError',
			match: 'conversion',
			requestContains: `"order_acct_${FAILING_ITEM}"`,
		});
		const error = await trackPurchases(OPTIONS);
		expect(error?.message).toBe('Failed to record the conversion');
		expect(error?.context?.envelopeCode).toBe(6000000);
		const states = itemStatesOf(error);
		expectStoppedAtFailingItem(states);

		// The sandbox's records agree: exactly the items called recorded were recorded.
		const recorded = sandbox.state.conversions
			.filter((c) => c.eventName === 'purchase' && c.transactionId?.startsWith('order_acct_'))
			.map((c) => Number(c.transactionId?.slice('order_acct_'.length)))
			.sort((a, b) => a - b);
		expect(recorded).toEqual(states.succeeded);
		expect(sandbox.requestCount).toBe(states.succeeded.length + states.failed.length);

		const description = error?.description ?? '';
		expect(description).toMatch(/^Code 6000000\. /);
		expect(description).toContain(
			`The node stopped at item ${FAILING_ITEM}: it started no further item and waited for those under way. All ${ITEMS} input items, by index:`,
		);
		expect(description).toContain(`- Recorded by the service (${states.succeeded.length}): `);
		expect(description).toContain('Transaction ID: 0: order_acct_0; 1: order_acct_1;');
		expect(description).toContain(
			`- Failed, not recorded (1): ${FAILING_ITEM}. ${FAILING_ITEM}: Failed to record the conversion.`,
		);
		expect(description).toContain(`- Never sent (${states.notSent.length}): `);
		expect(description).toContain('Re-run only the items that were not recorded');
		printTable('A stopped 20-item Track Purchase batch (concurrency 5): the error description', [
			description,
		]);
	});

	it('Get Promoter Statistics: a read reports what succeeded and that a re-run is safe', async () => {
		sandbox.addFault({
			kind: 'http5xx',
			match: 'promoterRead',
			requestContains: `start_date=2026-01-${FAILING_ITEM + 1}`,
		});
		const error = await stoppedRun(
			{
				resource: 'promoter',
				operation: 'getStatistics',
				userId: 'user_1001',
				startDate: '={{ $json.from }}',
				options: OPTIONS,
			},
			(i) => ({ from: `2026-01-${String(i + 1).padStart(2, '0')}` }),
		);
		expect(error?.message).toBe('The service answered HTTP 502 instead of an API response');
		const states = itemStatesOf(error);
		// A read that failed after reaching the service recorded nothing: failed, not uncertain.
		expectStoppedAtFailingItem(states);
		expect(sandbox.requestCount).toBe(states.succeeded.length + 1);
		expect(error?.description).toContain(`- Succeeded (${states.succeeded.length}): `);
		expect(error?.description).toContain(
			'Running all items again is safe: repeating Get Promoter Statistics changes nothing more.',
		);
	});

	it('a timeout on a write that is not safe to repeat is reported as sent, outcome unknown', async () => {
		sandbox.addFault({
			kind: 'latency',
			match: 'conversion',
			latencyMs: PAST_TIMEOUT_MS,
			requestContains: `"order_acct_${FAILING_ITEM}"`,
		});
		const error = await trackPurchases({ ...OPTIONS, timeout: REQUEST_TIMEOUT_MS });
		expect(error?.message).toBe(TIMED_OUT);
		const states = itemStatesOf(error);
		expectEveryItemOnce(states);
		expect(states.uncertain).toEqual([FAILING_ITEM]);
		expect(states.failed).toEqual([]);
		expect(error?.description).toContain(
			`- Sent, outcome unknown (1): ${FAILING_ITEM}. The request may have reached the service; check Transaction ID ${FAILING_ITEM}: order_acct_${FAILING_ITEM} in the brand dashboard.`,
		);
	});
});
