// @ts-check
'use strict';
/**
 * `npm run bench:n8n`: the node against the hand-built alternative inside a running n8n 2.41.1
 * (installed by support/n8n/n8nInstall.js), started as users start workflows: a webhook call. Both
 * workflows make the same items in a Code node (n8n's real Code node, run by its task runner), then
 *   a. Affiliate Tracking, Get Promoter Statistics, at Concurrency 20 and 50;
 *   b. the Code node also signs each item (v2, node:crypto), then n8n's HTTP Request node sends
 *      them all at once.
 * Reports wall time and the CPU time of every n8n process (main and task runner) per item,
 * against the sandbox in its own process. A round passes only if the webhook answers 200: the
 * workflows stop on any failed request. Prints a table; nothing is asserted.
 *
 * Environment: BENCH_SIZES (default "10000"), BENCH_LATENCY_MS (default 20).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {
	N8N_VERSION,
	installDefaultRelease,
	importDemo,
	importWorkflows,
	installPackedPackage,
	n8nEnvironment,
	startN8nServing,
} = require('../support/n8n/n8nInstance');
const { DEMO_CREDENTIAL } = require('../support/n8n/n8nDemoData');
const { freePort, stopProcess } = require('../support/services/processes');
const { handBuiltHttpRequestParameters } = require('./handBuilt');
const { control, startSandbox } = require('./sandboxProcess');
const { KEYS } = require('../sandbox');
const { benchSettings } = require('./settings');

const { SIZES, LATENCY_MS } = benchSettings('BENCH_', { SIZES: [10000], LATENCY_MS: 20 });
const API_KEY = 'pk_test_videomax_v2';
const PATH = '/api/open/v1/promoters/user_1001/statistics';

const webhook = (/** @type {string} */ name, /** @type {string} */ route) => ({
	id: `${route}-webhook`,
	name,
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	position: [0, 0],
	webhookId: `0b5e1c2a-7d3f-4e8a-9c61-${route === 'bench-node' ? '000000000001' : '000000000002'}`,
	parameters: {
		httpMethod: 'POST',
		path: route,
		responseMode: 'lastNode',
		responseData: 'noData',
		options: {},
	},
});

/**
 * @typedef {{ id: string, name: string, type: string, typeVersion: number, position: number[], parameters: object, credentials?: object }} WorkflowNode
 * @typedef {Record<string, { main: { node: string, type: string, index: number }[][] }>} Connections
 * A bench workflow: its first node is the webhook that starts it.
 * @typedef {{ id: string, name: string, nodes: [ReturnType<typeof webhook>, ...WorkflowNode[]], connections: Connections, settings: { executionOrder: string } }} BenchWorkflow
 */

/** The two workflows; the Code node reads the item count from the webhook's body. */
function benchWorkflows() {
	const makeItems = `const { items } = $input.first().json.body;
return Array.from({ length: items }, () => ({ json: { userId: 'user_1001' } }));`;
	const makeSignedItems = `const crypto = require('crypto');
const { items, baseUrl, secret } = $input.first().json.body;
const path = '${PATH}';
const timestamp = String(Math.floor(Date.now() / 1000));
const bodyHash = crypto.createHash('sha256').update('').digest('hex');
return Array.from({ length: items }, () => ({
  json: {
    url: baseUrl + path,
    timestamp,
    sign: crypto.createHmac('sha256', secret).update(['PS-HMAC-SHA256', 'GET', path, '', timestamp, bodyHash].join('\\n')).digest('hex'),
  },
}));`;
	const code = (/** @type {string} */ id, /** @type {string} */ jsCode) => ({
		id,
		name: 'Make items',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [220, 0],
		parameters: { jsCode },
	});
	/** @param {number} concurrency @returns {BenchWorkflow} */
	const nodeWorkflow = (concurrency) => ({
		id: `benchNode${concurrency}`,
		name: `Bench: Affiliate Tracking node, concurrency ${concurrency}`,
		nodes: [
			webhook('Webhook', `bench-node-${concurrency}`),
			code(`make-${concurrency}`, makeItems),
			{
				id: `node-${concurrency}`,
				name: 'Get Promoter Statistics',
				type: 'n8n-nodes-affiliate-tracking.affiliateTracking',
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'promoter',
					operation: 'getStatistics',
					userId: '={{ $json.userId }}',
					options: { concurrency },
				},
				credentials: { affiliateTrackingApi: DEMO_CREDENTIAL },
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Make items', type: 'main', index: 0 }]] },
			'Make items': { main: [[{ node: 'Get Promoter Statistics', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	});
	/** @type {BenchWorkflow} */
	const handBuilt = {
		id: 'benchHandBuilt01',
		name: 'Bench: Code-node signatures + HTTP Request',
		nodes: [
			webhook('Webhook', 'bench-hand-built'),
			code('make-signed', makeSignedItems),
			{
				id: 'http',
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [440, 0],
				parameters: handBuiltHttpRequestParameters(API_KEY),
			},
		],
		connections: {
			Webhook: { main: [[{ node: 'Make items', type: 'main', index: 0 }]] },
			'Make items': { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
	return [nodeWorkflow(20), nodeWorkflow(50), handBuilt];
}

/** A process and its descendants, from /proc. @param {number} pid @returns {number[]} */
function processTree(pid) {
	/** @type {number[]} */
	const children = [];
	for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
		const file = `/proc/${pid}/task/${task}/children`;
		if (!fs.existsSync(file)) continue;
		for (const child of fs.readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean)) {
			children.push(...processTree(Number(child)));
		}
	}
	return [pid, ...children];
}

/** User + system CPU time of the n8n processes, in ms. @param {number} pid */
function cpuMsOf(pid) {
	const ticks = 100; // USER_HZ on Linux
	return processTree(pid).reduce((sum, id) => {
		try {
			const fields = fs.readFileSync(`/proc/${id}/stat`, 'utf8').split(') ')[1].split(' ');
			return sum + ((Number(fields[11]) + Number(fields[12])) / ticks) * 1000;
		} catch {
			return sum; // ended meanwhile
		}
	}, 0);
}

async function main() {
	await installDefaultRelease((line) => console.log(line));
	const sandbox = await startSandbox();
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'affiliate-tracking-bench-n8n-'));
	const userFolder = path.join(work, 'user');
	fs.mkdirSync(userFolder);
	const port = await freePort();
	const env = {
		...n8nEnvironment({ userFolder, port, brokerPort: await freePort() }),
		// The hand-built Code node signs with node:crypto.
		NODE_FUNCTION_ALLOW_BUILTIN: 'crypto',
	};
	/** @type {import('node:child_process').ChildProcess | undefined} */
	let n8n;
	try {
		installPackedPackage(userFolder);
		await importDemo(env, sandbox.url, 'http://127.0.0.1:9/v1', false);
		const workflows = benchWorkflows();
		await importWorkflows(
			env,
			workflows.map((workflow) => ({ workflow, id: workflow.id, publish: true })),
		);
		const routes = workflows.map((workflow) => workflow.nodes[0].parameters.path);
		n8n = (
			await startN8nServing(env, {
				port,
				logFile: path.join(work, 'n8n.log'),
				webhooks: routes.map((route) => ({ method: 'POST', path: route })),
			})
		).child;
		const pid = /** @type {number} */ (n8n.pid);

		/** @param {string} route @param {number} items */
		const round = async (route, items) => {
			await control(sandbox.url, 'reset', {});
			await control(sandbox.url, 'settings', { latencyMs: LATENCY_MS, maxConcurrent: null });
			const cpuBefore = cpuMsOf(pid);
			const started = performance.now();
			const answer = await fetch(`http://127.0.0.1:${port}/webhook/${route}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ items, baseUrl: sandbox.url, secret: KEYS[API_KEY].secret }),
			});
			await answer.text();
			const elapsedMs = performance.now() - started;
			const cpuMs = cpuMsOf(pid) - cpuBefore;
			const stats = await control(sandbox.url, 'stats');
			if (answer.status !== 200) throw new Error(`${route}: HTTP ${answer.status}`);
			return { elapsedMs, cpuMs, stats };
		};

		const labels = {
			'bench-node-20': 'a. this node, concurrency 20',
			'bench-node-50': 'a. this node, concurrency 50',
			'bench-hand-built': 'b. Code node signing (task runner) + HTTP Request node, all at once',
		};
		for (const route of routes) await round(route, 200); // warm-up: first executions, JIT
		const rows = [];
		/** @type {Record<string, number>} */
		const wall = {};
		for (const size of SIZES) {
			for (const route of routes) {
				const { elapsedMs, cpuMs, stats } = await round(route, size);
				wall[`${route}${size}`] = elapsedMs;
				rows.push(
					`| ${size.toLocaleString('en')} | ${labels[/** @type {keyof typeof labels} */ (route)]} | ${(elapsedMs / 1000).toFixed(1)} s | ${Math.round((size / elapsedMs) * 1000)} | ${Math.round((cpuMs / size) * 1000)} µs | ${stats.requests} | ${stats.peakInFlight} |`,
				);
			}
		}
		console.log(
			`\n## In a running n8n ${N8N_VERSION} (webhook-started; Node ${process.version}; sandbox latency ${LATENCY_MS} ms, in its own process)\n`,
		);
		console.log(
			'| items | workflow | wall time | items/s | CPU of n8n (main + task runner) per item | requests the sandbox saw | peak in flight |',
		);
		console.log('|---:|---|---:|---:|---:|---:|---:|');
		for (const row of rows) console.log(row);
		for (const size of SIZES) {
			const b = wall[`bench-hand-built${size}`];
			console.log(
				`a/b (${size.toLocaleString('en')} items, items/s) = ${(b / wall[`bench-node-20${size}`]).toFixed(2)} at concurrency 20, ${(b / wall[`bench-node-50${size}`]).toFixed(2)} at concurrency 50`,
			);
		}
	} finally {
		if (n8n) await stopProcess(n8n);
		sandbox.stop();
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
