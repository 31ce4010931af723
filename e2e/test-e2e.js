#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run test:e2e`: the packed package in a real n8n, the way users get it: installed as n8n's
 * community-package installer does, the examples imported and run headless with `n8n execute`,
 * then `n8n start` serving them to the topics of e2e/topics/, run in order with the context set
 * up here (sandbox, scripted model, SMTP server, user folder, outputs for the secret scan).
 *
 * Needs the default n8n release installed (done here when missing) and Chromium (from
 * scripts/setup-system.sh, or CHROMIUM_PATH); without it the run stops at once and says so. Prints
 * one line per check and `E2E: N passed, N failed`.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {
	DEFAULT_N8N,
	installDefaultRelease,
	n8nEnvironment,
	startN8nServing,
	assertPackageLoaded,
	signInToRest,
} = require('../support/n8n/n8nInstance');
const {
	DEMO_OWNER,
	PACKAGE,
	exampleWebhooks,
	NODE_TYPE,
	PAYMENT_TRIGGER_TYPE,
	PROVIDER_EVENTS_TYPE,
	TRIGGER_TYPE,
} = require('../support/n8n/n8nDemoData');
const { loginBody } = require('../support/n8n/n8nReleaseDifferences');
const { freePort, stopProcess } = require('../support/services/processes');
const { Sandbox } = require('../sandbox');
const { ScriptedModel } = require('../support/services/scriptedModel');
const { SmtpServer } = require('../support/services/smtpServer');
const { createChecks } = require('./checks');
const { webhookSecurityWebhooks } = require('./webhookSecurity');
const { CHROMIUM, notRegisteredErrors } = require('./topics/context');
const { installChecks } = require('./topics/install');
const { exampleChecks } = require('./topics/examples');
const { reportChecks, reportSetup, reportWebhooks } = require('./topics/report');
const { httpRequestChecks } = require('./topics/httpRequest');
const { webhookChecks } = require('./topics/webhooks');
const { browserChecks } = require('./topics/browser');
const { doorsChecks, doorsWebhooks } = require('./topics/doors');
const { agentChecks } = require('./topics/agent');
const { pollingTriggerChecks, startPollingTrigger } = require('./topics/pollingTrigger');
const { demoChecks } = require('./topics/demo');
const { secretChecks } = require('./topics/secrets');
const { scenario } = require('../support/scenarios');

const { check, counts, abort, finish } = createChecks('E2E');
/** Every text n8n gave back, scanned for the API secret at the end. */
const seenOutput = /** @type {string[]} */ ([]);

/** The system packages come from scripts/setup-system.sh; a test only looks for them. */
function requireChromium() {
	if (fs.existsSync(CHROMIUM)) return;
	throw new Error(
		`Chromium is missing at ${CHROMIUM}: run \`bash scripts/setup-system.sh\` (Debian/Ubuntu) once, or set CHROMIUM_PATH to a Chromium or Chrome you have.`,
	);
}

async function main() {
	const startedAt = Date.now();
	console.log(`E2E: ${PACKAGE.name}@${PACKAGE.version} in a real n8n`);
	await installDefaultRelease((line) => console.log(line));
	requireChromium();

	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	const userFolder = path.join(work, 'user');
	fs.mkdirSync(userFolder);
	const sandbox = new Sandbox({ port: 0 });
	const model = new ScriptedModel();
	const smtp = new SmtpServer();
	for (const server of [sandbox, model, smtp]) await server.start();
	// The test signers that name a URL of the sandbox's (PayPal's certificate URL) read it here.
	process.env.SANDBOX_URL = sandbox.url;
	const port = await freePort();
	const env = n8nEnvironment({ userFolder, port, brokerPort: await freePort() });
	/** @type {import('node:child_process').ChildProcess | undefined} */
	let n8n;
	try {
		console.log(`Sandbox ${sandbox.url}, user folder ${userFolder}`);

		/** @type {import('./topics/context').Context} */
		const context = {
			check,
			sandbox,
			model,
			work,
			userFolder,
			env,
			base: `http://127.0.0.1:${port}`,
			serverLog: path.join(work, 'n8n.log'),
			seenOutput,
			toPublish: [],
		};
		await installChecks(context);
		await exampleChecks(context);
		await reportSetup(context, smtp.port);
		await httpRequestChecks(context);

		const { base, serverLog } = context;
		await check(scenario('e2e.serving'), async () => {
			const webhooks = [
				...exampleWebhooks(),
				...webhookSecurityWebhooks(),
				...reportWebhooks(),
				...doorsWebhooks(),
			];
			const started = await startN8nServing(
				{
					...n8nEnvironment({
						userFolder,
						port,
						brokerPort: await freePort(),
						logLevel: 'info',
						owner: DEMO_OWNER,
					}),
					// n8n 2.x deletes an unsaved execution at its next pruning pass (15 minutes by
					// default; docs/promoter-center.md): once a minute here, for the doors' "nothing kept".
					EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL: '1',
				},
				{
					port,
					logFile: serverLog,
					webhooks,
					publish: {
						ids: context.toPublish,
						signIn: (base) => signInToRest(base, loginBody(DEFAULT_N8N)),
					},
				},
			);
			n8n = started.child;
			const unregistered = notRegisteredErrors(serverLog);
			if (unregistered.length > 0)
				throw new Error(
					`n8n's start-up log holds ${unregistered.length} 'not registered' errors, first: ${unregistered[0]}`,
				);
			return `ready after ${started.readySeconds.toFixed(1)} s, ${context.toPublish.length} workflows published over REST, ${webhooks.length} webhooks after ${started.webhooksSeconds.toFixed(1)} s`;
		});
		if (!n8n) throw new Error(`n8n did not start; its log is ${serverLog}`);

		let cookie = '';
		await check('the owner account signs in', async () => {
			cookie = await signInToRest(base, loginBody(DEFAULT_N8N));
		});

		await check(
			`n8n loaded ${NODE_TYPE}, ${TRIGGER_TYPE}, ${PAYMENT_TRIGGER_TYPE}, ${PROVIDER_EVENTS_TYPE} and the three credential types`,
			() => assertPackageLoaded(base, cookie),
		);

		/** @type {import('./topics/context').Started} */
		const signedIn = { ...context, cookie };
		await webhookChecks(signedIn);
		await reportChecks(signedIn, smtp);
		// Example (f)'s wait for its next poll runs beside the checks up to its own.
		const emitted = startPollingTrigger(signedIn);
		await browserChecks(signedIn);
		await doorsChecks(signedIn);
		await agentChecks(signedIn);
		await pollingTriggerChecks(signedIn, emitted);
		await demoChecks(signedIn);
		await secretChecks(signedIn);
	} finally {
		if (n8n) await stopProcess(n8n);
		for (const server of [sandbox, model, smtp]) await server.stop();
		if (counts.failed === 0) fs.rmSync(work, { recursive: true, force: true });
		else console.log(`Kept ${work} for inspection (user folder, n8n.log).`);
	}
	console.log(`E2E took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}

main().catch(abort).finally(finish);
