// @ts-check
'use strict';
/**
 * test:e2e, examples (h) and (a) for every payment provider of the registry, in a real n8n
 * (`checkProviderExamples`):
 * - each provider's signed purchases reach Track Purchase through example (h), and the sandbox
 *   records them for the sample's user; one's full refund through example (a) reaches Refund, the
 *   other's two halves (each its own refund ID) reach Refund once, with the second: where the
 *   provider states no running total, (a)'s refund ledger adds them up against what (h) recorded.
 *   One `EXAMPLES <provider>:` line each.
 * - chargebacks, for each provider whose samples hold disputes: a lost dispute reverses a purchase
 *   through example (a), with a reason that names the chargeback; a dispute opened or won makes no
 *   Refund call.
 *
 * Stripe's deliveries go to examples (a) and (h) as shipped; every other provider's to copies of
 * them with its provider, its events, its own parameters and its demo credential picked, and
 * Respond Immediately where the provider reads its own answer (Alipay's `success`). The copies are
 * imported beside the examples (`providerExampleWorkflows`) and published over n8n's REST API once
 * it serves, since a CLI publish costs seconds a copy.
 */
const assert = require('node:assert/strict');

const { example, paymentTriggerUrl, readExample } = require('../support/n8n/n8nDemoData');
const {
	DISPUTING_PROVIDERS,
	PROVIDERS,
	SAMPLES,
	disputeEvent,
	encodeEvent,
	nodeParametersOf,
	sampleEvent,
	triggerCredentialsOf,
} = require('../support/payment/paymentSignatures');
const { waitUntil } = require('../support/services/processes');
const { publishOverRest } = require('../support/n8n/publishOverRest');
const { scenario } = require('../support/scenarios');
const { PRODUCTS } = require('../sandbox');
const { paymentTriggerOf, unwatchedPromoter } = require('./webhookExampleChecks');
const {
	acceptedAnswer,
	callsNaming,
	eventsOfKind,
	executionsOf,
	postSigned,
} = require('./webhookSecurity');

/** @typedef {import('../support/payment/paymentSignatures').Provider} Provider */
/**
 * @typedef {object} Started the started n8n, signed in
 * @property {ReturnType<typeof import('./checks').createChecks>['check']} check
 * @property {string} base @property {string} cookie
 * @property {import('../sandbox').Sandbox} sandbox
 * @property {string[]} seen every text n8n gave back, scanned for the secrets at the end
 */

/** The provider examples (a) and (h) are shipped with; the others get copies. */
const SHIPPED_PROVIDER = 'stripe';
/** The events each example's trigger takes: (h) purchases, (a) refunds and lost disputes. */
const KINDS = /** @type {const} */ ({ h: 'purchase', a: 'refund' });
/** @typedef {keyof typeof KINDS} Letter */
const LETTERS = /** @type {Letter[]} */ (Object.keys(KINDS));
/** The purchase, in the smallest unit (25.90). */
const AMOUNT_MINOR = 2590;
const TIMEOUT_MS = 60_000;
/**
 * What examples (a) and (h) answer (from (a)'s last node, (h)'s Respond node) for what they pass
 * over; the trigger's own answer to an event its Events leave out starts no execution.
 */
const EXAMPLE_PASSES_OVER = /^(Partial refund|Not a paid purchase)/;
/** An execution in these states has not finished. */
const UNFINISHED = ['new', 'running', 'waiting'];

/** @param {number} n @param {string} noun @param {string} [nouns] */
const count = (n, noun, nouns = `${noun}s`) => `${n} ${n === 1 ? noun : nouns}`;

/** The provider reads its own answer (Alipay's `success`): its copies respond at once. @param {Provider} provider */
const answersAtOnce = (provider) => acceptedAnswer(provider) !== undefined;

/** Every copy: its example's letter, its provider, its workflow ID and webhook ID. */
const copies = () =>
	PROVIDERS.filter((provider) => provider !== SHIPPED_PROVIDER).flatMap((provider) =>
		LETTERS.map((letter) => ({ letter, provider, ...exampleFor(letter, provider) })),
	);

/**
 * Example `letter` for `provider` as n8n holds it: the shipped example's workflow ID and webhook
 * ID, or its copy's.
 * @param {Letter} letter @param {Provider} provider
 */
function exampleFor(letter, provider) {
	if (provider === SHIPPED_PROVIDER) {
		const shipped = example(letter);
		return { id: shipped.id, webhookId: paymentTriggerOf(readExample(shipped.file)).webhookId };
	}
	return {
		id: `e2eEx${letter.toUpperCase()}${provider.slice(0, 6)}01`,
		webhookId: `example-${letter}-${provider.toLowerCase()}`,
	};
}

/** Examples (a) and (h) with each other provider picked, to import (published later). */
function providerExampleWorkflows() {
	return copies().map(({ letter, provider, id, webhookId }) => {
		const workflow = readExample(example(letter).file);
		const trigger = paymentTriggerOf(workflow);
		trigger.webhookId = webhookId;
		trigger.parameters = {
			...trigger.parameters,
			...nodeParametersOf(provider),
			provider,
			events: eventsOfKind(provider, KINDS[letter]),
			...(answersAtOnce(provider) ? { responseMode: 'onReceived' } : {}),
		};
		trigger.credentials = triggerCredentialsOf(provider);
		workflow.name = `${workflow.name} (${provider})`;
		return { workflow, id, publish: false };
	});
}

/**
 * Publishes each copy as the editor does (its current version), then waits until n8n says each
 * one's trigger is live: n8n publishes in the background, and a probe of a webhook not yet
 * registered would leave an error in its log.
 * @param {Started} n8n
 */
async function publishCopies(n8n) {
	const ids = copies().map(({ id }) => id);
	await publishOverRest(n8n, ids);
	return ids.length;
}

/**
 * Signed deliveries of `provider` to examples (a) and (h) as n8n holds them, and what they left:
 * the sandbox's calls and conversions, the executions they started.
 * @param {Started} n8n @param {Provider} provider
 */
async function deliveriesTo(n8n, provider) {
	const { base, sandbox, seen } = n8n;
	const atOnce = acceptedAnswer(provider);
	const workflowIds = LETTERS.map((letter) => exampleFor(letter, provider).id);
	const listed = async () =>
		(await Promise.all(workflowIds.map((id) => executionsOf(n8n, id)))).flat();
	const before = new Set((await listed()).map((execution) => execution.id));
	/** What each delivery was answered. @type {string[]} */
	const answers = [];
	/** How many deliveries started an execution. */
	let started = 0;
	return {
		provider,
		answers,
		/**
		 * An event posted signed to example `letter`: its JSON answer, or nothing when the
		 * provider was answered its own text (Alipay's `success`) before the workflow ran.
		 * @param {Letter} letter @param {Record<string, unknown>} event @param {string} what
		 * @returns {Promise<Record<string, any> | undefined>}
		 */
		async deliver(letter, event, what) {
			const { webhookId } = exampleFor(letter, provider);
			const url = paymentTriggerUrl(base, webhookId);
			const answer = await postSigned(url, provider, encodeEvent(provider, event).body, seen);
			assert.equal(answer.status, 200, `${what} via (${letter}): ${answer.status} ${answer.text}`);
			if (atOnce !== undefined) {
				// Its answer does not say; these samples' events are all among its copies' Events.
				started++;
				assert.equal(answer.text, atOnce.body, `${what} via (${letter}): the answer`);
				answers.push(`${what} ${answer.status} ${answer.text}`);
				return undefined;
			}
			const json = JSON.parse(answer.text);
			const ran = typeof json.ignored !== 'string' || EXAMPLE_PASSES_OVER.test(json.ignored);
			if (ran) started++;
			answers.push(`${what} ${answer.status} ${json.status ?? (ran ? 'ignored' : 'not selected')}`);
			return json;
		},
		/**
		 * Where the workflow runs after the answer, waits until `probe` holds.
		 * @param {() => boolean} probe @param {string} what
		 */
		async settled(probe, what) {
			if (atOnce !== undefined)
				await waitUntil(probe, { timeoutMs: TIMEOUT_MS, intervalMs: 100, what });
		},
		/** Calls at the sandbox's `route` that name `id`. @param {string} route @param {string} id */
		callsFor: (route, id) => callsNaming(sandbox, route, id),
		/** @param {string} id */
		conversionOf: (id) => sandbox.state.conversions.find((c) => c.transactionId === id),
		/**
		 * Waits until every execution the deliveries started has finished (nothing more can reach
		 * the sandbox), and asserts each one succeeded; says how many.
		 */
		async finished() {
			/** @type {Awaited<ReturnType<typeof listed>>} */
			let runs = [];
			const statuses = () => runs.map((run) => `${run.id} ${run.status}`).join(', ');
			await waitUntil(
				async () => {
					runs = (await listed()).filter((execution) => !before.has(execution.id));
					return runs.length >= started && runs.every((run) => !UNFINISHED.includes(run.status));
				},
				{
					timeoutMs: TIMEOUT_MS,
					intervalMs: 100,
					what: `${started} finished executions of ${workflowIds.join(' and ')}`,
					detail: statuses,
				},
			);
			const succeeded = runs.filter((run) => run.status === 'success').length;
			const said = `${count(answers.length, 'delivery', 'deliveries')}, ${count(runs.length, 'execution')}, ${succeeded} succeeded`;
			assert.equal(runs.length, started, `${said}: ${started} expected`);
			assert.equal(succeeded, runs.length, statuses());
			return `${said}${atOnce ? `, each answered ${JSON.stringify(atOnce.body)}` : ''}`;
		},
	};
}

/**
 * A provider's purchase through example (h) refunded in full through (a), then another refunded in
 * two halves; prints the `EXAMPLES` line, returns what each delivery was answered.
 * @param {Started} n8n @param {Provider} provider
 */
async function throughExamples(n8n, provider) {
	const { sandbox } = n8n;
	const deliveries = await deliveriesTo(n8n, provider);
	const { answers, deliver, settled, callsFor, conversionOf, finished } = deliveries;
	const customers = sandbox.instrumentation.addSignups(
		PRODUCTS.videomax,
		2,
		`examples_${provider}`,
		unwatchedPromoter(sandbox),
	);
	const stamp = Date.now().toString(36);
	const [full, halves] = await Promise.all(
		customers.map(async (customer, index) => {
			const transactionId = `examples_${provider}_${stamp}_${index + 1}`;
			await purchaseThroughH(deliveries, sandbox, { transactionId, customer });
			return transactionId;
		}),
	);
	const conversions = [full, halves].map((id) => /** @type {Conversion} */ (conversionOf(id)));
	const amount = (conversions[0].valueCents / 100).toFixed(2);

	// The whole amount in one refund: full where the provider says so, else (Airwallex) added up
	// in example (a)'s refund ledger against what (h) recorded the purchase paid.
	const whole = await deliver('a', refundOf(provider, full, {}), 'full');
	if (whole) assert.deepEqual([whole.status, whole.transaction_id], ['APPLIED', full], 'full');
	await settled(() => conversions[0].adjustments > 0, `${full} refunded`);

	// Two halves, each with its own refund ID; the running total reaches the payment with the second.
	const half = AMOUNT_MINOR / 2;
	const first = await deliver('a', refundOf(provider, halves, { half: 1 }), 'first half');
	const firstAnswer = first ? (first.status ?? 'ignored') : 'answered at once';
	if (first) assert.notEqual(first.status, 'APPLIED', `first half: ${JSON.stringify(first)}`);
	await finished();
	const afterFirst = callsFor('/track/refund', halves);
	assert.equal(afterFirst, 0, `${provider}: the first half alone made ${afterFirst} Refund calls`);
	const second = await deliver('a', refundOf(provider, halves, { half: 2 }), 'second half');
	if (second) assert.equal(second.status, 'APPLIED', `second half: ${JSON.stringify(second)}`);
	await settled(() => conversions[1].adjustments > 0, `${halves} refunded`);
	const runs = await finished();

	const [tracks, refunds] = [full, halves].map((id) => [
		callsFor('/track/conversion', id),
		callsFor('/track/refund', id),
	]);
	const adjustments = conversions.map((c) => c.adjustments);
	const via = SAMPLES[provider].refundSizeUnsaid ? ' through the ledger (refundType null)' : '';
	console.log(
		`EXAMPLES ${provider}: purchases via (h) recorded (${count(2, 'conversion')} of ${amount}, ${count(tracks[0] + tracks[1], 'Track Purchase call')})` +
			`; full refund via (a) applied${via} (${count(refunds[0], 'Refund call')}, ${count(adjustments[0], 'adjustment')})` +
			`; two halves via (a) reversed once (first half ${(half / 100).toFixed(2)}: ${firstAnswer}, ${count(afterFirst, 'Refund call')}; then ${count(refunds[1], 'Refund call')}, ${count(adjustments[1], 'adjustment')}); ${runs}`,
	);
	assert.deepEqual(tracks, [1, 1], 'Track Purchase calls');
	assert.deepEqual(refunds, [1, 1], `Refund calls for ${full} and ${halves}`);
	assert.deepEqual(adjustments, [1, 1], `the sandbox's adjustments of ${full} and ${halves}`);
	return answers.join(', ');
}

/** @typedef {NonNullable<ReturnType<Deliveries['conversionOf']>>} Conversion */

/**
 * A signed purchase of `customer` through example (h), and the sandbox's record of it checked;
 * returns (h)'s answer.
 * @param {Deliveries} deliveries @param {import('../sandbox').Sandbox} sandbox
 * @param {{ transactionId: string, customer: string }} purchase of AMOUNT_MINOR
 */
async function purchaseThroughH(deliveries, sandbox, { transactionId, customer }) {
	const { provider, deliver, settled, conversionOf } = deliveries;
	// `checkout`: Stripe's example (h) takes checkout.session.completed; other samples ignore it.
	const fields = { transactionId, userId: customer, amountMinor: AMOUNT_MINOR, checkout: true };
	const event = sampleEvent(provider, 'purchase', fields);
	const tracked = await deliver('h', event, `purchase ${transactionId}`);
	if (tracked) assert.equal(tracked.status, 'TRACKED', JSON.stringify(tracked));
	await settled(() => conversionOf(transactionId) !== undefined, `${transactionId} tracked`);
	const recorded = sandbox.state.conversions.filter((c) => c.transactionId === transactionId);
	assert.deepEqual(
		recorded.map((c) => [c.eventName, c.invitedUserId, c.valueCents]),
		[['purchase', customer, AMOUNT_MINOR]],
		`the sandbox's conversions for ${transactionId}`,
	);
	return tracked;
}

/**
 * A refund event of `provider` for `transactionId` (paid AMOUNT_MINOR): the whole amount, or one
 * half of two (`half`: 1 or 2, each its own refund ID, the running total reaching the payment with
 * the second); `refundedMinor` and `currency` override; `sample` adds the sample's own fields (a
 * Stripe refund alone, pending or failed).
 * @param {Provider} provider @param {string} transactionId
 * @param {{ half?: 1 | 2, refundedMinor?: number, currency?: string, key?: string, sample?: Partial<import('../support/payment/signer').SampleFields> }} options
 */
function refundOf(provider, transactionId, { half, refundedMinor, currency, key, sample }) {
	const halfMinor = AMOUNT_MINOR / 2;
	const thisRefund = refundedMinor ?? (half ? halfMinor : AMOUNT_MINOR);
	const name = key ?? (half ? `half${half}` : 'full');
	return sampleEvent(provider, 'refund', {
		transactionId,
		amountMinor: AMOUNT_MINOR,
		refundedMinor: thisRefund,
		refundedTotalMinor: half ? halfMinor * half : thisRefund,
		...(currency ? { currency } : {}),
		refundKey: `${transactionId}_${name}`,
		// Each status of a refund is an event of its own.
		eventId: `evt_${name}${sample ? `_${sample.refundEventType}_${sample.refundStatus}` : ''}_${transactionId}`,
		...sample,
	});
}

/**
 * Three purchases of other users through `provider`'s example (a): one's dispute lost (a
 * chargeback, reversed), one's won and one's opened (no Refund call).
 * @param {Started} n8n @param {Provider} provider
 */
async function chargebacksThroughA(n8n, provider) {
	const { sandbox } = n8n;
	const { deliver, settled, callsFor, conversionOf, finished } = await deliveriesTo(n8n, provider);
	const [lost, won, opened] = sandbox.instrumentation.addPurchases(
		PRODUCTS.videomax,
		3,
		`chargeback_${provider}`,
		unwatchedPromoter(sandbox),
	);
	for (const [id, outcome] of /** @type {const} */ ([
		[lost, 'lost'],
		[won, 'won'],
		[opened, 'opened'],
	])) {
		const event = disputeEvent(provider, outcome, { transactionId: id });
		const answer = await deliver('a', event, outcome);
		if (answer && outcome === 'lost')
			assert.deepEqual([answer.status, answer.transaction_id], ['APPLIED', lost], 'lost');
		if (answer && outcome !== 'lost') assert.equal(answer.status, undefined, outcome);
	}
	await settled(() => (conversionOf(lost)?.adjustments ?? 0) > 0, `${lost} reversed`);
	const runs = await finished();
	const reason = conversionOf(lost)?.reason;
	assert.match(String(reason), /chargeback/);
	assert.equal(conversionOf(lost)?.adjustments, 1, `${lost} not reversed once`);
	for (const id of [won, opened])
		assert.equal(conversionOf(id)?.adjustments, 0, `${provider}: ${id} was reversed`);
	const calls = [lost, won, opened].reduce((sum, id) => sum + callsFor('/track/refund', id), 0);
	assert.equal(calls, 1, `${provider}: ${calls} refund calls for one lost dispute`);
	return `${provider}: lost → APPLIED (reason "${reason}"), won and opened → 200, ${count(calls, 'Refund call')}; ${runs}`;
}

/**
 * The copies published, then each provider's deliveries through examples (h) and (a), then the
 * chargebacks.
 * @param {Started} n8n
 */
async function checkProviderExamples(n8n) {
	const { check } = n8n;
	await check(
		`examples (a) and (h) with each other provider picked, published over n8n's REST API`,
		async () => `${await publishCopies(n8n)} copies, each "published" in n8n's publication status`,
	);
	for (const provider of PROVIDERS)
		await check(`${scenario('e2e.providerExamples')}: ${provider}`, () =>
			throughExamples(n8n, provider),
		);
	await check(scenario('e2e.chargebacks'), async () => {
		const lines = [];
		for (const provider of DISPUTING_PROVIDERS)
			lines.push(await chargebacksThroughA(n8n, provider));
		return lines.join('; ');
	});
}

/** @typedef {Awaited<ReturnType<typeof deliveriesTo>>} Deliveries */

module.exports = {
	AMOUNT_MINOR,
	checkProviderExamples,
	deliveriesTo,
	providerExampleWorkflows,
	purchaseThroughH,
	refundOf,
};
