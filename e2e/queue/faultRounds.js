// @ts-check
'use strict';
/**
 * The platform-fault rounds of `npm run test:queue` (support/n8n/queueDeployment.js): refund
 * storms through the front door with the main SIGKILLed, Redis or PostgreSQL stopped for 10 s
 * mid-round, and the trigger across a main killed between polls and during a poll; each checks the
 * sandbox's own records and what answered each delivery, and prints one line. A round that
 * restarts an n8n process probes its start-up window (support/payment/startupProber.js). The
 * purchase rounds are in e2e/queue/purchaseRounds.js.
 */
const assert = require('node:assert/strict');
const path = require('node:path');

const { DEFAULT_N8N_MODULES } = require('../../support/n8n/n8nInstance');
const { sandboxRead } = require('../../support/services/scriptedModel');
const { example } = require('../../support/n8n/n8nDemoData');
const {
	deliverAll,
	forgedOutcomes,
	forgedSummary,
	planStorm,
} = require('../../support/payment/paymentProvider');
const { STARTUP_ANSWER, probeStartupWindow } = require('../../support/payment/startupProber');
const { sleep, waitUntil } = require('../../support/services/processes');
const { TRIGGER_NODE } = require('../../support/n8n/workflowBuilders');
const { callsNaming } = require('../webhookSecurity');

/** How long each fault keeps its component down. */
const DOWN_MS = 10_000;
/** A round's refund storm: a few hundred deliveries, the fault landing after the first third. */
const ROUND = { refunds: 240, repeats: 30, notReferred: 15, partial: 15, forged: 20 };
const ROUND_DELIVERIES =
	ROUND.refunds + ROUND.repeats + ROUND.notReferred + ROUND.partial + ROUND.forged;
const FAULT_AFTER = 100;
/**
 * Queue recovery runs every minute; a lost job's execution is given up after that (a killed
 * worker's jobs once their 60 s lock expires).
 */
const SETTLE_TIMEOUT_MS = 240_000;
const REFUND_WORKFLOW_ID = example('a').id;
const TRIGGER_WORKFLOW_ID = 'queueTriggerWatch';

/**
 * @typedef {Awaited<ReturnType<typeof import('../../support/n8n/queueDeployment').startQueueDeployment>>} Deployment
 * @typedef {import('../../sandbox').Sandbox} Sandbox
 * @typedef {{ name: 'main-kill'|'redis-restart'|'postgres-restart'|'webhook-processor-kill', inject: (queue: Deployment) => Promise<void>, failover?: boolean, restarts?: (queue: Deployment) => { process: string, port: number } }} Fault
 *   `failover`: the deployment keeps serving while the component is down (nginx passes requests on
 *   to another processor), so recovery counts from the fault, not from the component's return;
 *   `restarts`: the n8n process the fault restarts, whose start-up window is probed
 * @typedef {{ summary: string, assertHeld: () => void }} Alongside
 *   deliveries sent beside a round's refunds (purchases to example (i)'s claim), their part of
 *   the round's line and their check
 */

/**
 * How long, past its first start-up answer, an n8n process restarting in a round keeps answering it:
 * its migration check waits that long on a lock held on n8n's `migrations` table.
 */
const WINDOW_HELD_MS = 2000;

/**
 * `start()` run while the database is busy, as a long migration or a large database makes it:
 * n8n listens, then its migration check waits on the `migrations` table, locked until the process
 * on `port` has answered a POST with its start-up 200 and WINDOW_HELD_MS more. So every restart
 * has a start-up window, the length of which does not depend on the machine's speed.
 * @template T @param {Deployment} queue @param {number} port @param {() => Promise<T>} start
 */
async function startWhileDatabaseBusy(queue, port, start) {
	const lock = await queue.postgres.lockTable('migrations');
	/** @type {Promise<T> | undefined} */
	let started;
	try {
		started = start();
		started.catch(() => undefined); // awaited below, after the lock is released
		const url = queue.directWebhookUrl(port);
		await waitUntil(
			() =>
				fetch(url, { method: 'POST', body: '{}' }).then(
					(answer) => answer.text().then((text) => answer.ok && text.includes(STARTUP_ANSWER)),
					() => false, // not listening yet
				),
			{ timeoutMs: 120_000, intervalMs: 20, what: `n8n on port ${port} answering while it starts` },
		);
		await sleep(WINDOW_HELD_MS);
	} finally {
		await lock.release();
	}
	return started;
}

/** The main SIGKILLed, and a new one started DOWN_MS later, its database busy. @param {Deployment} queue */
async function killMainAndRestart(queue) {
	queue.killMain();
	await sleep(DOWN_MS);
	await startWhileDatabaseBusy(queue, queue.mainPort, () => queue.restartMain());
}

/** @type {Fault[]} */
const FAULTS = [
	{
		name: 'main-kill',
		inject: killMainAndRestart,
		restarts: (queue) => ({ process: 'main', port: queue.mainPort }),
	},
	{ name: 'redis-restart', inject: (queue) => queue.redis.restart(DOWN_MS) },
	{ name: 'postgres-restart', inject: (queue) => queue.postgres.restart(DOWN_MS) },
];

/**
 * With webhook processors behind nginx (queue.useWebhookProcessors): the first processor
 * SIGKILLed mid-round and started again DOWN_MS later; nginx sends its share to the other.
 * @param {Deployment['processors'][number]} processor @returns {Fault}
 */
function processorKill(processor) {
	return {
		name: 'webhook-processor-kill',
		failover: true,
		restarts: () => ({ process: processor.name, port: processor.port }),
		async inject(queue) {
			queue.killProcessor(processor);
			await sleep(DOWN_MS);
			await startWhileDatabaseBusy(queue, processor.port, () => queue.restartProcessor(processor));
		},
	};
}

/**
 * Waits until no execution of the workflow created since `sinceMs` is new or running (a lost job's
 * execution is given up by n8n's queue recovery). Returns their SQL condition and a count of
 * those that also meet `condition`.
 * @param {Pick<Deployment, 'postgres'>} queue its PostgreSQL (test:upgrade gives only that)
 * @param {string} workflowId @param {number} sinceMs
 * @param {string} after what they ran in, for the wait's message
 */
async function settledExecutionsSince(queue, workflowId, sinceMs, after) {
	const where = `"workflowId" = '${workflowId}' AND "createdAt" >= to_timestamp(${sinceMs / 1000})`;
	const count = (/** @type {string} */ condition) =>
		Number(
			queue.postgres.query(
				`SELECT count(*) FROM execution_entity WHERE ${where} AND ${condition}`,
			)[0],
		);
	const unfinished = () => count("status IN ('new', 'running')");
	await waitUntil(() => unfinished() === 0, {
		timeoutMs: SETTLE_TIMEOUT_MS,
		intervalMs: 2000,
		what: `no execution new or running after ${after}`,
		detail: () => `${unfinished()} executions still new or running`,
	});
	return { where, count };
}

/**
 * Fails unless `expected` forged deliveries were sent, each got 401, and none reached the sandbox.
 * @param {{ sent: number, refused: number, reached: string[] }} forged @param {number} expected
 */
function assertForgeriesRefused(forged, expected) {
	assert.equal(forged.sent, expected, 'forged deliveries sent');
	assert.equal(
		forged.refused,
		forged.sent,
		`${forged.sent - forged.refused} forged deliveries not answered 401`,
	);
	assert.deepEqual(
		forged.reached.slice(0, 5),
		[],
		`${forged.reached.length} forged refunds reached the sandbox`,
	);
}

/** Example (a)'s own answers all carry `received: true`. @param {unknown} answer */
const refundWorkflowAnswered = (answer) =>
	typeof answer === 'object' && answer !== null && 'received' in answer && answer.received === true;

/**
 * n8n's own 2xx after a run that succeeded. The examples answer through Respond to Webhook, and
 * answer every failure `500` there before ending it in an error. When the Respond node's answer never reaches the main (it travels
 * over Redis, and a Redis restart loses it), the main answers from the worker's `job-finished`:
 * an empty 200 when the run succeeded, 500 when it failed (dist/scaling/scaling.service.js).
 * Such a 2xx counts as delivered only where n8n's saved execution proves it: an execution of one
 * of `workflowIds` holding the event's ID, created during the attempt that got the answer, has
 * status `success`. Marks each proven delivery `fallbackAfterSuccess` (no longer `withoutRun`)
 * and returns how many there are.
 * @param {{ query: (sql: string) => string[] }} postgres n8n's database
 * @param {string[]} workflowIds @param {import('../../support/payment/paymentProvider').Delivery[]} deliveries
 */
function creditProvenFallbacks(postgres, workflowIds, deliveries) {
	const workflows = workflowIds.map((id) => `'${id}'`).join(', ');
	for (const delivery of deliveries) {
		if (!delivery.withoutRun || delivery.answer !== '') continue;
		const { startedAt, endedAt } = delivery.lastAttempt;
		const [succeeded] = postgres.query(
			`SELECT count(*) FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id
			 WHERE e."workflowId" IN (${workflows}) AND e.status = 'success'
			   AND e."createdAt" BETWEEN to_timestamp(${startedAt / 1000}) AND to_timestamp(${endedAt / 1000})
			   AND d.data LIKE '%"${delivery.id}"%'`,
		);
		if (Number(succeeded) === 0) continue;
		delivery.withoutRun = false;
		delivery.fallbackAfterSuccess = true;
	}
	return deliveries.filter((d) => d.fallbackAfterSuccess).length;
}

/** The part of a round's line that counts n8n's proven fallbacks. @param {number} n */
const fallbackSummary = (n) => `answered by n8n's fallback after a successful run: ${n}`;

/**
 * Fails unless each of `deliveries` got a 2xx in the end and every 2xx came from the workflow,
 * naming the first few that did not, their last failure or their answer.
 * @param {import('../../support/payment/paymentProvider').Delivery[]} deliveries
 * @param {string} what what they are, for the message ("deliveries", "purchase deliveries")
 */
function assertAllDelivered(deliveries, what) {
	const undelivered = deliveries.filter((d) => d.status === null);
	assert.deepEqual(
		undelivered.slice(0, 3).map((d) => `${d.id}: ${d.failures.slice(-1)[0]}`),
		[],
		`${undelivered.length} ${what} never got a 2xx`,
	);
	const withoutRun = deliveries.filter((d) => d.withoutRun);
	assert.deepEqual(
		withoutRun.slice(0, 3).map((d) => `${d.id}: ${d.status} ${JSON.stringify(d.answer)}`),
		[],
		`${withoutRun.length} ${what} answered 2xx without a run of the workflow`,
	);
}

/**
 * A storm's outcome: its genuine deliveries (all2xx: each got a 2xx; fallbacks: n8n's own 2xx
 * after a run its saved execution proves succeeded), the forged ones (and their summary line),
 * and what the sandbox's refund ledger says of its refunds: how many were applied, how many
 * answered "already refunded", which were not applied exactly once, and which transactions
 * outside `allRefundIds` (every transaction the rounds so far meant to refund) were refunded.
 * @param {Sandbox} sandbox @param {ReturnType<typeof planStorm>} storm
 * @param {Awaited<ReturnType<typeof deliverAll>>} delivered @param {Set<string>} allRefundIds
 * @param {{ query: (sql: string) => string[] }} postgres n8n's database, holding example (a)'s executions
 */
function stormOutcome(sandbox, storm, delivered, allRefundIds, postgres) {
	const genuine = delivered.deliveries.filter((d) => d.forgery === undefined);
	const fallbacks = creditProvenFallbacks(postgres, [REFUND_WORKFLOW_ID], genuine);
	const forged = forgedOutcomes(delivered.deliveries, storm.forgedIds, sandbox);
	const ledger = sandbox.instrumentation.refundLedger;
	/** @param {'applied' | 'alreadyRefunded'} field */
	const total = (field) =>
		storm.refundIds.reduce((sum, id) => sum + (ledger.get(id)?.[field] ?? 0), 0);
	return {
		genuine,
		all2xx: genuine.every((d) => d.status !== null),
		withoutRun: genuine.filter((d) => d.withoutRun).length,
		fallbacks,
		forged,
		forgedLine: forgedSummary(forged),
		applied: total('applied'),
		repeats: total('alreadyRefunded'),
		notOnce: storm.refundIds.filter((id) => ledger.get(id)?.applied !== 1),
		strays: [...ledger].filter(([id, entry]) => entry.applied > 0 && !allRefundIds.has(id)),
	};
}

/**
 * Injects `fault`; when it restarts an n8n process, probes that process's start-up window, straight
 * and through the front door, meanwhile (its STARTUP WINDOW line).
 * @param {Deployment} queue @param {Fault} fault
 */
async function injectProbed(queue, fault) {
	if (!fault.restarts) return fault.inject(queue);
	const restarted = fault.restarts(queue);
	const urls = { directUrl: queue.directWebhookUrl(restarted.port), doorUrl: queue.webhookUrl };
	await probeStartupWindow(restarted.process, urls, () => fault.inject(queue));
}

/**
 * One refund storm with `fault` landing after FAULT_AFTER deliveries. Prints its FAULT line, then
 * fails when a delivery never got a 2xx or a refund was not applied exactly once.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product @param {Fault} fault
 * @param {Set<string>} allRefundIds every transaction a round so far meant to refund (this one's are added)
 * @param {() => Promise<Alongside>} [alongside] deliveries sent at the same time, to the same fault
 */
async function runFaultRound(queue, sandbox, product, fault, allRefundIds, alongside) {
	const storm = planStorm(sandbox.instrumentation, product, {
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
	const besides = alongside?.();
	const delivered = await deliverAll(queue.webhookUrl, storm.events, {
		ranWorkflow: refundWorkflowAnswered,
		progress: (line) => console.log(`    ${line}`),
		onDelivered: (done) => {
			if (done !== FAULT_AFTER) return;
			faultAt = Date.now();
			console.log(`      ${fault.name} after ${done} deliveries`);
			injected = injectProbed(queue, fault).then(() => {
				backAt = Date.now();
				console.log(`      ${fault.name}: back after ${((backAt - faultAt) / 1000).toFixed(1)} s`);
			});
		},
		onAttempt: ({ startedAt: attemptStart, endedAt, ok }) => {
			const from = fault.failover ? faultAt || Infinity : backAt;
			if (ok && attemptStart >= from && recoveredAt === 0) recoveredAt = endedAt;
		},
	});
	await injected;
	const also = await besides;
	const settled = await settledExecutionsSince(queue, REFUND_WORKFLOW_ID, startedAt, 'the round');
	const failed = settled.count("status <> 'success'");
	const outcome = stormOutcome(sandbox, storm, delivered, allRefundIds, queue.postgres);
	const { genuine, all2xx, withoutRun, fallbacks, forged, applied, repeats, notOnce, strays } =
		outcome;
	const exactlyOnce = notOnce.length === 0 && strays.length === 0;
	const recovered = recoveredAt > 0 ? ((recoveredAt - faultAt) / 1000).toFixed(1) : 'never';
	console.log(
		`FAULT ${fault.name}: ${genuine.length} deliveries, all 2xx: ${all2xx ? 'yes' : 'no'}, refunds applied ${applied} each exactly once: ${exactlyOnce ? 'yes' : 'no'}, ${withoutRun} answered without a run, ${fallbackSummary(fallbacks)}, repeats ${repeats}, executions failed ${failed}, recovered in ${recovered} s; ${also ? `${also.summary}; ` : ''}${outcome.forgedLine}`,
	);
	assertForgeriesRefused(forged, ROUND.forged);
	also?.assertHeld();
	assertAllDelivered(genuine, 'deliveries');
	// What the sandbox and the provider saw of each: a refund never requested, refused, or repeated.
	for (const id of notOnce.slice(0, 5)) {
		const ledger = sandbox.instrumentation.refundLedger.get(id) ?? null;
		const answers = genuine
			.filter((d) => d.id === `evt_${id}`)
			.map(({ status, attempts, answer, failures }) => ({ status, attempts, answer, failures }));
		const calls = callsNaming(sandbox, '/track/refund', id);
		console.log(
			`      ${id}: Refund calls received ${calls}, ledger ${JSON.stringify(ledger)}, deliveries ${JSON.stringify(answers)}`,
		);
	}
	assert.deepEqual(notOnce.slice(0, 5), [], `${notOnce.length} refunds not applied exactly once`);
	assert.deepEqual(strays.slice(0, 5), [], 'refunds applied to transactions no round refunds');
	return `${delivered.attempts} attempts for ${ROUND_DELIVERIES} deliveries (${ROUND.forged} forged); ${fault.name} at ${((faultAt - startedAt) / 1000).toFixed(1)} s into the round, back ${((backAt - faultAt) / 1000).toFixed(1)} s later`;
}

/**
 * The trigger's executions so far. An emitted change carries the totals of its item; a poll that
 * threw (n8n records it as a failed execution with the node's error and no items) carries
 * `error`, its message.
 * @param {Deployment} queue
 * @returns {{ id: string, error: string | null, payingCustomers: number[], changeIds: string[] }[]}
 */
function triggerExecutions(queue) {
	const { parse } = require(path.join(DEFAULT_N8N_MODULES, 'flatted'));
	return queue.postgres
		.query(
			`SELECT e.id, d.data FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = '${TRIGGER_WORKFLOW_ID}' ORDER BY e.id`,
		)
		.map((row) => {
			const [id, data] = row.split('\t');
			const { resultData } = parse(data);
			const run = resultData.runData[TRIGGER_NODE]?.[0];
			/** @type {any[]} */
			const items = run?.data?.main[0] ?? [];
			const error = run?.error ?? resultData.error;
			return {
				id,
				error: run?.data ? null : String(error?.message ?? 'no items and no error recorded'),
				payingCustomers: items.map((item) => item.json.paying_customers),
				changeIds: items.map((item) => item.json.change_id),
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
		/** @type {number} */ (sandboxRead(sandbox, product, userId).data.paying_customers);
	/** @param {number} count @param {string} what */
	const waitForPolls = (count, what) =>
		waitUntil(() => polls() >= count, {
			timeoutMs: 200_000,
			intervalMs: 500,
			what: `a poll ${what}`,
			detail: () => `${polls()} polls, ${count} awaited`,
		});
	assert.ok(polls() > 0, 'the trigger never polled after activation');
	// Polls that threw before these rounds: while the fault rounds held PostgreSQL or Redis down
	// or the main was killed, n8n records such a poll as a failed execution. Listed, not counted.
	const earlier = triggerExecutions(queue);
	assert.deepEqual(
		earlier.filter((e) => e.error === null).map((e) => e.id),
		[],
		'the trigger emitted before any change',
	);
	const earlierIds = new Set(earlier.map((e) => e.id));

	/**
	 * The main SIGKILLed and restarted DOWN_MS later, then two polls: the first one (at activation
	 * or on schedule) and one more, in which a repeat would show.
	 * @param {string} when
	 */
	const killMainAndWaitForTwoPolls = async (when) => {
		queue.killMain();
		await sleep(DOWN_MS);
		const pollsBeforeRestart = polls();
		await queue.restartMain();
		await waitForPolls(pollsBeforeRestart + 2, when);
		await sleep(5000);
	};

	// Between polls: the change lands after a poll, the main dies before the next one.
	await waitForPolls(polls() + 1, 'before the first case');
	await sleep(3000);
	sandbox.instrumentation.addActivity(product, userId, { payingCustomers: 1 });
	const betweenTotal = payingCustomers();
	await killMainAndWaitForTwoPolls('after the restart between polls');

	// During a poll: the sandbox holds the next poll's request; the main dies while it waits.
	sandbox.instrumentation.addActivity(product, userId, { payingCustomers: 1 });
	const duringTotal = payingCustomers();
	// The sandbox keeps its own copy of the fault and counts its uses down on it.
	const hold = sandbox.addFault({
		kind: 'latency',
		match: 'promoterRead',
		requestContains: userId,
		latencyMs: 20_000,
		times: 1,
	});
	await waitUntil(() => hold.times === 0, {
		timeoutMs: 200_000,
		intervalMs: 200,
		what: 'a poll reaching the sandbox',
	});
	await killMainAndWaitForTwoPolls('after the restart during a poll');
	sandbox.clearFaults();

	const since = triggerExecutions(queue).filter((e) => !earlierIds.has(e.id));
	const failedPolls = since.filter((e) => e.error !== null);
	assert.deepEqual(
		failedPolls.map((e) => `${e.id}: ${e.error}`),
		[],
		'polls failed during the restart rounds (only the main was killed)',
	);
	const executions = since.filter((e) => e.error === null);
	/** @param {number} total */
	const carrying = (total) => executions.filter((e) => e.payingCustomers.includes(total));
	const between = carrying(betweenTotal);
	const during = carrying(duringTotal);
	console.log(
		`TRIGGER restart between polls: ${between.length} execution(s) for the change; restart during a poll: ${during.length} execution(s) for the change`,
	);
	for (const [list, total, when] of /** @type {const} */ ([
		[between, betweenTotal, 'between polls'],
		[during, duringTotal, 'during a poll'],
	])) {
		assert.ok(list.length >= 1, `the change made before the restart ${when} was lost`);
		const ids = new Set(list.map((e) => e.changeIds[e.payingCustomers.indexOf(total)]));
		assert.equal(ids.size, 1, 'repeats of one change carry different change_ids');
	}
	assert.equal(executions.length, between.length + during.length, 'executions for no change');
	const withoutId = executions.filter((e) =>
		e.changeIds.some((id) => typeof id !== 'string' || id === ''),
	);
	assert.deepEqual(
		withoutId.map((e) => e.id),
		[],
		'trigger items without a change_id',
	);
	const earlierFailures = earlier.map((e) => `${e.id}: ${e.error}`);
	return `executions ${executions.map((e) => `${e.id}: paying_customers ${e.payingCustomers.join(',')}, change_id ${e.changeIds.join(',')}`).join('; ')}; polls failed in the earlier fault rounds: ${earlierFailures.length}${earlierFailures.length > 0 ? ` (${earlierFailures.join('; ')})` : ''}`;
}

module.exports = {
	FAULTS,
	REFUND_WORKFLOW_ID,
	refundWorkflowAnswered,
	processorKill,
	TRIGGER_WORKFLOW_ID,
	assertAllDelivered,
	assertForgeriesRefused,
	creditProvenFallbacks,
	fallbackSummary,
	killMainAndRestart,
	stormOutcome,
	runFaultRound,
	runTriggerRestartRounds,
	settledExecutionsSince,
};
