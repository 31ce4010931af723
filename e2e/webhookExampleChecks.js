// @ts-check
'use strict';
/**
 * Checks that test:e2e (e2e/topics/webhooks.js) and the version matrix (e2e/test-compat.js) both
 * run on a started n8n: examples (a) and (h) behind their Payment Webhook Triggers, over HTTP,
 * with Stripe-signed deliveries. The trigger's verification per provider and its 401 are proven by
 * the unit tests, raw bytes over HTTP by e2e/webhookSecurity.js; here n8n's webhook server,
 * answers (example (a) from its last node, (h) through Respond to Webhook) and its deduplication
 * store.
 */
const assert = require('node:assert/strict');

const { paymentTriggerOf, paymentTriggerPath } = require('../support/n8n/n8nDemoData');
const { PRODUCTS } = require('../sandbox');
const { scenario } = require('../support/scenarios');
const { executionsOf, postStripeEvent } = require('./webhookSecurity');
const { waitUntil } = require('../support/services/processes');

/** @typedef {import('../sandbox').Sandbox} Sandbox */
/** @typedef {{ nodes: Record<string, any>[] }} ExampleJson */

/**
 * @typedef {object} WebhookExamples the started n8n and the two examples as it holds them
 * @property {ReturnType<typeof import('./checks').createChecks>['check']} check
 * @property {string} base the n8n's address
 * @property {Sandbox} sandbox
 * @property {string[]} seen every text n8n gave back, scanned for the secrets at the end
 * @property {ExampleJson} refund example (a) as n8n holds it
 * @property {ExampleJson} purchase example (h) as n8n holds it
 * @property {string} cookie an owner's session, to read n8n's executions
 * @property {string} refundWorkflowId the id n8n holds example (a) under
 */

/** The production path of an example's Payment Webhook Trigger. @param {ExampleJson} example */
const paymentWebhookPath = (example) => paymentTriggerPath(paymentTriggerOf(example).webhookId);

/**
 * The promoter the checks' purchases and refunds are attributed to: one no polling trigger
 * watches (example (f) watches user_1001 and user_1002, the matrix's trigger user_1002), so that
 * a webhook check never gives a watched promoter a change between the trigger's polls.
 * @param {Sandbox} sandbox
 */
const unwatchedPromoter = (sandbox) =>
	sandbox.instrumentation.addPromoters(PRODUCTS.videomax, 1, 'webhook_examples')[0];

/** The id of example (a)'s newest execution, 0 when it has none. @param {WebhookExamples} n8n */
async function newestExecutionId(n8n) {
	const executions = await executionsOf(n8n, n8n.refundWorkflowId);
	return Math.max(0, ...executions.map((execution) => Number(execution.id)));
}

/**
 * Example (a)'s newest execution once the `count` executions after `afterId` have all ended. An
 * answer comes from a Respond node before the execution is saved, so an execution may be listed
 * after the next delivery's: counting from before the first says when all are in.
 * @param {WebhookExamples} n8n @param {number} afterId @param {number} count
 */
async function lastOfSettledExecutions(n8n, afterId, count) {
	/** @type {{ id: string, status: string }[]} */
	let newer = [];
	return waitUntil(
		async () => {
			newer = (await executionsOf(n8n, n8n.refundWorkflowId)).filter((e) => Number(e.id) > afterId);
			const ended = newer.every((e) => !['new', 'running'].includes(e.status));
			return (
				newer.length === count &&
				ended &&
				newer.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b))
			);
		},
		{
			timeoutMs: 15_000,
			intervalMs: 200,
			what: `example (a)'s ${count} executions after ${afterId}, ended`,
			detail: () => JSON.stringify(newer),
		},
	);
}

/**
 * Example (a) then example (h), one check each.
 * @param {WebhookExamples} n8n
 */
async function checkWebhookExamples(n8n) {
	const { check, base, sandbox, seen } = n8n;
	/**
	 * A signed Stripe event posted to an example's Payment Webhook Trigger.
	 * @param {ExampleJson} example @param {'purchase' | 'refund'} kind
	 * @param {import('../support/payment/paymentSignatures').SampleFields} fields
	 */
	const deliver = (example, kind, fields) =>
		postStripeEvent({ base, webhookPath: paymentWebhookPath(example), kind, fields, seen });

	await check(scenario('e2e.refundWebhook'), async () => {
		/** @param {string} transactionId @param {{ partial?: boolean }} [options] */
		const post = (transactionId, { partial = false } = {}) =>
			deliver(n8n.refund, 'refund', { transactionId, partial });
		// The refund, its repeat, the one not referred and the voided one: four executions.
		const start = await newestExecutionId(n8n);
		const [refunded, target] = sandbox.instrumentation.addPurchases(
			PRODUCTS.videomax,
			2,
			'webhook_a',
			unwatchedPromoter(sandbox),
		);
		const refund = await post(refunded);
		assert.deepEqual(
			[refund.status, refund.json.status, refund.json.transaction_id],
			[200, 'APPLIED', refunded],
			JSON.stringify(refund),
		);
		const conversion = sandbox.state.conversions.find((c) => c.transactionId === refunded);
		assert.equal(conversion?.adjustments, 1, `the sandbox did not adjust ${refunded} once`);
		const repeat = await post(refunded);
		assert.deepEqual(
			[repeat.status, repeat.json.status],
			[200, 'ALREADY_PROCESSED'],
			`repeat: ${JSON.stringify(repeat)}`,
		);
		assert.equal(conversion?.adjustments, 1, `the repeat adjusted ${refunded} again`);
		const unknown = await post('order_never_referred');
		assert.deepEqual(
			[unknown.status, unknown.json.reversed, unknown.json.code],
			[200, false, 1000001],
			`not referred: ${JSON.stringify(unknown)}`,
		);
		const voided = await post('txn_voided');
		assert.equal(voided.status, 500, `voided: ${JSON.stringify(voided)}`);
		// n8n's own 500 for a failed execution: "Stop: retry later" ended it, naming the code.
		const voidedRun = await lastOfSettledExecutions(n8n, start, 4);
		assert.equal(
			voidedRun.status,
			'error',
			`voided: execution ${voidedRun.id} ${voidedRun.status}`,
		);
		const detail = await fetch(`${n8n.base}/rest/executions/${voidedRun.id}`, {
			headers: { cookie: n8n.cookie },
		});
		const stopped = (await detail.text()).includes('Refund not recorded (code 6000000)');
		assert.ok(stopped, `voided: execution ${voidedRun.id} did not end in "Stop: retry later"`);
		const partial = await post(target, { partial: true });
		assert.equal(partial.status, 200, `partial: ${JSON.stringify(partial)}`);
		assert.match(partial.json.ignored, /Partial refund/);
		return `${refunded} → 200 APPLIED (cancelled ${refund.json.cancelled_reward_count}); again → 200 ALREADY_PROCESSED; not referred → 200 code 1000001; voided → 500, its execution ended by Stop: retry later (code 6000000); partial → 200 ignored`;
	});

	await check(scenario('e2e.purchaseWebhook'), async () => {
		const [customer] = sandbox.instrumentation.addSignups(
			PRODUCTS.videomax,
			1,
			'webhook_h_buyer',
			unwatchedPromoter(sandbox),
		);
		const transactionId = `pi_webhook_h_${Date.now().toString(36)}`;
		const fields = { transactionId, userId: customer, amountMinor: 1990, checkout: true };
		const first = await deliver(n8n.purchase, 'purchase', fields);
		assert.deepEqual([first.status, first.json.status], [200, 'TRACKED'], JSON.stringify(first));
		const again = await deliver(n8n.purchase, 'purchase', fields);
		assert.deepEqual(
			[again.status, again.json.status],
			[200, 'ALREADY_TRACKED'],
			JSON.stringify(again),
		);
		const recorded = sandbox.state.conversions.filter((c) =>
			c.transactionId?.startsWith(transactionId),
		);
		assert.equal(
			recorded.length,
			1,
			`the sandbox holds ${recorded.length} purchases for ${transactionId}`,
		);
		assert.equal(recorded[0].valueCents, 1990);
		return `${transactionId}: 200 TRACKED (conversion ${first.json.conversion_id}), then 200 ALREADY_TRACKED; the sandbox holds 1 purchase of 19.90`;
	});
}

module.exports = { checkWebhookExamples, paymentTriggerOf, unwatchedPromoter };
