// @ts-check
'use strict';
/**
 * The purchase rounds of `npm run test:queue`: purchase webhooks each delivered twice to example
 * (i)'s PostgreSQL claim, *Skip Transactions Already Tracked* alone and no guard, with the main
 * killed mid-round or both deliveries at once; checks the sandbox's records and prints
 * `DUPLICATE PURCHASES …`.
 */
const assert = require('node:assert/strict');

const {
	paymentTriggerUrl,
	publishableExample,
	setUpSqlOf,
} = require('../../support/n8n/n8nDemoData');
const { assertAllDelivered, creditProvenFallbacks, killMainAndRestart } = require('./faultRounds');
const { deliverAll, planDuplicatedPurchases } = require('../../support/payment/paymentProvider');
const { purchaseWorkflow } = require('../../support/n8n/workflowBuilders');

/**
 * Purchases per workflow in each duplicate-delivery round (each delivered twice), and the rounds
 * with the main killed mid-round.
 */
const PURCHASES = 120;
const PURCHASE_ROUNDS = 5;
/** Example (i): the queue-mode guard, a claim in PostgreSQL before Track Purchase. */
const CLAIM_WORKFLOW = publishableExample('i-purchase-claim-queue-mode.json', 'exPurchaseClaim01');
/** The SQL example (i) tells users to run once. */
const CLAIM_TABLE_SQL = setUpSqlOf(CLAIM_WORKFLOW.workflow);
/** The PostgreSQL credential example (i)'s nodes name. */
const CLAIM_CREDENTIAL = /** @type {{ id: string, name: string }} */ (
	CLAIM_WORKFLOW.workflow.nodes.find((node) => node.credentials?.postgres)?.credentials.postgres
);
/** The three purchase workflows, in the order of the round's line. */
const PURCHASE_WORKFLOWS = [
	{ key: 'claim', ...CLAIM_WORKFLOW },
	...[
		{ key: 'option', id: 'queuePurchaseGrd1', guarded: true, webhookId: 'purchase-option-alone' },
		{ key: 'without', id: 'queuePurchaseRaw1', guarded: false, webhookId: 'purchase-unguarded' },
	].map(({ key, id, guarded, webhookId }) => ({
		key,
		id,
		workflow: purchaseWorkflow({ guarded, webhookId }),
		webhookId,
	})),
];

/**
 * @typedef {Awaited<ReturnType<typeof import('../../support/n8n/queueDeployment').startQueueDeployment>>} Deployment
 * @typedef {import('../../sandbox').Sandbox} Sandbox
 */

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
	const urls = workflows.map((w) => paymentTriggerUrl(queue.webhookBase, w.webhookId));
	const plan = planDuplicatedPurchases(sandbox.instrumentation, product, {
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
	creditProvenFallbacks(
		queue.postgres,
		workflows.map((w) => w.id),
		delivered.deliveries,
	);
	return {
		byKey,
		outcomes: delivered.deliveries,
		attempts: delivered.attempts,
		deliveries: events.length,
	};
}

/**
 * PURCHASE_ROUNDS rounds with the main killed, then one with both deliveries at once. The claim
 * (the recommended queue-mode set-up) runs in every round; the option alone and no guard, the
 * comparison, in the first and the last (every round with all three would add about 2 minutes each).
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
	/** The claim's first few transactions of one kind. @param {'twice' | 'missing'} kind */
	const claimed = (kind) =>
		rounds
			.flatMap((round) => round.byKey.claim?.[kind] ?? [])
			.slice(0, 5)
			.join(', ');
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
	assertAllDelivered(
		rounds.flatMap((r) => r.outcomes),
		'purchase deliveries',
	);
	assert.equal(guard, 0, `the PostgreSQL claim let purchases through twice: ${claimed('twice')}`);
	assert.equal(lost, 0, `purchases the claim never tracked: ${claimed('missing')}`);
	const otherLost =
		sum('option', (c) => c.missing.length) + sum('without', (c) => c.missing.length);
	assert.equal(otherLost, 0, `${otherLost} purchases of the other workflows were never tracked`);
	return `${rounds.reduce((n, r) => n + r.deliveries, 0)} deliveries in ${rounds.reduce((n, r) => n + r.attempts, 0)} attempts (${PURCHASES} purchases per workflow and round, each twice); the claim: 0 twice, 0 lost in ${rounds.length} rounds`;
}

/**
 * Purchases to example (i)'s claim, each delivered twice (all first deliveries, then all second
 * ones), 5 in flight: sent beside another round's deliveries, so that its fault lands on them too.
 * Resolves with the claim's counts; `summary` is the round line's part, `assertHeld()` fails
 * unless every delivery got a 2xx and each purchase was tracked exactly once.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product
 * @param {{ purchases: number, prefix: string }} options
 */
async function deliverClaimedPurchases(queue, sandbox, product, { purchases, prefix }) {
	queue.postgres.query(CLAIM_TABLE_SQL);
	const [claim] = PURCHASE_WORKFLOWS;
	const plan = planDuplicatedPurchases(sandbox.instrumentation, product, {
		urls: [paymentTriggerUrl(queue.webhookBase, claim.webhookId)],
		purchases,
		prefix,
	});
	const delivered = await deliverAll('', plan.events, { inFlight: 5 });
	creditProvenFallbacks(queue.postgres, [claim.id], delivered.deliveries);
	const counts = trackedCounts(sandbox, plan.targets[0].transactionIds);
	const undelivered = delivered.deliveries.filter((d) => d.status === null);
	const once = counts.duplicates === 0 && counts.missing.length === 0;
	return {
		summary: `purchases ${purchases} (each delivered twice) tracked each exactly once by example (i)'s claim: ${once && undelivered.length === 0 ? 'yes' : 'no'}`,
		assertHeld() {
			assertAllDelivered(delivered.deliveries, 'purchase deliveries');
			assert.deepEqual(counts.twice.slice(0, 5), [], 'purchases the claim tracked twice');
			assert.deepEqual(counts.missing.slice(0, 5), [], 'purchases the claim never tracked');
		},
	};
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

module.exports = {
	CLAIM_TABLE_SQL,
	PURCHASE_ROUNDS,
	PURCHASE_WORKFLOWS,
	claimCredentials,
	deliverClaimedPurchases,
	runDuplicatePurchaseRounds,
};
