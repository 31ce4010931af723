// @ts-check
'use strict';
/**
 * Checks that test:e2e (e2e/topics/webhooks.js) and the version matrix (e2e/test-compat.js) both
 * run on a started n8n: examples (a) and (h) behind their Payment Webhook Triggers, over HTTP,
 * with Stripe-signed deliveries. The trigger's verification per provider is proven by the unit
 * and engine tests; here n8n's webhook server, its executions and its deduplication store.
 */
const assert = require('node:assert/strict');

const { PAYMENT_TRIGGER_TYPE, paymentTriggerPath } = require('../support/n8n/n8nDemoData');
const { sleep } = require('../support/services/processes');
const { PRODUCTS } = require('../sandbox/seed');
const { postStripeEvent } = require('./webhookSecurity');

/** @typedef {import('../sandbox/server').Sandbox} Sandbox */
/** @typedef {{ nodes: Record<string, any>[] }} ExampleJson */

/**
 * @typedef {object} WebhookExamples the started n8n and the two examples as it holds them
 * @property {ReturnType<typeof import('./checks').createChecks>['check']} check
 * @property {string} base the n8n's address
 * @property {string} cookie the owner's session
 * @property {Sandbox} sandbox
 * @property {string[]} seen every text n8n gave back, scanned for the secrets at the end
 * @property {{ id: string, json: ExampleJson }} refund example (a): its id in n8n, its JSON
 * @property {{ id: string, json: ExampleJson }} purchase example (h): its id in n8n, its JSON
 */

/** The production path of an example's Payment Webhook Trigger. @param {ExampleJson} example */
function paymentWebhookPath(example) {
	const trigger = example.nodes.find((node) => node.type === PAYMENT_TRIGGER_TYPE);
	if (!trigger?.webhookId) throw new Error('the example has no Payment Webhook Trigger');
	return paymentTriggerPath(trigger.webhookId);
}

/**
 * The promoter the checks' purchases and refunds are attributed to: one no polling trigger
 * watches (example (f) watches user_1001 and user_1002, the matrix's trigger user_1002), so that
 * a webhook check never gives a watched promoter a change between the trigger's polls.
 * @param {Sandbox} sandbox
 */
const unwatchedPromoter = (sandbox) =>
	sandbox.instrumentation.addPromoters(PRODUCTS.videomax, 1, 'webhook_examples')[0];

/** Refund calls the sandbox has received. @param {Sandbox} sandbox */
const refundCalls = (sandbox) =>
	sandbox.calls.filter((call) => call.path.endsWith('/track/refund')).length;

/**
 * Example (a) then example (h), one check each.
 * @param {WebhookExamples} n8n
 */
async function checkWebhookExamples(n8n) {
	const { check, base, cookie, sandbox, seen } = n8n;
	/**
	 * A Stripe event posted to an example's Payment Webhook Trigger, signed unless `signed` is false.
	 * @param {ExampleJson} example @param {'purchase' | 'refund'} kind
	 * @param {import('../support/payment/paymentSignatures').SampleFields} fields @param {boolean} [signed]
	 */
	const deliver = (example, kind, fields, signed = true) =>
		postStripeEvent({ base, webhookPath: paymentWebhookPath(example), kind, fields, signed, seen });

	await check(
		'example a (signed Stripe webhook): refund, repeat, not referred, voided, partial; unsigned → 401, no execution, no call',
		async () => {
			/** @param {string} transactionId @param {{ partial?: boolean, signed?: boolean }} [options] */
			const post = (transactionId, { partial = false, signed = true } = {}) =>
				deliver(n8n.refund.json, 'refund', { transactionId, partial }, signed);
			/** Example (a)'s executions in n8n's list. */
			const executions = async () => {
				const filter = encodeURIComponent(JSON.stringify({ workflowId: n8n.refund.id }));
				const answer = await fetch(`${base}/rest/executions?filter=${filter}`, {
					headers: { cookie },
				});
				assert.equal(answer.status, 200, `/rest/executions: ${answer.status}`);
				return /** @type {{ data: { results: unknown[] } }} */ (await answer.json()).data.results
					.length;
			};
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
			assert.deepEqual(
				[voided.status, voided.json.code],
				[500, 6000000],
				`voided: ${JSON.stringify(voided)}`,
			);
			const partial = await post(target, { partial: true });
			assert.equal(partial.status, 200, `partial: ${JSON.stringify(partial)}`);
			assert.match(partial.json.ignored, /Partial refund/);
			// The unsigned delivery refunds a purchase nothing has refunded: it must stay so.
			let before = await executions();
			const deadline = Date.now() + 30_000;
			for (let settled = -1; settled !== before && Date.now() < deadline; ) {
				settled = before;
				await sleep(1000);
				before = await executions();
			}
			const callsBefore = refundCalls(sandbox);
			const forged = await post(target, { signed: false });
			await sleep(2000);
			const forgedExecutions = (await executions()) - before;
			const forgedCalls = refundCalls(sandbox) - callsBefore;
			assert.equal(forged.status, 401, `unsigned: ${JSON.stringify(forged)}`);
			assert.equal(forgedExecutions, 0, `${forgedExecutions} executions for the unsigned delivery`);
			assert.equal(forgedCalls, 0, `${forgedCalls} refund calls for the unsigned delivery`);
			const untouched = sandbox.state.conversions.find((c) => c.transactionId === target);
			assert.equal(untouched?.adjustments, 0, `${target} was adjusted`);
			return `${refunded} → 200 APPLIED (cancelled ${refund.json.cancelled_reward_count}); again → 200 ALREADY_PROCESSED; not referred → 200 code 1000001; voided → 500 code 6000000; partial → 200 ignored; unsigned ${target} → 401, ${forgedExecutions} executions, ${forgedCalls} calls`;
		},
	);

	await check(
		"example h (signed Stripe webhook): a purchase delivered twice is tracked once (n8n's deduplication store); unsigned → 401",
		async () => {
			const [customer] = sandbox.instrumentation.addSignups(
				PRODUCTS.videomax,
				1,
				'webhook_h_buyer',
				unwatchedPromoter(sandbox),
			);
			const transactionId = `pi_webhook_h_${Date.now().toString(36)}`;
			const fields = { transactionId, userId: customer, amountMinor: 1990, checkout: true };
			const first = await deliver(n8n.purchase.json, 'purchase', fields);
			assert.deepEqual([first.status, first.json.status], [200, 'TRACKED'], JSON.stringify(first));
			const again = await deliver(n8n.purchase.json, 'purchase', fields);
			assert.deepEqual(
				[again.status, again.json.status],
				[200, 'ALREADY_TRACKED'],
				JSON.stringify(again),
			);
			const forged = await deliver(
				n8n.purchase.json,
				'purchase',
				{ ...fields, transactionId: `${transactionId}_forged` },
				false,
			);
			assert.equal(forged.status, 401, `unsigned: ${JSON.stringify(forged)}`);
			const recorded = sandbox.state.conversions.filter((c) =>
				c.transactionId?.startsWith(transactionId),
			);
			assert.equal(
				recorded.length,
				1,
				`the sandbox holds ${recorded.length} purchases for ${transactionId}`,
			);
			assert.equal(recorded[0].valueCents, 1990);
			return `${transactionId}: 200 TRACKED (conversion ${first.json.conversion_id}), then 200 ALREADY_TRACKED; unsigned → 401; the sandbox holds 1 purchase of 19.90`;
		},
	);
}

module.exports = { checkWebhookExamples, paymentWebhookPath };
