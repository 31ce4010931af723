// @ts-check
'use strict';
/**
 * `npm run bench`'s clients, by letter (bench/run.js says what each one stands for and how the
 * rounds compare them): what runs one round of `size` items against the sandbox at `url` and
 * counts the items answered, failed and lost. Every client signs as the same product, at
 * BENCH_CONCURRENCY (default 20) unless its label says otherwise.
 */
const { createHmac, createHash } = require('node:crypto');
const path = require('node:path');
const { Agent, request } = require('undici');

const { runWorkflow } = require('../support/n8n/core/runWorkflow');
const {
	oneNodeWorkflow,
	packageNode,
	singleNodeWorkflow,
} = require('../support/n8n/core/workflows');
const { n8nRelease } = require('../support/n8n/n8nInstall');
const { KEYS } = require('../sandbox');
const { handBuiltHttpRequestParameters } = require('./handBuilt');
const { benchSettings } = require('./settings');

const { CONCURRENCY } = benchSettings('BENCH_', { CONCURRENCY: 20 });
const API_KEY = 'pk_test_videomax_v2';
const SECRET = KEYS[API_KEY].secret;
/** n8n-nodes-base of the n8n release `npm run setup:n8n` installs: (b) needs its HTTP Request node. */
const NODES_BASE = path.join(n8nRelease().modules, 'n8n-nodes-base');
const USER_ID = 'user_1001';
const PATH = `/api/open/v1/promoters/${USER_ID}/statistics`;

const hasError = (/** @type {any} */ json) => json.error !== undefined;
/** The HTTP Request node passes an envelope with a non-zero code as a success: it is an error. */
const failedEnvelope = (/** @type {any} */ json) => hasError(json) || json.code !== 0;

/**
 * Runs a one-node workflow on `size` items made by `item`, with the credential of the sandbox at
 * `url`, and counts its node's output: failed items (by default those with an error), answered
 * ones, and lost ones.
 * @param {import('n8n-workflow').IWorkflowBase} workflow @param {string} url @param {number} size
 * @param {() => import('n8n-workflow').IDataObject} item
 * @param {Record<string, any>} [otherNodeTypes] @param {(json: any) => boolean} [failed]
 */
async function runCounted(workflow, url, size, item, otherNodeTypes = {}, failed = hasError) {
	const credentials = {
		'videomax-v2': { baseUrl: url, apiKey: API_KEY, apiSecret: SECRET, signatureVersion: 'v2' },
	};
	const input = Array.from({ length: size }, () => ({ json: item() }));
	const run = await runWorkflow(workflow, { credentials, input, otherNodeTypes });
	const items = run.output(workflow.nodes[0].name);
	const errors = items.filter((item) => failed(item.json)).length;
	return { ok: items.length - errors, errors, lost: size - items.length };
}

/** `concurrency` workers calling `work(i)` for i from 0 to count - 1, each i once. @param {number} count @param {number} concurrency @param {(i: number) => Promise<void>} work */
async function pool(count, concurrency, work) {
	let next = 0;
	const worker = async () => {
		while (next < count) await work(next++);
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/** (a) The node, in n8n's engine. @param {string} url @param {number} size @param {import('n8n-workflow').INodeParameters} options */
function runNode(url, size, options) {
	const workflow = singleNodeWorkflow(
		{ resource: 'promoter', operation: 'getStatistics', userId: '={{ $json.userId }}', options },
		{ onError: 'continueRegularOutput' },
	);
	return runCounted(workflow, url, size, () => ({ userId: USER_ID }));
}

/** The HTTP Request node of the n8n 2.41.1 that `npm run setup:n8n` installs (support/n8n/n8nInstall.js). */
function loadHttpRequestNode() {
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

/** (b) Code-node signatures + the HTTP Request node in the same engine. @param {string} url @param {number} size */
function runHandBuilt(url, size) {
	const timestamp = String(Math.floor(Date.now() / 1000));
	const workflow = oneNodeWorkflow({
		id: 'http',
		name: 'HTTP Request',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [0, 0],
		onError: 'continueRegularOutput',
		parameters: handBuiltHttpRequestParameters(API_KEY),
	});
	const item = () => ({ url: `${url}${PATH}`, timestamp, sign: signLikeACodeNode(timestamp) });
	const httpRequest = { 'n8n-nodes-base.httpRequest': loadHttpRequestNode() };
	return runCounted(workflow, url, size, item, httpRequest, failedEnvelope);
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
		await pool(items.length, concurrency, async (item) => {
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
		});
		return [out];
	},
};

/** (d) The helper floor in the same engine. @param {string} url @param {number} size */
function runFloor(url, size) {
	const workflow = oneNodeWorkflow(
		packageNode('bench.helperFloor', 'Helper floor', {
			userId: '={{ $json.userId }}',
			concurrency: CONCURRENCY,
		}),
	);
	const floor = { 'bench.helperFloor': floorNodeType };
	return runCounted(workflow, url, size, () => ({ userId: USER_ID }), floor);
}

/** (c) undici at the same concurrency, signed with the package's signing core. @param {string} url @param {number} size */
async function runUndici(url, size) {
	// The built code, typed from its source, so that the typecheck needs no build.
	const { signV2 } = /** @type {typeof import('../nodes/shared/transport/signing')} */ (
		require(path.join(__dirname, '..', 'dist', 'nodes', 'shared', 'transport', 'signing'))
	);
	const dispatcher = new Agent({ connections: CONCURRENCY });
	let ok = 0;
	let errors = 0;
	await pool(size, CONCURRENCY, async () => {
		const timestamp = String(Math.floor(Date.now() / 1000));
		const sign = signV2({ method: 'GET', path: PATH, query: '', timestamp, body: '' }, SECRET);
		const response = await request(`${url}${PATH}`, {
			dispatcher,
			headers: { 'X-Api-Key': API_KEY, 'X-Api-Timestamp': timestamp, 'X-Api-Sign': sign },
		});
		const body = /** @type {any} */ (await response.body.json());
		if (body.code === 0) ok++;
		else errors++;
	});
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
		run: runHandBuilt,
	},
	c: { label: `raw undici (concurrency ${CONCURRENCY})`, run: runUndici },
	d: {
		label: `helper floor: minimal node, httpRequestWithAuthentication (concurrency ${CONCURRENCY})`,
		run: runFloor,
	},
};

module.exports = { CONCURRENCY, NODES_BASE, VARIANTS };
