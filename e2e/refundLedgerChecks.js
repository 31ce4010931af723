// @ts-check
'use strict';
/**
 * test:e2e, example (a)'s refund ledger at its edges, through Airwallex's copies of examples (h)
 * and (a): an Airwallex refund never says whether it is whole (`refundType` null), so every one of
 * its refunds is added up in the ledger against what (h) recorded the purchase paid. Each case a
 * purchase of its own; each asserts the answers and the sandbox's Refund calls and adjustments:
 * two halves reversed, a half redelivered three times, a refund before its purchase (kept; reversed
 * by (h) when it tracks the purchase, with no redelivery), a refund larger than the payment, one in
 * another currency (refused, named). Then Stripe's shipped (a) and (h): a full refund before its
 * purchase, and refunds that pend, succeed or fail (`refund.created`, `refund.updated`,
 * `refund.failed`): only money that went back counts. Two halves at once on two workers:
 * test:queue's `REFUNDS ADD UP` (example (j)).
 */
const assert = require('node:assert/strict');

const { PRODUCTS } = require('../sandbox');
const { scenario } = require('../support/scenarios');
const {
	AMOUNT_MINOR,
	deliveriesTo,
	purchaseThroughH,
	refundOf,
} = require('./providerExampleChecks');
const { unwatchedPromoter } = require('./webhookExampleChecks');

/** The provider whose every refund goes through the ledger. */
const LEDGER_PROVIDER = /** @type {const} */ ('airwallex');
/** Purchases whose two halves are delivered at the same moment, one after another. */
const AT_ONCE_ROUNDS = 20;

/**
 * @typedef {import('./providerExampleChecks').Deliveries} Deliveries
 * @typedef {Parameters<typeof deliveriesTo>[0]} Started
 * @typedef {Record<string, any> | undefined} Answer
 */

/**
 * The edge cases, each a check.
 * @param {Started} n8n
 */
async function checkRefundLedger(n8n) {
	const { check, sandbox } = n8n;
	const half = AMOUNT_MINOR / 2;
	const stamp = Date.now().toString(36);
	let cases = 0;

	/**
	 * A new customer's purchase (tracked through (h) unless `tracked` is false), then `steps` with
	 * its transaction ID; asserts the Refund calls (`refunds` unless `calls` says) and the
	 * adjustments (`refunds`) it ends with. Through `provider`'s (a) and (h) (Airwallex's copies
	 * unless given). With `line`, prints `REFUNDS ADD UP (one process): <line>: …` with the figures.
	 * @param {string} name
	 * @param {{ tracked?: boolean, refunds: number, calls?: number, provider?: import('./providerExampleChecks').Deliveries['provider'], line?: string }} expected
	 * @param {(deliveries: Deliveries, transactionId: string, customer: string) => Promise<string>} steps
	 */
	const ledgerCase = (name, expected, steps) =>
		check(`${scenario('e2e.refundLedger')}: ${name}`, async () => {
			cases++;
			const deliveries = await deliveriesTo(n8n, expected.provider ?? LEDGER_PROVIDER);
			const [customer] = sandbox.instrumentation.addSignups(
				PRODUCTS.videomax,
				1,
				`ledger_${cases}`,
				unwatchedPromoter(sandbox),
			);
			const transactionId = `ledger_${stamp}_${cases}`;
			if (expected.tracked !== false)
				await purchaseThroughH(deliveries, sandbox, { transactionId, customer });
			const said = await steps(deliveries, transactionId, customer);
			const runs = await deliveries.finished();
			const refunds = deliveries.callsFor('/track/refund', transactionId);
			const adjustments = deliveries.conversionOf(transactionId)?.adjustments ?? 0;
			if (expected.line)
				console.log(
					`REFUNDS ADD UP (one process): ${expected.line}: reversed ${adjustments} time(s), ${expected.refunds} expected; Refund calls ${refunds}`,
				);
			assert.equal(
				refunds,
				expected.calls ?? expected.refunds,
				`Refund calls for ${transactionId}`,
			);
			assert.equal(adjustments, expected.refunds, `the sandbox's adjustments of ${transactionId}`);
			return `${said}; ${refunds} Refund call(s), ${adjustments} adjustment(s); ${runs}`;
		});

	/** @param {Answer} answer @param {string} status @param {string} what */
	const expectStatus = (answer, status, what) => {
		assert.equal(answer?.status, status, `${what}: ${JSON.stringify(answer)}`);
		return answer;
	};

	await ledgerCase('two halves in reverse order: one Refund', { refunds: 1 }, async (d, id) => {
		const second = await d.deliver('a', refundOf(LEDGER_PROVIDER, id, { half: 2 }), 'half 2');
		expectStatus(second, 'REFUND_COUNTED', 'the second half first');
		assert.equal(second?.refunded_minor, half);
		const first = await d.deliver('a', refundOf(LEDGER_PROVIDER, id, { half: 1 }), 'half 1');
		expectStatus(first, 'APPLIED', 'then the first half');
		return `half 2 → ${second?.status} (${second?.refunded_minor} of ${second?.paid_minor}), half 1 → ${first?.status}`;
	});

	await ledgerCase(
		'a half redelivered three times, then the other half: counted once, one Refund',
		{ refunds: 1 },
		async (d, id) => {
			const totals = [];
			for (let delivery = 1; delivery <= 3; delivery++) {
				const answer = await d.deliver('a', refundOf(LEDGER_PROVIDER, id, { half: 1 }), 'half 1');
				expectStatus(answer, 'REFUND_COUNTED', `half 1, delivery ${delivery}`);
				totals.push(answer?.refunded_minor);
			}
			assert.deepEqual(totals, [half, half, half], 'refunded so far after each delivery');
			assert.equal(d.callsFor('/track/refund', id), 0, 'a Refund call before the other half');
			const other = await d.deliver('a', refundOf(LEDGER_PROVIDER, id, { half: 2 }), 'half 2');
			expectStatus(other, 'APPLIED', 'the other half');
			return `half 1 ×3 → REFUND_COUNTED, refunded so far ${totals.join(', ')} of ${AMOUNT_MINOR}; half 2 → ${other?.status}`;
		},
	);

	await ledgerCase(
		'a refund before its purchase: kept, answered 200; reversed by (h) when it tracks the purchase, no redelivery',
		{
			tracked: false,
			refunds: 1,
			line: 'a part before its purchase (Airwallex), then the purchase',
		},
		async (d, id, customer) => {
			const refund = refundOf(LEDGER_PROVIDER, id, {});
			const kept = expectStatus(await d.deliver('a', refund, 'refund'), 'REFUND_COUNTED', 'unseen');
			assert.equal(kept?.paid_minor, null, 'the paid amount of a purchase never seen');
			assert.equal(d.callsFor('/track/refund', id), 0, 'a Refund call before the purchase');
			const tracked = await purchaseThroughH(d, sandbox, { transactionId: id, customer });
			assert.equal(tracked?.reversed, 'APPLIED', `(h)'s answer: ${JSON.stringify(tracked)}`);
			return `refund → ${kept?.status} (paid unknown, "${kept?.note}"); purchase through (h) → ${tracked?.status}, reversed ${tracked?.reversed}`;
		},
	);

	await ledgerCase(
		'Stripe, a full refund before its purchase: Refund finds nothing, the refund is kept; (h) reverses the purchase when it tracks it',
		{
			tracked: false,
			refunds: 1,
			calls: 2,
			provider: 'stripe',
			line: 'a full refund before its purchase (Stripe), then the purchase',
		},
		async (d, id, customer) => {
			const kept = await d.deliver('a', refundOf('stripe', id, {}), 'full refund');
			assert.deepEqual([kept?.reversed, kept?.code], [false, 1000001], JSON.stringify(kept));
			assert.match(String(kept?.note), /Kept in the refund ledger/);
			const tracked = await purchaseThroughH(d, sandbox, { transactionId: id, customer });
			assert.equal(tracked?.reversed, 'APPLIED', `(h)'s answer: ${JSON.stringify(tracked)}`);
			return `full refund → not reversed, code ${kept?.code} ("${kept?.note}"); purchase through (h) → ${tracked?.status}, reversed ${tracked?.reversed}`;
		},
	);

	/** A Stripe refund alone of the whole payment, with its status. @param {string} id @param {string} status @param {'refund.created' | 'refund.updated' | 'refund.failed'} type @param {{ half?: 1 | 2 }} [part] */
	const stripeRefund = (id, status, type, part = {}) =>
		refundOf('stripe', id, {
			...part,
			sample: { perRefund: true, refundStatus: status, refundEventType: type },
		});

	/**
	 * A pending Stripe refund (ignored: no Refund call), then its `type` event with `status`.
	 * @param {Deliveries} d @param {string} id @param {'refund.updated' | 'refund.failed'} type
	 * @param {string} status @param {string} expected (a)'s answer to the second
	 */
	const pendingThen = async (d, id, type, status, expected) => {
		const pending = await d.deliver('a', stripeRefund(id, 'pending', 'refund.created'), 'pending');
		assert.match(String(pending?.ignored), /not yet succeeded/, JSON.stringify(pending));
		assert.equal(d.callsFor('/track/refund', id), 0, 'a Refund call for a pending refund');
		const what = `${type} ${status}`;
		const then = expectStatus(
			await d.deliver('a', stripeRefund(id, status, type), what),
			expected,
			what,
		);
		return `refund.created pending → ignored, 0 Refund calls; ${what} → ${then?.status}`;
	};

	await ledgerCase(
		'Stripe, a pending refund, then refund.updated to succeeded: reversed once, not before',
		{
			refunds: 1,
			provider: 'stripe',
			line: 'a pending Stripe refund, then refund.updated to succeeded',
		},
		(d, id) => pendingThen(d, id, 'refund.updated', 'succeeded', 'APPLIED'),
	);

	await ledgerCase(
		'Stripe, a pending refund that fails: never reversed',
		{ refunds: 0, provider: 'stripe', line: 'a pending Stripe refund that fails' },
		(d, id) => pendingThen(d, id, 'refund.failed', 'failed', 'REFUND_FAILED'),
	);

	await ledgerCase(
		'Stripe, a half that succeeded then failed, then the other half: taken out of the sum, never reversed',
		{
			refunds: 0,
			provider: 'stripe',
			line: 'a Stripe half that succeeded then failed, then the other half',
		},
		async (d, id) => {
			/** @type {[string, 'refund.created' | 'refund.updated' | 'refund.failed', 1 | 2, string][]} */
			const steps = [
				['succeeded', 'refund.created', 1, 'REFUND_COUNTED'],
				['failed', 'refund.failed', 1, 'REFUND_FAILED'],
				// A late redelivery of its success changes nothing: the failure is kept apart.
				['succeeded', 'refund.updated', 1, 'REFUND_COUNTED'],
				['succeeded', 'refund.created', 2, 'REFUND_COUNTED'],
			];
			const said = [];
			/** @type {unknown[]} */
			const sums = [];
			for (const [status, type, part, expected] of steps) {
				const what = `half ${part}, ${type} ${status}`;
				const event = stripeRefund(id, status, type, { half: part });
				const answer = expectStatus(await d.deliver('a', event, what), expected, what);
				sums.push(answer?.refunded_minor);
				said.push(`${what} → ${answer?.status} (${answer?.refunded_minor})`);
			}
			assert.deepEqual(sums, [half, 0, 0, half], 'refunded so far after each');
			return `${said.join('; ')} of ${AMOUNT_MINOR}`;
		},
	);

	await ledgerCase(
		'a refund larger than the payment: one Refund',
		{ refunds: 1 },
		async (d, id) => {
			const refundedMinor = AMOUNT_MINOR + 1000;
			const answer = await d.deliver(
				'a',
				refundOf(LEDGER_PROVIDER, id, { refundedMinor }),
				'refund',
			);
			expectStatus(answer, 'APPLIED', 'a refund over the payment');
			return `${refundedMinor} refunded of ${AMOUNT_MINOR} paid → ${answer?.status}`;
		},
	);

	await ledgerCase(
		'a refund in another currency: refused, named, not counted',
		{ refunds: 0 },
		async (d, id) => {
			const other = refundOf(LEDGER_PROVIDER, id, { half: 1, currency: 'EUR', key: 'eur' });
			const refused = expectStatus(await d.deliver('a', other, 'EUR'), 'REFUND_REFUSED', 'EUR');
			assert.match(String(refused?.refused), /EUR.*USD/, 'the refusal names both currencies');
			const usd = await d.deliver('a', refundOf(LEDGER_PROVIDER, id, { half: 1 }), 'USD half');
			expectStatus(usd, 'REFUND_COUNTED', 'a USD half after the EUR one');
			assert.equal(usd?.refunded_minor, half, 'the EUR refund was counted');
			return `EUR half → ${refused?.status} ("${refused?.refused}"); a USD half then → ${usd?.status}, refunded so far ${usd?.refunded_minor} of ${AMOUNT_MINOR}`;
		},
	);
}

/**
 * AT_ONCE_ROUNDS purchases through (h), each one's two halves then delivered to (a) at the same
 * moment: two executions in one n8n process, each recording its half while the other does. Prints
 * `REFUNDS ADD UP (one process): …`; fails unless every purchase was reversed (a Refund call may
 * come twice: the service answers the second `ALREADY_PROCESSED` and applies it once).
 * @param {Started} n8n
 */
async function checkHalvesAtOnce(n8n) {
	const { check, sandbox } = n8n;
	await check(
		`${scenario('e2e.refundLedgerAtOnce')}: ${AT_ONCE_ROUNDS} purchases, each one's two halves at the same moment`,
		async () => {
			const deliveries = await deliveriesTo(n8n, LEDGER_PROVIDER);
			const stamp = Date.now().toString(36);
			const customers = sandbox.instrumentation.addSignups(
				PRODUCTS.videomax,
				AT_ONCE_ROUNDS,
				'ledger_at_once',
				unwatchedPromoter(sandbox),
			);
			/** @type {Record<string, number>} */
			const answered = {};
			const transactionIds = [];
			for (const [round, customer] of customers.entries()) {
				const transactionId = `ledger_at_once_${stamp}_${round + 1}`;
				transactionIds.push(transactionId);
				await purchaseThroughH(deliveries, sandbox, { transactionId, customer });
				const answers = await Promise.all(
					/** @type {const} */ ([1, 2]).map((half) =>
						deliveries.deliver(
							'a',
							refundOf(LEDGER_PROVIDER, transactionId, { half }),
							`half ${half}`,
						),
					),
				);
				for (const answer of answers) {
					const status = String(answer?.status);
					answered[status] = (answered[status] ?? 0) + 1;
				}
			}
			const runs = await deliveries.finished();
			const adjustmentsOf = (/** @type {string} */ id) =>
				deliveries.conversionOf(id)?.adjustments ?? 0;
			const missed = transactionIds.filter((id) => adjustmentsOf(id) === 0);
			const calls = transactionIds.reduce(
				(sum, id) => sum + deliveries.callsFor('/track/refund', id),
				0,
			);
			const adjusted = transactionIds.filter((id) => adjustmentsOf(id) === 1).length;
			const statuses = Object.entries(answered)
				.map(([status, n]) => `${status} ×${n}`)
				.join(', ');
			console.log(
				`REFUNDS ADD UP (one process): ${AT_ONCE_ROUNDS} rounds of two halves at once; missed ${missed.length} (example (a) answered ${statuses}; Refund calls ${calls}, purchases reversed once ${adjusted})`,
			);
			assert.deepEqual(missed.slice(0, 5), [], `${missed.length} purchases never reversed`);
			assert.equal(adjusted, AT_ONCE_ROUNDS, 'purchases the sandbox reversed exactly once');
			return `${calls} Refund calls for ${AT_ONCE_ROUNDS} purchases; ${runs}`;
		},
	);
}

module.exports = { checkHalvesAtOnce, checkRefundLedger };
