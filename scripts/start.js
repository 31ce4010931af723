#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm start`: a real n8n with this package installed as a community package, a demo
 * credential pointing at a local sandbox, and the examples, on http://127.0.0.1:5678.
 * Ctrl-C stops n8n and the sandbox.
 *
 * Environment: N8N_PORT (5678), SANDBOX_PORT (8787), N8N_DEMO_FOLDER (harness/.n8n-home).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const {
	N8N_VERSION,
	installDefaultRelease,
	importDemo,
	installPackedPackage,
	n8nEnvironment,
	startN8nServing,
} = require('../harness/n8nInstance');
const {
	DEMO_CREDENTIAL,
	DEMO_KEY,
	DEMO_OWNER,
	TESTING_DIR,
	EXAMPLES,
	MCP_DEMO_TOKEN,
	PACKAGE,
	ROOT_DIR,
	exampleWebhooks,
} = require('../harness/n8nDemoData');
const { freePort, isStoppingAll, stopAllAndExit } = require('../harness/processes');
const { Sandbox } = require('../sandbox/server');
const { ScriptedModel } = require('../harness/scriptedModel');

const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 8787);
const USER_FOLDER = path.resolve(
	process.env.N8N_DEMO_FOLDER ?? path.join(TESTING_DIR, '.n8n-home'),
);
/** Written once the examples are imported, so that a restart keeps the user's edits. */
const EXAMPLES_MARKER = path.join(USER_FOLDER, '.examples-imported');
const N8N_LOG = path.join(USER_FOLDER, 'n8n.log');
const STEPS = 6;

const started = Date.now();
/** @param {number} step @param {string} text */
function progress(step, text) {
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(`[${step}/${STEPS}] ${text} (${seconds} s)`);
}

/*
 * Ctrl-C, and a failure, stop n8n with harness/processes.js's stopAllAndExit; the sandbox and the
 * model run in this process and end with it.
 */
async function main() {
	progress(1, 'Building the package');
	const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT_DIR, stdio: 'inherit' });
	if (build.status !== 0) throw new Error('npm run build failed (see above)');

	progress(2, `Setting up n8n ${N8N_VERSION} (harness/n8nInstall.js)`);
	await installDefaultRelease((line) => console.log(`      ${line}`));

	progress(3, `Starting the sandbox on 127.0.0.1:${SANDBOX_PORT}`);
	const sandbox = new Sandbox({ port: SANDBOX_PORT });
	try {
		await sandbox.start();
	} catch (error) {
		throw new Error(
			`The sandbox could not listen on 127.0.0.1:${SANDBOX_PORT} (${error instanceof Error ? error.message : error}). Stop what uses it or set SANDBOX_PORT.`,
		);
	}

	progress(4, `Installing the packed package into ${path.join(USER_FOLDER, '.n8n', 'nodes')}`);
	installPackedPackage(USER_FOLDER);

	const firstRun = !fs.existsSync(EXAMPLES_MARKER);
	const env = n8nEnvironment({
		userFolder: USER_FOLDER,
		port: N8N_PORT,
		brokerPort: await freePort(),
		logLevel: 'info',
		owner: DEMO_OWNER,
	});
	progress(
		5,
		firstRun
			? 'Importing the demo credential and the examples (first run)'
			: 'Importing the demo credential (examples were imported on the first run)',
	);
	// Example (e)'s model: the scripted stand-in, on a free port (its credential is refreshed).
	const model = new ScriptedModel();
	await model.start();
	await importDemo({ ...env, N8N_LOG_LEVEL: 'warn' }, sandbox.url, model.url, firstRun);
	if (firstRun) fs.writeFileSync(EXAMPLES_MARKER, new Date().toISOString());

	progress(6, `Starting n8n on http://127.0.0.1:${N8N_PORT} (log: ${N8N_LOG})`);
	const { child: n8n } = await startN8nServing(env, {
		port: N8N_PORT,
		logFile: N8N_LOG,
		webhooks: exampleWebhooks(),
	});
	n8n.once('exit', (code) => {
		if (isStoppingAll()) return;
		console.error(`n8n exited with ${code}; see ${N8N_LOG}`);
		void stopAllAndExit(1);
	});

	const base = `http://127.0.0.1:${N8N_PORT}`;
	console.log(`
${PACKAGE.name} in n8n ${N8N_VERSION} is ready after ${((Date.now() - started) / 1000).toFixed(1)} s

  Open      ${base}
  Sign in   ${DEMO_OWNER.email} / ${DEMO_OWNER.password}
  Credential "${DEMO_CREDENTIAL.name}": ${DEMO_KEY} (v2) on the sandbox ${sandbox.url}
  Examples  ${EXAMPLES.map((example) => example.file.replace(/\.json$/, '')).join(', ')}

  Try the published webhooks (Stripe events signed with the demo signing secret; add --unsigned
  to see the 401 a forged one gets):
    npm run send:webhook -- ${base}/webhook/payment-succeeded/webhook purchase pi_demo_1 buyer_1
    npm run send:webhook -- ${base}/webhook/payment-refunded/webhook refund txn_1002
    and in a browser: ${base}/webhook/promoter-center?user_id=user_1001

  Example e's chat (an AI agent with the node as its tool; its model is a scripted stand-in
  on ${model.url} that always looks up the user ID you name): open the workflow and press
  "Open chat", then ask for example "How is promoter user_1001 doing?"

  The trigger of example f polls every minute; give promoter user_1002 a paying customer:
    curl -X POST ${sandbox.url}/__sandbox/activity -H 'Content-Type: application/json' \\
      -d '{"product":"prd_videomax","userId":"user_1002","payingCustomers":1}'
    and a later poll starts an execution with the chat message (the first one only records).

  Example g is an MCP server: point an MCP client (Streamable HTTP) at
    ${base}/mcp/affiliate-tracking   with the header   Authorization: Bearer ${MCP_DEMO_TOKEN}

Press Ctrl-C to stop n8n and the sandbox.`);
}

main().catch((error) => {
	console.error(`npm start failed: ${error instanceof Error ? error.message : error}`);
	void stopAllAndExit(1);
});
