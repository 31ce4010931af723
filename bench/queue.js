// @ts-check
'use strict';
/**
 * `npm run bench:queue`: refund webhooks through n8n's queue mode (the deployment of
 * `npm run test:queue`: PostgreSQL, Redis, main, workers, the package installed from a local
 * registry), without a worker killed. For 2 workers, then 1 (the second stopped gracefully), a
 * storm of full refunds (each a purchase seeded for the round) goes to example (a), then the same
 * storm to its variant with the Refund node replaced by a Set node giving Refund's answer: the
 * difference in a worker's CPU per delivery is our node's share. Deliveries/s, p50/p99 latency,
 * and CPU per delivery of main, workers, PostgreSQL, Redis and this process (sandbox and
 * provider) are measured side by side in one run; a printed table, nothing asserted.
 *
 * Environment: BENCH_QUEUE_DELIVERIES (default 1000 per round), BENCH_QUEUE_IN_FLIGHT (20).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { DEMO_KEY, N8N_VERSION } = require('../e2e/n8n');
const { deliverAll, percentile, planStorm } = require('../e2e/paymentProvider');
const { WORKER_CONCURRENCY, startQueueDeployment } = require('../e2e/queue');
const { Sandbox } = require('../sandbox/server');
const { KEYS } = require('../sandbox/seed');

const DELIVERIES = Number(process.env.BENCH_QUEUE_DELIVERIES ?? 1000);
const IN_FLIGHT = Number(process.env.BENCH_QUEUE_IN_FLIGHT ?? 20);
const WARM_UP = 100;

/** @param {number} value @param {number} [digits] */
const fmt = (value, digits = 1) => value.toFixed(digits);

async function main() {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-bench-'));
	const sandbox = new Sandbox({ port: 0, logLimit: 0 });
	await sandbox.start();
	const product = KEYS[DEMO_KEY].product;
	let round = 0;
	/** @param {number} count */
	const fullRefunds = (count) =>
		planStorm(sandbox.state, product, {
			refunds: count,
			repeats: 0,
			notReferred: 0,
			partial: 0,
			prefix: `bench${++round}`,
		}).events;
	const deployment = await startQueueDeployment({
		folder,
		workers: 2,
		sandboxUrl: sandbox.url,
		log: (line) => console.log(line),
		withCannedVariant: true,
	});
	/** @type {string[]} */
	const rows = [];
	try {
		const variants = [
			{ name: 'example (a)', url: deployment.webhookUrl },
			{ name: 'canned (Set node)', url: deployment.cannedWebhookUrl },
		];
		for (const variant of variants)
			await deliverAll(variant.url, fullRefunds(WARM_UP), { inFlight: IN_FLIGHT });
		/** @type {Record<string, number>} worker CPU ms per delivery, by workers and variant */
		const workerCpu = {};
		for (const workers of [2, 1]) {
			if (deployment.workers.length > workers)
				await deployment.stopWorker(deployment.workers[workers]);
			for (const variant of variants) {
				const before = deployment.cpuSeconds();
				const ownBefore = process.cpuUsage();
				const result = await deliverAll(variant.url, fullRefunds(DELIVERIES), {
					inFlight: IN_FLIGHT,
				});
				const after = deployment.cpuSeconds();
				const own = process.cpuUsage(ownBefore);
				const failed = result.deliveries.filter((d) => d.status === null || d.attempts > 1).length;
				const perDelivery = (/** @type {number} */ seconds) => (seconds * 1000) / DELIVERIES;
				const workersSeconds = Object.keys(after.workers).reduce(
					(sum, name) => sum + after.workers[name] - (before.workers[name] ?? 0),
					0,
				);
				workerCpu[`${workers}:${variant.name}`] = perDelivery(workersSeconds);
				const latencies = result.deliveries.map((d) => d.latencyMs);
				rows.push(
					`| ${workers} | ${variant.name} | ${fmt(DELIVERIES / (result.elapsedMs / 1000))} | ${percentile(latencies, 50)} | ${percentile(latencies, 99)} | ${fmt(perDelivery(after.main - before.main))} | ${fmt(perDelivery(workersSeconds))} | ${fmt(perDelivery(after.postgres - before.postgres))} | ${fmt(perDelivery(after.redis - before.redis))} | ${fmt((own.user + own.system) / 1000 / DELIVERIES)} | ${failed} |`,
				);
				console.log(rows[rows.length - 1]);
			}
		}
		const header = [
			`\n## Queue mode (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB; n8n ${N8N_VERSION}, worker concurrency ${WORKER_CONCURRENCY}; ${DELIVERIES} full-refund deliveries a round, ${IN_FLIGHT} in flight, after a ${WARM_UP}-delivery warm-up)\n`,
			'| workers | workflow | deliveries/s | p50 ms | p99 ms | main CPU ms/delivery | workers CPU ms | PostgreSQL CPU ms | Redis CPU ms | sandbox + provider CPU ms | retried or failed |',
			'|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		];
		console.log([...header, ...rows].join('\n'));
		for (const workers of [2, 1]) {
			const withNode = workerCpu[`${workers}:example (a)`];
			const canned = workerCpu[`${workers}:canned (Set node)`];
			console.log(
				`Our node's share of a worker's CPU per delivery (${workers} worker${workers > 1 ? 's' : ''}): ${fmt(withNode)} − ${fmt(canned)} = ${fmt(withNode - canned)} ms of ${fmt(withNode)} ms (${fmt(((withNode - canned) / withNode) * 100)} %)`,
			);
		}
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
