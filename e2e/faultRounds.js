// @ts-check
'use strict';
/**
 * The platform-fault rounds of `npm run test:queue`, on its running deployment (e2e/queue.js):
 * - refund storms with one fault landing mid-round: the main SIGKILLed and restarted 10 s later,
 *   Redis stopped for 10 s, PostgreSQL stopped for 10 s;
 * - purchase webhooks each delivered twice with the main killed mid-round, to Track Purchase with
 *   and without *Skip Transactions Already Tracked*;
 * - the trigger, active in queue mode, across a main killed between polls and during a poll.
 * Each round checks the sandbox's own records and prints one summary line.
 */
const assert = require('node:assert/strict');
const path = require('node:path');

const { E2E_MODULES, EXAMPLES } = require('./n8n');
const { deliverAll, planDuplicatedPurchases, planStorm } = require('./paymentProvider');
const { sleep } = require('./processes');
const { TRIGGER_NODE, purchaseWorkflow, triggerWorkflow } = require('./testWorkflows');

/** How long each fault keeps its component down. */
const DOWN_MS = 10_000;
/** A round's refund storm: a few hundred deliveries, the fault landing after the first third. */
const ROUND = { refunds: 240, repeats: 30, notReferred: 15, partial: 15 };
const ROUND_DELIVERIES = ROUND.refunds + ROUND.repeats + ROUND.notReferred + ROUND.partial;
const FAULT_AFTER = 100;
/** Purchases per workflow in the duplicate-delivery round (each delivered twice). */
const PURCHASES = 120;
/** Queue recovery runs every minute; a lost job's execution is given up after that. */
const SETTLE_TIMEOUT_MS = 240_000;
const REFUND_WORKFLOW_ID = /** @type {(typeof EXAMPLES)[number]} */ (
	EXAMPLES.find((e) => e.letter === 'a')
).id;
const PURCHASE_WORKFLOWS = {
	guarded: { id: 'queuePurchaseGrd1', path: 'payment-succeeded' },
	unguarded: { id: 'queuePurchaseRaw1', path: 'payment-succeeded-unguarded' },
};
const TRIGGER_WORKFLOW_ID = 'queueTriggerWatch';

/**
 * @typedef {Awaited<ReturnType<typeof import('./queue').startQueueDeployment>>} Deployment
 * @typedef {import('../sandbox/server').Sandbox} Sandbox
 * @typedef {{ name: 'main-kill'|'redis-restart'|'postgres-restart', inject: (queue: Deployment) => Promise<void> }} Fault
 */

/** The main SIGKILLed, and a new one started DOWN_MS later. @param {Deployment} queue */
async function killMainAndRestart(queue) {
	queue.killMain();
	await sleep(DOWN_MS);
	await queue.restartMain();
}

/** @type {Fault[]} */
const FAULTS = [
	{ name: 'main-kill', inject: killMainAndRestart },
	{ name: 'redis-restart', inject: (queue) => queue.redis.restart(DOWN_MS) },
	{ name: 'postgres-restart', inject: (queue) => queue.postgres.restart(DOWN_MS) },
];

/** The workflows the rounds need, published beside example (a). @param {string} watchedUserId */
function faultRoundWorkflows(watchedUserId) {
	return [
		{
			workflow: purchaseWorkflow({ guarded: true, webhookPath: PURCHASE_WORKFLOWS.guarded.path }),
			id: PURCHASE_WORKFLOWS.guarded.id,
			webhook: { method: 'POST', path: PURCHASE_WORKFLOWS.guarded.path },
		},
		{
			workflow: purchaseWorkflow({
				guarded: false,
				webhookPath: PURCHASE_WORKFLOWS.unguarded.path,
			}),
			id: PURCHASE_WORKFLOWS.unguarded.id,
			webhook: { method: 'POST', path: PURCHASE_WORKFLOWS.unguarded.path },
		},
		{
			workflow: triggerWorkflow({
				name: 'Queue test: trigger across main restarts',
				userId: watchedUserId,
			}),
			id: TRIGGER_WORKFLOW_ID,
		},
	];
}

/**
 * Waits until no execution of the workflow is new or running (a lost job's execution is given up
 * by n8n's queue recovery), then counts those created since `sinceMs` that did not succeed.
 * @param {Deployment} queue @param {string} workflowId @param {number} sinceMs
 */
async function failedExecutionsSince(queue, workflowId, sinceMs) {
	const deadline = Date.now() + SETTLE_TIMEOUT_MS;
	const where = `"workflowId" = '${workflowId}' AND "createdAt" >= to_timestamp(${sinceMs / 1000})`;
	const count = (/** @type {string} */ condition) =>
		Number(
			queue.postgres.query(
				`SELECT count(*) FROM execution_entity WHERE ${where} AND ${condition}`,
			)[0],
		);
	while (count("status IN ('new', 'running')") > 0) {
		assert.ok(
			Date.now() < deadline,
			`executions still new or running ${SETTLE_TIMEOUT_MS / 1000} s after the round`,
		);
		await sleep(2000);
	}
	return count("status <> 'success'");
}

/**
 * One refund storm with `fault` landing after FAULT_AFTER deliveries. Prints its FAULT line, then
 * fails when a delivery never got a 2xx or a refund was not applied exactly once.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product @param {Fault} fault
 * @param {Set<string>} allRefundIds every transaction a round so far meant to refund (this one's are added)
 */
async function runFaultRound(queue, sandbox, product, fault, allRefundIds) {
	const storm = planStorm(sandbox.state, product, {
		...ROUND,
		prefix: `${fault.name.replace('-', '_')}${Date.now().toString(36)}`,
	});
	for (const id of storm.refundIds) allRefundIds.add(id);
	const startedAt = Date.now();
	let faultAt = 0;
	let backAt = Infinity;
	/** @type {Promise<void> | undefined} */
	let injected;
	let recoveredAt = 0;
	const delivered = await deliverAll(queue.webhookUrl, storm.events, {
		progress: (line) => console.log(`    ${line}`),
		onDelivered: (done) => {
			if (done !== FAULT_AFTER) return;
			faultAt = Date.now();
			console.log(`      ${fault.name} after ${done} deliveries`);
			injected = fault.inject(queue).then(() => {
				backAt = Date.now();
				console.log(`      ${fault.name}: back after ${((backAt - faultAt) / 1000).toFixed(1)} s`);
			});
		},
		onAttempt: ({ startedAt: attemptStart, endedAt, ok }) => {
			if (ok && attemptStart >= backAt && recoveredAt === 0) recoveredAt = endedAt;
		},
	});
	await injected;
	const failed = await failedExecutionsSince(queue, REFUND_WORKFLOW_ID, startedAt);
	const ledger = sandbox.state.refundLedger;
	const all2xx = delivered.deliveries.every((d) => d.status !== null);
	const applied = storm.refundIds.reduce((sum, id) => sum + (ledger.get(id)?.applied ?? 0), 0);
	const repeats = storm.refundIds.reduce(
		(sum, id) => sum + (ledger.get(id)?.alreadyRefunded ?? 0),
		0,
	);
	const notOnce = storm.refundIds.filter((id) => ledger.get(id)?.applied !== 1);
	const strays = [...ledger].filter(([id, entry]) => entry.applied > 0 && !allRefundIds.has(id));
	const exactlyOnce = notOnce.length === 0 && strays.length === 0;
	const recovered = recoveredAt > 0 ? ((recoveredAt - faultAt) / 1000).toFixed(1) : 'never';
	console.log(
		`FAULT ${fault.name}: ${delivered.deliveries.length} deliveries, all 2xx: ${all2xx ? 'yes' : 'no'}, refunds applied ${applied} each exactly once: ${exactlyOnce ? 'yes' : 'no'}, repeats ${repeats}, executions failed ${failed}, recovered in ${recovered} s`,
	);
	const undelivered = delivered.deliveries.filter((d) => d.status === null);
	assert.deepEqual(
		undelivered.map((d) => `${d.id}: ${d.failures.slice(-1)[0]}`).slice(0, 3),
		[],
		`${undelivered.length} deliveries never got a 2xx`,
	);
	assert.deepEqual(notOnce.slice(0, 5), [], `${notOnce.length} refunds not applied exactly once`);
	assert.deepEqual(strays.slice(0, 5), [], 'refunds applied to transactions no round refunds');
	return `${delivered.attempts} attempts for ${ROUND_DELIVERIES} deliveries; ${fault.name} at ${((faultAt - startedAt) / 1000).toFixed(1)} s into the round, back ${((backAt - faultAt) / 1000).toFixed(1)} s later`;
}

/**
 * Purchase webhooks, each delivered twice, to the guarded and the unguarded workflow at once, the
 * main killed mid-round and restarted 10 s later. Prints `DUPLICATE PURCHASES: …`.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product
 */
async function runDuplicatePurchaseRound(queue, sandbox, product) {
	const [guardedUrl, unguardedUrl] = queue.extraWebhookUrls;
	const plan = planDuplicatedPurchases(sandbox.state, product, {
		urls: [guardedUrl, unguardedUrl],
		purchases: PURCHASES,
		prefix: `purchase${Date.now().toString(36)}`,
	});
	const killAfter = Math.round(plan.events.length * 0.4);
	/** @type {Promise<void> | undefined} */
	let restarted;
	const delivered = await deliverAll('', plan.events, {
		progress: (line) => console.log(`    ${line}`),
		onDelivered: (done) => {
			if (done !== killAfter) return;
			console.log(`      main SIGKILLed after ${done} deliveries`);
			restarted = killMainAndRestart(queue);
		},
	});
	await restarted;
	/** @param {string[]} transactionIds */
	const tracked = (transactionIds) => {
		const wanted = new Set(transactionIds);
		/** @type {Map<string, number>} */
		const counts = new Map(transactionIds.map((id) => [id, 0]));
		for (const c of sandbox.state.conversions)
			if (c.eventName === 'purchase' && c.transactionId !== null && wanted.has(c.transactionId))
				counts.set(c.transactionId, (counts.get(c.transactionId) ?? 0) + 1);
		const values = [...counts.values()];
		return {
			duplicates: values.reduce((sum, n) => sum + Math.max(0, n - 1), 0),
			twice: [...counts].filter(([, n]) => n > 1).map(([id]) => id),
			missing: values.filter((n) => n === 0).length,
		};
	};
	const [guarded, unguarded] = plan.targets.map((target) => tracked(target.transactionIds));
	console.log(
		`DUPLICATE PURCHASES: with guard ${guarded.duplicates}, without ${unguarded.duplicates}`,
	);
	const undelivered = delivered.deliveries.filter((d) => d.status === null);
	assert.equal(undelivered.length, 0, `${undelivered.length} purchase deliveries never got a 2xx`);
	assert.equal(
		guarded.duplicates,
		0,
		`Skip Transactions Already Tracked let purchases through twice: ${guarded.twice.slice(0, 5).join(', ')}`,
	);
	assert.equal(guarded.missing, 0, `${guarded.missing} guarded purchases were never tracked`);
	assert.equal(unguarded.missing, 0, `${unguarded.missing} unguarded purchases were never tracked`);
	return `${plan.events.length} deliveries (${PURCHASES} purchases per workflow, each twice), ${delivered.attempts} attempts; main killed after ${killAfter}; none lost with or without the guard`;
}

/**
 * The trigger's executions so far, each with the totals its item carried.
 * @param {Deployment} queue
 * @returns {{ id: string, payingCustomers: number[], changeIds: string[] }[]}
 */
function triggerExecutions(queue) {
	const { parse } = require(path.join(E2E_MODULES, 'flatted'));
	return queue.postgres
		.query(
			`SELECT e.id, d.data FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = '${TRIGGER_WORKFLOW_ID}' ORDER BY e.id`,
		)
		.map((row) => {
			const [id, data] = row.split('\t');
			const items = parse(data).resultData.runData[TRIGGER_NODE][0].data.main[0];
			return {
				id,
				payingCustomers: items.map((/** @type {any} */ item) => item.json.paying_customers),
				changeIds: items.map((/** @type {any} */ item) => item.json.change_id),
			};
		});
}

/**
 * The trigger across restarts: one change made just after a poll, then the main killed and
 * restarted 10 s later (between polls); another change, then the main killed while a poll's
 * request is held by the sandbox (during a poll). Counts the executions carrying each change.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product @param {string} userId
 */
async function runTriggerRestartRounds(queue, sandbox, product, userId) {
	const polls = () =>
		sandbox.log.filter((entry) => entry.path.endsWith(`/promoters/${userId}/statistics`)).length;
	const payingCustomers = () =>
		/** @type {{ data: { paying_customers: number } }} */ (
			sandbox.state.readPromoter(product, userId, 'statistics', new Map())
		).data.paying_customers;
	/** @param {number} count @param {string} what */
	const waitForPolls = async (count, what) => {
		const deadline = Date.now() + 200_000;
		while (polls() < count) {
			assert.ok(Date.now() < deadline, `no poll ${what} within 200 s`);
			await sleep(500);
		}
	};
	assert.ok(polls() > 0, 'the trigger never polled after activation');
	assert.deepEqual(triggerExecutions(queue), [], 'the trigger emitted before any change');

	// Between polls: the change lands after a poll, the main dies before the next one.
	await waitForPolls(polls() + 1, 'before the first case');
	await sleep(3000);
	sandbox.state.addActivity(product, userId, { payingCustomers: 1 });
	const betweenTotal = payingCustomers();
	queue.killMain();
	await sleep(DOWN_MS);
	const pollsBeforeRestart = polls();
	await queue.restartMain();
	// Two polls after the restart: the first one (at activation or on schedule) and one more, in
	// which a repeat would show.
	await waitForPolls(pollsBeforeRestart + 2, 'after the restart between polls');
	await sleep(5000);

	// During a poll: the sandbox holds the next poll's request; the main dies while it waits.
	sandbox.state.addActivity(product, userId, { payingCustomers: 1 });
	const duringTotal = payingCustomers();
	sandbox.addFault({
		kind: 'latency',
		match: 'promoterRead',
		requestContains: userId,
		latencyMs: 20_000,
		times: 1,
	});
	// The sandbox keeps its own copy of the fault and counts its uses down on it.
	const hold = sandbox.faults[sandbox.faults.length - 1];
	const deadline = Date.now() + 200_000;
	while (hold.times !== 0) {
		assert.ok(Date.now() < deadline, 'no poll reached the sandbox within 200 s');
		await sleep(200);
	}
	queue.killMain();
	await sleep(DOWN_MS);
	const pollsBeforeSecondRestart = polls();
	await queue.restartMain();
	await waitForPolls(pollsBeforeSecondRestart + 2, 'after the restart during a poll');
	await sleep(5000);
	sandbox.clearFaults();

	const executions = triggerExecutions(queue);
	/** @param {number} total */
	const carrying = (total) => executions.filter((e) => e.payingCustomers.includes(total));
	const between = carrying(betweenTotal);
	const during = carrying(duringTotal);
	const sameIds = (/** @type {typeof executions} */ list, /** @type {number} */ total) =>
		new Set(list.map((e) => e.changeIds[e.payingCustomers.indexOf(total)])).size;
	console.log(
		`TRIGGER restart between polls: ${between.length} execution(s) for the change; restart during a poll: ${during.length} execution(s) for the change`,
	);
	assert.ok(between.length >= 1, 'the change made before the restart between polls was lost');
	assert.ok(during.length >= 1, 'the change made before the restart during a poll was lost');
	assert.equal(
		sameIds(between, betweenTotal),
		1,
		'repeats of one change carry different change_ids',
	);
	assert.equal(sameIds(during, duringTotal), 1, 'repeats of one change carry different change_ids');
	assert.equal(executions.length, between.length + during.length, 'executions for no change');
	const withoutId = executions.filter((e) =>
		e.changeIds.some((id) => typeof id !== 'string' || id === ''),
	);
	assert.deepEqual(
		withoutId.map((e) => e.id),
		[],
		'trigger items without a change_id',
	);
	return `executions ${executions.map((e) => `${e.id}: paying_customers ${e.payingCustomers.join(',')}, change_id ${e.changeIds.join(',')}`).join('; ')}`;
}

module.exports = {
	FAULTS,
	faultRoundWorkflows,
	runDuplicatePurchaseRound,
	runFaultRound,
	runTriggerRestartRounds,
};
