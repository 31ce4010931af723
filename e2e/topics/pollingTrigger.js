// @ts-check
'use strict';
/**
 * test:e2e, the polling trigger: example (f), active, polls every minute; a new paying customer
 * in the sandbox becomes an execution and its chat message.
 */
const assert = require('node:assert/strict');

const { DEFAULT_N8N_MODULES } = require('../../support/n8n/n8nInstance');
const { triggerEmitsAChange } = require('../triggerAndAgentChecks');
const { example } = require('./context');
const { scenario } = require('../../support/scenarios');

/**
 * Starts example (f)'s change and the wait for its execution, about a minute for the trigger's
 * next poll, so that other checks run meanwhile (none of them touches user_1002's figures).
 * @param {import('./context').Started} context
 */
function startPollingTrigger(context) {
	const { sandbox, base, cookie, seenOutput } = context;
	const emitted = triggerEmitsAChange({
		base,
		cookie,
		sandbox,
		modules: DEFAULT_N8N_MODULES,
		workflowId: example('f').id,
		triggerNode: 'New paying customers',
		promoter: 'user_1002',
		activity: { payingCustomers: 1 },
		seen: seenOutput,
	});
	// Its failure is the check's, reported where the check awaits it.
	emitted.catch(() => {});
	return emitted;
}

/**
 * @param {import('./context').Started} context
 * @param {ReturnType<typeof startPollingTrigger>} emitted
 */
async function pollingTriggerChecks(context, emitted) {
	const { check } = context;
	await check(scenario('e2e.activeTrigger'), async () => {
		const { run, item, summary } = await emitted;
		const messages = run.resultData.runData['Chat message'][0].data.main[0];
		const text = messages[0].json.text;
		assert.match(
			text,
			new RegExp(
				`for promoter ${item.user_id}: \\+${item.increase.paying_customers}, ${item.paying_customers} in all`,
			),
		);
		return `e2e f: ${summary} → "${text}"`;
	});
}

module.exports = { pollingTriggerChecks, startPollingTrigger };
