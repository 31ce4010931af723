// @ts-check
'use strict';
/**
 * The refund-ledger rounds of `npm run test:queue`: purchases tracked through example (i), which
 * records what each paid, then each refunded in two halves (Stripe `refund.created`, each its own
 * refund ID, no running total) delivered at the same moment to example (j), whose PostgreSQL
 * ledger must reverse each purchase exactly once; then one purchase whose Refund the service
 * refuses, which (j) must release for the retry; then refunds that reach (j) before their purchase
 * reaches (i), which reverses it when it tracks it. Prints `REFUNDS ADD UP …`.
 */
const assert = require('node:assert/strict');

const {
	paymentTriggerUrl,
	publishableExample,
	setUpSqlOf,
} = require('../../support/n8n/n8nDemoData');
const {
	assertAllDelivered,
	creditProvenFallbacks,
	settledExecutionsSince,
} = require('./faultRounds');
const { CLAIM_TABLE_SQL, PURCHASE_WORKFLOWS } = require('./purchaseRounds');
const {
	PURCHASE_MINOR,
	deliverAll,
	planDuplicatedPurchases,
} = require('../../support/payment/paymentProvider');
const { disputeEvent, sampleEvent } = require('../../support/payment/paymentSignatures');
const { callsNaming } = require('../webhookSecurity');

/** What (j) stops with when another execution's reversal has not been answered yet. */
const BEING_REVERSED = 'Another execution is reversing';
/** Rounds of two halves at once (the issue asks for at least 20), and one whose Refund fails. */
const ROUNDS = 20;
/** Example (j), the refund ledger in PostgreSQL, as test:queue publishes it. */
const LEDGER_WORKFLOW = publishableExample('j-refund-ledger-queue-mode.json', 'exRefundLedger01');
/** The SQL example (j) tells users to run once, after (i)'s. */
const LEDGER_TABLE_SQL = setUpSqlOf(LEDGER_WORKFLOW.workflow);

/**
 * @typedef {Awaited<ReturnType<typeof import('../../support/n8n/queueDeployment').startQueueDeployment>>} Deployment
 * @typedef {import('../../sandbox').Sandbox} Sandbox
 */

/**
 * `ROUNDS` purchases through (i), then, round by round, each one's two halves to (j) at once.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} product
 * @param {Set<string>} allRefundIds every transaction a round so far meant to refund (these are added)
 */
async function runRefundsAddUpRounds(queue, sandbox, product, allRefundIds) {
	queue.postgres.query(CLAIM_TABLE_SQL);
	queue.postgres.query(LEDGER_TABLE_SQL);
	const claim = PURCHASE_WORKFLOWS[0];
	const prefix = `halves${Date.now().toString(36)}`;
	// One delivery of each: the claim's own rounds test the second.
	const [{ transactionIds, events }] = planDuplicatedPurchases(sandbox.instrumentation, product, {
		urls: [paymentTriggerUrl(queue.webhookBase, claim.webhookId)],
		purchases: ROUNDS + 4,
		prefix,
	}).targets;
	// One purchase is tracked with its answer lost: (i) keeps its claim as unknown; the last two are
	// refunded before they are tracked.
	const unknown = { transactionId: transactionIds[ROUNDS + 1], event: events[ROUNDS + 1] };
	const early = [ROUNDS + 2, ROUNDS + 3].map((at) => ({
		transactionId: transactionIds[at],
		event: events[at],
	}));
	transactionIds.splice(ROUNDS + 1);
	events.splice(ROUNDS + 1);
	for (const id of transactionIds) allRefundIds.add(id);
	const purchases = await deliverAll('', events, { inFlight: 5 });
	creditProvenFallbacks(queue.postgres, [claim.id], purchases.deliveries);
	assertAllDelivered(purchases.deliveries, 'purchase deliveries to example (i)');
	const paid = queue.postgres.query(
		`SELECT count(*) FROM affiliate_tracking.purchase_claims WHERE transaction_id LIKE '${prefix}_%' AND status = 'tracked' AND paid_minor = ${PURCHASE_MINOR} AND currency = 'USD'`,
	);
	assert.deepEqual(
		paid,
		[String(ROUNDS + 1)],
		`purchases example (i) recorded as paid ${PURCHASE_MINOR} USD`,
	);

	const ledgerUrl = paymentTriggerUrl(queue.webhookBase, LEDGER_WORKFLOW.webhookId);
	const since = Date.now();
	/** @type {Record<string, number>} */
	const answers = {};
	/** Answers that said the refunds do not add up yet while the sum they gave did. */
	const contradictions = [];
	const [failing, ...rounds] = transactionIds;
	for (const transactionId of rounds) {
		// Both in flight at once: the main queues both jobs, and the two workers take them.
		const delivered = await deliverAll(ledgerUrl, halvesOf(transactionId), { inFlight: 2 });
		creditProvenFallbacks(queue.postgres, [LEDGER_WORKFLOW.id], delivered.deliveries);
		assertAllDelivered(delivered.deliveries, `the halves of ${transactionId}`);
		for (const { answer } of delivered.deliveries) {
			const said =
				/** @type {{ status?: unknown, refunded_minor?: number, paid_minor?: number | null }} */ (
					answer
				);
			const status = String(said.status);
			answers[status] = (answers[status] ?? 0) + 1;
			const { refunded_minor: refunded = 0, paid_minor: paid = null } = said;
			if (status === 'REFUND_COUNTED' && paid !== null && refunded >= paid)
				contradictions.push(`${transactionId}: ${JSON.stringify(answer)}`);
		}
	}
	const { count } = await settledExecutionsSince(queue, LEDGER_WORKFLOW.id, since, 'the halves');
	// The one that lost the race, while the other's Refund was on its way: answered 500, delivered again.
	const heldBack = count(
		`status = 'error' AND id IN (SELECT "executionId" FROM execution_data WHERE data LIKE '%${BEING_REVERSED}%')`,
	);
	const failed = count("status <> 'success'") - heldBack;
	const released = await failedRefundReleased(queue, sandbox, ledgerUrl, failing);
	const lostAnswer = await unknownOutcomeReversed(queue, sandbox, ledgerUrl, unknown);
	allRefundIds.add(unknown.transactionId);
	for (const { transactionId } of early) allRefundIds.add(transactionId);
	const refundedFirst = await refundsBeforePurchases(sandbox, ledgerUrl, early);
	/** This run's executions of (j), as table `t`. @param {string} t */
	const ofTheRounds = (t) =>
		`${t}."workflowId" = '${LEDGER_WORKFLOW.id}' AND ${t}."createdAt" >= to_timestamp(${since / 1000})`;
	// Rounds run one after the other, so overlapping pairs are executions of one round (a half
	// answered 500 and delivered again can make a round more than one pair).
	const [overlapping] = queue.postgres.query(
		`SELECT count(*) FROM execution_entity a JOIN execution_entity b ON a.id < b.id
		 WHERE ${ofTheRounds('a')} AND ${ofTheRounds('b')}
		   AND a."startedAt" < b."stoppedAt" AND b."startedAt" < a."stoppedAt"`,
	);

	const refundCalls = rounds.map((id) => callsNaming(sandbox, '/track/refund', id));
	const adjustments = rounds.map(
		(id) => sandbox.state.conversions.find((c) => c.transactionId === id)?.adjustments ?? 0,
	);
	const doubles = refundCalls.filter((calls) => calls > 1).length;
	const missed = adjustments.filter((n) => n === 0).length;
	const answered = Object.entries(answers)
		.map(([status, n]) => `${status} ×${n}`)
		.join(', ');
	console.log(
		`REFUNDS ADD UP: ${ROUNDS} rounds of two halves at once; ${doubles} double reversals, ${missed} missed (example (j) answered ${answered}; Refund calls ${refundCalls.reduce((a, b) => a + b, 0)}, adjustments ${adjustments.reduce((a, b) => a + b, 0)}; pairs of executions that overlapped: ${overlapping}; answered 500 while the other reversed, then delivered again: ${heldBack}; other executions failed ${failed}; answers saying "not yet" of a sum that adds up: ${contradictions.length}); ${released}; ${lostAnswer}; ${refundedFirst}`,
	);
	assert.deepEqual(
		contradictions.slice(0, 3),
		[],
		'REFUND_COUNTED answered with a sum that adds up',
	);
	assert.equal(doubles, 0, `purchases reversed twice: ${refundCalls.join(', ')}`);
	assert.equal(missed, 0, `purchases never reversed: ${adjustments.join(', ')}`);
	assert.deepEqual(
		adjustments,
		rounds.map(() => 1),
		"the sandbox's adjustments per purchase",
	);
	assert.equal(failed, 0, 'executions of example (j) that failed');
	return `${ROUNDS + 1} purchases tracked through (i) with what they paid; ${ROUNDS * 2} halves to (j) at once, each purchase reversed once; ${released}; ${lostAnswer}; ${refundedFirst}`;
}

/**
 * A purchase whose Track Purchase answer is lost (the service records it, then the connection
 * drops): (i) keeps its claim as `unknown`, with what it paid, and answers 500; the provider's
 * retry is answered `OUTCOME_UNKNOWN`. Its two halves then reach (j) at once and reverse it once.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} ledgerUrl
 * @param {{ transactionId: string, event: import('../../support/payment/paymentProvider').WebhookEvent }} purchase
 */
async function unknownOutcomeReversed(queue, sandbox, ledgerUrl, { transactionId, event }) {
	sandbox.addFault({
		kind: 'drop',
		match: 'conversion',
		when: 'after',
		requestContains: transactionId,
		times: 1,
	});
	const tracked = (await deliverAll('', [event], { inFlight: 1 })).deliveries[0];
	sandbox.clearFaults();
	const [claim] = queue.postgres.query(
		`SELECT status, paid_minor, currency FROM affiliate_tracking.purchase_claims WHERE transaction_id = '${transactionId}'`,
	);
	const halves = await deliverAll(ledgerUrl, halvesOf(transactionId), { inFlight: 2 });
	assertAllDelivered(halves.deliveries, `the halves of ${transactionId}`);
	const conversion = sandbox.state.conversions.find((c) => c.transactionId === transactionId);
	const status = /** @type {{ status?: unknown }} */ (tracked.answer)?.status;
	assert.match(
		tracked.failures[0] ?? '',
		/^HTTP 500/,
		`the lost answer: ${JSON.stringify(tracked)}`,
	);
	assert.equal(status, 'OUTCOME_UNKNOWN', `the retry: ${JSON.stringify(tracked)}`);
	assert.equal(claim, `unknown\t${PURCHASE_MINOR}\tUSD`, 'the unknown claim records what it paid');
	assert.equal(conversion?.adjustments, 1, `adjustments of ${transactionId}`);
	return `a purchase whose tracking answer was lost: claim unknown, paid ${PURCHASE_MINOR} USD recorded, its two halves reversed it once`;
}

/**
 * Two purchases refunded before they are tracked: one's two halves, the other's lost dispute (a
 * full reversal, which Refund cannot find yet) reach (j) first and are kept; then both purchases
 * reach (i) at once, which reverses each when it records it: no refund is delivered again.
 * @param {Sandbox} sandbox @param {string} ledgerUrl
 * @param {{ transactionId: string, event: import('../../support/payment/paymentProvider').WebhookEvent }[]} purchases
 */
async function refundsBeforePurchases(sandbox, ledgerUrl, purchases) {
	const [halved, disputed] = purchases;
	const statusOf = (/** @type {{ answer: unknown }} */ delivery) =>
		/** @type {{ status?: unknown, reversed?: unknown, code?: unknown }} */ (delivery.answer);
	const halves = await deliverAll(ledgerUrl, halvesOf(halved.transactionId), { inFlight: 2 });
	assertAllDelivered(halves.deliveries, `the halves of ${halved.transactionId}, before it`);
	const dispute = {
		id: `evt_dispute_lost_${disputed.transactionId}`,
		body: disputeEvent('stripe', 'lost', { transactionId: disputed.transactionId }),
	};
	const [lost] = (await deliverAll(ledgerUrl, [dispute], { inFlight: 1 })).deliveries;
	assertAllDelivered([lost], `the lost dispute of ${disputed.transactionId}, before it`);
	const calls = () =>
		purchases.map(({ transactionId }) => callsNaming(sandbox, '/track/refund', transactionId));
	const callsBefore = calls();
	const tracked = await deliverAll('', [halved.event, disputed.event], { inFlight: 2 });
	assertAllDelivered(tracked.deliveries, 'the purchases, after their refunds');
	const adjustments = purchases.map(
		({ transactionId }) =>
			sandbox.state.conversions.find((c) => c.transactionId === transactionId)?.adjustments ?? 0,
	);
	assert.deepEqual(
		halves.deliveries.map((d) => statusOf(d)?.status),
		['REFUND_COUNTED', 'REFUND_COUNTED'],
		'the halves, before their purchase',
	);
	assert.deepEqual(
		[statusOf(lost)?.reversed, statusOf(lost)?.code],
		[false, 1000001],
		'the lost dispute, before its purchase',
	);
	assert.deepEqual(callsBefore, [0, 1], 'Refund calls before the purchases');
	assert.deepEqual(
		tracked.deliveries.map((d) => [statusOf(d)?.status, statusOf(d)?.reversed]),
		[
			['TRACKED', 'APPLIED'],
			['TRACKED', 'APPLIED'],
		],
		"example (i)'s answers",
	);
	assert.deepEqual(adjustments, [1, 1], 'adjustments of the purchases refunded first');
	return `2 purchases refunded before they were tracked (two halves; a lost dispute, Refund answering 1000001): kept by (j), each reversed once by (i) when it tracked it (Refund calls ${calls().join(' and ')}, adjustments ${adjustments.join(' and ')})`;
}

/**
 * Stripe's `refund.created` for each half of `transactionId`, each its own refund ID.
 * @param {string} transactionId
 */
function halvesOf(transactionId) {
	return [1, 2].map((half) => {
		const refundKey = `${transactionId}_${half}`;
		const fields = {
			transactionId,
			amountMinor: PURCHASE_MINOR,
			refundedMinor: PURCHASE_MINOR / 2,
			perRefund: true,
			refundKey,
			eventId: `evt_refund_${refundKey}`,
		};
		return { id: `evt_refund_${refundKey}`, body: sampleEvent('stripe', 'refund', fields) };
	});
}

/**
 * The halves of `transactionId` one after the other while the service refuses its Refund (its
 * conversion voided: code 6000000): (j) must answer 500 and release the reversal, so that the
 * provider's retry, once Refund works, reverses the purchase once.
 * @param {Deployment} queue @param {Sandbox} sandbox @param {string} ledgerUrl
 * @param {string} transactionId
 */
async function failedRefundReleased(queue, sandbox, ledgerUrl, transactionId) {
	const conversion = sandbox.state.conversions.find((c) => c.transactionId === transactionId);
	assert.ok(conversion, `the sandbox has no conversion ${transactionId}`);
	const [first, second] = halvesOf(transactionId);
	conversion.voided = true;
	const once = { inFlight: 1, maxAttempts: 1 };
	const counted = (await deliverAll(ledgerUrl, [first], once)).deliveries[0];
	const refused = (await deliverAll(ledgerUrl, [second], once)).deliveries[0];
	const reversedAt = queue.postgres.query(
		`SELECT coalesce(reversed_at::text, 'empty') FROM affiliate_tracking.purchase_claims WHERE transaction_id = '${transactionId}'`,
	);
	conversion.voided = false;
	const retried = (await deliverAll(ledgerUrl, [second], once)).deliveries[0];
	const statusOf = (/** @type {{ answer: unknown }} */ delivery) =>
		String(/** @type {{ status?: unknown }} */ (delivery.answer)?.status);
	assert.equal(statusOf(counted), 'REFUND_COUNTED', `the first half: ${JSON.stringify(counted)}`);
	// One attempt only: its failure is the answer it got (the sender would retry it later).
	assert.equal(refused.status, null, `the second half, Refund refused: ${JSON.stringify(refused)}`);
	assert.match(refused.failures[0], /^HTTP 500/, 'the second half, Refund refused');
	assert.deepEqual(reversedAt, ['empty'], 'reversed_at after the failed Refund');
	assert.equal(retried.status, 200, `the retry: ${JSON.stringify(retried)}`);
	assert.equal(statusOf(retried), 'APPLIED', `the retry: ${JSON.stringify(retried)}`);
	assert.equal(conversion.adjustments, 1, `adjustments of ${transactionId}`);
	return `a Refund refused (code 6000000): 500, reversal released, the retry APPLIED, 1 adjustment`;
}

module.exports = { LEDGER_TABLE_SQL, LEDGER_WORKFLOW, halvesOf, runRefundsAddUpRounds };
