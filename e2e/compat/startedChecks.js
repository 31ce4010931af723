// @ts-check
'use strict';
/**
 * The version matrix's (e2e/compat/testCompat.js) checks on a started n8n that wait on it:
 * examples (a) and (h) through their Payment Webhook Triggers (the trigger's polls and the agent:
 * e2e/startedN8nChecks.js, shared with test:e2e). Each returns its check's line.
 */
const assert = require('node:assert/strict');

const { sleep } = require('../../testing/processes');
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
 * @property {DeliverStripe} deliverStripe
 */
/**
 * A Stripe event posted to a Payment Webhook Trigger, signed unless `signed` is false.
 * @typedef {(webhookPath: string, kind: 'purchase' | 'refund', fields: import('../../testing/n8nCore/paymentSignatures').SampleFields, signed?: boolean) => ReturnType<typeof import('../webhookSecurity').postStripeEvent>} DeliverStripe
 */

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
	const [target] = sandbox.instrumentation.addPurchases(PRODUCTS.videomax, 1, 'compat_forged');
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
	const [customer] = sandbox.instrumentation.addSignups(PRODUCTS.videomax, 1, 'compat_buyer');
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

module.exports = { IDS, WATCHED, purchaseOnce, refundThroughWebhook };
