// @ts-check
'use strict';
/**
 * The version matrix's (e2e/compat/testCompat.js) checks on a started n8n that wait on it: the trigger's
 * polls, and examples (a) and (h) through their Payment Webhook Triggers. Each returns its check's
 * line.
 */
const assert = require('node:assert/strict');
const path = require('node:path');

const { sleep } = require('../../testing/processes');
const { TRIGGER_NODE } = require('../../testing/workflowBuilders');
const { PRODUCTS } = require('../../sandbox/seed');

/** @typedef {import('../../sandbox/server').Sandbox} Sandbox */

/** The ids the matrix imports its workflows under; the checks find their executions by them. */
const IDS = {
	operations: 'compatAllOps00001',
	trigger: 'compatTrigger0001',
	refund: 'compatRefundHook1',
	agent: 'compatAgentTools1',
	purchase: 'compatPurchaseHk1',
};
/** The promoter the trigger watches. */
const WATCHED = 'user_1002';

/**
 * @typedef {object} StartedN8n what the checks on the started n8n use
 * @property {string} base the n8n's address
 * @property {string} cookie the owner's session
 * @property {Sandbox} sandbox
 * @property {import('../../testing/n8nInstall').N8nRelease} release
 * @property {string[]} seen every text n8n gave back, scanned for the API secrets at the end
 * @property {DeliverStripe} deliverStripe
 */
/**
 * A Stripe event posted to a Payment Webhook Trigger, signed unless `signed` is false.
 * @typedef {(webhookPath: string, kind: 'purchase' | 'refund', fields: import('../../testing/n8nCore/paymentSignatures').SampleFields, signed?: boolean) => ReturnType<typeof import('../webhookSecurity').postStripeEvent>} DeliverStripe
 */

/**
 * The trigger, active and polling every minute: the first poll is silent, a change in the
 * sandbox is emitted.
 * @param {Pick<StartedN8n, 'base' | 'cookie' | 'sandbox' | 'release' | 'seen'>} n8n
 */
async function triggerEmitsAChange({ base, cookie, sandbox, release, seen }) {
	const { parse } = require(path.join(release.modules, 'flatted'));
	/** @param {string} route */
	const rest = async (route) => {
		const answer = await fetch(`${base}/rest/${route}`, { headers: { cookie } });
		assert.equal(answer.status, 200, `/rest/${route}: ${answer.status}`);
		return /** @type {any} */ (await answer.json()).data;
	};
	const executions = async () =>
		/** @type {{ id: string, status: string, finished?: boolean }[]} */ (
			(
				await rest(
					`executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: IDS.trigger }))}`,
				)
			).results
		);
	const polls = () =>
		sandbox.log.filter((entry) => entry.path.endsWith(`/promoters/${WATCHED}/statistics`)).length;
	const deadline = Date.now() + 200_000;
	// The first poll (on activation) only records the figures.
	while (polls() === 0) {
		assert.ok(Date.now() < deadline, 'the trigger never polled the sandbox');
		await sleep(500);
	}
	await sleep(2000);
	assert.equal((await executions()).length, 0, 'the first poll emitted an execution');
	const firstPolls = polls();
	// Then one change per poll, through the sandbox's activity route, until one is emitted.
	let seenPolls = firstPolls;
	let added = 0;
	/** @type {string[]} */
	const changes = [];
	const payingCustomers = () =>
		/** @type {{ data: Record<string, number> }} */ (
			sandbox.state.readPromoter(PRODUCTS.videomax, WATCHED, 'statistics', new Map())
		).data.paying_customers;
	// The totals a poll could have read: an emitting poll may show in the executions list
	// only after the next change was made.
	/** @type {number[]} */
	const totalsSeen = [];
	const change = async () => {
		const answer = await fetch(`${sandbox.url}/__sandbox/activity`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({
				product: PRODUCTS.videomax,
				userId: WATCHED,
				payingCustomers: 1,
				clicks: 3,
			}),
		});
		assert.equal(answer.status, 200, `/__sandbox/activity: ${answer.status}`);
		await answer.arrayBuffer();
		added++;
		totalsSeen.push(payingCustomers());
		changes.push(`after poll ${seenPolls}`);
	};
	await change();
	while ((await executions()).length === 0) {
		assert.ok(Date.now() < deadline, `no execution after ${added} changes (${polls()} polls)`);
		if (polls() > seenPolls) {
			seenPolls = polls();
			await sleep(2000);
			if ((await executions()).length > 0) break;
			await change();
		}
		await sleep(1000);
	}
	let [execution] = await executions();
	while (execution.status === 'running' || execution.status === 'new') {
		await sleep(500);
		[execution] = await executions();
	}
	assert.equal(execution.status, 'success');
	const data = parse((await rest(`executions/${execution.id}`)).data);
	const emitted = data.resultData.runData[TRIGGER_NODE][0].data.main[0];
	seen.push(JSON.stringify(data));
	assert.equal(emitted.length, 1);
	const item = emitted[0].json;
	assert.equal(item.user_id, WATCHED);
	assert.ok(
		totalsSeen.includes(item.paying_customers),
		`the trigger reported ${item.paying_customers} paying customers; after each change the sandbox had ${totalsSeen.join(', ')}`,
	);
	assert.ok(
		item.increase.paying_customers >= 1 && item.increase.paying_customers <= added,
		`increase ${JSON.stringify(item.increase)} after ${added} change(s)`,
	);
	return `polls: ${firstPolls} silent, ${polls()} in all; ${added} change(s) (+1 paying customer, +3 clicks each) → execution ${execution.id} emitted ${JSON.stringify(item)}`;
}

/**
 * Example (a) through its Payment Webhook Trigger at `refundPath`: a signed Stripe refund, repeat,
 * not referred; a forged one gets 401, no execution, no call.
 * @param {Pick<StartedN8n, 'base' | 'cookie' | 'sandbox' | 'deliverStripe'>} n8n @param {string} refundPath
 */
async function refundThroughWebhook({ base, cookie, sandbox, deliverStripe }, refundPath) {
	/** @param {string} transactionId @param {boolean} [signed] */
	const post = (transactionId, signed = true) =>
		deliverStripe(refundPath, 'refund', { transactionId }, signed);
	/** The refund workflow's executions in n8n's list. */
	const executions = async () => {
		const answer = await fetch(
			`${base}/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: IDS.refund }))}`,
			{ headers: { cookie } },
		);
		assert.equal(answer.status, 200, `/rest/executions: ${answer.status}`);
		return /** @type {{ data: { results: unknown[] } }} */ (await answer.json()).data.results
			.length;
	};
	const refund = await post('txn_1002');
	assert.deepEqual(
		[refund.status, refund.json.status, refund.json.transaction_id],
		[200, 'APPLIED', 'txn_1002'],
		JSON.stringify(refund),
	);
	const conversion = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1002');
	assert.equal(conversion?.adjustments, 1, 'the sandbox did not adjust txn_1002 once');
	const repeat = await post('txn_1002');
	assert.deepEqual(
		[repeat.status, repeat.json.status],
		[200, 'ALREADY_PROCESSED'],
		`repeat: ${JSON.stringify(repeat)}`,
	);
	const unknown = await post('order_never_referred');
	assert.deepEqual(
		[unknown.status, unknown.json.code],
		[200, 1000001],
		`not referred: ${JSON.stringify(unknown)}`,
	);
	// The forged delivery: an unsigned refund of a refundable purchase seeded for it.
	const [target] = sandbox.state.addPurchases(PRODUCTS.videomax, 1, 'compat_forged');
	let before = await executions();
	const deadline = Date.now() + 30_000;
	for (let settled = -1; settled !== before && Date.now() < deadline; ) {
		settled = before;
		await sleep(1000);
		before = await executions();
	}
	const refundCallsBefore = sandbox.calls.filter((call) =>
		call.path.endsWith('/track/refund'),
	).length;
	const forged = await post(target, false);
	await sleep(2000);
	const forgedExecutions = (await executions()) - before;
	const forgedCalls =
		sandbox.calls.filter((call) => call.path.endsWith('/track/refund')).length - refundCallsBefore;
	assert.equal(forged.status, 401, `forged: ${JSON.stringify(forged)}`);
	assert.equal(forgedExecutions, 0, `${forgedExecutions} executions for the forged delivery`);
	assert.equal(forgedCalls, 0, `${forgedCalls} refund calls for the forged delivery`);
	const untouched = sandbox.state.conversions.find((c) => c.transactionId === target);
	assert.equal(untouched?.adjustments, 0, `${target} was adjusted`);
	return `signed: txn_1002 → 200 APPLIED (cancelled ${refund.json.cancelled_reward_count}); again → 200 ALREADY_PROCESSED; not referred → 200 code 1000001; forged ${target} → 401, ${forgedExecutions} executions, ${forgedCalls} calls`;
}

/**
 * Example (h) through its Payment Webhook Trigger at `purchasePath`: a repeated signed Stripe
 * purchase is not sent again (n8n's deduplication store).
 * @param {Pick<StartedN8n, 'sandbox' | 'deliverStripe'>} n8n @param {string} purchasePath
 */
async function purchaseOnce({ sandbox, deliverStripe }, purchasePath) {
	const [customer] = sandbox.state.addSignups(PRODUCTS.videomax, 1, 'compat_buyer');
	const fields = {
		transactionId: 'compat_order_1',
		userId: customer,
		amountMinor: 1990,
		checkout: true,
	};
	const first = await deliverStripe(purchasePath, 'purchase', fields);
	const repeat = await deliverStripe(purchasePath, 'purchase', fields);
	assert.deepEqual([first.status, first.json.status], [200, 'TRACKED'], JSON.stringify(first));
	assert.deepEqual(
		[repeat.status, repeat.json.status],
		[200, 'ALREADY_TRACKED'],
		JSON.stringify(repeat),
	);
	const recorded = sandbox.state.conversions.filter((c) => c.transactionId === 'compat_order_1');
	assert.equal(recorded.length, 1, `the sandbox recorded compat_order_1 ${recorded.length} times`);
	assert.equal(recorded[0].valueCents, 1990);
	return `compat_order_1 → conversion ${first.json.conversion_id}; delivered again → ${repeat.json.status}; the sandbox holds 1 purchase of 19.90`;
}

module.exports = { IDS, WATCHED, purchaseOnce, refundThroughWebhook, triggerEmitsAChange };
