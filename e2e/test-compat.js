#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run test:compat`: the packed package in every n8n release of support/n8n/n8n-releases/ but the
 * default one, each on the Node its manifest names. test:e2e runs the default release (2.41.1)
 * with every check below, so the matrix prints one line for it,
 * `COMPAT n8n 2.41.1 (Node …): proven by test:e2e`; named releases run whatever they are
 * (`node e2e/test-compat.js 2.41.1 1.123.81` runs those two).
 *
 * The matrix proves that each release loads and runs the package; what the package does is proven
 * once, by the unit and engine tests. Each release (installed by support/n8n/n8nInstall.js, cached
 * between runs) gets the tarball installed into a fresh user folder the way n8n installs community
 * packages, then runs the checks below, one line each, and says what examples (a), (b), (d) and
 * (h) can do with its Data table node. Prints `COMPAT n8n <version> (Node <version>): N passed, N failed` per
 * release. `--tarball <file>` tests that tarball instead of packing dist/.
 *
 * What differs between releases is handled in support/n8n/n8nReleaseDifferences.js, one function per
 * difference, each saying which releases need it.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const {
	installAsCommunityPackage,
	n8nEnvironment,
	importCredentials,
	importWorkflows,
	runN8nOrThrow,
	startN8nServing,
	assertPackageLoaded,
	signInToRest,
} = require('../support/n8n/n8nInstance');
const { packPackage } = require('../support/n8n/pack');
const {
	DEMO_CREDENTIAL,
	DEMO_KEY,
	PACKAGE,
	readExample,
	CREDENTIAL_TYPE,
	NODE_TYPE,
	PAYMENT_TRIGGER_TYPE,
	PROVIDER_API_CREDENTIAL_TYPE,
	PROVIDER_EVENTS_TYPE,
	SIGNING_CREDENTIAL_TYPE,
	TRIGGER_TYPE,
	modelCredential,
	sandboxCredential,
	signingCredential,
	chatLoginCredential,
	promoterCenterJwtCredential,
	webhooksOf,
} = require('../support/n8n/n8nDemoData');
const { freePort, inTempFolder, postJson, stopProcess } = require('../support/services/processes');
const {
	DEFAULT_RELEASE,
	installRelease,
	matrixReleases,
	n8nRelease,
} = require('../support/n8n/n8nInstall');
const { createChecks } = require('./checks');
const { TRIGGER_NODE, triggerWorkflow } = require('../support/n8n/workflowBuilders');
const {
	PROVIDERS,
	TEST_SIGNING_SECRETS,
	apiCredentialsFor,
} = require('../support/payment/paymentSignatures');
const { ScriptedModel } = require('../support/services/scriptedModel');
const { Sandbox, KEYS, WRONG_SECRET } = require('../sandbox');
const {
	dataTableSupport,
	fitTypeVersions,
	loginBody,
	setUpOwner,
	withoutDataTables,
} = require('../support/n8n/n8nReleaseDifferences');
const {
	EVERY_OPERATION_SECRETS,
	assertEveryOperationRan,
	everyOperationWorkflow,
	photopalCredential,
} = require('./everyOperation');
const { checkWebhookExamples } = require('./webhookExampleChecks');
const { checkEachProviderOnce, providerWebhooks, providerWorkflows } = require('./webhookSecurity');
const { agentRepliesWithSandboxFigures, triggerEmitsAChange } = require('./triggerAndAgentChecks');
const { scenario } = require('../support/scenarios');
const { checkPromoterCenterDoors } = require('./promoterCenterChecks');
const { execute } = require('./topics/context');

/** The AI-tool variant n8n derives from a node with `usableAsTool` (n8n 1.60 and later here). */
const TOOL_TYPE = `${PACKAGE.name}.affiliateTrackingTool`;
const SECRETS = [...EVERY_OPERATION_SECRETS, ...Object.values(TEST_SIGNING_SECRETS)];
/** The ids the matrix imports its workflows under; the checks find their executions by them. */
const IDS = {
	operations: 'compatAllOps00001',
	trigger: 'compatTrigger0001',
	refund: 'compatRefundHook1',
	agent: 'compatAgentTools1',
	purchase: 'compatPurchaseHk1',
	promoterCenter: 'compatPromoterCtr',
};
/** The promoter the trigger watches. */
const WATCHED = 'user_1002';

/**
 * One release's checks after its (settled) install: its closing line and timings.
 * @param {string} version @param {string} tarball
 * @param {PromiseSettledResult<Awaited<ReturnType<typeof installRelease>>>} install
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
		// The matrix does not run the examples' data-table nodes (test:e2e does, on 2.41.1); it says
		// what they can do here.
		await check('examples (a), (b), (d) and (h): Data table node of this release', () => {
			const support = dataTableSupport(release);
			if (support === 'tables and rows')
				return 'table and row operations: (a), (b), (d) and (h) create their data tables on first run';
			if (support === 'rows only')
				return 'row operations only: create "Promoters to report", "Promoter statistics" and "Refund ledger" by hand and delete the examples\' create nodes (the checks below run (a), (d) and (h) without their data-table nodes)';
			return 'no Data table node: example (b) cannot run; delete the data-table nodes of (d), and of (a) and (h) (then refunds in parts are not added up; the checks below run them so)';
		});
		started = Date.now();
		await sandbox.start();
		// The test signers that name a URL of the sandbox's (PayPal's certificate URL) read it here.
		process.env.SANDBOX_URL = sandbox.url;
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
		const exampleD = readExample('d-promoter-center-embed.json');
		/** The workflows the import left to publish once n8n has started. @type {string[]} */
		let toPublish = [];
		await check(
			'credentials and workflows imported (n8n import:*), examples (a), (d), (e) and (h), one purchase workflow per payment provider and the trigger',
			async () => {
				await importCredentials(
					env,
					[
						sandboxCredential(sandbox.url, DEMO_KEY, DEMO_CREDENTIAL),
						photopalCredential(sandbox.url),
						modelCredential(model.url),
						...PROVIDERS.map(signingCredential),
						...apiCredentialsFor(sandbox.url),
						promoterCenterJwtCredential(),
						chatLoginCredential(),
					],
					release,
				);
				const changed = [exampleA, exampleE, exampleH, exampleD].flatMap((example) =>
					fitTypeVersions(release, example),
				);
				const withoutTables = /** @type {const} */ ([
					['a', exampleA],
					['h', exampleH],
					['d', exampleD],
				]).flatMap(([letter, workflow]) => {
					const removed = withoutDataTables(release, workflow);
					return removed.length > 0 ? [`(${letter}) without ${removed.join(', ')}`] : [];
				});
				/** @param {object} workflow @param {string} id */
				const activated = (workflow, id) => ({ workflow, id, publish: true });
				toPublish = await importWorkflows(
					env,
					[
						{
							workflow: everyOperationWorkflow(IDS.operations),
							id: IDS.operations,
							publish: false,
						},
						activated(triggerWorkflow({ name: 'Compat: trigger', userId: WATCHED }), IDS.trigger),
						activated(exampleA, IDS.refund),
						activated(exampleE, IDS.agent),
						activated(exampleH, IDS.purchase),
						activated(exampleD, IDS.promoterCenter),
						...providerWorkflows(),
					],
					release,
					{ publishLater: true },
				);
				return `${toPublish.length} to publish over REST once n8n has started${changed.length > 0 ? `; example typeVersions fitted to this release: ${changed.join(', ')}` : ''}${withoutTables.length > 0 ? `; ${withoutTables.join('; ')}` : ''}`;
			},
		);

		await check(
			'n8n execute: the every-operation fixture, all 13 operations against the sandbox',
			async () =>
				assertEveryOperationRan(await execute({ env, seenOutput: seen }, IDS.operations, release)),
		);

		const base = `http://127.0.0.1:${port}`;
		let cookie = '';
		/** The owner set up, and signed in. @param {string} at */
		const signIn = async (at) => {
			await setUpOwner(at);
			cookie = await signInToRest(at, loginBody(release));
			return cookie;
		};
		await check(
			"n8n start answers /healthz/readiness and registers the webhooks of examples (a), (d) and (h) and each provider's workflow",
			async () => {
				const started = await startN8nServing(
					{ ...env, N8N_LOG_LEVEL: 'info' },
					{
						port,
						release,
						logFile: serverLog,
						webhooks: [
							...[exampleA, exampleH, exampleD].flatMap(webhooksOf),
							...providerWebhooks(),
						],
						publish: { ids: toPublish, signIn },
					},
				);
				n8n = started.child;
				return `ready after ${started.readySeconds.toFixed(1)} s, webhook after ${started.webhooksSeconds.toFixed(1)} s`;
			},
		);
		if (!n8n) throw new Error(`n8n did not start; its log is ${serverLog}`);

		await check('the owner is set up and signs in', async () => {
			if (cookie === '') await signIn(base);
			// The session the start-up opened to publish is the one the checks below use.
			const answer = await fetch(`${base}/rest/login`, { headers: { cookie } });
			assert.equal(
				answer.status,
				200,
				`GET /rest/login with the owner's session: ${answer.status}`,
			);
			return `signed in with ${Object.keys(loginBody(release))[0]}`;
		});

		await check(
			`${scenario('e2e.releases')}: n8n loaded ${NODE_TYPE}, ${TRIGGER_TYPE}, ${PAYMENT_TRIGGER_TYPE}, ${PROVIDER_EVENTS_TYPE}, ${CREDENTIAL_TYPE}, ${SIGNING_CREDENTIAL_TYPE} and ${PROVIDER_API_CREDENTIAL_TYPE}`,
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
			const data = { baseUrl: sandbox.url, apiKey: DEMO_KEY, apiSecret, signatureVersion: 'v2' };
			const credentials = { ...DEMO_CREDENTIAL, type: CREDENTIAL_TYPE, data };
			const answer = await postJson(`${base}/rest/credentials/test`, { credentials }, { cookie });
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
				return agentRepliesWithSandboxFigures({
					sandbox,
					model,
					chatUrl: `${base}/webhook/${chat.webhookId}/chat`,
					session: 'compat-session',
					seen,
				});
			},
		);

		await check(
			'the trigger, active and polling every minute: the first poll is silent, a change in the sandbox is emitted',
			async () =>
				(
					await triggerEmitsAChange({
						base,
						cookie,
						sandbox,
						modules: release.modules,
						workflowId: IDS.trigger,
						triggerNode: TRIGGER_NODE,
						promoter: WATCHED,
						activity: { payingCustomers: 1, clicks: 3 },
						seen,
					})
				).summary,
		);

		await checkWebhookExamples({
			check,
			base,
			sandbox,
			seen,
			refund: exampleA,
			purchase: exampleH,
			cookie,
			refundWorkflowId: IDS.refund,
		});
		await checkEachProviderOnce({ check, base, sandbox, seen });

		await checkPromoterCenterDoors({ check, base, sandbox, seen });

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
			`${error instanceof Error ? error.message : error}\nusage: node e2e/test-compat.js [--tarball <file>] [n8n version…]`,
		);
		process.exit(2);
	}
}

async function main() {
	const { values, positionals } = parseArguments();
	// `--tarball <file>` tests a given package tarball (a published release, say) instead of packing dist/.
	const givenTarball = values.tarball === undefined ? undefined : path.resolve(values.tarball);
	// test:e2e runs every check here on the default release: the matrix runs it only when named.
	const versions = positionals.length > 0 ? positionals : matrixReleases();
	console.log(`COMPAT: ${PACKAGE.name}@${PACKAGE.version} in n8n ${versions.join(', ')}`);
	if (positionals.length === 0) {
		const release = n8nRelease(DEFAULT_RELEASE);
		console.log(
			`COMPAT n8n ${release.n8nVersion} (Node ${release.nodeVersion}): proven by test:e2e`,
		);
	}
	/** @type {Awaited<ReturnType<typeof runRelease>>[]} */
	const results = [];
	await inTempFolder('n8n-compat-pack-', async (work) => {
		const tarball = givenTarball ?? packPackage(work);
		// All installs at once: most of an install is downloading, and cold caches are CI's case.
		const installs = await Promise.allSettled(
			versions.map((version) =>
				installRelease(version, (line) => console.log(`[n8n ${version}] ${line}`)),
			),
		);
		for (const [index, version] of versions.entries())
			results.push(await runRelease(version, tarball, installs[index]));
	});
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
