/**
 * What n8n-core adds to Skip Transactions Already Tracked, against the sandbox: the store reached
 * through n8n-core's helpers, kept per workflow ID, and its race under Concurrency (the decisions:
 * sendOnce.unit.test.ts). The store is THE HARNESS'S in-memory one
 * (support/n8n/core/deduplicationStore.js); n8n's own, in PostgreSQL, is the queue-mode test's.
 */
import type { INodeParameters, IWorkflowBase } from 'n8n-workflow';

import { deduplicationStore } from '../../support/n8n/core/deduplicationStore';
import { runWorkflow } from '../../support/n8n/core/runWorkflow';
import { singleNodeWorkflow } from '../../support/n8n/core/workflows';
import { allCredentials, fastRetries, useSandbox } from '../../support/services/sandbox';
import { scenario } from '../../support/scenarios';

const TEST_OPTIONS = fastRetries(5);

function purchaseWorkflow(id?: string): IWorkflowBase {
	const parameters: INodeParameters = {
		resource: 'conversion',
		operation: 'trackPurchase',
		invitedUserId: 'buyer_1',
		transactionId: '={{ $json.orderId }}',
		conversionValue: '={{ $json.amount }}',
		additionalFields: { skipTrackedTransactions: true },
		options: TEST_OPTIONS,
	};
	const workflow = singleNodeWorkflow(parameters, { onError: 'continueRegularOutput' });
	return id === undefined ? workflow : { ...workflow, id };
}

const orders = (...ids: string[]) => ids.map((orderId) => ({ json: { orderId, amount: 10 } }));

describe(scenario('sendOnce.throughN8nCore'), () => {
	const sandbox = useSandbox();
	const recorded = (transactionId: string) =>
		sandbox.state.conversions.filter((c) => c.transactionId === transactionId).length;

	beforeEach(() => deduplicationStore.reset());

	async function track(workflow: IWorkflowBase, input: ReturnType<typeof orders>) {
		const result = await runWorkflow(workflow, { credentials: allCredentials(sandbox), input });
		return result.output('Affiliate Tracking').map((item) => item.json);
	}

	it('a workflow run twice with the same transactions tracks each once', async () => {
		const first = await track(purchaseWorkflow(), orders('o_1', 'o_2', 'o_3'));
		expect(first.map((json) => json.event_name)).toEqual(['purchase', 'purchase', 'purchase']);
		expect(first.every((json) => json.status === 1)).toBe(true);
		const requestsAfterFirst = sandbox.requestCount;
		expect(requestsAfterFirst).toBe(3);

		const second = await track(purchaseWorkflow(), orders('o_1', 'o_4', 'o_2', 'o_3'));
		expect(second).toEqual([
			{
				event_name: 'purchase',
				invited_user_id: 'buyer_1',
				transaction_id: 'o_1',
				status: 'ALREADY_TRACKED',
				message:
					'Not sent: an earlier execution of this workflow sent transaction "o_1" (Skip Transactions Already Tracked)',
			},
			expect.objectContaining({ event_name: 'purchase', status: 1 }),
			expect.objectContaining({ transaction_id: 'o_2', status: 'ALREADY_TRACKED' }),
			expect.objectContaining({ transaction_id: 'o_3', status: 'ALREADY_TRACKED' }),
		]);
		expect(sandbox.requestCount - requestsAfterFirst).toBe(1);
		for (const id of ['o_1', 'o_2', 'o_3', 'o_4']) expect(recorded(id)).toBe(1);
		expect(
			deduplicationStore.has('affiliate-tracking-node', 'affiliate-tracking:purchase:o_1'),
		).toBe(true);
	});

	it('the store is per workflow: another workflow sends the same transaction', async () => {
		await track(purchaseWorkflow(), orders('shared_1'));
		const other = await track(purchaseWorkflow('another-workflow'), orders('shared_1'));
		expect(other[0]).toMatchObject({ event_name: 'purchase', status: 1 });
		expect(recorded('shared_1')).toBe(2);
	});

	it('100 purchases at Concurrency 20, then the same 100 again: 100 recorded, 100 skipped', async () => {
		const ids = Array.from({ length: 100 }, (_, i) => `bulk_order_${i}`);
		const workflow = purchaseWorkflow();
		workflow.nodes[0].parameters.options = { ...TEST_OPTIONS, concurrency: 20 };
		const first = await track(workflow, orders(...ids));
		expect(first.filter((json) => json.status === 1)).toHaveLength(100);
		const second = await track(workflow, orders(...ids));
		expect(second.filter((json) => json.status === 'ALREADY_TRACKED')).toHaveLength(100);
		expect(ids.every((id) => recorded(id) === 1)).toBe(true);
		// One check and one confirmation per sent item; a repeat of what this process sent is
		// skipped without a store call.
		expect(deduplicationStore.calls).toHaveLength(200);
	});

	describe(scenario('sendOnce.storeHazards'), () => {
		const workflow = { workflow: { id: 'hazards', active: true } };
		const options = { mode: 'entries', maxEntries: 10 } as const;

		it('two first writes at once: the second fails on the row key', async () => {
			const results = await Promise.allSettled([
				deduplicationStore.checkProcessedAndRecord(['a'], 'workflow', workflow, options),
				deduplicationStore.checkProcessedAndRecord(['b'], 'workflow', workflow, options),
			]);
			expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
		});

		it('two writes at once: one entry is lost', async () => {
			await deduplicationStore.checkProcessedAndRecord(['a'], 'workflow', workflow, options);
			await Promise.all([
				deduplicationStore.checkProcessedAndRecord(['b'], 'workflow', workflow, options),
				deduplicationStore.checkProcessedAndRecord(['c'], 'workflow', workflow, options),
			]);
			expect(['a', 'b', 'c'].map((value) => deduplicationStore.has('hazards', value))).toEqual([
				true,
				false,
				true,
			]);
		});
	});
});
