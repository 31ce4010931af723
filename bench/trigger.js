// @ts-check
'use strict';
/**
 * `npm run bench:trigger`: how long the Affiliate Tracking Trigger takes to poll a long watch
 * list, through n8n-core's PollContext against the sandbox (its own latency per request). Prints
 * a table; the figures go to bench/RESULTS.md. Nothing is asserted: this machine is shared.
 *
 * Environment: BENCH_PROMOTERS (default 1000), BENCH_LATENCY_MS (default 20).
 */
require('reflect-metadata');
const { mkdtempSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(os.tmpdir(), 'affiliate-tracking-bench-'));

const harness = require('../harness/engine');
const { Sandbox } = require('../sandbox/server');
const { KEYS, PRODUCTS } = require('../sandbox/seed');

const PROMOTERS = Number(process.env.BENCH_PROMOTERS ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const API_KEY = 'pk_test_videomax_v2';
const CHANGED = 10;

async function main() {
	const sandbox = new Sandbox({ latencyMs: LATENCY_MS });
	await sandbox.start();
	const userIds = sandbox.state.addPromoters(PRODUCTS.videomax, PROMOTERS, 'watched');
	const credentials = {
		'videomax-v2': {
			baseUrl: sandbox.url,
			apiKey: API_KEY,
			apiSecret: KEYS[API_KEY].secret,
			signatureVersion: 'v2',
		},
	};
	const rows = [];
	try {
		for (const concurrency of [5, 20]) {
			/** @type {import('n8n-workflow').IDataObject | undefined} */
			let staticData;
			for (const round of ['first poll (records)', 'no change', `${CHANGED} promoters changed`]) {
				if (round.endsWith('changed')) {
					for (const userId of userIds.slice(0, CHANGED)) {
						sandbox.state.addActivity(PRODUCTS.videomax, userId, { clicks: 1 });
					}
				}
				const requestsBefore = sandbox.requestCount;
				const started = performance.now();
				const cpuStart = process.cpuUsage();
				const result = await harness.pollTrigger(
					{
						event: 'promoterResultsChanged',
						userIds,
						options: { concurrency, maxPromoters: PROMOTERS },
					},
					{ credentials, mode: 'trigger', staticData },
				);
				const elapsedS = (performance.now() - started) / 1000;
				const cpu = process.cpuUsage(cpuStart);
				if (result.thrown) throw result.thrown;
				staticData = result.staticData;
				rows.push(
					`| ${PROMOTERS.toLocaleString('en')} | ${concurrency} | ${round} | ${elapsedS.toFixed(1)} s | ${sandbox.requestCount - requestsBefore} | ${result.items?.length ?? 0} | ${result.reportedErrors.length} | ${((cpu.user + cpu.system) / 1000 / PROMOTERS).toFixed(2)} ms | ${(JSON.stringify(staticData).length / 1024).toFixed(0)} KiB |`,
				);
			}
		}
	} finally {
		await sandbox.stop();
	}
	console.log(
		`\n## Trigger: one poll of ${PROMOTERS.toLocaleString('en')} watched promoters (Node ${process.version}; sandbox latency ${LATENCY_MS} ms, in this process)\n`,
	);
	console.log(
		'| promoters | concurrency | poll | time | requests | items | errors reported | CPU per promoter | static data |',
	);
	console.log('|---:|---:|---|---:|---:|---:|---:|---:|---:|');
	for (const row of rows) console.log(row);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
