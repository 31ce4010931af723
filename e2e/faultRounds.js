// @ts-check
'use strict';
/**
 * The platform-fault rounds of `npm run test:queue`, on its running deployment (e2e/queue.js):
 * - refund storms with one fault landing mid-round: the main SIGKILLed and restarted 10 s later,
 *   Redis stopped for 10 s, PostgreSQL stopped for 10 s;
 * - purchase webhooks each delivered twice, to three workflows side by side: example (i)'s
 *   PostgreSQL claim, *Skip Transactions Already Tracked* alone, and no guard; in rounds with the
 *   main killed mid-round, and in one where both deliveries of a purchase arrive at once;
 * - the trigger, active in queue mode, across a main killed between polls and during a poll.
 * Each round checks the sandbox's own records and prints one summary line.
 */
const assert = require('node:assert/strict');
const path = require('node:path');

const {
	E2E_MODULES,
	EXAMPLES,
	PAYMENT_TRIGGER_TYPE,
	paymentTriggerPath,
	readExample,
} = require('./n8n');
const {
	deliverAll,
	forgedOutcomes,
	forgedSummary,
	planDuplicatedPurchases,
	planStorm,
} = require('./paymentProvider');
const { sleep } = require('./processes');
const { TRIGGER_NODE, purchaseWorkflow, triggerWorkflow } = require('./testWorkflows');

/** How long each fault keeps its component down. */
const DOWN_MS = 10_000;
/** A round's refund storm: a few hundred deliveries, the fault landing after the first third. */
const ROUND = { refunds: 240, repeats: 30, notReferred: 15, partial: 15, forged: 20 };
const ROUND_DELIVERIES =
	ROUND.refunds + ROUND.repeats + ROUND.notReferred + ROUND.partial + ROUND.forged;
const FAULT_AFTER = 100;
/** Purchases per workflow in each duplicate-delivery round (each delivered twice). */
const PURCHASES = 120;
/** Duplicate-delivery rounds with the main killed mid-round. */
const PURCHASE_ROUNDS = 5;
/** Queue recovery runs every minute; a lost job's execution is given up after that. */
const SETTLE_TIMEOUT_MS = 240_000;
const REFUND_WORKFLOW_ID = /** @type {(typeof EXAMPLES)[number]} */ (
	EXAMPLES.find((e) => e.letter === 'a')
).id;
/** Example (i): the queue-mode guard, a claim in PostgreSQL before Track Purchase. */
const CLAIM_EXAMPLE = { file: 'i-purchase-claim-queue-mode.json', id: 'exPurchaseClaim01' };
const claimExample = readExample(CLAIM_EXAMPLE.file);
/** The SQL example (i) tells users to run once: the test runs the same. */
const CLAIM_TABLE_SQL = /** @type {string} */ (
	/```sql\n([\s\S]*?)```/.exec(
		String(
			claimExample.nodes.find((node) => node.name === 'About this workflow')?.parameters.content,
		),
	)?.[1]
);
/** The PostgreSQL credential example (i)'s nodes name. */
const CLAIM_CREDENTIAL = /** @type {{ id: string, name: string }} */ (
	claimExample.nodes.find((node) => node.credentials?.postgres)?.credentials.postgres
);
/** The three purchase workflows, in the order of the round's line. */
const PURCHASE_WORKFLOWS = [
	{
		key: 'claim',
		id: CLAIM_EXAMPLE.id,
		workflow: claimExample,
		webhookId: /** @type {string} */ (
			claimExample.nodes.find((node) => node.type === PAYMENT_TRIGGER_TYPE)?.webhookId
		),
	},
	{
		key: 'option',
		id: 'queuePurchaseGrd1',
		workflow: purchaseWorkflow({ guarded: true, webhookId: 'purchase-option-alone' }),
		webhookId: 'purchase-option-alone',
	},
	{
		key: 'without',
		id: 'queuePurchaseRaw1',
		workflow: purchaseWorkflow({ guarded: false, webhookId: 'purchase-unguarded' }),
		webhookId: 'purchase-unguarded',
	},
];
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
		...PURCHASE_WORKFLOWS.map(({ workflow, id, webhookId }) => ({
			workflow,
			id,
			webhook: { method: 'POST', path: paymentTriggerPath(webhookId) },
		})),
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
	const genuine = delivered.deliveries.filter((d) => d.forgery === undefined);
	const forged = forgedOutcomes(delivered.deliveries, storm.forgedIds, sandbox);
	const all2xx = genuine.every((d) => d.status !== null);
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
		`FAULT ${fault.name}: ${genuine.length} deliveries, all 2xx: ${all2xx ? 'yes' : 'no'}, refunds applied ${applied} each exactly once: ${exactlyOnce ? 'yes' : 'no'}, repeats ${repeats}, executions failed ${failed}, recovered in ${recovered} s; ${forgedSummary(forged)}`,
	);
	assertForgeriesRefused(forged, ROUND.forged);
	const undelivered = genuine.filter((d) => d.status === null);
	assert.deepEqual(
		undelivered.map((d) => `${d.id}: ${d.failures.slice(-1)[0]}`).slice(0, 3),
		[],
		`${undelivered.length} deliveries never got a 2xx`,
	);
	assert.deepEqual(notOnce.slice(0, 5), [], `${notOnce.length} refunds not applied exactly once`);
	assert.deepEqual(strays.slice(0, 5), [], 'refunds applied to transactions no round refunds');
	return `${delivered.attempts} attempts for ${ROUND_DELIVERIES} deliveries (${ROUND.forged} forged); ${fault.name} at ${((faultAt - startedAt) / 1000).toFixed(1)} s into the round, back ${((backAt - faultAt) / 1000).toFixed(1)} s later`;
}

/**
 * How each purchase workflow's transactions were tracked: duplicates (sends beyond the first),
 * the transactions sent twice, and those never tracked.
 * @param {Sandbox} sandbox @param {string[]} transactionIds
 */
function trackedCounts(sandbox, transactionIds) {
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
		missing: [...counts].filter(([, n]) => n === 0).map(([id]) => id),
	};
}

/**
 * One duplicate-delivery round: PURCHASES purchases to each of `workflows`, each delivered twice.
 * `mainKill`: the second deliveries follow all the first ones and the main is killed 40 % of the
 * way in, restarted 10 s later; otherwise both deliveries of a purchase are sent at the same
 * moment (next to each other, 20 in flight), so that they run on two workers together. Returns
 * the counts of each workflow, by key.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product
 * @param {{ mainKill: boolean, label: string, workflows: typeof PURCHASE_WORKFLOWS }} round
 */
async function runPurchaseRound(queue, sandbox, product, { mainKill, label, workflows }) {
	const urls = workflows.map(
		(w) => `http://127.0.0.1:${queue.mainPort}/webhook/${paymentTriggerPath(w.webhookId)}`,
	);
	const plan = planDuplicatedPurchases(sandbox.state, product, {
		urls,
		purchases: PURCHASES,
		prefix: `purchase${Date.now().toString(36)}`,
	});
	const firsts = plan.events.slice(0, plan.events.length / 2);
	const events = mainKill ? plan.events : firsts.flatMap((event) => [event, event]);
	const killAfter = Math.round(events.length * 0.4);
	/** @type {Promise<void> | undefined} */
	let restarted;
	const delivered = await deliverAll('', events, {
		progress: (line) => console.log(`    ${line}`),
		onDelivered: (done) => {
			if (!mainKill || done !== killAfter) return;
			console.log(`      main SIGKILLed after ${done} deliveries`);
			restarted = killMainAndRestart(queue);
		},
	});
	await restarted;
	/** @type {Record<string, ReturnType<typeof trackedCounts>>} */
	const byKey = Object.fromEntries(
		workflows.map((w, i) => [w.key, trackedCounts(sandbox, plan.targets[i].transactionIds)]),
	);
	console.log(
		`    ${label}: ${workflows.map((w) => `${w.key} ${byKey[w.key].duplicates} twice, ${byKey[w.key].missing.length} lost`).join('; ')}; ${delivered.attempts} attempts for ${events.length} deliveries`,
	);
	const undelivered = delivered.deliveries.filter((d) => d.status === null);
	return { byKey, undelivered, attempts: delivered.attempts, deliveries: events.length };
}

/**
 * PURCHASE_ROUNDS rounds with the main killed, then one with both deliveries at once. The claim
 * (the recommended queue-mode set-up) runs in every round; the option alone and no guard, the
 * comparison, in the first and the last (six rounds of all three would add about 8 minutes).
 * Prints `DUPLICATE PURCHASES: <N> rounds; queue-mode guard <G>, option alone <X>, without <W>;
 * lost <L>` (sums over the rounds each ran in; L: purchases the claim never tracked), then fails
 * unless G and L are 0, every delivery got a 2xx and no purchase of the others was lost.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product
 */
async function runDuplicatePurchaseRounds(queue, sandbox, product) {
	queue.postgres.query(CLAIM_TABLE_SQL);
	const claimOnly = PURCHASE_WORKFLOWS.filter((w) => w.key === 'claim');
	/** @type {Awaited<ReturnType<typeof runPurchaseRound>>[]} */
	const rounds = [];
	for (let round = 1; round <= PURCHASE_ROUNDS; round++)
		rounds.push(
			await runPurchaseRound(queue, sandbox, product, {
				mainKill: true,
				label: `round ${round} (main killed)`,
				workflows: round === 1 ? PURCHASE_WORKFLOWS : claimOnly,
			}),
		);
	rounds.push(
		await runPurchaseRound(queue, sandbox, product, {
			mainKill: false,
			label: `round ${PURCHASE_ROUNDS + 1} (both deliveries at once)`,
			workflows: PURCHASE_WORKFLOWS,
		}),
	);
	/** @param {string} key @param {(counts: ReturnType<typeof trackedCounts>) => number} pick */
	const sum = (key, pick) =>
		rounds.reduce((total, round) => total + (round.byKey[key] ? pick(round.byKey[key]) : 0), 0);
	/** @param {string} key */
	const ranIn = (key) =>
		rounds.flatMap((round, i) => (round.byKey[key] ? [i + 1] : [])).join(' and ');
	/** @param {string} key */
	const all = (key) => rounds.flatMap((round) => (round.byKey[key] ? [round.byKey[key]] : []));
	const guard = sum('claim', (c) => c.duplicates);
	const lost = sum('claim', (c) => c.missing.length);
	console.log(
		`DUPLICATE PURCHASES: ${rounds.length} rounds; queue-mode guard ${guard}, option alone ${sum('option', (c) => c.duplicates)}, without ${sum('without', (c) => c.duplicates)}; lost ${lost} (option alone and without ran in rounds ${ranIn('option')})`,
	);
	// What the claim costs: the median time of a successful execution of each workflow.
	const medianMs = PURCHASE_WORKFLOWS.map(({ key, id }) => {
		const [ms] = queue.postgres.query(
			`SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ("stoppedAt" - "startedAt")) * 1000)) FROM execution_entity WHERE "workflowId" = '${id}' AND status = 'success'`,
		);
		return `${key} ${ms} ms`;
	});
	console.log(`    median successful execution: ${medianMs.join(', ')}`);
	const undelivered = rounds.flatMap((r) => r.undelivered);
	assert.deepEqual(
		undelivered.slice(0, 3).map((d) => `${d.id}: ${d.failures.slice(-1)[0]}`),
		[],
		`${undelivered.length} purchase deliveries never got a 2xx`,
	);
	assert.equal(
		guard,
		0,
		`the PostgreSQL claim let purchases through twice: ${all('claim')
			.flatMap((c) => c.twice)
			.slice(0, 5)
			.join(', ')}`,
	);
	assert.equal(
		lost,
		0,
		`purchases the claim never tracked: ${all('claim')
			.flatMap((c) => c.missing)
			.slice(0, 5)
			.join(', ')}`,
	);
	const otherLost =
		sum('option', (c) => c.missing.length) + sum('without', (c) => c.missing.length);
	assert.equal(otherLost, 0, `${otherLost} purchases of the other workflows were never tracked`);
	return `${rounds.reduce((n, r) => n + r.deliveries, 0)} deliveries in ${rounds.reduce((n, r) => n + r.attempts, 0)} attempts (${PURCHASES} purchases per workflow and round, each twice); the claim: 0 twice, 0 lost in ${rounds.length} rounds`;
}

/**
 * Example (i)'s PostgreSQL credential, on the deployment's database.
 * @param {{ port: number, n8nEnvironment: Record<string, string> }} postgres
 */
function claimCredentials(postgres) {
	const db = postgres.n8nEnvironment;
	return [
		{
			...CLAIM_CREDENTIAL,
			type: 'postgres',
			data: {
				host: '127.0.0.1',
				port: postgres.port,
				database: db.DB_POSTGRESDB_DATABASE,
				user: db.DB_POSTGRESDB_USER,
				password: db.DB_POSTGRESDB_PASSWORD,
				ssl: 'disable',
			},
		},
	];
}

/**
 * The trigger's executions so far. An emitted change carries the totals of its item; a poll that
 * threw (n8n records it as a failed execution with the node's error and no items) carries
 * `error`, its message.
 * @param {Deployment} queue
 * @returns {{ id: string, error: string | null, payingCustomers: number[], changeIds: string[] }[]}
 */
function triggerExecutions(queue) {
	const { parse } = require(path.join(E2E_MODULES, 'flatted'));
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
	// Polls that threw before these rounds: while the fault rounds held PostgreSQL or Redis down
	// or the main was killed, n8n records such a poll as a failed execution. Listed, not counted.
	const earlier = triggerExecutions(queue);
	assert.deepEqual(
		earlier.filter((e) => e.error === null).map((e) => e.id),
		[],
		'the trigger emitted before any change',
	);
	const earlierIds = new Set(earlier.map((e) => e.id));

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
	const earlierFailures = earlier.map((e) => `${e.id}: ${e.error}`);
	return `executions ${executions.map((e) => `${e.id}: paying_customers ${e.payingCustomers.join(',')}, change_id ${e.changeIds.join(',')}`).join('; ')}; polls failed in the earlier fault rounds: ${earlierFailures.length}${earlierFailures.length > 0 ? ` (${earlierFailures.join('; ')})` : ''}`;
}

module.exports = {
	FAULTS,
	assertForgeriesRefused,
	faultRoundWorkflows,
	runDuplicatePurchaseRounds,
	claimCredentials,
	runFaultRound,
	runTriggerRestartRounds,
};
