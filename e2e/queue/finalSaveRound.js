// @ts-check
'use strict';
/**
 * test:queue's `FAULT final-save-fails` round: the worker runs example (a) to its end, then fails to
 * save the execution (a PostgreSQL trigger refuses the final save of this round's executions, as a
 * database restart at that moment does: n8n's `workflowExecuteAfter` tries twice, then only logs).
 *
 * - A copy of (a) answering _When Last Node Finishes_ (the response mode the examples used before)
 *   reproduces n8n's defect: the main reads the unsaved row (status `running`, no error, no last
 *   node) and answers `200 "Workflow executed successfully but the last node did not return any
 *   data"` for runs that failed, so the provider never retries (docs/n8n-startup-200.md).
 * - Example (a) as shipped (_Using 'Respond to Webhook' Node_, every failure answered `500` by a
 *   Respond node and then ending in error) answers the same failed runs `500`, and their retries, once the service and the database work again,
 *   are applied exactly once; runs that succeeded are answered by the workflow itself (`APPLIED`),
 *   their save failing after the answer.
 */
const assert = require('node:assert/strict');

const {
	example,
	paymentTriggerOf,
	paymentTriggerUrl,
	paymentTriggerWebhook,
	readExample,
} = require('../../support/n8n/n8nDemoData');
const { deliverAll, planFullRefunds } = require('../../support/payment/paymentProvider');
const { waitUntil } = require('../../support/services/processes');
const { callsNaming } = require('../webhookSecurity');

/** Refunds in each leg of the round. */
const REFUNDS_PER_LEG = 5;
/** The copy of example (a) that answers from its last node. */
const LAST_NODE_COPY = { id: 'queueRefundLastNd1', webhookId: 'refund-last-node' };
/** n8n's answer, in that mode, to a run whose data it cannot read (dist/webhooks/webhook-helpers.js). */
const LAST_NODE_FALLBACK =
	'Workflow executed successfully but the last node did not return any data';
/** A node the worker runs after the trigger: only a worker's save holds its name. */
const NODE_AFTER_THE_TRIGGER = 'Refund details';

/** Example (a) answering from its last node, to publish beside the shipped one. */
function lastNodeCopy() {
	const workflow = readExample(example('a').file);
	workflow.name = `${workflow.name} (When Last Node Finishes)`;
	const trigger = paymentTriggerOf(workflow);
	trigger.webhookId = LAST_NODE_COPY.webhookId;
	trigger.parameters = { ...trigger.parameters, responseMode: 'lastNode' };
	return {
		workflow,
		id: LAST_NODE_COPY.id,
		webhook: paymentTriggerWebhook(LAST_NODE_COPY.webhookId),
	};
}

/** n8n saves a finished execution, and tries once more when that fails (workflow-execute.js). */
const SAVE_ATTEMPTS = 2;

/**
 * SQL that makes PostgreSQL refuse the worker's save of every execution whose data holds `marker`
 * (the main's first insert of that execution, before the worker ran, still goes through), counting
 * each refusal on a sequence (a sequence is not rolled back with the refused save); the count; and
 * the SQL that removes it all.
 * @param {{ query: (sql: string) => string[] }} postgres @param {string} marker
 */
function finalSaveRefusal(postgres, marker) {
	return {
		refuse: () =>
			postgres.query(`CREATE SEQUENCE refused_final_saves;
				CREATE FUNCTION refuse_final_save() RETURNS trigger AS $$
				BEGIN
					PERFORM nextval('refused_final_saves');
					RAISE EXCEPTION 'test:queue refuses this final save';
				END $$ LANGUAGE plpgsql;
				CREATE TRIGGER refuse_final_save BEFORE INSERT OR UPDATE ON execution_data FOR EACH ROW
				WHEN (NEW.data LIKE '%${marker}%' AND NEW.data LIKE '%"${NODE_AFTER_THE_TRIGGER}"%')
				EXECUTE FUNCTION refuse_final_save();`),
		refused: () =>
			Number(
				postgres.query(
					'SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM refused_final_saves',
				)[0],
			),
		allow: () =>
			postgres.query(`DROP TRIGGER IF EXISTS refuse_final_save ON execution_data;
				DROP FUNCTION IF EXISTS refuse_final_save();
				DROP SEQUENCE IF EXISTS refused_final_saves;`),
	};
}

/**
 * @typedef {Awaited<ReturnType<typeof import('../../support/n8n/queueDeployment').startQueueDeployment>>} Deployment
 * @typedef {import('../../sandbox').Sandbox} Sandbox
 * @typedef {import('../../support/payment/paymentProvider').Delivery} Delivery
 */

/**
 * The round. Each leg sends one attempt per refund (an answer is the provider's verdict); the
 * retries are the provider's next attempts.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product
 * @param {Set<string>} allRefundIds every transaction a round so far meant to refund (these are added)
 */
async function runFinalSaveRound(queue, sandbox, product, allRefundIds) {
	const prefix = `final_save${Date.now().toString(36)}`;
	/** @param {string} leg */
	const plan = (leg) =>
		planFullRefunds(sandbox.instrumentation, product, REFUNDS_PER_LEG, `${prefix}_${leg}`);
	const legs = {
		lastNode: plan('last_node'),
		failed: plan('failed'),
		succeeded: plan('succeeded'),
	};
	for (const leg of Object.values(legs)) for (const id of leg.refundIds) allRefundIds.add(id);
	const conversionsOf = (/** @type {string[]} */ ids) =>
		ids.map((id) => {
			const conversion = sandbox.state.conversions.find((c) => c.transactionId === id);
			assert.ok(conversion, `the sandbox has no conversion ${id}`);
			return conversion;
		});
	// The service refuses these Refunds (a voided conversion: code 6000000, a server error).
	const refused = conversionsOf([...legs.lastNode.refundIds, ...legs.failed.refundIds]);
	const once = { inFlight: REFUNDS_PER_LEG, maxAttempts: 1 };
	const lastNodeUrl = paymentTriggerUrl(queue.webhookBase, LAST_NODE_COPY.webhookId);
	const saves = finalSaveRefusal(queue.postgres, prefix);
	const runs = 3 * REFUNDS_PER_LEG;
	for (const conversion of refused) conversion.voided = true;
	saves.refuse();
	/** @type {Record<'lastNode' | 'failed' | 'succeeded', Delivery[]>} */
	let answered;
	try {
		answered = {
			lastNode: (await deliverAll(lastNodeUrl, legs.lastNode.events, once)).deliveries,
			failed: (await deliverAll(queue.webhookUrl, legs.failed.events, once)).deliveries,
			succeeded: (await deliverAll(queue.webhookUrl, legs.succeeded.events, once)).deliveries,
		};
		// A run that succeeded was answered before its save: the refusal stays until every save
		// of every run has been tried.
		await waitUntil(() => saves.refused() >= SAVE_ATTEMPTS * runs, {
			timeoutMs: 60_000,
			intervalMs: 200,
			what: `the workers' ${SAVE_ATTEMPTS} save attempts of each of ${runs} executions`,
			detail: () => `${saves.refused()} saves refused`,
		});
	} finally {
		saves.allow();
		for (const conversion of refused) conversion.voided = false;
	}
	// Unsaved: still as the main created them, `running` (or `crashed`, once n8n's queue recovery
	// finds no job for them).
	const unsaved = Number(
		queue.postgres.query(
			`SELECT count(*) FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id
			 WHERE e.status IN ('running', 'crashed') AND d.data LIKE '%${prefix}%'`,
		)[0],
	);
	// The provider's retries of the failed runs the shipped example answered 500.
	const retried = (await deliverAll(queue.webhookUrl, legs.failed.events, once)).deliveries;

	/** @param {Delivery[]} deliveries @param {(d: Delivery) => boolean} held */
	const count = (deliveries, held) => deliveries.filter(held).length;
	const fallback200 = (/** @type {Delivery} */ d) =>
		d.status === 200 &&
		/** @type {{ message?: unknown }} */ (d.answer)?.message === LAST_NODE_FALLBACK;
	const refused500 = (/** @type {Delivery} */ d) =>
		d.status === null && /^HTTP 500/.test(d.failures[0] ?? '');
	const statusOf = (/** @type {Delivery} */ d) =>
		/** @type {{ status?: unknown }} */ (d.answer)?.status;
	const applied = (/** @type {Delivery} */ d) => d.status === 200 && statusOf(d) === 'APPLIED';
	const lastNodeLost = count(answered.lastNode, fallback200);
	const shippedRefused = count(answered.failed, refused500);
	const retriesApplied = count(retried, applied);
	const succeededAnswered = count(answered.succeeded, applied);
	/** @param {string[]} ids */
	const appliedOnce = (ids) =>
		ids.filter((id) => sandbox.instrumentation.refundLedger.get(id)?.applied === 1).length;
	const failedOnce = appliedOnce(legs.failed.refundIds);
	const succeededOnce = appliedOnce(legs.succeeded.refundIds);
	const lastNodeCalls = legs.lastNode.refundIds.map((id) =>
		callsNaming(sandbox, '/track/refund', id),
	);
	const shown = (/** @type {Delivery[]} */ deliveries) =>
		JSON.stringify(
			deliveries.map((d) => ({ status: d.status, answer: d.answer, failures: d.failures })),
		);
	const n = REFUNDS_PER_LEG;
	console.log(
		`FAULT final-save-fails: the worker's save of ${runs} executions refused (${unsaved} left unsaved); When Last Node Finishes answered ${lastNodeLost} of ${n} failed runs 200 "${LAST_NODE_FALLBACK}" (n8n's defect); example (a) as shipped answered ${shippedRefused} of ${n} failed runs 500, their retries applied ${failedOnce} of ${n} exactly once; ${succeededAnswered} of ${n} successful runs answered by the workflow (APPLIED), applied ${succeededOnce} exactly once`,
	);
	assert.equal(unsaved, runs, 'executions whose final save was refused, left unsaved');
	assert.ok(
		lastNodeCalls.every((calls) => calls >= 1),
		`the last-node copy's runs did not all reach Refund: ${lastNodeCalls.join(', ')}`,
	);
	assert.equal(
		lastNodeLost,
		n,
		`When Last Node Finishes did not reproduce: ${shown(answered.lastNode)}`,
	);
	assert.equal(shippedRefused, n, `example (a)'s failed runs: ${shown(answered.failed)}`);
	assert.equal(retriesApplied, n, `their retries: ${shown(retried)}`);
	assert.equal(failedOnce, n, 'the retried refunds applied exactly once');
	assert.equal(succeededAnswered, n, `example (a)'s successful runs: ${shown(answered.succeeded)}`);
	assert.equal(succeededOnce, n, 'the successful runs applied exactly once');
	return `${n} refunds a leg, one attempt each`;
}

module.exports = { lastNodeCopy, runFinalSaveRound };
