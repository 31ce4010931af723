// @ts-check
'use strict';
/**
 * test:e2e, the examples run headless with `n8n execute --id` against the sandbox, each one's
 * output and what the sandbox recorded asserted: (a) refund, (h) purchase, (c) relay landing.
 * Examples (b) and (d) use data tables, which `n8n execute` does not start: they run on the started
 * n8n (topics/report.js, topics/browser.js); (h) runs here without its ledger nodes.
 */
const assert = require('node:assert/strict');
const { example, execute, outputOf } = require('./context');
const { readExample } = require('../../support/n8n/n8nDemoData');
const { withoutDataTableNodes } = require('../../support/n8n/n8nReleaseDifferences');
const { scenario } = require('../../support/scenarios');

/**
 * Example (h) for `n8n execute`, which starts no data tables: its refund-ledger nodes spliced out
 * (Track Purchase's answer finds no refunds kept, and goes on to Respond: tracked). The shipped (h), ledger included, takes
 * every provider's signed purchases on the started n8n (e2e/providerExampleChecks.js).
 */
const EXECUTABLE_H = { id: 'e2eExampleHSample1' };

/** Example (h) as `n8n execute` runs it, to import unpublished. */
function executableExampleH() {
	const workflow = readExample(example('h').file);
	const removed = withoutDataTableNodes(workflow);
	assert.deepEqual(
		removed,
		['Refund ledger', 'Record what it paid', 'Ledger of this purchase'],
		"(h)'s data-table nodes",
	);
	workflow.name = `${workflow.name} (without its ledger, for n8n execute)`;
	return { workflow, id: EXECUTABLE_H.id, publish: false };
}

/** @param {import('./context').Context} context */
async function exampleChecks(context) {
	const { check, sandbox } = context;
	// (a) refund: the sample event refunds txn_1001.
	await check(`${scenario('e2e.examples')}: example a, refund on a payment webhook`, async () => {
		const run = await execute(context, example('a').id);
		const [refund] = outputOf(run, 'Refund');
		assert.equal(refund.json.status, 'APPLIED');
		assert.equal(refund.json.transaction_id, 'txn_1001');
		assert.equal(outputOf(run, 'Answer: refunded').length, 1);
		const conversion = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1001');
		assert.equal(conversion?.adjustments, 1, 'the sandbox did not adjust txn_1001 exactly once');
		return `e2e a: execute --id=${example('a').id} → Refund ${refund.json.status} ${refund.json.transaction_id}, cancelled_reward_count ${refund.json.cancelled_reward_count}, preserved_paid_reward_count ${refund.json.preserved_paid_reward_count}`;
	});

	// (h) purchase: the sample event tracks pi_sample_purchase_1 for buyer_1.
	await check(
		'example h (execute, its ledger nodes spliced out): purchase on a payment webhook',
		async () => {
			const run = await execute(context, EXECUTABLE_H.id);
			const [tracked] = outputOf(run, 'Track Purchase');
			assert.equal(tracked.json.event_name, 'purchase', JSON.stringify(tracked.json));
			assert.equal(outputOf(run, 'Respond: tracked').length, 1);
			const recorded = sandbox.state.conversions.filter(
				(c) => c.transactionId === 'pi_sample_purchase_1',
			);
			assert.equal(recorded.length, 1, 'the sandbox did not record pi_sample_purchase_1 once');
			assert.equal(recorded[0].valueCents, 4900);
			return `e2e h: execute --id=${EXECUTABLE_H.id} → Track Purchase conversion ${tracked.json.conversion_id} for pi_sample_purchase_1, 49.00`;
		},
	);

	// (c) relay landing: a debug code stands in for the relay.
	await check('example c (execute): relay landing → exchange → signup → redirect', async () => {
		const run = await execute(context, example('c').id);
		const [user] = outputOf(run, 'Exchange Code');
		const [signup] = outputOf(run, 'Track Signup');
		const [response] = outputOf(run, 'Redirect into the app', 1);
		assert.equal(user.json.user_name, 'Demo User');
		assert.equal(signup.json.event_name, 'signup');
		assert.equal(response.json.response.statusCode, 302);
		assert.equal(
			response.json.response.headers.location,
			'https://videomax.example/welcome?name=Demo%20User',
		);
		assert.ok(
			sandbox.state.conversions.some(
				(c) => c.invitedUserId === user.json.user_key && c.eventName === 'signup',
			),
			'the sandbox has no signup for the exchanged user',
		);
		return `e2e c: execute --id=${example('c').id} → Exchange Code ${user.json.user_key} (${user.json.user_name}), Track Signup conversion ${signup.json.conversion_id}, 302 → ${response.json.response.headers.location}`;
	});
}

module.exports = { exampleChecks, executableExampleH };
