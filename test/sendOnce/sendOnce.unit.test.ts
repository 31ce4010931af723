/** Track Purchase's Skip Transactions Already Tracked, on the sources with a fake n8n store. */
import {
	sleep,
	type DeduplicationHelperFunctions as Store,
	type DeduplicationItemTypes,
	type IDataObject,
	type IDeduplicationOutput,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { router } from '../../nodes/AffiliateTracking/actions/router';
import {
	ALREADY_TRACKED,
	SKIP_TRACKED_OPTION,
	trackedTransactionKey,
} from '../../nodes/AffiliateTracking/actions/conversion/trackPurchase.operation';
import { CONFIRM_ATTEMPTS, MAX_TRACKED_ENTRIES } from '../../nodes/shared/helpers/sendOnce';
import {
	envelope,
	fakeContext,
	httpAnswer,
	networkError,
	type Responder,
} from '../../support/fakes/fakeContext';
import { scenario } from '../../support/scenarios';

const PURCHASE_DATA = { event_name: 'purchase', event_type: 2, status: 1, conversion_id: 7 };

type Answer = 'store' | 'new' | Error;

/**
 * n8n's store as the helpers expose it, for one workflow and scope: a list of values, read and
 * written back with a pause between (as n8n's database round trips), no lock. `script` overrides
 * the next checks' answers: `new` answers new and writes the value again, as when another
 * process's write had dropped it; an Error is thrown.
 */
class FakeStore {
	values: string[] = [];
	calls: Array<{ call: string; items: DeduplicationItemTypes[]; scope: string; options: object }> =
		[];
	script: Answer[] = [];
	removeFails = false;

	constructor(init: Partial<Pick<FakeStore, 'values' | 'script' | 'removeFails'>> = {}) {
		Object.assign(this, init);
	}

	checkProcessedAndRecord: Store['checkProcessedAndRecord'] = async (items, scope, options) => {
		this.calls.push({ call: 'check', items, scope, options });
		const answer = this.script.shift() ?? 'store';
		if (answer instanceof Error) throw answer;
		const read = [...this.values];
		await sleep(0);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			if (answer === 'store' && read.includes(String(item))) {
				output.processed.push(item);
			} else {
				output.new.push(item);
				if (!read.includes(String(item))) read.push(String(item));
			}
		}
		this.values = read;
		return output;
	};

	removeProcessed: Store['removeProcessed'] = async (items, scope, options) => {
		this.calls.push({ call: 'remove', items, scope, options });
		if (this.removeFails) throw new Error('connection to the database lost');
		const read = [...this.values];
		await sleep(0);
		this.values = read.filter((value) => !items.map(String).includes(value));
	};

	callNames(): string[] {
		return this.calls.map(({ call }) => call);
	}
}

const purchase = (itemIndex: number): IDataObject => ({
	resource: 'conversion',
	operation: 'trackPurchase',
	invitedUserId: 'buyer_1',
	transactionId: `order_${itemIndex}`,
	conversionValue: 10,
	additionalFields: { skipTrackedTransactions: true },
	options: { maxRetries: 0, retryDelay: 1, timeout: 100, concurrency: 1 },
});

/** Runs the node with `store` (a new one when not given) as n8n's store, or without one. */
async function run(
	options: {
		store?: FakeStore;
		withoutStore?: boolean;
		respond?: Responder;
		/** Over each item's purchase() parameters. */
		fields?: IDataObject;
		items?: number;
		continueOnFail?: boolean;
		workflowId?: string;
	} = {},
) {
	const fake = fakeContext({
		parameters: (itemIndex) => ({ ...purchase(itemIndex), ...options.fields }),
		items: options.items ?? 1,
		onError: options.continueOnFail === false ? undefined : 'continueRegularOutput',
		respond: options.respond ?? (() => envelope(0, 'success', PURCHASE_DATA)),
	});
	const warnings: string[] = [];
	const context: IExecuteFunctions = Object.assign(fake.context, {
		getWorkflow: () => ({ id: options.workflowId ?? workflowOfTest, active: true }),
		logger: { warn: (message: string) => warnings.push(message) },
	});
	const store = options.store ?? new FakeStore();
	if (!options.withoutStore) {
		Object.assign(context.helpers, {
			checkProcessedAndRecord: store.checkProcessedAndRecord.bind(store),
			removeProcessed: store.removeProcessed.bind(store),
		});
	}
	const outcome = await router(context).then(
		([items]) => ({ items, error: undefined }),
		(error: Error) => ({ items: [] as INodeExecutionData[], error }),
	);
	return {
		...outcome,
		store,
		requests: fake.requests.length,
		hints: fake.hints.map((hint) => hint.message),
		warnings,
	};
}

/** A request that fails on the way with `code`. */
const failsWith =
	(code: string, message: string): Responder =>
	() => {
		throw networkError(code, message);
	};

const KEY = trackedTransactionKey('order_0');

/**
 * The node remembers, per workflow and process, the keys it sent; each test is a workflow of its
 * own, so that none inherits another's memory.
 */
let workflowOfTest = '';
let tests = 0;
beforeEach(() => (workflowOfTest = `wf_${++tests}`));

describe(scenario('sendOnce.decisions'), () => {
	it('is off by default: no store call', async () => {
		const { store, ...result } = await run({ fields: { additionalFields: {} } });
		expect(result.items.map((item) => item.json)).toEqual([PURCHASE_DATA]);
		expect(result.requests).toBe(1);
		expect(store.calls).toEqual([]);
	});

	it('records a new transaction before sending it, scoped to the workflow, then confirms it', async () => {
		const { store, ...result } = await run();
		expect(result.items.map((item) => item.json)).toEqual([PURCHASE_DATA]);
		expect(result.requests).toBe(1);
		const check = {
			call: 'check',
			items: [KEY],
			scope: 'workflow',
			options: { mode: 'entries', maxEntries: MAX_TRACKED_ENTRIES },
		};
		expect(store.calls).toEqual([check, check]);
		expect(store.values).toEqual([KEY]);
		expect(KEY).toBe('affiliate-tracking:purchase:order_0');
		expect(result.hints).toEqual([]);
	});

	it('skips a transaction an earlier execution sent: no request, a plain item', async () => {
		const store = new FakeStore({ values: [KEY] });
		const result = await run({ store });
		expect(result.requests).toBe(0);
		expect(result.items).toEqual([
			{
				json: {
					event_name: 'purchase',
					invited_user_id: 'buyer_1',
					transaction_id: 'order_0',
					status: ALREADY_TRACKED,
					message: `Not sent: an earlier execution of this workflow sent transaction "order_0" (${SKIP_TRACKED_OPTION})`,
				},
				pairedItem: { item: 0 },
			},
		]);
		expect(store.callNames()).toEqual(['check']);
	});

	it('is not fooled by a Remove Duplicates node that recorded the raw order ID', async () => {
		const store = new FakeStore({ values: ['order_0'] });
		const result = await run({ store });
		expect(result.requests).toBe(1);
		expect(result.items[0].json).toEqual(PURCHASE_DATA);
	});

	it('refuses bad input before the store is touched', async () => {
		const { store, ...result } = await run({
			fields: { additionalFields: { skipTrackedTransactions: true, extraBodyFields: '[1]' } },
		});
		expect(result.items[0].json.error).toMatch(/^Parameter "Extra Body Fields"/);
		expect(result.requests).toBe(0);
		expect(store.calls).toEqual([]);
	});

	it.each<[string, Responder]>([
		['the service refuses it (envelope error)', () => envelope(1000005, 'Invalid request')],
		[
			'the request never reached the service (connection refused)',
			failsWith('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:8787'),
		],
		['the service rate-limits it past the retries (429)', () => httpAnswer(429)],
	])('when %s: forgets the transaction, so that the next run sends it', async (_label, respond) => {
		const { store, ...first } = await run({ respond });
		expect(first.items[0].json.error).toBeDefined();
		expect(first.items[0].json.description).not.toMatch(SKIP_TRACKED_OPTION);
		expect(store.callNames()).toEqual(['check', 'remove']);
		expect(store.calls[1]).toMatchObject({ items: [KEY], scope: 'workflow' });
		expect(store.values).toEqual([]);

		const second = await run({ store });
		expect(second.requests).toBe(1);
		expect(second.items[0].json).toEqual(PURCHASE_DATA);
	});

	it.each<[string, Responder]>([
		['a timeout', failsWith('ECONNABORTED', 'timeout of 100ms exceeded')],
		['a dropped connection', failsWith('ECONNRESET', 'socket hang up')],
		['HTTP 502', () => httpAnswer(502, '<html>Bad Gateway</html>')],
		['a cut-off answer', () => httpAnswer(200, '{"code":0,"mess')],
	])(
		'when the outcome is unknown (%s): keeps the transaction, says so, and the next run skips it',
		async (_label, respond) => {
			const { store, ...first } = await run({ respond });
			expect(first.requests).toBe(1);
			expect(first.items[0].json.description).toEqual(
				expect.stringContaining(
					`${SKIP_TRACKED_OPTION} keeps transaction "order_0" as sent, so later runs of this workflow skip it.`,
				),
			);
			expect(store.callNames()).toEqual(['check']);
			expect(store.values).toEqual([KEY]);

			const second = await run({ store });
			expect(second.requests).toBe(0);
			expect(second.items[0].json.status).toBe(ALREADY_TRACKED);
		},
	);

	it('a stopped run still counts an unknown outcome as "Sent, outcome unknown"', async () => {
		const result = await run({
			items: 2,
			continueOnFail: false,
			respond: (_options, requestNumber) => {
				if (requestNumber === 2) throw networkError('ECONNRESET', 'socket hang up');
				return envelope(0, 'success', PURCHASE_DATA);
			},
		});
		expect(result.error?.message).toBe('The connection to the service failed: socket hang up');
		expect((result.error as { context?: IDataObject }).context?.itemStates).toEqual({
			succeeded: '0',
			failed: '',
			uncertain: '1',
			notSent: '',
		});
	});

	it('when forgetting fails, the error says that later runs will skip the transaction', async () => {
		const store = new FakeStore({ removeFails: true });
		const result = await run({ store, respond: () => envelope(1000005, 'Invalid request') });
		expect(result.items[0].json).toMatchObject({
			error: 'Invalid request',
			code: 1000005,
			description: expect.stringContaining(
				`${SKIP_TRACKED_OPTION} could not forget transaction "order_0" (connection to the database lost), so later runs of this workflow skip it`,
			),
		});
	});

	describe('confirming the entry after a send', () => {
		it('writes a lost entry again and reads it back, up to the limit', async () => {
			// The check, then two confirmations that find the entry dropped, then one that finds it.
			const store = new FakeStore({ script: ['store', 'new', 'new'] });
			const result = await run({ store });
			expect(result.items[0].json).toEqual(PURCHASE_DATA);
			expect(store.callNames()).toEqual(['check', 'check', 'check', 'check']);
			expect(store.values).toEqual([KEY]);
			expect(result.hints).toEqual([]);
		});

		it(`after ${CONFIRM_ATTEMPTS} lost entries the item still succeeds, with a hint and a log warning`, async () => {
			const store = new FakeStore({
				script: ['store', ...Array<Answer>(CONFIRM_ATTEMPTS).fill('new')],
			});
			const result = await run({ store });
			expect(result.items[0].json).toEqual(PURCHASE_DATA);
			expect(store.callNames()).toEqual(Array(1 + CONFIRM_ATTEMPTS).fill('check'));
			const expected = `${SKIP_TRACKED_OPTION}: transaction "order_0" was sent, but its entry in n8n's deduplication store could not be confirmed in ${CONFIRM_ATTEMPTS} tries (another write dropped it each time); a repeat of it may be sent again.`;
			expect(result.hints).toEqual([expected]);
			expect(result.warnings).toEqual([expected]);
		});

		it('a confirmation that throws is tried again; the item never fails for it', async () => {
			const store = new FakeStore({ script: ['store', new Error('deadlock detected'), 'store'] });
			const ok = await run({ store });
			expect(ok.items[0].json).toEqual(PURCHASE_DATA);
			expect(ok.hints).toEqual([]);

			const failing = new FakeStore({
				script: ['store', ...Array<Answer>(CONFIRM_ATTEMPTS).fill(new Error('deadlock'))],
			});
			const warned = await run({ store: failing, workflowId: `${workflowOfTest}_another` });
			expect(warned.items[0].json).toEqual(PURCHASE_DATA);
			expect(warned.hints[0]).toMatch(/could not be confirmed in 3 tries \(deadlock\)/);
		});
	});

	describe("another process's write that drops a confirmed entry (n8n's store has no lock)", () => {
		it('every store call writes again the keys this process sent lately', async () => {
			const { store, ...first } = await run();
			expect(first.requests).toBe(1);
			// Another worker read the list before order_0 was in it and wrote it back afterwards.
			store.values = [];
			const next = await run({ store, fields: { transactionId: 'order_1' } });
			expect(next.requests).toBe(1);
			expect(store.calls.filter(({ call }) => call === 'check')[2].items).toEqual([
				trackedTransactionKey('order_1'),
				KEY,
			]);
			expect(store.values).toEqual([trackedTransactionKey('order_1'), KEY]);
		});

		it('a transaction this process sent is skipped without asking the store', async () => {
			const { store } = await run();
			store.values = [];
			const calls = store.calls.length;
			const repeat = await run({ store });
			expect(repeat.requests).toBe(0);
			expect(repeat.items[0].json.status).toBe(ALREADY_TRACKED);
			expect(store.calls.length).toBe(calls);
		});
	});

	describe('the check before sending', () => {
		const uniqueViolation = new Error(
			'duplicate key value violates unique constraint "PK_processed_data"',
		);

		it('is tried once more when it throws (the first insert of two executions at once)', async () => {
			const store = new FakeStore({ script: [uniqueViolation] });
			const result = await run({ store });
			expect(result.items[0].json).toEqual(PURCHASE_DATA);
			expect(result.requests).toBe(1);
			expect(store.callNames()).toEqual(['check', 'check', 'check']);
		});

		it('fails the item, naming the option, when it throws twice; nothing is sent', async () => {
			const store = new FakeStore({ script: [uniqueViolation, uniqueViolation] });
			const result = await run({ store });
			expect(result.requests).toBe(0);
			expect(result.items[0].json).toEqual({
				error: `${SKIP_TRACKED_OPTION} could not check n8n's deduplication store: duplicate key value violates unique constraint "PK_processed_data"`,
				description: expect.stringMatching(/^Nothing was sent \(tried 2 times\)\./),
			});
		});
	});

	it('fails the item, naming the option and what it needs, without n8n deduplication store', async () => {
		const result = await run({ withoutStore: true });
		expect(result.requests).toBe(0);
		expect(result.items[0].json).toEqual({
			error: `${SKIP_TRACKED_OPTION} needs n8n's deduplication store (this.helpers.checkProcessedAndRecord), which this n8n does not offer`,
			description: `Nothing was sent. Run the workflow in n8n 1.85 or newer, or turn ${SKIP_TRACKED_OPTION} off.`,
		});
	});

	it('fails the item, naming the option, in a workflow without an ID (never saved)', async () => {
		const { store, ...result } = await run({ workflowId: '' });
		expect(result.requests).toBe(0);
		expect(store.calls).toEqual([]);
		expect(result.items[0].json).toEqual({
			error: `${SKIP_TRACKED_OPTION} needs a saved workflow: n8n keeps its deduplication store per workflow ID`,
			description: `Nothing was sent. Save the workflow, or turn ${SKIP_TRACKED_OPTION} off.`,
		});
	});

	describe('items of one execution under Concurrency', () => {
		it('serializes the store calls: no entry of ten concurrent items is lost', async () => {
			const options = { maxRetries: 0, concurrency: 10 };
			const { store, ...result } = await run({ items: 10, fields: { options } });
			expect(result.requests).toBe(10);
			expect(store.values.sort()).toEqual(
				Array.from({ length: 10 }, (_, i) => trackedTransactionKey(`order_${i}`)).sort(),
			);
			// Each item: one check, one confirmation that found its entry.
			expect(store.calls).toHaveLength(20);
		});

		it('a transaction twice in one input is sent once', async () => {
			const result = await run({
				items: 3,
				fields: { transactionId: 'order_same', options: { maxRetries: 0, concurrency: 3 } },
			});
			expect(result.requests).toBe(1);
			expect(result.items.map((item) => item.json.status)).toEqual([
				1,
				ALREADY_TRACKED,
				ALREADY_TRACKED,
			]);
		});
	});
});
