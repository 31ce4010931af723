// @ts-check
'use strict';
/**
 * test:queue's `FAULT reversal-crash` round: example (j) claims a purchase's reversal, then the
 * worker running its Refund is SIGKILLed while the request is on its way (the sandbox holds it,
 * then drops it unapplied: it never reached the service). Until the claim is 10 minutes old,
 * every delivery of that purchase's refunds is answered 500 (another execution is reversing it),
 * so the provider keeps delivering; after that bound (the test ages the claim instead of
 * waiting), the next delivery takes the claim over and reverses the purchase once.
 */
const assert = require('node:assert/strict');

const { paymentTriggerUrl } = require('../../support/n8n/n8nDemoData');
const { deliverAll, planDuplicatedPurchases } = require('../../support/payment/paymentProvider');
const { waitUntil } = require('../../support/services/processes');
const { assertAllDelivered } = require('./faultRounds');
const { CLAIM_TABLE_SQL, PURCHASE_WORKFLOWS } = require('./purchaseRounds');
const { LEDGER_TABLE_SQL, LEDGER_WORKFLOW, halvesOf } = require('./refundLedgerRounds');

/** Purchases whose reversal crashes. */
const PURCHASES = 3;
/** How long the sandbox holds each Refund before dropping it: the workers die meanwhile. */
const HOLD_MS = 20_000;
/** (j)'s takeover bound, as its SQL says it. */
const TAKEOVER_MINUTES = 10;

/**
 * @typedef {Awaited<ReturnType<typeof import('../../support/n8n/queueDeployment').startQueueDeployment>>} Deployment
 * @typedef {import('../../sandbox').Sandbox} Sandbox
 * @typedef {import('../../support/payment/paymentProvider').Delivery} Delivery
 */

/**
 * The round; the deployment ends it with as many workers as it began with (new ones).
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product
 * @param {Set<string>} allRefundIds every transaction a round so far meant to refund (these are added)
 */
async function runReversalCrashRound(queue, sandbox, product, allRefundIds) {
	queue.postgres.query(CLAIM_TABLE_SQL);
	queue.postgres.query(LEDGER_TABLE_SQL);
	const [claim] = PURCHASE_WORKFLOWS;
	const [{ transactionIds, events }] = planDuplicatedPurchases(sandbox.instrumentation, product, {
		urls: [paymentTriggerUrl(queue.webhookBase, claim.webhookId)],
		purchases: PURCHASES,
		prefix: `reversal_crash${Date.now().toString(36)}`,
	}).targets;
	for (const id of transactionIds) allRefundIds.add(id);
	const purchases = await deliverAll('', events.slice(0, PURCHASES), { inFlight: PURCHASES });
	assertAllDelivered(purchases.deliveries, 'purchase deliveries to example (i)');

	const ledgerUrl = paymentTriggerUrl(queue.webhookBase, LEDGER_WORKFLOW.webhookId);
	const holds = transactionIds.map((transactionId) =>
		sandbox.addFault({
			kind: 'drop',
			match: 'refund',
			requestContains: transactionId,
			latencyMs: HOLD_MS,
			times: 1,
		}),
	);
	const once = { maxAttempts: 1 };
	// Both halves of each purchase at once: one execution claims the reversal and calls Refund.
	const crashing = deliverAll(ledgerUrl, transactionIds.flatMap(halvesOf), {
		...once,
		inFlight: 2 * PURCHASES,
	});
	await waitUntil(() => holds.every((hold) => hold.times === 0), {
		timeoutMs: 60_000,
		intervalMs: 100,
		what: "each purchase's Refund held by the sandbox",
	});
	const workers = [...queue.workers];
	for (const worker of workers) queue.killWorker(worker);
	for (const worker of workers) await queue.stopWorker(worker);
	await crashing;
	for (let i = 0; i < workers.length; i++) await queue.startWorker();
	sandbox.clearFaults();

	const adjustmentsOf = (/** @type {string} */ id) =>
		sandbox.state.conversions.find((c) => c.transactionId === id)?.adjustments ?? 0;
	const ids = transactionIds.map((id) => `'${id}'`).join(', ');
	const claims = () =>
		queue.postgres.query(
			`SELECT transaction_id, reversed_at IS NOT NULL, reversal_done_at IS NOT NULL FROM affiliate_tracking.purchase_claims WHERE transaction_id IN (${ids}) ORDER BY transaction_id`,
		);
	const claimedUnanswered = claims();
	const appliedAfterCrash = transactionIds.filter((id) => adjustmentsOf(id) > 0).length;

	// The provider delivers again before the bound: each answered 500, nothing reversed twice.
	const firstHalf = (/** @type {string} */ id) => halvesOf(id).slice(0, 1);
	const early = (
		await deliverAll(ledgerUrl, transactionIds.flatMap(firstHalf), { ...once, inFlight: PURCHASES })
	).deliveries;
	const heldBack = early.filter((d) => d.status === null && /^HTTP 500/.test(d.failures[0] ?? ''));
	const appliedBeforeBound = transactionIds.filter((id) => adjustmentsOf(id) > 0).length;

	// The bound passed: each claim made as long ago as the takeover waits.
	queue.postgres.query(
		`UPDATE affiliate_tracking.purchase_claims SET reversed_at = reversed_at - interval '${TAKEOVER_MINUTES + 1} minutes' WHERE transaction_id IN (${ids})`,
	);
	const late = await deliverAll(ledgerUrl, transactionIds.flatMap(firstHalf), {
		inFlight: PURCHASES,
	});
	assertAllDelivered(late.deliveries, 'deliveries after the bound');
	const statuses = late.deliveries.map(
		(d) => /** @type {{ status?: unknown }} */ (d.answer)?.status,
	);
	const reversed = transactionIds.filter((id) => adjustmentsOf(id) === 1).length;
	const done = claims().filter((row) => row.endsWith('\tt\tt')).length;
	console.log(
		`FAULT reversal-crash: ${PURCHASES} purchases, the worker of each one's Refund SIGKILLed after the claim (the request never applied: ${appliedAfterCrash} applied); before the ${TAKEOVER_MINUTES}-minute bound: ${heldBack.length} of ${PURCHASES} deliveries answered 500 (being reversed), ${appliedBeforeBound} reversed; after it: reversed ${reversed} of ${PURCHASES}, missed ${PURCHASES - reversed}, answered ${statuses.join(', ')}, marked done ${done}`,
	);
	assert.deepEqual(
		claimedUnanswered.map((row) => row.split('\t').slice(1)),
		transactionIds.map(() => ['t', 'f']),
		'each reversal claimed and never answered after the crash',
	);
	assert.equal(appliedAfterCrash, 0, 'Refunds applied although the sandbox dropped them');
	assert.equal(heldBack.length, PURCHASES, `before the bound: ${JSON.stringify(early)}`);
	assert.equal(appliedBeforeBound, 0, 'reversed before the bound');
	assert.deepEqual(
		statuses,
		transactionIds.map(() => 'APPLIED'),
		'after the bound',
	);
	assert.equal(reversed, PURCHASES, 'purchases reversed exactly once');
	assert.equal(done, PURCHASES, 'reversals marked done');
	return `${PURCHASES} claims taken over after the bound; ${workers.length} workers replaced`;
}

module.exports = { runReversalCrashRound };
