// @ts-check
'use strict';
/**
 * `npm run bench:signatures`: the CPU one signature check of the Payment Webhook Trigger costs,
 * per provider, on the built code (dist/): a delivery signed by the test signer (the providers'
 * own libraries where they have one), checked BENCH_CHECKS times in a row after a warm-up, in
 * BENCH_ROUNDS rounds. Prints microseconds of CPU per check (median and range of the rounds) for a
 * small sample event and for the same event padded to about 16 KB, the size of a large Stripe
 * invoice event. Fails unless every check accepts the delivery. Nothing else is asserted.
 *
 * Environment: BENCH_CHECKS (default 20000), BENCH_ROUNDS (5).
 */
const path = require('node:path');

const {
	PROVIDERS,
	encodeEvent,
	nodeParametersOf,
	sampleEvent,
	signWithTestSecret,
	testSecretsOf,
} = require('../support/payment/paymentSignatures');
const { medianAndRange } = require('../support/statistics');
const { benchSettings } = require('./settings');

const { CHECKS, ROUNDS } = benchSettings('BENCH_', { CHECKS: 20_000, ROUNDS: 5 });
const LARGE_BODY_BYTES = 16 * 1024;

/** @type {typeof import('../nodes/PaymentWebhookTrigger/signatures')} */
const { verifyDelivery } = require(
	path.join(__dirname, '..', 'dist', 'nodes', 'PaymentWebhookTrigger', 'signatures.js'),
);

/**
 * A signed delivery of a sample purchase; `padTo` pads the event's metadata to about that many
 * bytes.
 * @param {import('../support/payment/paymentSignatures').Provider} provider @param {number} [padTo]
 */
function delivery(provider, padTo) {
	const event = sampleEvent(provider, 'purchase', { transactionId: 'pi_bench_1' });
	const size = JSON.stringify(event).length;
	const padded = padTo && padTo > size ? { ...event, padding: 'x'.repeat(padTo - size) } : event;
	const { body } = encodeEvent(provider, padded);
	return {
		provider,
		rawBody: Buffer.from(body),
		headers: signWithTestSecret(provider, body),
		secrets: testSecretsOf(provider),
		settings: nodeParametersOf(provider),
		toleranceSeconds: 300,
		nowSeconds: Math.floor(Date.now() / 1000),
	};
}

/** Microseconds of CPU per check over CHECKS checks. @param {Parameters<typeof verifyDelivery>[0]} input */
function measure(input) {
	const started = process.cpuUsage();
	for (let i = 0; i < CHECKS; i++) {
		if (!verifyDelivery(input).valid)
			throw new Error(`${input.provider}: a check refused the delivery`);
	}
	const used = process.cpuUsage(started);
	return (used.user + used.system) / CHECKS;
}

function main() {
	console.log(
		`Signature checks of the Payment Webhook Trigger: ${CHECKS} checks per round, ${ROUNDS} rounds`,
	);
	for (const provider of PROVIDERS) {
		for (const padTo of [0, LARGE_BODY_BYTES]) {
			const input = delivery(provider, padTo);
			const accepted = verifyDelivery(input);
			if (!accepted.valid)
				throw new Error(`${provider}: the signed delivery was refused: ${accepted.reason}`);
			measure(input); // warm-up
			const perCheck = Array.from({ length: ROUNDS }, () => measure(input));
			console.log(
				`${provider}, ${input.rawBody.length}-byte body: ${medianAndRange(perCheck, 1)} µs CPU per check`,
			);
		}
	}
}

try {
	main();
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
}
