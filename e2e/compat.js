#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run test:compat`: the packed package in every n8n release of e2e/n8n-releases/, each on
 * the Node its manifest names (`node e2e/compat.js 2.41.1 1.123.81` runs only those).
 *
 * For each release: n8n installed with its Node (e2e/n8nInstall.js, cached between runs), the
 * tarball installed into a fresh user folder the way n8n installs community packages, then
 *   1. n8n loads both node types and the credential type, and derives the AI tool (usableAsTool);
 *   2. the credential test passes with the sandbox key's secret and fails with a wrong one;
 *   3. one workflow runs all 13 operations against the sandbox (`n8n execute`), each output checked;
 *   4. the trigger, active and polling every minute: its first poll emits nothing, then a change
 *      made through the sandbox's activity route is emitted (quoted in the check's line);
 *   5. example (a) answers through its production webhook;
 *   6. example (e)'s AI Agent (its model a scripted stand-in) calls the node as a tool.
 * Prints one line per check and `COMPAT n8n <version> (Node <version>): N passed, N failed` per
 * release. `--tarball <file>` tests that tarball instead of packing dist/.
 *
 * What differs between releases is handled in the `releaseDifferences` section below, one
 * function per difference, each saying which releases need it.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const {
	DEMO_CREDENTIAL,
	DEMO_KEY,
	PACKAGE,
	installAsCommunityPackage,
	n8nEnvironment,
	packPackage,
	readExample,
	executeWorkflow,
	runN8nOrThrow,
	startN8n,
	waitForWebhooks,
	CREDENTIAL_TYPE,
	NODE_TYPE,
	PAYMENT_TRIGGER_TYPE,
	SIGNING_CREDENTIAL_TYPE,
	SIGNING_CREDENTIALS,
	TRIGGER_TYPE,
	assertPackageLoaded,
	paymentTriggerPath,
	signInToRest,
} = require('./n8n');
const { freePort, sleep, stopProcess } = require('./processes');
const { ensureN8n, listReleases, n8nRelease } = require('./n8nInstall');
const { createChecks } = require('./checks');
const { TRIGGER_NODE, triggerWorkflow } = require('./testWorkflows');
const { TEST_SIGNING_SECRETS } = require('../harness/paymentSignatures');
const { postStripeEvent } = require('./webhookSecurity');
const {
	ScriptedModel,
	askAgentAboutNewPromoter,
	assertReplyFromSandbox,
} = require('./scriptedModel');
const { Sandbox } = require('../sandbox/server');
const { KEYS, PRODUCTS, WRONG_SECRET } = require('../sandbox/seed');

/** The AI-tool variant n8n derives from a node with `usableAsTool` (n8n 1.60 and later here). */
const TOOL_TYPE = `${PACKAGE.name}.affiliateTrackingTool`;
const PHOTOPAL_CREDENTIAL = { id: 'affTrackPhotopal1', name: 'Affiliate Tracking PhotoPal' };
const PHOTOPAL_KEY = 'pk_test_photopal_v2';
const OWNER = { email: 'compat-owner@example.com', password: 'Compat-owner-password-1' };
const IDS = {
	operations: 'compatAllOps00001',
	trigger: 'compatTrigger0001',
	refund: 'compatRefundHook1',
	agent: 'compatAgentTools1',
	purchase: 'compatPurchaseHk1',
};
const WATCHED = 'user_1002';
const SECRETS = [KEYS[DEMO_KEY].secret, KEYS[PHOTOPAL_KEY].secret, TEST_SIGNING_SECRETS.stripe];

// ---------------------------------------------------------------------------------------------
// releaseDifferences: what n8n's CLI and REST API do differently from one release to another.
// ---------------------------------------------------------------------------------------------

/**
 * Activating a workflow from the CLI. n8n 2.x has `publish:workflow`; 1.x has only
 * `update:workflow --active=true` (2.x keeps it, deprecated). Detected by the command's file.
 * @param {import('./n8nInstall').N8nRelease} release @param {string} id
 */
function activateArgs(release, id) {
	const publish = path.join(release.modules, 'n8n', 'dist', 'commands', 'publish', 'workflow.js');
	return fs.existsSync(publish)
		? ['publish:workflow', `--id=${id}`]
		: ['update:workflow', `--id=${id}`, '--active=true'];
}

/**
 * The login body. n8n 2.x (and late 1.x) take `emailOrLdapLoginId`; older 1.x releases take
 * `email`. Detected in the release's controller or request DTO.
 * @param {import('./n8nInstall').N8nRelease} release
 */
function loginBody(release) {
	const candidates = [
		path.join(release.modules, 'n8n', 'dist', 'controllers', 'auth.controller.js'),
		path.join(release.modules, '@n8n', 'api-types', 'dist', 'dto', 'auth', 'login-request.dto.js'),
	];
	const usesLoginId = candidates.some(
		(file) => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('emailOrLdapLoginId'),
	);
	return usesLoginId
		? { emailOrLdapLoginId: OWNER.email, password: OWNER.password }
		: { email: OWNER.email, password: OWNER.password };
}

/**
 * The owner account. `POST /rest/owner/setup` sets up the instance's owner on a fresh database in
 * every release here (1.x has no `N8N_INSTANCE_OWNER_MANAGED_BY_ENV`, 2.x keeps the route), so
 * all releases use it.
 * @param {string} base
 */
async function setUpOwner(base) {
	const answer = await fetch(`${base}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ ...OWNER, firstName: 'Compat', lastName: 'Owner' }),
	});
	assert.equal(answer.status, 200, `owner setup: ${answer.status} ${await answer.text()}`);
}

/**
 * Example workflows use the typeVersions of n8n 2.41's own nodes (Webhook 2.1, If 2.2, Respond to
 * Webhook 1.5…). An older release that lacks a version gets the newest one it has (read from its
 * n8n-nodes-base `dist/types/nodes.json`); the returned list names each change. Needed by 1.x
 * releases that predate those versions.
 * @param {import('./n8nInstall').N8nRelease} release
 * @param {{ nodes: Record<string, any>[] }} workflow
 */
function fitTypeVersions(release, workflow) {
	/** @type {Map<string, number[]>} */
	const known = new Map();
	for (const [prefix, directory] of [
		['n8n-nodes-base', 'n8n-nodes-base'],
		['@n8n/n8n-nodes-langchain', path.join('@n8n', 'n8n-nodes-langchain')],
	]) {
		const file = path.join(release.modules, directory, 'dist', 'types', 'nodes.json');
		if (fs.existsSync(file)) addVersions(known, prefix, file);
	}
	const changes = [];
	for (const node of workflow.nodes) {
		const versions = known.get(node.type);
		if (!versions || versions.includes(node.typeVersion)) continue;
		const fallback = Math.max(...versions.filter((v) => v <= node.typeVersion));
		assert.ok(Number.isFinite(fallback), `${node.type} ${node.typeVersion}: n8n has ${versions}`);
		changes.push(`${node.name} ${node.typeVersion}→${fallback}`);
		node.typeVersion = fallback;
	}
	return changes;
}

/**
 * Adds the versions of each node type in a package's `dist/types/nodes.json` to `known`.
 * @param {Map<string, number[]>} known @param {string} prefix @param {string} file
 */
function addVersions(known, prefix, file) {
	for (const node of /** @type {{ name: string, version: number | number[] }[]} */ (
		JSON.parse(fs.readFileSync(file, 'utf8'))
	)) {
		// A versioned node has one entry per group of versions.
		// Its names are `set` in 2.x, `n8n-nodes-base.set` in older releases.
		const type = node.name.includes('.') ? node.name : `${prefix}.${node.name}`;
		known.set(type, [...(known.get(type) ?? []), ...[node.version].flat()]);
	}
}

/**
 * A workflow as `n8n import:workflow` takes it. n8n 1.x stores `active` in a NOT NULL column and
 * fails the import without it ("NOT NULL constraint failed: workflow_entity.active"); 2.x
 * activates by publishing, and the examples carry no `active`.
 * @param {import('./n8nInstall').N8nRelease} release @param {Record<string, unknown>} workflow
 */
function forImport(release, workflow) {
	return release.n8nVersion.startsWith('1.') ? { active: false, ...workflow } : workflow;
}

// ---------------------------------------------------------------------------------------------

/**
 * The workflow that runs every operation once: a Manual Trigger fanned out to one branch per
 * operation; Exchange Code follows Authorize and Get Debug Code, Track Purchase and Track Custom
 * Event follow Track Signup.
 */
function operationsWorkflow() {
	const photopal = { [CREDENTIAL_TYPE]: PHOTOPAL_CREDENTIAL };
	const videomax = { [CREDENTIAL_TYPE]: DEMO_CREDENTIAL };
	/** @type {[string, Record<string, unknown>, object][]} */
	const operations = [
		[
			'Authorize',
			{
				resource: 'authorization',
				operation: 'authorize',
				productKey: PRODUCTS.photopal,
				targetProductKey: PRODUCTS.videomax,
				userId: 'pp_compat_1',
				additionalFields: { extra: '{"name": "Ada"}' },
			},
			photopal,
		],
		[
			'Exchange Code',
			{ resource: 'authorization', operation: 'exchangeCode', code: '={{ $json.code }}' },
			videomax,
		],
		[
			'Authorize and Redirect',
			{
				resource: 'authorization',
				operation: 'authorizeAndRedirect',
				productKey: PRODUCTS.photopal,
				targetProductKey: PRODUCTS.videomax,
				userId: 'pp_compat_2',
				additionalFields: { extra: '{"name": "Bo"}' },
			},
			photopal,
		],
		[
			'Get Debug Code',
			{
				resource: 'authorization',
				operation: 'getDebugCode',
				sourceProductKey: PRODUCTS.photopal,
				targetProductKey: PRODUCTS.videomax,
				userId: 'debug_compat',
				additionalFields: { extra: '{"name": "Debug User"}' },
			},
			photopal,
		],
		[
			'Exchange Debug Code',
			{ resource: 'authorization', operation: 'exchangeCode', code: '={{ $json.code }}' },
			videomax,
		],
		[
			'Track Signup',
			{
				resource: 'conversion',
				operation: 'trackSignup',
				invitedUserId: 'vm_compat_1',
				inviteCode: 'ADA2026',
				additionalFields: { invitedUserName: 'Ann' },
			},
			videomax,
		],
		[
			'Track Purchase',
			{
				resource: 'conversion',
				operation: 'trackPurchase',
				invitedUserId: 'vm_compat_1',
				transactionId: 'order_compat_1',
				conversionValue: '49.90',
				additionalFields: { extraBodyFields: '{"currency": "USD"}' },
			},
			videomax,
		],
		[
			'Track Custom Event',
			{
				resource: 'conversion',
				operation: 'trackEvent',
				eventName: 'renewal',
				invitedUserId: 'vm_compat_1',
				additionalFields: { transactionId: 'renew_compat_1', conversionValue: 9.5 },
			},
			videomax,
		],
		[
			'Refund',
			{
				resource: 'conversion',
				operation: 'refund',
				transactionId: 'txn_1001',
				reason: 'compat refund',
			},
			videomax,
		],
		[
			'Promoter Login',
			{
				resource: 'promoter',
				operation: 'login',
				userId: 'brand_user_compat',
				additionalFields: { email: 'eve@example.com', lang: 'zh', themeMode: 'dark' },
			},
			videomax,
		],
		[
			'Get Promoter',
			{
				resource: 'promoter',
				operation: 'get',
				userId: 'user_1001',
				expand: ['links', 'statistics', 'balances'],
			},
			videomax,
		],
		[
			'Get Promoter Links',
			{ resource: 'promoter', operation: 'getLinks', userId: 'user_1001' },
			videomax,
		],
		[
			'Get Promoter Statistics',
			{
				resource: 'promoter',
				operation: 'getStatistics',
				userId: 'user_1001',
				startDate: '2026-03-01',
				endDate: '2026-03-01',
			},
			videomax,
		],
		[
			'Get Promoter Balances',
			{ resource: 'promoter', operation: 'getBalances', userId: 'user_1001' },
			videomax,
		],
	];
	const follows = /** @type {Record<string, string>} */ ({
		'Exchange Code': 'Authorize',
		'Exchange Debug Code': 'Get Debug Code',
		'Track Purchase': 'Track Signup',
		'Track Custom Event': 'Track Purchase',
	});
	/** @type {Record<string, { main: { node: string, type: string, index: number }[][] }>} */
	const connections = {};
	/** @param {string} from @param {string} to */
	const connect = (from, to) => {
		connections[from] ??= { main: [[]] };
		connections[from].main[0].push({ node: to, type: 'main', index: 0 });
	};
	for (const [name] of operations) connect(follows[name] ?? 'Start', name);
	return {
		name: 'Compat: every operation',
		nodes: [
			{
				id: 'start',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			...operations.map(([name, parameters, credentials], index) => ({
				id: `op${index}`,
				name,
				type: NODE_TYPE,
				typeVersion: 1,
				position: [300 + (follows[name] ? 300 : 0), index * 120],
				parameters,
				credentials,
			})),
		],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/**
 * What each operation's output must be, checked against the sandbox's own records.
 * @param {Sandbox} sandbox
 * @returns {[string, string, (items: any[]) => string][]} [operation, node, check]
 */
function operationChecks(sandbox) {
	return [
		[
			'authorize',
			'Authorize',
			([item]) => {
				const url = new URL(item.json.redirect_url);
				assert.equal(url.searchParams.get('x_auth_code'), item.json.code);
				return `code ${String(item.json.code).slice(0, 6)}…, redirect ${url.origin}${url.pathname}`;
			},
		],
		[
			'exchangeCode',
			'Exchange Code',
			([item]) => {
				assert.equal(item.json.user_name, 'Ada');
				assert.equal(item.json.ref_product_key, PRODUCTS.photopal);
				assert.match(item.json.user_key, /^uk_/);
				return `user ${item.json.user_key} "${item.json.user_name}" from ${item.json.ref_product_key}`;
			},
		],
		[
			'authorizeAndRedirect',
			'Authorize and Redirect',
			([item]) => {
				assert.match(
					item.json.redirect_url,
					/^https:\/\/videomax\.example\/landing\?ps_ref=rl_[0-9a-f]+&x_auth_code=[0-9a-f]{32}$/,
				);
				assert.match(item.json.ps_ref, /^rl_/);
				return `ps_ref ${item.json.ps_ref}`;
			},
		],
		[
			'getDebugCode',
			'Get Debug Code',
			([item]) => {
				assert.equal(typeof item.json.code, 'string');
				assert.ok(String(item.json.redirect_url).includes('x_auth_code='));
				return `code ${String(item.json.code).slice(0, 6)}…`;
			},
		],
		[
			'exchangeCode (debug)',
			'Exchange Debug Code',
			([item]) => {
				assert.equal(item.json.user_name, 'Debug User');
				return `user "${item.json.user_name}"`;
			},
		],
		[
			'trackSignup',
			'Track Signup',
			([item]) => {
				assert.equal(item.json.event_name, 'signup');
				assert.equal(item.json.status, 1);
				assert.equal(item.json.campaign_id, 202);
				return `conversion ${item.json.conversion_id}, campaign ${item.json.campaign_id}`;
			},
		],
		[
			'trackPurchase',
			'Track Purchase',
			([item]) => {
				assert.equal(item.json.event_name, 'purchase');
				assert.equal(item.json.event_type, 2);
				const recorded = sandbox.state.conversions.find(
					(c) => c.transactionId === 'order_compat_1',
				);
				assert.equal(recorded?.valueCents, 4990);
				assert.deepEqual(recorded?.otherFields, { currency: 'USD' });
				return `conversion ${item.json.conversion_id}, sandbox recorded 4990 cents USD`;
			},
		],
		[
			'trackEvent',
			'Track Custom Event',
			([item]) => {
				assert.equal(item.json.event_name, 'renewal');
				assert.equal(item.json.event_type, 3);
				const recorded = sandbox.state.conversions.find(
					(c) => c.transactionId === 'renew_compat_1',
				);
				assert.equal(recorded?.valueCents, 950);
				return `conversion ${item.json.conversion_id}, sandbox recorded 950 cents`;
			},
		],
		[
			'refund',
			'Refund',
			([item]) => {
				assert.equal(item.json.status, 'APPLIED');
				assert.equal(item.json.transaction_id, 'txn_1001');
				assert.equal(item.json.cancelled_reward_count, 2);
				const conversion = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1001');
				assert.equal(conversion?.reason, 'compat refund');
				return `${item.json.status}, cancelled ${item.json.cancelled_reward_count}, preserved paid ${item.json.preserved_paid_reward_count}`;
			},
		],
		[
			'login',
			'Promoter Login',
			([item]) => {
				const token = String(item.json.token);
				assert.equal(item.json.theme_mode, 'dark');
				assert.equal(
					item.json.promoterCenterIframeUrl,
					`${sandbox.url}/promoter-center/iframe/${encodeURIComponent(token)}`,
				);
				assert.ok(sandbox.state.centerTokens.has(token), 'not a token the sandbox issued');
				return `token ${token.slice(0, 6)}…, ${item.json.user_string_id}`;
			},
		],
		[
			'get',
			'Get Promoter',
			([item]) => {
				assert.equal(item.json.external_user_id, 'user_1001');
				assert.equal(item.json.referral_code, 'ADA2026');
				assert.equal(item.json.links.length, 2);
				assert.equal(item.json.balances.length, 2);
				assert.equal(item.json.statistics.object, 'promoter_statistics');
				return `${item.json.external_user_id} ${item.json.status}, 2 links, 2 balances`;
			},
		],
		[
			'getLinks',
			'Get Promoter Links',
			(items) => {
				const urls = items.map((item) => item.json.url);
				assert.deepEqual(urls, [
					'https://go.videomax.example/ADA2026',
					'https://go.videomax.example/ADA-SPRING',
				]);
				return urls.join(', ');
			},
		],
		[
			'getStatistics',
			'Get Promoter Statistics',
			([item]) => {
				assert.equal(item.json.clicks, 1);
				assert.equal(item.json.start_date, '2026-03-01');
				assert.equal(item.json.end_date, '2026-03-01');
				return `clicks ${item.json.clicks} on 2026-03-01`;
			},
		],
		[
			'getBalances',
			'Get Promoter Balances',
			(items) => {
				const currencies = items.map((item) => item.json.currency);
				assert.deepEqual(currencies, ['EUR', 'USD']);
				return currencies.join(', ');
			},
		],
	];
}

/**
 * One release's checks, after its install (`install`, the settled result of ensureN8n). Returns
 * its closing line and timings.
 * @param {string} version @param {string} tarball
 * @param {PromiseSettledResult<Awaited<ReturnType<typeof ensureN8n>>>} install
 */
async function runRelease(version, tarball, install) {
	const release = n8nRelease(version);
	const label = `COMPAT n8n ${release.n8nVersion} (Node ${release.nodeVersion})`;
	console.log(`\n${label.slice('COMPAT '.length)}`);
	const { check, counts, abort } = createChecks(label);
	const timings = { install: 0, installedNow: false, run: 0 };
	/** Every text n8n gave back, scanned for the API secrets at the end. */
	const seen = /** @type {string[]} */ ([]);
	const work = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-compat-${version}-`));
	const userFolder = path.join(work, 'user');
	fs.mkdirSync(userFolder);
	const serverLog = path.join(work, 'n8n.log');
	const sandbox = new Sandbox({ port: 0 });
	const model = new ScriptedModel();
	/** @type {import('node:child_process').ChildProcess | undefined} */
	let n8n;
	let started = Date.now();
	try {
		let installed = false;
		await check(
			`n8n ${release.n8nVersion} installed with Node ${release.nodeVersion}`,
			async () => {
				if (install.status === 'rejected') throw install.reason;
				const result = install.value;
				timings.install = result.seconds;
				timings.installedNow = result.installedNow;
				const node = await runN8nOrThrow(['--version'], process.env, release);
				assert.equal(node.stdout.trim().split('\n').pop(), release.n8nVersion);
				installed = true;
				return `${result.installedNow ? 'installed now' : 'cached'} in ${release.dir} (${result.seconds.toFixed(1)} s); n8n --version ${release.n8nVersion}`;
			},
		);
		if (!installed) throw new Error(`n8n ${version} is not installed; nothing else can run`);
		started = Date.now();
		await sandbox.start();
		await model.start();
		const port = await freePort();
		const env = n8nEnvironment({ userFolder, port, brokerPort: await freePort() });

		await check('npm pack → installed into .n8n/nodes as n8n installs community packages', () => {
			const { packageJson } = installAsCommunityPackage(tarball, userFolder);
			return `${PACKAGE.name}@${packageJson.version}`;
		});

		const exampleA = readExample('a-refund-on-payment-webhook.json');
		const exampleE = readExample('e-ask-about-promoters-agent.json');
		const exampleH = readExample('h-purchase-on-payment-webhook.json');
		const modelCredential = exampleE.nodes.find((node) => node.credentials?.openAiApi)?.credentials
			?.openAiApi;
		await check(
			'credentials and workflows imported (n8n import:*), examples (a), (e) and (h) and the trigger activated',
			async () => {
				const staging = path.join(work, 'import');
				fs.mkdirSync(staging);
				/** @param {string} apiKey @param {{ id: string, name: string }} credential */
				const credentialData = (apiKey, credential) => ({
					...credential,
					type: CREDENTIAL_TYPE,
					data: {
						baseUrl: sandbox.url,
						apiKey,
						apiSecret: KEYS[apiKey].secret,
						signatureVersion: 'v2',
						promoterCenterUrl: `${sandbox.url}/promoter-center`,
					},
				});
				const credentialsFile = path.join(staging, 'credentials.json');
				fs.writeFileSync(
					credentialsFile,
					JSON.stringify([
						credentialData(DEMO_KEY, DEMO_CREDENTIAL),
						credentialData(PHOTOPAL_KEY, PHOTOPAL_CREDENTIAL),
						{
							...modelCredential,
							type: 'openAiApi',
							// The scripted model checks no key; OpenAI's client insists on one.
							data: { apiKey: 'scripted-model-needs-no-key', url: model.url },
						},
						{
							...SIGNING_CREDENTIALS.stripe,
							type: SIGNING_CREDENTIAL_TYPE,
							data: { signingSecret: TEST_SIGNING_SECRETS.stripe },
						},
					]),
					{ mode: 0o600 },
				);
				await runN8nOrThrow(['import:credentials', `--input=${credentialsFile}`], env, release);
				fs.rmSync(credentialsFile);
				const changed = [
					...fitTypeVersions(release, exampleA),
					...fitTypeVersions(release, exampleE),
					...fitTypeVersions(release, exampleH),
				];
				const workflows = [
					{ ...operationsWorkflow(), id: IDS.operations },
					{ ...triggerWorkflow({ name: 'Compat: trigger', userId: WATCHED }), id: IDS.trigger },
					{ ...exampleA, id: IDS.refund },
					{ ...exampleE, id: IDS.agent },
					{ ...exampleH, id: IDS.purchase },
				];
				const workflowsDir = path.join(staging, 'workflows');
				fs.mkdirSync(workflowsDir);
				for (const workflow of workflows)
					fs.writeFileSync(
						path.join(workflowsDir, `${workflow.id}.json`),
						JSON.stringify(forImport(release, workflow)),
					);
				await runN8nOrThrow(
					['import:workflow', '--separate', `--input=${workflowsDir}`],
					env,
					release,
				);
				for (const id of [IDS.refund, IDS.agent, IDS.trigger, IDS.purchase])
					await runN8nOrThrow(activateArgs(release, id), env, release);
				return `activated with \`n8n ${activateArgs(release, '…')[0]}\`${changed.length > 0 ? `; example typeVersions fitted to this release: ${changed.join(', ')}` : ''}`;
			},
		);

		/** @type {Awaited<ReturnType<typeof executeWorkflow>>['run'] | undefined} */
		let run;
		await check(
			'n8n execute: one workflow with all 13 operations against the sandbox',
			async () => {
				const result = await executeWorkflow(env, IDS.operations, release);
				seen.push(result.stdout, result.stderr);
				assert.equal(
					result.code,
					0,
					`exit ${result.code ?? result.signal}:\n${result.stdout}\n${result.stderr}`,
				);
				assert.ok(result.run, `n8n execute printed no run:\n${result.stdout.slice(0, 2000)}`);
				run = result.run;
				const error = run.data.resultData.error;
				assert.equal(error, undefined, `the run failed: ${error?.message}`);
				return `${Object.keys(run.data.resultData.runData).length - 1} operation nodes ran`;
			},
		);
		for (const [operation, node, body] of operationChecks(sandbox)) {
			await check(`operation ${operation} (${node})`, () => {
				assert.ok(run, 'the workflow did not run');
				const runs = run.data.resultData.runData[node];
				assert.ok(runs?.[0], `node "${node}" did not run`);
				assert.equal(runs[0].error, undefined, `node "${node}" failed: ${runs[0].error?.message}`);
				const items = runs[0].data?.main[0] ?? [];
				assert.ok(items.length > 0, `node "${node}" gave no items`);
				return body(items);
			});
		}

		const base = `http://127.0.0.1:${port}`;
		/** The production path of an example's Payment Webhook Trigger. @param {{ nodes: Record<string, any>[] }} example */
		const triggerPathOf = (example) => {
			const trigger = example.nodes.find((node) => node.type === PAYMENT_TRIGGER_TYPE);
			if (!trigger?.webhookId) throw new Error('the example has no Payment Webhook Trigger');
			return paymentTriggerPath(trigger.webhookId);
		};
		const refundPath = triggerPathOf(exampleA);
		const purchasePath = triggerPathOf(exampleH);
		/**
		 * A Stripe event posted to a Payment Webhook Trigger, signed unless `signed` is false.
		 * @param {string} webhookPath @param {'purchase' | 'refund'} kind
		 * @param {import('../harness/paymentSignatures').SampleFields} fields @param {boolean} [signed]
		 */
		const deliverStripe = (webhookPath, kind, fields, signed = true) =>
			postStripeEvent({ base, webhookPath, kind, fields, signed, seen });
		await check(
			'n8n start answers /healthz/readiness and registers the examples (a) and (h) webhooks',
			async () => {
				const log = fs.createWriteStream(serverLog);
				const startedAt = Date.now();
				n8n = await startN8n(
					{ ...env, N8N_LOG_LEVEL: 'info' },
					{ port, release, onOutput: (line) => log.write(`${line}\n`) },
				);
				const ready = Date.now();
				await waitForWebhooks(port, [
					{ method: 'POST', path: refundPath },
					{ method: 'POST', path: purchasePath },
				]);
				return `ready after ${((ready - startedAt) / 1000).toFixed(1)} s, webhook after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`;
			},
		);
		if (!n8n) throw new Error(`n8n did not start; its log is ${serverLog}`);

		let cookie = '';
		await check('the owner is set up and signs in', async () => {
			await setUpOwner(base);
			const body = loginBody(release);
			cookie = await signInToRest(base, body);
			return `signed in with ${Object.keys(body)[0]}`;
		});

		await check(
			`n8n loaded ${NODE_TYPE}, ${TRIGGER_TYPE}, ${PAYMENT_TRIGGER_TYPE}, ${CREDENTIAL_TYPE} and ${SIGNING_CREDENTIAL_TYPE}`,
			() => assertPackageLoaded(base, cookie),
		);
		await check(
			`n8n offers the node to AI agents as the tool ${TOOL_TYPE} (usableAsTool)`,
			async () => {
				const answer = await fetch(`${base}/types/nodes.json`, { headers: { cookie } });
				const nodes = /** @type {{ name: string, displayName: string }[]} */ (await answer.json());
				const tool = nodes.find((node) => node.name === TOOL_TYPE);
				assert.ok(tool, `${TOOL_TYPE} not in /types/nodes.json: this n8n ignores usableAsTool`);
				return `"${tool.displayName}"`;
			},
		);

		/** @param {string} apiSecret */
		const testCredential = async (apiSecret) => {
			const answer = await fetch(`${base}/rest/credentials/test`, {
				method: 'POST',
				headers: { 'Content-Type': 'application/json', cookie },
				body: JSON.stringify({
					credentials: {
						...DEMO_CREDENTIAL,
						type: CREDENTIAL_TYPE,
						data: { baseUrl: sandbox.url, apiKey: DEMO_KEY, apiSecret, signatureVersion: 'v2' },
					},
				}),
			});
			const text = await answer.text();
			seen.push(text);
			assert.equal(answer.status, 200, `/rest/credentials/test: ${answer.status} ${text}`);
			return /** @type {{ data: { status: string, message: string } }} */ (JSON.parse(text)).data;
		};
		await check("the credential test passes with the key's secret", async () => {
			const result = await testCredential(KEYS[DEMO_KEY].secret);
			assert.equal(result.status, 'OK', result.message);
			return `${result.status}: ${result.message}`;
		});
		await check(
			"the credential test fails with a wrong secret, with the service's message",
			async () => {
				const result = await testCredential(WRONG_SECRET);
				assert.equal(result.status, 'Error', result.message);
				assert.match(result.message, /Signature verification failed/);
				return `${result.status}: ${result.message}`;
			},
		);

		await check(
			"example (e): n8n's AI Agent calls the node as a tool (usableAsTool) and its figures reach the reply",
			async () => {
				const chat = exampleE.nodes.find((node) => node.type.endsWith('.chatTrigger'));
				assert.ok(chat, 'example (e) has no chat trigger');
				const { promoter, text, reply } = await askAgentAboutNewPromoter(
					sandbox,
					PRODUCTS.videomax,
					`${base}/webhook/${chat.webhookId}/chat`,
					'compat-session',
				);
				seen.push(text);
				const call = model.requests[1]?.messages.find((message) => message.tool_calls)
					?.tool_calls?.[0];
				assert.equal(
					call?.function.name,
					'Get_Promoter_Statistics',
					`model requests: ${model.requests.length}, reply "${reply}"`,
				);
				// The node ran with the model's arguments, and the reply carries the sandbox's figures.
				const read = assertReplyFromSandbox(sandbox, PRODUCTS.videomax, promoter, reply);
				return `model called ${call?.function.name}(${call?.function.arguments}); node read ${read}; reply "${reply}"`;
			},
		);

		await check(
			'the trigger, active and polling every minute: the first poll is silent, a change in the sandbox is emitted',
			async () => {
				const { parse } = require(path.join(release.modules, 'flatted'));
				/** @param {string} route */
				const rest = async (route) => {
					const answer = await fetch(`${base}/rest/${route}`, { headers: { cookie } });
					assert.equal(answer.status, 200, `/rest/${route}: ${answer.status}`);
					return /** @type {any} */ (await answer.json()).data;
				};
				const executions = async () =>
					/** @type {{ id: string, status: string, finished?: boolean }[]} */ (
						(
							await rest(
								`executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: IDS.trigger }))}`,
							)
						).results
					);
				const polls = () =>
					sandbox.log.filter((entry) => entry.path.endsWith(`/promoters/${WATCHED}/statistics`))
						.length;
				const deadline = Date.now() + 200_000;
				// The first poll (on activation) only records the figures.
				while (polls() === 0) {
					assert.ok(Date.now() < deadline, 'the trigger never polled the sandbox');
					await sleep(500);
				}
				await sleep(2000);
				assert.equal((await executions()).length, 0, 'the first poll emitted an execution');
				const firstPolls = polls();
				// Then one change per poll, through the sandbox's activity route, until one is emitted.
				let seenPolls = firstPolls;
				let added = 0;
				/** @type {string[]} */
				const changes = [];
				const payingCustomers = () =>
					/** @type {{ data: Record<string, number> }} */ (
						sandbox.state.readPromoter(PRODUCTS.videomax, WATCHED, 'statistics', new Map())
					).data.paying_customers;
				// The totals a poll could have read: an emitting poll may show in the executions list
				// only after the next change was made.
				/** @type {number[]} */
				const totalsSeen = [];
				const change = async () => {
					const answer = await fetch(`${sandbox.url}/__sandbox/activity`, {
						method: 'POST',
						headers: { 'Content-Type': 'application/json' },
						body: JSON.stringify({
							product: PRODUCTS.videomax,
							userId: WATCHED,
							payingCustomers: 1,
							clicks: 3,
						}),
					});
					assert.equal(answer.status, 200, `/__sandbox/activity: ${answer.status}`);
					await answer.arrayBuffer();
					added++;
					totalsSeen.push(payingCustomers());
					changes.push(`after poll ${seenPolls}`);
				};
				await change();
				while ((await executions()).length === 0) {
					assert.ok(
						Date.now() < deadline,
						`no execution after ${added} changes (${polls()} polls)`,
					);
					if (polls() > seenPolls) {
						seenPolls = polls();
						await sleep(2000);
						if ((await executions()).length > 0) break;
						await change();
					}
					await sleep(1000);
				}
				let [execution] = await executions();
				while (execution.status === 'running' || execution.status === 'new') {
					await sleep(500);
					[execution] = await executions();
				}
				assert.equal(execution.status, 'success');
				const data = parse((await rest(`executions/${execution.id}`)).data);
				const emitted = data.resultData.runData[TRIGGER_NODE][0].data.main[0];
				seen.push(JSON.stringify(data));
				assert.equal(emitted.length, 1);
				const item = emitted[0].json;
				assert.equal(item.user_id, WATCHED);
				assert.ok(
					totalsSeen.includes(item.paying_customers),
					`the trigger reported ${item.paying_customers} paying customers; after each change the sandbox had ${totalsSeen.join(', ')}`,
				);
				assert.ok(
					item.increase.paying_customers >= 1 && item.increase.paying_customers <= added,
					`increase ${JSON.stringify(item.increase)} after ${added} change(s)`,
				);
				return `polls: ${firstPolls} silent, ${polls()} in all; ${added} change(s) (+1 paying customer, +3 clicks each) → execution ${execution.id} emitted ${JSON.stringify(item)}`;
			},
		);

		await check(
			'example (a) through its Payment Webhook Trigger: a signed Stripe refund, repeat, not referred; a forged one gets 401, no execution, no call',
			async () => {
				/** @param {string} transactionId @param {boolean} [signed] */
				const post = (transactionId, signed = true) =>
					deliverStripe(refundPath, 'refund', { transactionId }, signed);
				/** The refund workflow's executions in n8n's list. */
				const executions = async () => {
					const answer = await fetch(
						`${base}/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId: IDS.refund }))}`,
						{ headers: { cookie } },
					);
					assert.equal(answer.status, 200, `/rest/executions: ${answer.status}`);
					return /** @type {{ data: { results: unknown[] } }} */ (await answer.json()).data.results
						.length;
				};
				const refund = await post('txn_1002');
				assert.deepEqual(
					[refund.status, refund.json.status, refund.json.transaction_id],
					[200, 'APPLIED', 'txn_1002'],
					JSON.stringify(refund),
				);
				const conversion = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1002');
				assert.equal(conversion?.adjustments, 1, 'the sandbox did not adjust txn_1002 once');
				const repeat = await post('txn_1002');
				assert.deepEqual(
					[repeat.status, repeat.json.status],
					[200, 'ALREADY_PROCESSED'],
					`repeat: ${JSON.stringify(repeat)}`,
				);
				const unknown = await post('order_never_referred');
				assert.deepEqual(
					[unknown.status, unknown.json.code],
					[200, 1000001],
					`not referred: ${JSON.stringify(unknown)}`,
				);
				// The forged delivery: an unsigned refund of a refundable purchase seeded for it.
				const [target] = sandbox.state.addPurchases(PRODUCTS.videomax, 1, 'compat_forged');
				let before = await executions();
				const deadline = Date.now() + 30_000;
				for (let settled = -1; settled !== before && Date.now() < deadline; ) {
					settled = before;
					await sleep(1000);
					before = await executions();
				}
				const refundCallsBefore = sandbox.calls.filter((call) =>
					call.path.endsWith('/track/refund'),
				).length;
				const forged = await post(target, false);
				await sleep(2000);
				const forgedExecutions = (await executions()) - before;
				const forgedCalls =
					sandbox.calls.filter((call) => call.path.endsWith('/track/refund')).length -
					refundCallsBefore;
				assert.equal(forged.status, 401, `forged: ${JSON.stringify(forged)}`);
				assert.equal(forgedExecutions, 0, `${forgedExecutions} executions for the forged delivery`);
				assert.equal(forgedCalls, 0, `${forgedCalls} refund calls for the forged delivery`);
				const untouched = sandbox.state.conversions.find((c) => c.transactionId === target);
				assert.equal(untouched?.adjustments, 0, `${target} was adjusted`);
				return `signed: txn_1002 → 200 APPLIED (cancelled ${refund.json.cancelled_reward_count}); again → 200 ALREADY_PROCESSED; not referred → 200 code 1000001; forged ${target} → 401, ${forgedExecutions} executions, ${forgedCalls} calls`;
			},
		);

		await check(
			"example (h), Skip Transactions Already Tracked through a signed Stripe webhook: a repeat is not sent (n8n's deduplication store)",
			async () => {
				const [customer] = sandbox.state.addSignups(PRODUCTS.videomax, 1, 'compat_buyer');
				const fields = {
					transactionId: 'compat_order_1',
					userId: customer,
					amountMinor: 1990,
					checkout: true,
				};
				const first = await deliverStripe(purchasePath, 'purchase', fields);
				const repeat = await deliverStripe(purchasePath, 'purchase', fields);
				assert.deepEqual(
					[first.status, first.json.status],
					[200, 'TRACKED'],
					JSON.stringify(first),
				);
				assert.deepEqual(
					[repeat.status, repeat.json.status],
					[200, 'ALREADY_TRACKED'],
					JSON.stringify(repeat),
				);
				const recorded = sandbox.state.conversions.filter(
					(c) => c.transactionId === 'compat_order_1',
				);
				assert.equal(
					recorded.length,
					1,
					`the sandbox recorded compat_order_1 ${recorded.length} times`,
				);
				assert.equal(recorded[0].valueCents, 1990);
				return `compat_order_1 → conversion ${first.json.conversion_id}; delivered again → ${repeat.json.status}; the sandbox holds 1 purchase of 19.90`;
			},
		);

		await check('no API secret in any output, answer or n8n log', () => {
			seen.push(fs.readFileSync(serverLog, 'utf8'));
			const leaks = seen.filter((text) => SECRETS.some((secret) => text.includes(secret))).length;
			assert.equal(leaks, 0, `${leaks} of ${seen.length} texts hold an API secret`);
			return `${seen.length} texts scanned`;
		});
	} catch (error) {
		abort(error);
	} finally {
		if (n8n) await stopProcess(n8n);
		await sandbox.stop();
		await model.stop();
		if (counts.failed === 0) fs.rmSync(work, { recursive: true, force: true });
		else console.log(`  Kept ${work} for inspection (user folder, n8n.log).`);
	}
	timings.run = (Date.now() - started) / 1000;
	const line = `${label}: ${counts.passed} passed, ${counts.failed} failed`;
	console.log(line);
	return { line, failed: counts.failed, timings, release };
}

/** The arguments given; on a bad one, exits with the parser's message (it names the option). */
function parseArguments() {
	try {
		return parseArgs({ options: { tarball: { type: 'string' } }, allowPositionals: true });
	} catch (error) {
		console.error(
			`${error instanceof Error ? error.message : error}\nusage: node e2e/compat.js [--tarball <file>] [n8n version…]`,
		);
		process.exit(2);
	}
}

async function main() {
	const { values, positionals } = parseArguments();
	// `--tarball <file>` tests a given package tarball (a published release, say) instead of packing dist/.
	const givenTarball = values.tarball === undefined ? undefined : path.resolve(values.tarball);
	const versions = positionals.length > 0 ? positionals : listReleases();
	console.log(`COMPAT: ${PACKAGE.name}@${PACKAGE.version} in n8n ${versions.join(', ')}`);
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-compat-pack-'));
	const results = [];
	try {
		const tarball = givenTarball ?? packPackage(work);
		// All installs at once: most of an install is downloading, and cold caches are CI's case.
		const installs = await Promise.allSettled(
			versions.map((version) =>
				ensureN8n(version, (line) => console.log(`[n8n ${version}] ${line}`)),
			),
		);
		for (const [index, version] of versions.entries())
			results.push(await runRelease(version, tarball, installs[index]));
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
	console.log('\nCompat timings:');
	for (const { release, timings } of results)
		console.log(
			`  n8n ${release.n8nVersion} (Node ${release.nodeVersion}): install ${timings.installedNow ? 'cold' : 'cached'} ${timings.install.toFixed(1)} s, checks ${timings.run.toFixed(1)} s`,
		);
	process.exitCode = results.every((result) => result.failed === 0) ? 0 : 1;
}

main().catch((error) => {
	console.error(error instanceof Error ? error.stack : error);
	process.exitCode = 1;
});
