// @ts-check
'use strict';
/**
 * `npm run bench`: throughput of three ways to call the API from n8n, side by side, against the
 * sandbox in its own process (so that this process's CPU time is the client's alone):
 *   a. this node in n8n-core's engine;
 *   b. the hand-built alternative: v2 signatures computed per item as a Code node would, then
 *      n8n's HTTP Request node (V4.2) in the same engine, which sends every item at once;
 *   c. a raw undici client at the same concurrency as (a): the ceiling of a client that may keep
 *      connections alive, which no node that must send through n8n's helper can;
 *   d. the helper floor: a minimal node sending the same signed requests through n8n's
 *      httpRequestWithAuthentication, with no validation and no retries: the best such a node does.
 * (a) also runs at Concurrency 50, its maximum. Each round runs in a fresh process.
 * Prints a markdown table. Targets are read from it, never asserted.
 *
 * Environment: BENCH_SIZES (default "1000,10000"), BENCH_CONCURRENCY (default 20),
 * BENCH_LATENCY_MS (default 20), BENCH_CPU_PROF (a folder for a CPU profile of each round),
 * BENCH_ONLY (rounds to run, for example "a,d").
 */
require('reflect-metadata');
const { spawn } = require('node:child_process');
const { createHmac, createHash } = require('node:crypto');
const { existsSync, mkdtempSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Agent, request } = require('undici');

process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(os.tmpdir(), 'affiliate-tracking-bench-'));

const harness = require('../harness/engine');
const { handBuiltHttpRequestParameters } = require('./handBuilt');
const { control, startSandbox } = require('./sandboxProcess');
const { KEYS } = require('../sandbox/seed');

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const LIMITED_CONCURRENCY = 20;
const API_KEY = 'pk_test_videomax_v2';
const SECRET = KEYS[API_KEY].secret;
const NODES_BASE = path.join(require('../e2e/n8nInstall').n8nRelease().modules, 'n8n-nodes-base');
const USER_ID = 'user_1001';
const PATH = `/api/open/v1/promoters/${USER_ID}/statistics`;

/** Runs `work` and measures wall time, this process's CPU time and its peak RSS growth. @param {() => Promise<{ ok: number, errors: number }>} work */
async function measure(work) {
	global.gc?.();
	const baseRss = process.memoryUsage().rss;
	const baseHeap = process.memoryUsage().heapUsed;
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
	global.gc?.();
	return {
		...counts,
		elapsedMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		rssGrowthMb: (peakRss - baseRss) / 2 ** 20,
		heapRetainedMb: (process.memoryUsage().heapUsed - baseHeap) / 2 ** 20,
	};
}

/** (a) The node, in n8n's engine. @param {string} url @param {number} size @param {import('n8n-workflow').INodeParameters} options */
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

/** The HTTP Request node of the n8n 2.41.1 that `npm run setup:n8n` installs (e2e/n8nInstall.js), if there is one. */
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
		parameters: handBuiltHttpRequestParameters(API_KEY),
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

/**
 * (d) The floor of n8n's HTTP helper: a bench-only node that, per item, reads one parameter,
 * builds the same signed request and sends it with httpRequestWithAuthentication through the same
 * credential (read once, handed over decrypted, as the node does), at the same concurrency; no
 * validation, no retries, no error handling. The best any node that must use the helper can do.
 */
/** @type {import('n8n-workflow').INodeType} */
const floorNodeType = {
	description: {
		displayName: 'Helper floor',
		name: 'helperFloor',
		group: ['transform'],
		version: 1,
		description: 'Bench only',
		defaults: { name: 'Helper floor' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'affiliateTrackingApi', required: true }],
		properties: [
			{ displayName: 'User ID', name: 'userId', type: 'string', default: '' },
			{ displayName: 'Concurrency', name: 'concurrency', type: 'number', default: 1 },
		],
	},
	/** @this {import('n8n-workflow').IExecuteFunctions} */
	async execute() {
		const items = this.getInputData();
		const data = await this.getCredentials('affiliateTrackingApi');
		const credentialsDecrypted = { id: 'floor', name: 'floor', type: 'affiliateTrackingApi', data };
		const concurrency = /** @type {number} */ (this.getNodeParameter('concurrency', 0));
		/** @type {import('n8n-workflow').INodeExecutionData[]} */
		const out = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const item = next++;
				const userId = /** @type {string} */ (this.getNodeParameter('userId', item));
				const response = /** @type {any} */ (
					await this.helpers.httpRequestWithAuthentication.call(
						this,
						'affiliateTrackingApi',
						{
							method: 'GET',
							url: `${data.baseUrl}/api/open/v1/promoters/${encodeURIComponent(userId)}/statistics`,
							headers: { 'X-Api-Timestamp': String(Math.floor(Date.now() / 1000)) },
							json: true,
							returnFullResponse: true,
							ignoreHttpStatusErrors: true,
							disableFollowRedirect: true,
							timeout: 30_000,
						},
						{ credentialsDecrypted },
					)
				);
				out[item] = {
					json: response.body.data ?? { error: response.body.message },
					pairedItem: { item },
				};
			}
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
		return [out];
	},
};

/** (d) The helper floor in the same engine. @param {string} url @param {number} size */
async function runFloor(url, size) {
	const workflow = harness.oneNodeWorkflow({
		id: 'floor',
		name: 'Helper floor',
		type: 'bench.helperFloor',
		typeVersion: 1,
		position: [0, 0],
		parameters: { userId: '={{ $json.userId }}', concurrency: CONCURRENCY },
		credentials: { affiliateTrackingApi: { id: 'videomax-v2', name: 'videomax-v2' } },
	});
	const credentials = {
		'videomax-v2': { baseUrl: url, apiKey: API_KEY, apiSecret: SECRET, signatureVersion: 'v2' },
	};
	const input = Array.from({ length: size }, () => ({ json: { userId: USER_ID } }));
	const run = await harness.runWorkflow(workflow, {
		credentials,
		input,
		otherNodeTypes: { 'bench.helperFloor': floorNodeType },
	});
	const items = run.output('Helper floor');
	const errors = items.filter((/** @type {any} */ item) => item.json.error !== undefined).length;
	return { ok: items.length - errors, errors, lost: size - items.length };
}

/** (c) undici at the same concurrency, signed with the package's signing core. @param {string} url @param {number} size */
async function runUndici(url, size) {
	const { signV2 } = require('../dist/nodes/shared/transport/signing');
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

/**
 * The variants, by letter: what runs one round of `size` items against the sandbox at `url`.
 * @type {Record<string, { label: string, run: (url: string, size: number) => Promise<{ ok: number, errors: number, lost: number }> }>}
 */
const VARIANTS = {
	a: {
		label: `this node (concurrency ${CONCURRENCY})`,
		run: (url, size) => runNode(url, size, { concurrency: CONCURRENCY }),
	},
	a50: {
		label: 'this node (concurrency 50, its maximum)',
		run: (url, size) => runNode(url, size, { concurrency: 50 }),
	},
	aDefault: {
		label: 'this node, default options (concurrency 5, 2 retries)',
		run: (url, size) => runNode(url, size, {}),
	},
	b: {
		label: 'Code-node signatures (plain JS, in-process) + HTTP Request node (all items at once)',
		run: (url, size) => runHandBuilt(url, size, loadHttpRequestNode()),
	},
	c: { label: `raw undici (concurrency ${CONCURRENCY})`, run: (url, size) => runUndici(url, size) },
	d: {
		label: `helper floor: minimal node, httpRequestWithAuthentication (concurrency ${CONCURRENCY})`,
		run: (url, size) => runFloor(url, size),
	},
};
const WARM_UP_ITEMS = 200;
/** BENCH_ONLY=a,d: only these rounds (for profiling), and no 429 table. */
const ONLY = process.env.BENCH_ONLY?.split(',');

/**
 * Child mode (`--measure <variant> <size> <url>`): a warm-up round, the sandbox's counters reset,
 * then one measured round; prints the measurement as one JSON line. Each round runs in a fresh
 * process, so that no round inherits another's heap, JIT or sockets.
 */
async function measureInChild() {
	const [, , , id, size, url] = process.argv;
	const variant = VARIANTS[id];
	await variant.run(url, WARM_UP_ITEMS);
	await control(url, 'reset', {});
	const m = await measure(() => variant.run(url, Number(size)));
	process.stdout.write(`RESULT ${JSON.stringify(m)}\n`);
}

/** Runs one measured round in a fresh process. @param {string} id @param {number} size @param {string} url */
async function measureRound(id, size, url) {
	// BENCH_CPU_PROF=<dir>: a CPU profile of every round (bench/profile.js summarises them).
	const profile = process.env.BENCH_CPU_PROF
		? [
				'--cpu-prof',
				`--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`,
				`--cpu-prof-name=${id}-${size}.cpuprofile`,
			]
		: [];
	const child = spawn(
		process.execPath,
		['--expose-gc', ...profile, __filename, '--measure', id, String(size), url],
		{ stdio: ['ignore', 'pipe', 'inherit'] },
	);
	let out = '';
	child.stdout.on('data', (chunk) => (out += chunk));
	const code = await new Promise((resolve) => child.once('exit', resolve));
	const line = out.split('\n').find((text) => text.startsWith('RESULT '));
	if (code !== 0 || !line) throw new Error(`round ${id} × ${size} failed (exit ${code})`);
	return JSON.parse(line.slice('RESULT '.length));
}

const fmt = (/** @type {number} */ n, digits = 0) =>
	n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
	const sandbox = await startSandbox();
	const hasHttpRequestNode = existsSync(NODES_BASE);
	const rows = [];
	/** @type {Record<string, any>} */
	const results = {};
	try {
		for (const size of SIZES) {
			for (const id of ONLY ?? ['a', 'a50', 'b', 'c', 'd']) {
				const { label } = VARIANTS[id];
				if (id === 'b' && !hasHttpRequestNode) {
					rows.push(
						`| ${fmt(size)} | ${id}. ${label} | not run: n8n's HTTP Request node is not installed (run \`npm run setup:n8n\`) ||||||||`,
					);
					continue;
				}
				await control(sandbox.url, 'reset', {});
				await control(sandbox.url, 'settings', { latencyMs: LATENCY_MS, maxConcurrent: null });
				const m = await measureRound(id, size, sandbox.url);
				const stats = await control(sandbox.url, 'stats');
				const itemsPerSecond = (size / m.elapsedMs) * 1000;
				results[`${id}${size}`] = { ...m, itemsPerSecond };
				rows.push(
					`| ${fmt(size)} | ${id}. ${label} | ${fmt(itemsPerSecond)} | ${fmt(stats.p50Ms, 1)} / ${fmt(stats.p99Ms, 1)} | ${m.errors} | ${m.lost} | ${fmt((m.cpuMs / size) * 1000, 0)} µs | ${fmt(m.rssGrowthMb, 1)} MB | ${fmt(m.heapRetainedMb, 1)} MB | ${stats.peakInFlight} |`,
				);
			}
		}

		const limited = [];
		for (const id of ONLY ? [] : ['aDefault', 'b']) {
			if (id === 'b' && !hasHttpRequestNode) continue;
			await control(sandbox.url, 'reset', {});
			await control(sandbox.url, 'settings', {
				latencyMs: LATENCY_MS,
				maxConcurrent: LIMITED_CONCURRENCY,
				retryAfterSeconds: 1,
			});
			const m = await measureRound(id, 1000, sandbox.url);
			const stats = await control(sandbox.url, 'stats');
			limited.push(
				`| ${id === 'b' ? 'b' : 'a'}. ${VARIANTS[id].label} | ${m.ok} | ${m.errors} | ${m.lost} | ${stats.byStatus['429'] ?? 0} | ${fmt(m.elapsedMs / 1000, 1)} s |`,
			);
		}

		const ratio = (/** @type {string} */ x, /** @type {string} */ y, /** @type {number} */ size) =>
			results[`${x}${size}`] && results[`${y}${size}`]
				? fmt(results[`${x}${size}`].itemsPerSecond / results[`${y}${size}`].itemsPerSecond, 2)
				: 'n/a';

		console.log(
			`\n## Benchmark (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}; sandbox latency ${LATENCY_MS} ms, in its own process; each round in a fresh process after a ${WARM_UP_ITEMS}-item warm-up)\n`,
		);
		console.log(
			'| items | client | items/s | server latency p50 / p99 (ms) | errors | lost | CPU per item | peak RSS growth | heap retained after GC | peak in flight |',
		);
		console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
		for (const row of rows) console.log(row);
		console.log('');
		for (const size of SIZES) {
			const a = results[`a${size}`];
			const d = results[`d${size}`];
			console.log(`a/d = ${ratio('a', 'd', size)} (${fmt(size)} items)`);
			if (a && d) {
				console.log(
					`  CPU per item a ${fmt((a.cpuMs / size) * 1000, 0)} µs vs d ${fmt((d.cpuMs / size) * 1000, 0)} µs (${fmt(a.cpuMs / d.cpuMs, 2)}×); peak RSS growth a ${fmt(a.rssGrowthMb, 1)} MB vs d ${fmt(d.rssGrowthMb, 1)} MB; heap retained a ${fmt(a.heapRetainedMb, 1)} MB${results[`b${size}`] ? ` vs b ${fmt(results[`b${size}`].heapRetainedMb, 1)} MB` : ''}`,
				);
			}
		}
		console.log(
			`Ratios: a/c = ${SIZES.map((size) => `${ratio('a', 'c', size)} (${fmt(size)})`).join(', ')}; a/b = ${SIZES.map((size) => `${ratio('a', 'b', size)} (${fmt(size)})`).join(', ')}; a50/b = ${SIZES.map((size) => `${ratio('a50', 'b', size)} (${fmt(size)})`).join(', ')}.`,
		);
		console.log(
			`\n### Against a sandbox that answers 429 (Retry-After: 1) above ${LIMITED_CONCURRENCY} concurrent requests, 1,000 items\n`,
		);
		console.log('| client | succeeded | errors | lost | 429 answers | time |');
		console.log('|---|---:|---:|---:|---:|---:|');
		for (const row of limited) console.log(row);
		if (!hasHttpRequestNode)
			console.log(
				'\n(b) needs n8n-nodes-base: `npm run setup:n8n` installs n8n 2.41.1 (e2e/n8nInstall.js).',
			);
	} finally {
		sandbox.stop();
	}
}

(process.argv[2] === '--measure' ? measureInChild() : main()).catch((error) => {
	console.error(error);
	process.exit(1);
});
