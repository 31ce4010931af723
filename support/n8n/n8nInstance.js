// @ts-check
'use strict';
/**
 * The real n8n beside the package, shared by `npm start`, `npm run test:e2e`, the queue and
 * version-matrix runs and the benchmarks: installing the packed package as n8n's installer does,
 * running n8n's CLI (importing support/n8n/n8nDemoData.js's credentials and examples), and
 * starting and stopping its server.
 */
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { installRelease, installSourceHash, n8nRelease, nodeBinary } = require('./n8nInstall');
const { packPackage } = require('./pack');
const { activateArgs, forImport } = require('./n8nReleaseDifferences');
const { publishOverRest, restApiUp } = require('./publishOverRest');
const {
	fail,
	forEachOutputLine,
	inTempFolder,
	outputOf,
	postJson,
	runOrThrow,
	sleep,
	stopProcess,
	track,
	waitUntil,
} = require('../services/processes');
const {
	CREDENTIAL_TYPE,
	EXAMPLES,
	NODE_TYPE,
	PACKAGE,
	PAYMENT_TRIGGER_TYPE,
	PROVIDER_API_CREDENTIAL_TYPE,
	PROVIDER_EVENTS_TYPE,
	SIGNING_CREDENTIAL_TYPE,
	TRIGGER_TYPE,
	demoCredentials,
	readExample,
} = require('./n8nDemoData');

/** The n8n release these runs use (support/n8n/n8nInstall.js installs it). */
const DEFAULT_N8N = n8nRelease();
const DEFAULT_N8N_MODULES = DEFAULT_N8N.modules;
const N8N_VERSION = DEFAULT_N8N.n8nVersion;

/** The Node binary the default release runs on (Node 24 for n8n 2.41). */
function defaultReleaseNode() {
	return nodeBinary(DEFAULT_N8N);
}

/** Installs the default release when it is missing or its manifest changed. @param {(line: string) => void} log
 */
async function installDefaultRelease(log) {
	await installRelease(DEFAULT_N8N, log);
}

/** The built package packed and installed as a community package. @param {string} userFolder */
function installPackedPackage(userFolder) {
	const packDir = fs.mkdtempSync(path.join(os.tmpdir(), 'affiliate-tracking-pack-'));
	try {
		return installAsCommunityPackage(packPackage(packDir), userFolder);
	} finally {
		fs.rmSync(packDir, { recursive: true, force: true });
	}
}

/**
 * Installs a tarball into `<userFolder>/.n8n/nodes` with the steps of n8n 2.41's
 * community-packages.service (downloadPackage): extract into node_modules/<name>, drop
 * devDependencies, peerDependencies and optionalDependencies, `npm install` there with scripts
 * off, then record the package in nodes/package.json.
 * @param {string} tarball @param {string} userFolder
 * @returns {{ directory: string, packageJson: Record<string, unknown> }}
 */
function installAsCommunityPackage(tarball, userFolder) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const directory = path.join(nodesDir, 'node_modules', PACKAGE.name);
	fs.rmSync(directory, { recursive: true, force: true });
	fs.mkdirSync(directory, { recursive: true });
	runOrThrow('tar', ['-xzf', tarball, '-C', directory, '--strip-components=1'], { stdio: 'pipe' });
	const packageJsonPath = path.join(directory, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...packageJson } = JSON.parse(
		fs.readFileSync(packageJsonPath, 'utf8'),
	);
	fs.writeFileSync(packageJsonPath, JSON.stringify(packageJson, null, 2), 'utf8');
	runOrThrow(
		'npm',
		[
			'install',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--install-strategy=shallow',
			'--ignore-scripts=true',
			'--package-lock=false',
			'--loglevel=error',
		],
		{ cwd: directory, stdio: 'pipe' },
	);
	const nodesPackageJsonPath = path.join(nodesDir, 'package.json');
	const nodesPackageJson = fs.existsSync(nodesPackageJsonPath)
		? JSON.parse(fs.readFileSync(nodesPackageJsonPath, 'utf8'))
		: { name: 'installed-nodes', private: true };
	nodesPackageJson.dependencies = {
		...nodesPackageJson.dependencies,
		[PACKAGE.name]: packageJson.version,
	};
	fs.writeFileSync(nodesPackageJsonPath, JSON.stringify(nodesPackageJson, null, 2), 'utf8');
	return { directory, packageJson };
}

/**
 * The environment of every n8n process: its own user folder, loopback only, nothing that calls
 * home (this machine has no network beyond loopback and the npm registry).
 * @param {{ userFolder: string, port: number, brokerPort: number, logLevel?: string, owner?: { email: string, password: string } }} options
 * @returns {NodeJS.ProcessEnv}
 */
function n8nEnvironment({ userFolder, port, brokerPort, logLevel = 'warn', owner }) {
	/** @type {NodeJS.ProcessEnv} */
	const env = {
		...process.env,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_LOG_LEVEL: logLevel,
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
	};
	if (owner) {
		const bcrypt = require(path.join(DEFAULT_N8N_MODULES, 'bcryptjs'));
		Object.assign(env, {
			N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
			N8N_INSTANCE_OWNER_EMAIL: owner.email,
			N8N_INSTANCE_OWNER_FIRST_NAME: 'Demo',
			N8N_INSTANCE_OWNER_LAST_NAME: 'Owner',
			N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(owner.password, 10),
		});
	}
	return env;
}

/**
 * Runs one n8n CLI command to its end, of the default release or of `release`.
 * @param {string[]} args @param {NodeJS.ProcessEnv} env @param {import('./n8nInstall').N8nRelease} [release]
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }>}
 */
function runN8n(args, env, release = DEFAULT_N8N) {
	return outputOf(spawnN8n(release, args, env));
}

/**
 * n8n's CLI of `release`, its output piped; `detached` leads a process group (killed as one).
 * @param {import('./n8nInstall').N8nRelease} release @param {string[]} args
 * @param {NodeJS.ProcessEnv} env
 */
function spawnN8n(release, args, env, detached = false) {
	const child = spawn(nodeBinary(release), [release.cli, ...args], {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached,
	});
	return track(child, { group: detached });
}

/**
 * `n8n execute` of a workflow in the database, with `--rawOutput`: its exit, its output and the
 * run it printed (null when it printed none). The one-shot CLI evaluates expressions with n8n's
 * legacy engine: n8n 2.41.1's default engine, `vm`, keeps refilling its isolated-vm pool while
 * `execute` calls `process.exit()`, and the process then dies of SIGSEGV after printing a
 * successful run (2 in 40 runs of example (d) on a loaded machine here; the core dump showed an
 * isolated-vm thread compiling inside V8 during exit). `n8n start`, which the webhook, editor and
 * queue checks use, keeps the default engine.
 * @param {NodeJS.ProcessEnv} env @param {string} workflowId @param {import('./n8nInstall').N8nRelease} [release]
 */
async function executeWorkflow(env, workflowId, release = DEFAULT_N8N) {
	const result = await runN8n(
		['execute', `--id=${workflowId}`, '--rawOutput'],
		{ ...env, N8N_LOG_LEVEL: 'info', N8N_EXPRESSION_ENGINE: 'legacy' },
		release,
	);
	return { ...result, run: parseRun(result.stdout) };
}

/**
 * The run `n8n execute --rawOutput` prints as indented JSON among log lines, or null.
 * @param {string} stdout
 * @returns {{ status: string, data: { resultData: { runData: Record<string, { data: { main: ({ json: any, binary?: any }[] | null)[] }, error?: { message: string } }[]>, error?: { message: string } } } } | null}
 */
function parseRun(stdout) {
	const start = stdout.search(/^\{$/m);
	const end = stdout.indexOf('\n}', start);
	return start === -1 || end === -1 ? null : JSON.parse(stdout.slice(start, end + 2));
}

/**
 * An n8n CLI command that throws with its output when it fails.
 * @param {string[]} args @param {NodeJS.ProcessEnv} env @param {import('./n8nInstall').N8nRelease} [release]
 */
async function runN8nOrThrow(args, env, release = DEFAULT_N8N) {
	const result = await runN8n(args, env, release);
	if (result.code !== 0) {
		throw fail(
			`n8n ${args.join(' ')} exited with ${result.code ?? result.signal}:\n${result.stdout}\n${result.stderr}`,
		);
	}
	return result;
}
/**
 * Imports the demo credential, and the examples when `withExamples`, into the user folder's
 * database (n8n has to be stopped: the CLI and the server share the SQLite file), with the CLI of
 * `release` (default 2.41.1). Returns the published examples' ids left to publish (importWorkflows'
 * `publishLater`).
 * @param {NodeJS.ProcessEnv} env @param {string} sandboxUrl @param {string} modelUrl the scripted model's base URL
 * @param {boolean} withExamples @param {import('./n8nInstall').N8nRelease} [release]
 * @param {{ publishLater?: boolean }} [options]
 * @returns {Promise<string[]>}
 */
async function importDemo(
	env,
	sandboxUrl,
	modelUrl,
	withExamples,
	release = DEFAULT_N8N,
	{ publishLater = false } = {},
) {
	await importCredentials(env, demoCredentials(sandboxUrl, modelUrl), release);
	if (!withExamples) return [];
	return importWorkflows(
		env,
		EXAMPLES.map((example) => ({
			workflow: readExample(example.file),
			id: example.id,
			publish: example.published,
		})),
		release,
		{ publishLater },
	);
}

/**
 * Imports credentials given in `n8n import:credentials` form ({ id, name, type, data }) with the
 * CLI of `release`; the file holding them in clear is readable by its owner only and deleted at
 * once.
 * @param {NodeJS.ProcessEnv} env @param {{ id: string, name: string, type: string, data: Record<string, unknown> }[]} credentials
 * @param {import('./n8nInstall').N8nRelease} [release]
 */
async function importCredentials(env, credentials, release = DEFAULT_N8N) {
	await inTempFolder('n8n-import-', async (staging) => {
		const credentialsFile = path.join(staging, 'credentials.json');
		fs.writeFileSync(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
		await runN8nOrThrow(['import:credentials', `--input=${credentialsFile}`], env, release);
	});
}
/**
 * Imports workflows under the given ids with `release`'s CLI, activating those marked `publish`.
 * With `publishLater` it leaves them to startN8nServing's `publish` (over REST, one request each
 * instead of one CLI process each) and returns their ids; without, it returns an empty list.
 * @param {NodeJS.ProcessEnv} env @param {{ workflow: object, id: string, publish: boolean }[]} workflows
 * @param {import('./n8nInstall').N8nRelease} [release] @param {{ publishLater?: boolean }} [options]
 * @returns {Promise<string[]>}
 */
async function importWorkflows(
	env,
	workflows,
	release = DEFAULT_N8N,
	{ publishLater = false } = {},
) {
	const toPublish = workflows.filter((w) => w.publish).map(({ id }) => id);
	await inTempFolder('n8n-import-', async (staging) => {
		for (const { workflow, id } of workflows)
			fs.writeFileSync(
				path.join(staging, `${id}.json`),
				JSON.stringify(forImport(release, { ...workflow, id })),
			);
		await runN8nOrThrow(['import:workflow', '--separate', `--input=${staging}`], env, release);
		if (!publishLater)
			for (const id of toPublish) await runN8nOrThrow(activateArgs(release, id), env, release);
	});
	return publishLater ? toPublish : [];
}

/**
 * Starts `n8n start` (or another n8n command, such as `worker`) and resolves once
 * /healthz/readiness answers on `port` (a worker's health-check port). It runs in a process group
 * of its own, with its task runner, so that both can be killed at once (n8n starts the runner
 * with an environment of its own choosing, and a runner outlives a SIGKILLed n8n). `release` is
 * the n8n release to start (default 2.41.1).
 * @param {NodeJS.ProcessEnv} env
 * @param {{ port: number, onOutput: (line: string) => void, timeoutMs?: number, args?: string[], release?: import('./n8nInstall').N8nRelease }} options
 */
async function startN8n(
	env,
	{ port, onOutput, timeoutMs = 120_000, args = ['start'], release = DEFAULT_N8N },
) {
	const child = spawnN8n(release, args, env, true);
	forEachOutputLine(child, onOutput);
	const host = env.N8N_LISTEN_ADDRESS ?? '127.0.0.1';
	try {
		await waitUntil(
			() =>
				fetch(`http://${host}:${port}/healthz/readiness`).then(
					(answer) => answer.ok,
					() => false, // not listening yet
				),
			{
				timeoutMs,
				intervalMs: 250,
				child,
				what: `n8n ${args.join(' ')} answering /healthz/readiness on ${host}:${port}`,
			},
		);
	} catch (error) {
		await stopProcess(child); // at once when it has exited
		throw error;
	}
	return child;
}

/** The REST API's session cookie, signed in with `body` (its release's). @param {string} base @param {object} body */
async function signInToRest(base, body) {
	const answer = await postJson(`${base}/rest/login`, body);
	assert.equal(answer.status, 200, await answer.text());
	return answer.headers
		.getSetCookie()
		.map((entry) => entry.split(';')[0])
		.join('; ');
}

/**
 * Checks that a running n8n loaded the package's node and credential types.
 * @param {string} base @param {string} cookie
 */
async function assertPackageLoaded(base, cookie) {
	/** @param {string} file */
	const types = async (file) => {
		const answer = await fetch(`${base}/types/${file}`, { headers: { cookie } });
		assert.equal(answer.status, 200, `/types/${file}: ${answer.status}`);
		return /** @type {{ name: string }[]} */ (await answer.json());
	};
	const nodes = await types('nodes.json');
	const credentials = await types('credentials.json');
	for (const [listed, file, wanted] of /** @type {const} */ ([
		[nodes, 'nodes.json', [NODE_TYPE, TRIGGER_TYPE, PAYMENT_TRIGGER_TYPE, PROVIDER_EVENTS_TYPE]],
		[
			credentials,
			'credentials.json',
			[CREDENTIAL_TYPE, SIGNING_CREDENTIAL_TYPE, PROVIDER_API_CREDENTIAL_TYPE],
		],
	]))
		for (const type of wanted)
			assert.ok(
				listed.some((entry) => entry.name === type),
				`${type} not in /types/${file}`,
			);
	return `${nodes.length} node types, ${credentials.length} credential types`;
}
/**
 * Waits until n8n serves each webhook: /healthz answers before the published workflows are
 * activated. A CORS preflight asks without running the workflow; n8n answers it with the
 * webhook's methods once the webhook is registered.
 * @param {number} port @param {{ method: string, path: string }[]} webhooks @param {number} [timeoutMs]
 * @param {string} [host] the address n8n listens on
 */
async function waitForWebhooks(port, webhooks, timeoutMs = 60_000, host = '127.0.0.1') {
	/** @param {{ method: string, path: string }} webhook */
	const registered = async (webhook) => {
		const answer = await fetch(`http://${host}:${port}/webhook/${webhook.path}`, {
			method: 'OPTIONS',
			headers: { Origin: 'http://127.0.0.1', 'Access-Control-Request-Method': webhook.method },
		});
		await answer.arrayBuffer();
		return (
			answer.status === 204 &&
			answer.headers.get('access-control-allow-methods')?.includes(webhook.method)
		);
	};
	// One wait, one deadline for them all: each webhook in turn, until the last one answers.
	let next = 0;
	await waitUntil(
		async () => {
			while (next < webhooks.length && (await registered(webhooks[next]))) next++;
			return next === webhooks.length;
		},
		{
			timeoutMs,
			intervalMs: 250,
			what: `n8n registering ${webhooks.length} webhooks on port ${port}`,
			detail: () =>
				`not registered: ${webhooks[next].method} /webhook/${webhooks[next].path} (${next} of ${webhooks.length} were)`,
		},
	);
}

/**
 * n8n's answer, logged with its stack, to a request for a webhook it has not registered (yet).
 * n8n 2.x registers the published workflows' webhooks after it prints that it is ready, and logs
 * nothing at info level when it has, so the start-up's probes get these answers.
 */
const NOT_REGISTERED =
	/^ResponseError: (The requested webhook ".*" is not registered|This webhook is not registered for)/;

/**
 * `n8n start` of `release` with its output appended to `logFile`, until it is ready and serves
 * each of `webhooks` (stopped again when it does not). Returns the process and the seconds from
 * the start to ready and to the webhooks served. n8n's "not registered" errors (and their stack
 * traces) answering the start-up's own probes are left out of the log, which says how many: they
 * are the state the probes wait out, not a fault. `publish`: workflows imported with
 * `publishLater`, published over REST once n8n is ready, in the session `signIn` opens.
 * @param {NodeJS.ProcessEnv} env
 * @param {{ port: number, logFile: string, webhooks: { method: string, path: string }[], release?: import('./n8nInstall').N8nRelease,
 *   publish?: { ids: string[], signIn: (base: string) => Promise<string> } }} options
 */
async function startN8nServing(env, { port, logFile, webhooks, release, publish }) {
	const log = fs.createWriteStream(logFile, { flags: 'a' });
	const started = Date.now();
	let probing = true;
	let inProbeAnswer = false;
	let probeAnswers = 0;
	const child = await startN8n(env, {
		port,
		release,
		onOutput: (line) => {
			if (probing && NOT_REGISTERED.test(line)) {
				inProbeAnswer = true;
				probeAnswers++;
				return;
			}
			// The stack trace's lines follow the error's.
			if (inProbeAnswer && /^\s+at /.test(line)) return;
			inProbeAnswer = false;
			log.write(`${line}\n`);
		},
	});
	const readySeconds = (Date.now() - started) / 1000;
	try {
		if (publish && publish.ids.length > 0) {
			const base = `http://127.0.0.1:${port}`;
			await restApiUp(base);
			await publishOverRest({ base, cookie: await publish.signIn(base) }, publish.ids);
		}
		await waitForWebhooks(port, webhooks, undefined, env.N8N_LISTEN_ADDRESS);
		// The last refused probe's error can reach the pipe after its answer reached us.
		await sleep(500);
	} catch (error) {
		await stopProcess(child);
		throw error;
	} finally {
		probing = false;
	}
	log.write(
		`(${probeAnswers} "not registered" answers to the start-up's probes left out of this log)\n`,
	);
	return { child, readySeconds, webhooksSeconds: (Date.now() - started) / 1000 };
}

module.exports = {
	DEFAULT_N8N,
	DEFAULT_N8N_MODULES,
	N8N_VERSION,
	assertPackageLoaded,
	installDefaultRelease,
	executeWorkflow,
	importCredentials,
	importDemo,
	importWorkflows,
	installAsCommunityPackage,
	installPackedPackage,
	installSourceHash,
	n8nEnvironment,
	defaultReleaseNode,
	runN8nOrThrow,
	signInToRest,
	startN8n,
	startN8nServing,
	waitForWebhooks,
};
