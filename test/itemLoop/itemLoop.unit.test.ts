/** The item loop on the sources: order, pairing, Continue On Fail, and a stopped run. */
import { NodeApiError, NodeOperationError, type IDataObject } from 'n8n-workflow';

import {
	runForEachItem,
	type Operation,
	type OperationResult,
} from '../../nodes/shared/helpers/itemLoop';
import { profile as PURCHASE } from '../../nodes/AffiliateTracking/actions/conversion/trackPurchase.operation';
import type { Pacing, RunOptions } from '../../nodes/shared/helpers/runOptions';
import { ERROR_CONTEXT } from '../../nodes/shared/transport/errors';
import { DEFAULT_REQUEST_SETTINGS } from '../../nodes/shared/transport/requestSettings';
import { fakeContext, type FakeContextOptions } from '../../support/fakes/fakeContext';
import { scenario } from '../../support/scenarios';

const purchase = (handler: (itemIndex: number) => Promise<OperationResult>): Operation => ({
	profile: PURCHASE,
	execute: async ({ itemIndex }) => await handler(itemIndex),
});

/** A run's options: `pacing` (one item at a time when not given), the default request settings. */
const paced = (pacing: Pacing = { concurrency: 1, batchIntervalMs: 0 }): RunOptions => ({
	pacing,
	request: DEFAULT_REQUEST_SETTINGS,
});

const byItem = (itemIndex: number) => ({ transactionId: `order_${itemIndex}` });

/** The context of a run over `items` items, each with its own transaction ID. */
const contextOf = (items: number, onError?: FakeContextOptions['onError']) =>
	fakeContext({ parameters: byItem, items, onError }).context;

/** The error a run stopped with; a run that did not stop fails the test. */
const rejection = async <T extends Error>(run: Promise<unknown>): Promise<T> =>
	await run.then(
		() => Promise.reject(new Error('the run did not stop')),
		(error: T) => error,
	);

/** Resolves after a few microtask turns, so that items overlap in a repeatable order. */
async function later(turns: number): Promise<void> {
	for (let turn = 0; turn < turns; turn++) await Promise.resolve();
}

/** A stopped run's error reports all four item states; those a test does not name are empty. */
const NO_ITEMS = { succeeded: '', failed: '', uncertain: '', notSent: '' };

function apiError(context: ReturnType<typeof contextOf>, message: string) {
	const error = new NodeApiError(context.getNode(), { message } as IDataObject as never, {
		message,
		description: 'Code 6000000. Remedy.',
		httpCode: '200',
	});
	error.context[ERROR_CONTEXT.envelopeCode] = 6000000;
	return error;
}

describe(scenario('itemLoop.order'), () => {
	it('keeps input order and pairs every result under concurrency, lists becoming items', async () => {
		let inFlight = 0;
		let peak = 0;
		const [out] = await runForEachItem(
			contextOf(6),
			purchase(async (itemIndex) => {
				inFlight++;
				peak = Math.max(peak, inFlight);
				await later(6 - itemIndex); // later items finish first
				inFlight--;
				return itemIndex === 2 ? ['a', 'b'].map((part) => ({ n: 2, part })) : { n: itemIndex };
			}),
			paced({ concurrency: 3, batchIntervalMs: 0 }),
		);
		expect(peak).toBe(3);
		const expected = [0, 1, 2, 2, 3, 4, 5].map((n) => [n, { item: n }]);
		expect(out.map((item) => [item.json.n, item.pairedItem])).toEqual(expected);
	});

	it('batches: never more than the batch in flight, and a pause between batches', async () => {
		const started: number[] = [];
		let inFlight = 0;
		let peak = 0;
		await runForEachItem(
			contextOf(5),
			purchase(async (itemIndex) => {
				started.push(itemIndex);
				inFlight++;
				peak = Math.max(peak, inFlight);
				await later(2);
				inFlight--;
				return {};
			}),
			paced({ concurrency: 10, batchSize: 2, batchIntervalMs: 1 }),
		);
		expect(peak).toBe(2);
		expect(started).toEqual([0, 1, 2, 3, 4]);
	});
});

describe(scenario('itemLoop.continueOnFail'), () => {
	/** What an error item says of apiError's failure, besides its message. */
	const FAILURE = { code: 6000000, httpCode: '200', description: 'Code 6000000. Remedy.' };
	const failOdd = (context: ReturnType<typeof contextOf>) => async (itemIndex: number) => {
		if (itemIndex % 2 === 1) throw apiError(context, `item ${itemIndex} failed`);
		return { ok: itemIndex };
	};

	it('regular output: an error item with message, code and remedy in place of each failure', async () => {
		const context = contextOf(3, 'continueRegularOutput');
		const [out] = await runForEachItem(
			context,
			purchase(failOdd(context)),
			paced({ concurrency: 2, batchIntervalMs: 0 }),
		);
		expect(out).toEqual([
			{ json: { ok: 0 }, pairedItem: { item: 0 } },
			{ json: { error: 'item 1 failed', ...FAILURE }, pairedItem: { item: 1 } },
			{ json: { ok: 2 }, pairedItem: { item: 2 } },
		]);
	});

	it('error output: message, code and remedy under the one key every n8n release routes', async () => {
		const context = contextOf(2, 'continueErrorOutput');
		const [out] = await runForEachItem(context, purchase(failOdd(context)), paced());
		expect(out[1]).toEqual({
			json: { error: { message: 'item 1 failed', ...FAILURE } },
			pairedItem: { item: 1 },
		});
		// n8n 1.x and 2.x before 2.34.4 send an item to the error output only as { error } or
		// { error, message }; anything else goes out on the success branch.
		expect(Object.keys(out[1].json)).toEqual(['error']);
	});

	it('error output: a write that may have been recorded says outcomeUnknown, a refused one does not', async () => {
		const context = contextOf(2, 'continueErrorOutput');
		const [out] = await runForEachItem(
			context,
			purchase(async (itemIndex) => {
				const error = apiError(context, `item ${itemIndex} failed`);
				if (itemIndex === 0) error.context[ERROR_CONTEXT.mayHaveBeenRecorded] = true;
				throw error;
			}),
			paced(),
		);
		const outcomeUnknown = out.map((item) => (item.json.error as IDataObject).outcomeUnknown);
		expect(outcomeUnknown).toEqual([true, undefined]);
		expect(out.map((item) => Object.keys(item.json))).toEqual([['error'], ['error']]);
	});

	it('an error that is not a node error still becomes a paired error item', async () => {
		const [out] = await runForEachItem(
			contextOf(1, 'continueRegularOutput'),
			purchase(() => Promise.reject(new TypeError('unexpected'))),
			paced(),
		);
		expect(out).toEqual([{ json: { error: 'unexpected' }, pairedItem: { item: 0 } }]);
	});
});

describe(scenario('itemLoop.stopped'), () => {
	it('starts no further item, waits for those under way, and accounts for every item', async () => {
		const context = contextOf(12);
		const started: number[] = [];
		const finished: number[] = [];
		const error = await rejection<NodeApiError>(
			runForEachItem(
				context,
				purchase(async (itemIndex) => {
					started.push(itemIndex);
					if (itemIndex === 4) {
						await later(1);
						throw apiError(context, 'Failed to record the conversion');
					}
					await later(itemIndex === 5 ? 10 : 3);
					finished.push(itemIndex);
					return {};
				}),
				paced({ concurrency: 3, batchIntervalMs: 0 }),
			),
		);

		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('Failed to record the conversion');
		// Items 3 and 5 were under way when item 4 failed: they finished; nothing started after.
		expect(started.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(finished.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 5]);
		const reported = { ...NO_ITEMS, succeeded: '0-3, 5', failed: '4', notSent: '6-11' };
		expect(error.context.itemStates).toEqual(reported);
		expect(error.description).toBe(
			[
				'Code 6000000. Remedy.',
				'',
				'The node stopped at item 4: it started no further item and waited for those under way. All 12 input items, by index:',
				'- Recorded by the service (5): 0-3, 5. Transaction ID: 0: order_0; 1: order_1; 2: order_2; 3: order_3; 5: order_5.',
				'- Failed, not recorded (1): 4. 4: Failed to record the conversion.',
				'- Never sent (6): 6-11.',
				'Re-run only the items that were not recorded: Track Purchase is not safe to repeat for an item the service recorded. For batch writes, set On Error to "Continue (using error output)" so that every item reports its own outcome.',
			].join('\n'),
		);
	});

	it('accounts for failures of items under way, the first failure being the error', async () => {
		const context = contextOf(4);
		const error = await rejection<NodeOperationError>(
			runForEachItem(
				context,
				purchase(async (itemIndex) => {
					await later(itemIndex === 0 ? 1 : 4);
					if (itemIndex === 2) throw apiError(context, 'second failure');
					if (itemIndex === 0) throw new NodeOperationError(context.getNode(), 'first failure');
					if (itemIndex === 1) {
						const lost = apiError(context, 'The service did not answer within 300 ms');
						lost.context[ERROR_CONTEXT.mayHaveBeenRecorded] = true;
						throw lost;
					}
					return {};
				}),
				paced({ concurrency: 3, batchIntervalMs: 0 }),
			),
		);
		expect(error.message).toBe('first failure');
		expect(error.context.itemIndex).toBe(0);
		const reported = { ...NO_ITEMS, failed: '0, 2', uncertain: '1', notSent: '3' };
		expect(error.context.itemStates).toEqual(reported);
		expect(error.description).toContain(
			'- Failed, not recorded (2): 0, 2. 0: first failure; 2: second failure.',
		);
		expect(error.description).toContain(
			'- Sent, outcome unknown (1): 1. The request may have reached the service; check Transaction ID 1: order_1 in the brand dashboard.',
		);
	});

	it('a single item throws its own error unchanged', async () => {
		const context = contextOf(1);
		const thrown = apiError(context, 'only item');
		const error = await rejection<NodeApiError>(
			runForEachItem(
				context,
				purchase(() => Promise.reject(thrown)),
				paced(),
			),
		);
		expect(error).toBe(thrown);
		expect(error.description).toBe('Code 6000000. Remedy.');
		expect(error.context.itemStates).toBeUndefined();
	});
});
