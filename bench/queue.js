// @ts-check
'use strict';
/**
 * `npm run bench:queue`: refund webhooks through n8n's queue mode (the deployment of
 * `npm run test:queue`: PostgreSQL, Redis, main, workers, the package installed from a local
 * registry), without a worker killed. Three workflows get the same full refunds (each a purchase
 * seeded for it): example (a) with our node; the hand-built refund (a Code node signing v2 in
 * n8n's task runner, an HTTP Request node, an If node: bench/queueWorkflows.js); and the
 * baseline, example (a) with a Set node giving Refund's answer. They run interleaved, for 2
 * workers, then 1 (the second stopped gracefully): each round gives every workflow the same
 * number of deliveries in blocks taken in turn, node, hand-built, baseline, then baseline,
 * hand-built, node, and so on, so that the machine's other load falls on the three alike. A
 * workflow's increment is a worker's CPU per delivery minus the baseline's in the same round;
 * printed: the table, each increment, and the node's increment over the hand-built's (median and
 * range over the rounds). Every delivery of the node and the hand-built must answer 2xx at the
 * first attempt with APPLIED, and the sandbox's refund ledger must show each of their
 * transactions refunded exactly once; otherwise the run fails. Nothing else is asserted. A fourth
 * workflow, example (a) behind n8n's plain Webhook node (bench/queueWorkflows.js), runs in the same
 * blocks: the main's CPU per delivery behind each (bench/RESULTS.md says where the difference
 * comes from).
 *
 * Environment: BENCH_QUEUE_DELIVERIES (default 1000 per workflow and worker count),
 * BENCH_QUEUE_ROUND (200 per workflow and round), BENCH_QUEUE_BLOCK (50), BENCH_QUEUE_WORKERS
 * ("2,1"), BENCH_QUEUE_IN_FLIGHT (20).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { N8N_VERSION } = require('../support/n8n/n8nInstance');
const { DEMO_KEY } = require('../support/n8n/n8nDemoData');
const { deliverAll, planFullRefunds } = require('../support/payment/paymentProvider');
const { sleep } = require('../support/services/processes');
const { WORKER_CONCURRENCY, startQueueDeployment } = require('../support/n8n/queueDeployment');
const { Sandbox, KEYS } = require('../sandbox');
const { baselineWorkflow, handBuiltWorkflow, unverifiedWorkflow } = require('./queueWorkflows');
const { benchSettings } = require('./settings');
const { medianAndRange, percentile, ratioLine } = require('../support/statistics');

const {
	DELIVERIES,
	ROUND,
	BLOCK,
	WORKERS: WORKER_COUNTS,
	IN_FLIGHT,
} = benchSettings('BENCH_QUEUE_', {
	DELIVERIES: 1000,
	ROUND: 200,
	BLOCK: 50,
	WORKERS: [2, 1],
	IN_FLIGHT: 20,
});
const ROUNDS = Math.ceil(DELIVERIES / ROUND);
const WARM_UP = 100;
/** After each block, before CPU is read: the workers finish saving its executions. */
const SETTLE_MS = 1000;

/** @param {number} value @param {number} [digits] */
const fmt = (value, digits = 1) => value.toFixed(digits);
const sum = (/** @type {number[]} */ values) => values.reduce((total, x) => total + x, 0);

/**
 * @typedef {{ key: 'node' | 'handBuilt' | 'baseline' | 'unverified', name: string, url: string, sendsRefunds: boolean, check: { deliveries: number, bad: string[], transactions: string[] } }} Variant
 * @typedef {{ deliveries: number, elapsedMs: number, latencies: number[], main: number, workers: number, postgres: number, redis: number, own: number, retried: number }} Part
 *   one or more blocks of a workflow; CPU in seconds (own: this process's, sandbox and provider)
 */

async function main() {
	const started = Date.now();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-bench-'));
	const sandbox = new Sandbox({ port: 0, logLimit: 0 });
	await sandbox.start();
	const product = KEYS[DEMO_KEY].product;
	let batch = 0;
	/** @param {number} count */
	const fullRefunds = (count) =>
		planFullRefunds(sandbox.instrumentation, product, count, `bench${++batch}`);
	const handBuilt = handBuiltWorkflow({
		sandboxUrl: sandbox.url,
		apiKey: DEMO_KEY,
		secret: KEYS[DEMO_KEY].secret,
	});
	const deployment = await startQueueDeployment({
		folder,
		workers: Math.max(...WORKER_COUNTS),
		sandboxUrl: sandbox.url,
		log: (line) => console.log(line),
		extraWorkflows: [handBuilt, baselineWorkflow(), unverifiedWorkflow()],
		// The hand-built Code node's require('crypto'): a user of that workflow sets this too.
		extraEnvironment: { NODE_FUNCTION_ALLOW_BUILTIN: 'crypto' },
	});
	const urls = [deployment.webhookUrl, ...deployment.extraWebhookUrls];
	/** @type {Variant[]} the workflows, in the order of their webhooks' URLs */
	const variants = [
		['node', 'example (a): Affiliate Tracking node', true],
		['handBuilt', 'hand-built: Code node (v2 signature) + HTTP Request + If', true],
		['baseline', 'baseline: Set node (signs and sends nothing)', false],
		['unverified', 'example (a) behind the plain Webhook node (no signature check)', true],
	].map(([key, name, sendsRefunds], i) => ({
		key: /** @type {Variant['key']} */ (key),
		name: String(name),
		url: urls[i],
		sendsRefunds: Boolean(sendsRefunds),
		// The checks of every delivery: answered, transactions in the ledger.
		check: { deliveries: 0, bad: [], transactions: [] },
	}));
	/**
	 * One block of one workflow: deliver, let the workers settle, read CPU; check every answer.
	 * @param {Variant} variant @param {number} count @returns {Promise<Part>}
	 */
	const runBlock = async (variant, count) => {
		const storm = fullRefunds(count);
		const before = deployment.cpuSeconds();
		const ownBefore = process.cpuUsage();
		const result = await deliverAll(variant.url, storm.events, { inFlight: IN_FLIGHT });
		await sleep(SETTLE_MS);
		const after = deployment.cpuSeconds();
		const own = process.cpuUsage(ownBefore);
		const { check } = variant;
		check.deliveries += result.deliveries.length;
		check.transactions.push(...storm.refundIds);
		for (const delivery of result.deliveries) {
			const answer = /** @type {{ status?: string, transaction_id?: string } | null} */ (
				delivery.answer
			);
			const transactionId = delivery.id.replace(/^evt_/, '');
			if (
				delivery.status === null ||
				delivery.attempts > 1 ||
				answer?.status !== 'APPLIED' ||
				answer.transaction_id !== transactionId
			) {
				const line = `${delivery.id}: ${delivery.status ?? 'no 2xx'} after ${delivery.attempts} attempts, ${JSON.stringify(delivery.answer)} ${delivery.failures.join('; ')}`;
				check.bad.push(line.slice(0, 300));
			}
		}
		return {
			deliveries: count,
			elapsedMs: result.elapsedMs,
			latencies: result.deliveries.map((d) => d.latencyMs),
			main: after.main - before.main,
			workers: sum(after.workers.map((seconds, i) => seconds - (before.workers[i] ?? 0))),
			postgres: after.postgres - before.postgres,
			redis: after.redis - before.redis,
			own: (own.user + own.system) / 1e6,
			retried: result.deliveries.filter((d) => d.status === null || d.attempts > 1).length,
		};
	};
	/** Parts added up, their latencies put together. @param {Part[]} list @returns {Part} */
	const total = (list) =>
		/** @type {Part} */ (
			Object.fromEntries(
				Object.keys(list[0]).map((key) => {
					const values = list.map((p) => p[/** @type {keyof Part} */ (key)]);
					return [key, key === 'latencies' ? values.flat() : sum(/** @type {number[]} */ (values))];
				}),
			)
		);
	/** CPU ms per delivery. @param {Part} part @param {'main' | 'workers' | 'postgres' | 'redis' | 'own'} who */
	const perDelivery = (part, who) => (part[who] * 1000) / part.deliveries;
	const byVariant = () =>
		Object.fromEntries(variants.map((v) => [v.key, /** @type {Part[]} */ ([])]));

	/** @type {string[]} */
	const rows = [];
	/** @type {string[]} */
	const summary = [];
	try {
		for (const variant of variants) await runBlock(variant, WARM_UP);
		for (const workers of WORKER_COUNTS) {
			while (deployment.workers.length > workers)
				await deployment.stopWorker(deployment.workers[deployment.workers.length - 1]);
			/** each workflow's rounds */
			const rounds = byVariant();
			for (let round = 1; round <= ROUNDS; round++) {
				const count = Math.min(ROUND, DELIVERIES - (round - 1) * ROUND);
				const blocks = byVariant();
				for (let block = 0, done = 0; done < count; block++, done += BLOCK) {
					// node, hand-built, baseline; then baseline, hand-built, node; …
					const order = block % 2 === 0 ? variants : [...variants].reverse();
					for (const variant of order)
						blocks[variant.key].push(await runBlock(variant, Math.min(BLOCK, count - done)));
				}
				for (const variant of variants) rounds[variant.key].push(total(blocks[variant.key]));
				console.log(
					`  ${workers} worker${workers > 1 ? 's' : ''}, round ${round}/${ROUNDS}, ${count} deliveries each; workers CPU ms/delivery: ${variants.map((v) => `${v.key} ${fmt(perDelivery(rounds[v.key][round - 1], 'workers'))}`).join(', ')}`,
				);
			}
			/** A workflow's CPU ms per delivery, round by round. @param {string} key @param {'main' | 'workers'} who */
			const perRound = (key, who) => rounds[key].map((p) => perDelivery(p, who));
			for (const variant of variants) {
				const all = total(rounds[variant.key]);
				rows.push(
					`| ${workers} | ${variant.name} | ${fmt(all.deliveries / (all.elapsedMs / 1000))} | ${percentile(all.latencies, 50)} | ${percentile(all.latencies, 99)} | ${fmt(perDelivery(all, 'main'))} | ${medianAndRange(perRound(variant.key, 'workers'), 1)} | ${fmt(perDelivery(all, 'postgres'))} | ${fmt(perDelivery(all, 'redis'))} | ${fmt(perDelivery(all, 'own'))} | ${all.retried} |`,
				);
			}
			/** Round by round, xs minus ys. @param {number[]} xs @param {number[]} ys */
			const minus = (xs, ys) => xs.map((x, i) => x - ys[i]);
			const nodeIncrement = minus(perRound('node', 'workers'), perRound('baseline', 'workers'));
			const handBuiltIncrement = minus(
				perRound('handBuilt', 'workers'),
				perRound('baseline', 'workers'),
			);
			const [trigger, webhook] = [perRound('node', 'main'), perRound('unverified', 'main')];
			const label = `${workers} worker${workers > 1 ? 's' : ''}`;
			summary.push(
				`${label}: worker CPU ms per delivery over the baseline's in the same round: node ${medianAndRange(nodeIncrement, 1)}, hand-built ${medianAndRange(handBuiltIncrement, 1)}`,
				ratioLine(
					`${label}: node increment / hand-built increment`,
					nodeIncrement,
					handBuiltIncrement,
				),
				`${label}: main CPU ms per delivery, verified trigger ${medianAndRange(trigger, 2)}, plain Webhook node ${medianAndRange(webhook, 2)}; the trigger over the plain Webhook node, same round: ${medianAndRange(minus(trigger, webhook), 2)}`,
			);
		}
		const ledger = sandbox.instrumentation.refundLedger;
		for (const variant of variants) {
			const { check } = variant;
			const wrong = check.transactions.filter((id) => {
				const entry = ledger.get(id);
				return variant.sendsRefunds
					? entry?.applied !== 1 || entry.alreadyRefunded !== 0 || entry.refused !== 0
					: entry !== undefined;
			});
			summary.push(
				`Check, ${variant.key}: ${check.deliveries - check.bad.length} of ${check.deliveries} deliveries (warm-up included) answered 2xx at the first attempt with APPLIED for their transaction; sandbox ledger: ${check.transactions.length - wrong.length} of ${check.transactions.length} ${variant.sendsRefunds ? 'refunded exactly once' : 'untouched'}`,
			);
			if (check.bad.length > 0 || wrong.length > 0) {
				process.exitCode = 1;
				summary.push(...check.bad.slice(0, 5).map((line) => `  ${line}`));
				const entries = wrong.slice(0, 5).map((id) => `${id} ${JSON.stringify(ledger.get(id))}`);
				if (wrong.length > 0) summary.push(`  ledger: ${entries.join(', ')}`);
			}
		}
		const header = [
			`\n## Queue mode (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB; n8n ${N8N_VERSION}, worker concurrency ${WORKER_CONCURRENCY}; ${DELIVERIES} full-refund deliveries per workflow and worker count, interleaved in ${ROUNDS} rounds of ${ROUND} in blocks of ${BLOCK}, ${IN_FLIGHT} in flight, after a ${WARM_UP}-delivery warm-up of each)\n`,
			'| workers | workflow | deliveries/s | p50 ms | p99 ms | main CPU ms/delivery | workers CPU ms/delivery, median (range) of rounds | PostgreSQL CPU ms | Redis CPU ms | sandbox + provider CPU ms | retried or failed |',
			'|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		];
		console.log([...header, ...rows, '', ...summary].join('\n'));
		console.log(`\nbench:queue took ${fmt((Date.now() - started) / 1000, 0)} s`);
	} finally {
		await deployment.stop();
		await sandbox.stop();
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
