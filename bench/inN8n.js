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
const { freePort, processTreeCpuSeconds, stopProcess } = require('../support/services/processes');
const { handBuiltHttpRequestParameters } = require('./handBuilt');
const { control, startSandbox } = require('./sandboxProcess');
const { KEYS } = require('../sandbox');
const { benchSettings } = require('./settings');

const { SIZES, LATENCY_MS } = benchSettings('BENCH_', { SIZES: [10000], LATENCY_MS: 20 });
const API_KEY = 'pk_test_videomax_v2';
const PATH = '/api/open/v1/promoters/user_1001/statistics';

/** The Code node's items: `{ userId }`, or (hand-built) signed v2 for the HTTP Request node. */
const MAKE_ITEMS = `const { items } = $input.first().json.body;
return Array.from({ length: items }, () => ({ json: { userId: 'user_1001' } }));`;
const MAKE_SIGNED_ITEMS = `const crypto = require('crypto');
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

/**
 * A bench workflow: a webhook at `route` (the item count in its body), a Code node making the
 * items, then `last`; `label` names it in the table.
 * @param {string} id @param {string} name @param {string} route @param {string} label
 * @param {string} jsCode @param {{ id: string, name: string, type: string, typeVersion: number, parameters: object, credentials?: object }} last
 */
const benchWorkflow = (id, name, route, label, jsCode, last) => ({
	workflow: {
		id,
		name,
		nodes: [
			{
				id: `${route}-webhook`,
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				// The three share it, as they always have; n8n serves them by path.
				webhookId: '0b5e1c2a-7d3f-4e8a-9c61-000000000002',
				parameters: {
					httpMethod: 'POST',
					path: route,
					responseMode: 'lastNode',
					responseData: 'noData',
					options: {},
				},
			},
			{
				id: `make-${id}`,
				name: 'Make items',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode },
			},
			{ ...last, position: [440, 0] },
		],
		connections: {
			Webhook: { main: [[{ node: 'Make items', type: 'main', index: 0 }]] },
			'Make items': { main: [[{ node: last.name, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	},
	id,
	publish: true,
	route,
	label,
});

/** @param {number} concurrency */
const nodeWorkflow = (concurrency) =>
	benchWorkflow(
		`benchNode${concurrency}`,
		`Bench: Affiliate Tracking node, concurrency ${concurrency}`,
		`bench-node-${concurrency}`,
		`a. this node, concurrency ${concurrency}`,
		MAKE_ITEMS,
		{
			id: `node-${concurrency}`,
			name: 'Get Promoter Statistics',
			type: 'n8n-nodes-affiliate-tracking.affiliateTracking',
			typeVersion: 1,
			parameters: {
				resource: 'promoter',
				operation: 'getStatistics',
				userId: '={{ $json.userId }}',
				options: { concurrency },
			},
			credentials: { affiliateTrackingApi: DEMO_CREDENTIAL },
		},
	);

const WORKFLOWS = [
	nodeWorkflow(20),
	nodeWorkflow(50),
	benchWorkflow(
		'benchHandBuilt01',
		'Bench: Code-node signatures + HTTP Request',
		'bench-hand-built',
		'b. Code node signing (task runner) + HTTP Request node, all at once',
		MAKE_SIGNED_ITEMS,
		{
			id: 'http',
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: handBuiltHttpRequestParameters(API_KEY),
		},
	),
];

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
		await importWorkflows(env, WORKFLOWS);
		n8n = (
			await startN8nServing(env, {
				port,
				logFile: path.join(work, 'n8n.log'),
				webhooks: WORKFLOWS.map(({ route }) => ({ method: 'POST', path: route })),
			})
		).child;
		const pid = /** @type {number} */ (n8n.pid);

		/** @param {string} route @param {number} items */
		const round = async (route, items) => {
			await control(sandbox.url, 'reset', {});
			await control(sandbox.url, 'settings', { latencyMs: LATENCY_MS, maxConcurrent: null });
			const cpuBefore = processTreeCpuSeconds(pid);
			const started = performance.now();
			const answer = await fetch(`http://127.0.0.1:${port}/webhook/${route}`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify({ items, baseUrl: sandbox.url, secret: KEYS[API_KEY].secret }),
			});
			await answer.text();
			const elapsedMs = performance.now() - started;
			const cpuMs = (processTreeCpuSeconds(pid) - cpuBefore) * 1000;
			const stats = await control(sandbox.url, 'stats');
			if (answer.status !== 200) throw new Error(`${route}: HTTP ${answer.status}`);
			return { elapsedMs, cpuMs, stats };
		};

		for (const { route } of WORKFLOWS) await round(route, 200); // warm-up: first executions, JIT
		console.log(
			`\n## In a running n8n ${N8N_VERSION} (webhook-started; Node ${process.version}; sandbox latency ${LATENCY_MS} ms, in its own process)\n`,
		);
		console.log(
			'| items | workflow | wall time | items/s | CPU of n8n (main + task runner) per item | requests the sandbox saw | peak in flight |',
		);
		console.log('|---:|---|---:|---:|---:|---:|---:|');
		const ratios = [];
		for (const size of SIZES) {
			/** @type {number[]} wall time per workflow */
			const wall = [];
			for (const { route, label } of WORKFLOWS) {
				const { elapsedMs, cpuMs, stats } = await round(route, size);
				wall.push(elapsedMs);
				console.log(
					`| ${size.toLocaleString('en')} | ${label} | ${(elapsedMs / 1000).toFixed(1)} s | ${Math.round((size / elapsedMs) * 1000)} | ${Math.round((cpuMs / size) * 1000)} µs | ${stats.requests} | ${stats.peakInFlight} |`,
				);
			}
			const [node20, node50, b] = wall;
			ratios.push(
				`a/b (${size.toLocaleString('en')} items, items/s) = ${(b / node20).toFixed(2)} at concurrency 20, ${(b / node50).toFixed(2)} at concurrency 50`,
			);
		}
		for (const line of ratios) console.log(line);
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
