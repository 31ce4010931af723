/** The Options collection, parsed in one place for the item loop and the transport. */
import type { IPollFunctions } from 'n8n-workflow';

import {
	assertSupportedN8n,
	DEFAULT_POLL_BUDGET_MS,
	MINIMUM_N8N_VERSION,
	pollBudgetMs,
	webhookResolversKey,
} from '../../nodes/shared/helpers/n8nCompatibility';
import {
	DEFAULT_CONCURRENCY,
	MAX_CONCURRENCY,
	parseRunOptions,
} from '../../nodes/shared/helpers/runOptions';
import { DEFAULT_REQUEST_SETTINGS } from '../../nodes/shared/transport/requestSettings';
import { scenario } from '../../support/scenarios';

describe(scenario('itemLoop.runOptions'), () => {
	it('no options: the defaults, no batching', () => {
		expect(parseRunOptions({})).toEqual({
			pacing: { concurrency: DEFAULT_CONCURRENCY, batchSize: undefined, batchIntervalMs: 0 },
			request: DEFAULT_REQUEST_SETTINGS,
		});
	});

	it('every option set', () => {
		expect(
			parseRunOptions({
				concurrency: 12,
				batching: { batch: { batchSize: 100, batchInterval: 2500 } },
				maxRetries: 4,
				retryDelay: 50,
				timeout: 9000,
			}),
		).toEqual({
			pacing: { concurrency: 12, batchSize: 100, batchIntervalMs: 2500 },
			request: { maxRetries: 4, retryDelayMs: 50, timeoutMs: 9000 },
		});
	});

	it.each([
		['above the maximum', 500, MAX_CONCURRENCY],
		['zero', 0, 1],
		['a fraction', 7.9, 7],
		['negative', -3, DEFAULT_CONCURRENCY],
		['text', 'many', DEFAULT_CONCURRENCY],
	])('concurrency %s is kept in range', (_name, concurrency, expected) => {
		expect(parseRunOptions({ concurrency }).pacing.concurrency).toBe(expected);
	});

	it('out-of-range request settings fall back to the defaults', () => {
		const { request } = parseRunOptions({ maxRetries: -1, retryDelay: 'soon', timeout: NaN });
		expect(request).toEqual(DEFAULT_REQUEST_SETTINGS);
		expect(parseRunOptions({ maxRetries: 2.7 }).request.maxRetries).toBe(2);
	});

	it('a batch size below 1 still batches one item at a time', () => {
		expect(parseRunOptions({ batching: { batch: { batchSize: 0 } } }).pacing).toEqual({
			concurrency: DEFAULT_CONCURRENCY,
			batchSize: 1,
			batchIntervalMs: 0,
		});
	});
});

describe(scenario('itemLoop.pollBudget'), () => {
	it("uses n8n's own budget where the poll context reports one (n8n 2.38 and later)", () => {
		const context = { getPollBudgetMs: () => 12_345 } as unknown as IPollFunctions;
		expect(pollBudgetMs(context)).toBe(12_345);
	});

	it("falls back to n8n's default of 5 minutes where it does not (before 2.38)", () => {
		expect(pollBudgetMs({} as IPollFunctions)).toBe(DEFAULT_POLL_BUDGET_MS);
		expect(DEFAULT_POLL_BUDGET_MS).toBe(300_000);
	});
});

describe(scenario('itemLoop.n8nFloor'), () => {
	it('loads with the n8n-workflow of a supported n8n (here 2.41)', () => {
		expect(() => assertSupportedN8n()).not.toThrow();
	});

	it('refuses an n8n-workflow without NodeConnectionTypes (n8n before 1.85), naming the floor', () => {
		const load = () => assertSupportedN8n({ updateDisplayOptions: undefined });
		// A TypeError would become n8n's generic "Class could not be found".
		expect(load).toThrow(Error);
		expect(load).not.toThrow(TypeError);
		expect(load).toThrow(
			new Error(
				`n8n-nodes-affiliate-tracking needs n8n ${MINIMUM_N8N_VERSION} or newer; this n8n is older (its n8n-workflow has no NodeConnectionTypes). Update n8n, or uninstall the package.`,
			),
		);
		expect(MINIMUM_N8N_VERSION).toBe('1.85');
	});
});

describe(scenario('itemLoop.webhookResolvers'), () => {
	it("n8n-workflow 2.35 and later: the shared Symbol.for key n8n's webhook server reads", () => {
		expect(webhookResolversKey()).toBe(Symbol.for('n8n.webhookDescriptionResolvers'));
	});

	it('an older n8n-workflow (1.85 to 2.34): none, so the description keeps its expressions only', () => {
		expect(webhookResolversKey({ NodeConnectionTypes: undefined })).toBeUndefined();
	});
});
