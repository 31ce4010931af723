#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm start`: a real n8n with this package installed as a community package, a demo
 * credential pointing at a local sandbox, and the examples, on http://127.0.0.1:5678.
 * Ctrl-C stops n8n and the sandbox.
 *
 * Environment: N8N_PORT (5678), SANDBOX_PORT (8787), N8N_DEMO_FOLDER (support/.n8n-home).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// Only the claim is loaded before the ports and the demo home are claimed (support/n8n/demoClaim.js).
const { DEFAULT_DEMO_HOME, DemoClaimError, claimDemo } = require('../support/n8n/demoClaim');

const N8N_PORT = Number(process.env.N8N_PORT ?? 5678);
const SANDBOX_PORT = Number(process.env.SANDBOX_PORT ?? 8787);
const USER_FOLDER = path.resolve(process.env.N8N_DEMO_FOLDER ?? DEFAULT_DEMO_HOME);
/** Written once the examples are imported, so that a restart keeps the user's edits. */
const EXAMPLES_MARKER = path.join(USER_FOLDER, '.examples-imported');
const N8N_LOG = path.join(USER_FOLDER, 'n8n.log');
/** How many times npm start ran on this user folder: the demo's transaction IDs are new each time. */
const STARTS_FILE = path.join(USER_FOLDER, '.starts');
const STEPS = 6;

const started = Date.now();
/** @param {number} step @param {string} text */
function progress(step, text) {
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.log(`[${step}/${STEPS}] ${text} (${seconds} s)`);
}

/*
 * Ctrl-C, and a failure, stop n8n with support/services/processes.js's stopAllAndExit; the sandbox and the
 * model run in this process and end with it.
 */
async function main() {
	const releasePort = await claimDemo({
		home: USER_FOLDER,
		ports: [
			{ name: 'N8N_PORT', port: N8N_PORT },
			{ name: 'SANDBOX_PORT', port: SANDBOX_PORT },
		],
		n8nUrl: `http://127.0.0.1:${N8N_PORT}`,
	});
	const {
		N8N_VERSION,
		installDefaultRelease,
		importDemo,
		installPackedPackage,
		n8nEnvironment,
		startN8nServing,
	} = require('../support/n8n/n8nInstance');
	const {
		DEMO_CREDENTIAL,
		DEMO_KEY,
		DEMO_OWNER,
		EXAMPLES,
		MCP_DEMO_TOKEN,
		PACKAGE,
		ROOT_DIR,
		demoCommands,
		demoCommandsText,
		exampleWebhooks,
	} = require('../support/n8n/n8nDemoData');
	const { freePort, isStoppingAll, stopAllAndExit } = require('../support/services/processes');
	const { Sandbox } = require('../sandbox');
	const { ScriptedModel } = require('../support/services/scriptedModel');

	progress(1, 'Building the package');
	const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT_DIR, stdio: 'inherit' });
	if (build.status !== 0) throw new Error('npm run build failed (see above)');

	progress(2, `Setting up n8n ${N8N_VERSION} (support/n8n/n8nInstall.js)`);
	await installDefaultRelease((line) => console.log(`      ${line}`));

	progress(3, `Starting the sandbox on 127.0.0.1:${SANDBOX_PORT}`);
	const sandbox = new Sandbox({ port: SANDBOX_PORT });
	await releasePort(SANDBOX_PORT);
	await sandbox.start();

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
	await releasePort(N8N_PORT);
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
	const starts =
		(fs.existsSync(STARTS_FILE) ? Number(fs.readFileSync(STARTS_FILE, 'utf8')) : 0) + 1;
	fs.writeFileSync(STARTS_FILE, `${starts}\n`);
	const commands = demoCommandsText(
		demoCommands({ n8nUrl: base, sandboxUrl: sandbox.url, start: starts }),
	).replace(/^/gm, '  ');
	console.log(`
${PACKAGE.name} in n8n ${N8N_VERSION} is ready after ${((Date.now() - started) / 1000).toFixed(1)} s

  Open      ${base}
  Sign in   ${DEMO_OWNER.email} / ${DEMO_OWNER.password}
  Sandbox   ${sandbox.url}, in the credential "${DEMO_CREDENTIAL.name}" with the key
            ${DEMO_KEY} (v2); its secret and the other test keys are in sandbox/seed.js
  Examples  ${EXAMPLES.map((example) => example.file.replace(/\.json$/, '')).join(', ')}

  Try the published examples (Stripe events signed with the demo signing secret):

${commands}

  Example (d), the promoter center: open the link that the command above prints in a browser.

  Example (e)'s chat: open the workflow and press "Open chat", then ask "How is promoter
  user_1001 doing?" Its AI agent has the node as its tool; its model is a scripted stand-in on
  ${model.url} that looks up the user ID you name.

  Example (g) is an MCP server: point an MCP client (Streamable HTTP) at
  ${base}/mcp/affiliate-tracking with the header Authorization: Bearer ${MCP_DEMO_TOKEN}

Press Ctrl-C to stop n8n and the sandbox.`);
}

main().catch((error) => {
	if (error instanceof DemoClaimError) {
		// Nothing was started or changed: say why and stop.
		console.error(`npm start stopped: ${error.message}`);
		process.exit(1);
	}
	console.error(`npm start failed: ${error instanceof Error ? error.message : error}`);
	const { stopAllAndExit } = require('../support/services/processes');
	void stopAllAndExit(1);
});
