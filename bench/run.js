// @ts-check
'use strict';
/**
 * `npm run bench`: throughput of three ways to call the API from n8n, side by side, against the
 * sandbox in its own process (so that this process's CPU time is the client's alone):
 *   a. this node in n8n-core's engine;
 *   b. the hand-built alternative: v2 signatures computed per item as a Code node would, then
 *      n8n's HTTP Request node (V4.2) in the same engine, which sends every item at once;
 *   c. a raw undici client at the same concurrency as (a): the ceiling.
 * Prints a markdown table. Targets are read from it, never asserted.
 *
 * Environment: BENCH_SIZES (default "1000,10000"), BENCH_CONCURRENCY (default 20),
 * BENCH_LATENCY_MS (default 20).
 */
require('reflect-metadata');
const { spawn } = require('node:child_process');
const { createHmac, createHash } = require('node:crypto');
const { existsSync, mkdtempSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Agent, request } = require('undici');

const ROOT = path.resolve(__dirname, '..');
process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(os.tmpdir(), 'affiliate-tracking-bench-'));
Object.assign(globalThis, { PACKAGE_DIR: ROOT });

const harness = require('../.bench-build/test/helpers/n8n.js');
const { KEYS } = require('../sandbox/seed');

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const LIMITED_CONCURRENCY = 20;
const API_KEY = 'pk_test_videomax_v2';
const SECRET = KEYS[API_KEY].secret;
const NODES_BASE = path.join(ROOT, 'e2e', '.install', 'node_modules', 'n8n-nodes-base');
const USER_ID = 'user_1001';
const PATH = `/api/open/v1/promoters/${USER_ID}/statistics`;

/** Starts `npm run sandbox` as a child process on a free port. */
async function startSandbox() {
	const child = spawn(process.execPath, [path.join(ROOT, 'sandbox', 'cli.js'), '--port', '0'], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const url = await new Promise((resolve, reject) => {
		let out = '';
		child.stdout.on('data', (chunk) => {
			out += chunk;
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
	});
	child.stdout.resume();
	return { url: /** @type {string} */ (url), stop: () => child.kill('SIGTERM') };
}

/** @param {string} url @param {string} route @param {object} [body] */
async function control(url, route, body) {
	const response = await request(`${url}/__sandbox/${route}`, {
		method: body ? 'POST' : 'GET',
		body: body ? JSON.stringify(body) : undefined,
	});
	return /** @type {any} */ (await response.body.json());
}

/** Runs `work` and measures wall time, this process's CPU time and its peak RSS growth. @param {() => Promise<{ ok: number, errors: number }>} work */
async function measure(work) {
	global.gc?.();
	const baseRss = process.memoryUsage().rss;
	let peakRss = baseRss;
	const sampler = setInterval(() => {
		peakRss = Math.max(peakRss, process.memoryUsage().rss);
	}, 20);
	const cpuStart = process.cpuUsage();
	const start = performance.now();
	const counts = await work();
	const elapsedMs = performance.now() - start;
	const cpu = process.cpuUsage(cpuStart);
	clearInterval(sampler);
	peakRss = Math.max(peakRss, process.memoryUsage().rss);
	return {
		...counts,
		elapsedMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		rssGrowthMb: (peakRss - baseRss) / 2 ** 20,
	};
}

/** (a) The node, in n8n's engine. @param {string} url @param {number} size @param {object} options */
async function runNode(url, size, options) {
	const workflow = harness.singleNodeWorkflow(
		{ resource: 'promoter', operation: 'getStatistics', userId: '={{ $json.userId }}', options },
		{ onError: 'continueRegularOutput' },
	);
	const credentials = {
		'videomax-v2': { baseUrl: url, apiKey: API_KEY, apiSecret: SECRET, signatureVersion: 'v2' },
	};
	const input = Array.from({ length: size }, () => ({ json: { userId: USER_ID } }));
	const run = await harness.runWorkflow(workflow, { credentials, input });
	const items = run.output('Affiliate Tracking');
	const errors = items.filter((/** @type {any} */ item) => item.json.error !== undefined).length;
	return { ok: items.length - errors, errors, lost: size - items.length };
}

/** The HTTP Request node of the n8n installed in e2e/.install (npm run setup:n8n), if there is one. */
function loadHttpRequestNode() {
	if (!existsSync(NODES_BASE)) return undefined;
	const { PackageDirectoryLoader } = require('n8n-core');
	const loader = new PackageDirectoryLoader(NODES_BASE);
	loader.loadNodeFromFile('dist/nodes/HttpRequest/HttpRequest.node.js');
	return loader.nodeTypes.httpRequest.type;
}

/** The per-item work of the Code node in the hand-built workflow: a v2 signature. @param {string} timestamp */
function signLikeACodeNode(timestamp) {
	const bodyHash = createHash('sha256').update('').digest('hex');
	const message = ['PS-HMAC-SHA256', 'GET', PATH, '', timestamp, bodyHash].join('\n');
	return createHmac('sha256', SECRET).update(message).digest('hex');
}

/** (b) Code-node signatures + the HTTP Request node in the same engine. @param {string} url @param {number} size @param {any} httpRequestType */
async function runHandBuilt(url, size, httpRequestType) {
	const timestamp = String(Math.floor(Date.now() / 1000));
	const input = Array.from({ length: size }, () => ({
		json: { url: `${url}${PATH}`, timestamp, sign: signLikeACodeNode(timestamp) },
	}));
	const workflow = harness.oneNodeWorkflow({
		id: 'http',
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		onError: 'continueRegularOutput',
		parameters: {
			url: '={{ $json.url }}',
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'X-Api-Key', value: API_KEY },
					{ name: 'X-Api-Timestamp', value: '={{ $json.timestamp }}' },
					{ name: 'X-Api-Sign', value: '={{ $json.sign }}' },
				],
			},
			options: {},
		},
	});
	const run = await harness.runWorkflow(workflow, {
		credentials: {},
		input,
		otherNodeTypes: { 'n8n-nodes-base.httpRequest': httpRequestType },
	});
	const items = run.output('HTTP Request');
	// The HTTP Request node passes an envelope with a non-zero code as a success: count it as the error it is.
	const errors = items.filter(
		(/** @type {any} */ item) => item.json.error !== undefined || item.json.code !== 0,
	).length;
	return { ok: items.length - errors, errors, lost: size - items.length };
}

/** (c) undici at the same concurrency, signed with the package's signing core. @param {string} url @param {number} size */
async function runUndici(url, size) {
	const { signV2 } = require('../dist/nodes/AffiliateTracking/transport/signing');
	const dispatcher = new Agent({ connections: CONCURRENCY });
	let next = 0;
	let ok = 0;
	let errors = 0;
	const worker = async () => {
		while (next < size) {
			next++;
			const timestamp = String(Math.floor(Date.now() / 1000));
			const sign = signV2({ method: 'GET', path: PATH, query: '', timestamp, body: '' }, SECRET);
			const response = await request(`${url}${PATH}`, {
				dispatcher,
				headers: { 'X-Api-Key': API_KEY, 'X-Api-Timestamp': timestamp, 'X-Api-Sign': sign },
			});
			const body = /** @type {any} */ (await response.body.json());
			if (body.code === 0) ok++;
			else errors++;
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	await dispatcher.close();
	return { ok, errors, lost: size - ok - errors };
}

const fmt = (/** @type {number} */ n, digits = 0) =>
	n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
	const sandbox = await startSandbox();
	const httpRequestType = loadHttpRequestNode();
	const rows = [];
	/** @type {Record<string, any>} */
	const results = {};
	try {
		const nodeOptions = { concurrency: CONCURRENCY };
		/** @type {Array<[string, string, (size: number) => Promise<{ ok: number, errors: number, lost: number }>]>} */
		const variants = [
			[
				'a',
				`this node (concurrency ${CONCURRENCY})`,
				(size) => runNode(sandbox.url, size, nodeOptions),
			],
			[
				'b',
				'Code-node signatures + HTTP Request node (all items at once)',
				(size) => runHandBuilt(sandbox.url, size, httpRequestType),
			],
			['c', `raw undici (concurrency ${CONCURRENCY})`, (size) => runUndici(sandbox.url, size)],
		];
		await runNode(sandbox.url, 200, nodeOptions); // warm-up: module loading and JIT
		for (const size of SIZES) {
			for (const [id, label, run] of variants) {
				if (id === 'b' && !httpRequestType) {
					rows.push(
						`| ${fmt(size)} | ${id}. ${label} | not run: n8n's HTTP Request node is not installed (run \`npm run setup:n8n\`) |||||||`,
					);
					continue;
				}
				await control(sandbox.url, 'reset', {});
				await control(sandbox.url, 'settings', { latencyMs: LATENCY_MS, maxConcurrent: null });
				const m = await measure(() => run(size));
				const stats = await control(sandbox.url, 'stats');
				const itemsPerSecond = (size / m.elapsedMs) * 1000;
				results[`${id}${size}`] = { ...m, itemsPerSecond };
				rows.push(
					`| ${fmt(size)} | ${id}. ${label} | ${fmt(itemsPerSecond)} | ${fmt(stats.p50Ms, 1)} / ${fmt(stats.p99Ms, 1)} | ${m.errors} | ${m.lost} | ${fmt((m.cpuMs / size) * 1000, 0)} µs | ${fmt(m.rssGrowthMb, 1)} MB | ${stats.peakInFlight} |`,
				);
			}
		}

		const limited = [];
		for (const [id, label, run] of [
			[
				'a',
				'this node, default options (concurrency 5, 2 retries)',
				(/** @type {number} */ size) => runNode(sandbox.url, size, {}),
			],
			[
				'b',
				'Code-node signatures + HTTP Request node',
				(/** @type {number} */ size) => runHandBuilt(sandbox.url, size, httpRequestType),
			],
		]) {
			if (id === 'b' && !httpRequestType) continue;
			await control(sandbox.url, 'reset', {});
			await control(sandbox.url, 'settings', {
				latencyMs: LATENCY_MS,
				maxConcurrent: LIMITED_CONCURRENCY,
				retryAfterSeconds: 1,
			});
			const m = await measure(() => /** @type {any} */ (run)(1000));
			const stats = await control(sandbox.url, 'stats');
			limited.push(
				`| ${id}. ${label} | ${m.ok} | ${m.errors} | ${m.lost} | ${stats.byStatus['429'] ?? 0} | ${fmt(m.elapsedMs / 1000, 1)} s |`,
			);
		}

		const ratio = (/** @type {string} */ x, /** @type {string} */ y, /** @type {number} */ size) =>
			results[`${x}${size}`] && results[`${y}${size}`]
				? fmt(results[`${x}${size}`].itemsPerSecond / results[`${y}${size}`].itemsPerSecond, 2)
				: 'n/a';
		const overhead = SIZES.map((size) =>
			results[`a${size}`] && results[`c${size}`]
				? `${fmt(size)} items: ${fmt(((results[`a${size}`].cpuMs - results[`c${size}`].cpuMs) / size) * 1000, 0)} µs`
				: '',
		);

		console.log(
			`\n## Benchmark (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}; sandbox latency ${LATENCY_MS} ms, in its own process)\n`,
		);
		console.log(
			'| items | client | items/s | server latency p50 / p99 (ms) | errors | lost | CPU per item | peak RSS growth | peak in flight |',
		);
		console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|');
		for (const row of rows) console.log(row);
		console.log('');
		console.log(
			`Ratios: a/c = ${SIZES.map((size) => `${ratio('a', 'c', size)} (${fmt(size)})`).join(', ')}; a/b = ${SIZES.map((size) => `${ratio('a', 'b', size)} (${fmt(size)})`).join(', ')}.`,
		);
		console.log(
			`Node CPU overhead per item over raw undici: ${overhead.filter(Boolean).join('; ')}.`,
		);
		console.log(
			`\n### Against a sandbox that answers 429 (Retry-After: 1) above ${LIMITED_CONCURRENCY} concurrent requests, 1,000 items\n`,
		);
		console.log('| client | succeeded | errors | lost | 429 answers | time |');
		console.log('|---|---:|---:|---:|---:|---:|');
		for (const row of limited) console.log(row);
		if (!httpRequestType)
			console.log('\n(b) needs n8n-nodes-base: `npm run setup:n8n` installs n8n 2.41.1 into e2e/.install.');
	} finally {
		sandbox.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
