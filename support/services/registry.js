// @ts-check
'use strict';
/**
 * A real npm registry on 127.0.0.1 (Verdaccio) for the queue-mode test: the package is published to
 * it the way the release workflow publishes it, and installed from it the way n8n's docs tell
 * queue-mode and Docker users to install community packages: `npm install <package>` in each
 * instance's ~/.n8n/nodes. Verdaccio is installed from support/services/registry/ into support/services/.registry (a
 * dot folder: `n8n-node build` copies every *.png, *.svg and __schema__ file outside the top-level
 * node_modules into dist/, and skips only dot folders).
 */
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { defaultReleaseNode, installSourceHash } = require('../n8n/n8nInstance');
const { PACKAGE, ROOT_DIR } = require('../n8n/n8nDemoData');
const { packedFiles } = require('../n8n/pack');
const { NPM_QUIET, freePort, runCaptured, stopProcess, track, waitUntil } = require('./processes');

const SOURCE_DIR = path.join(__dirname, 'registry');
const INSTALL_DIR = path.join(__dirname, '.registry');
const VERDACCIO = path.join(INSTALL_DIR, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
const INSTALL_MARKER = path.join(INSTALL_DIR, 'node_modules', '.installed-from');

/** Installs Verdaccio from e2e/registry's lock file when it is missing or the lock changed (about 10 s). @param {(line: string) => void} log */
function ensureRegistry(log) {
	const hash = installSourceHash(SOURCE_DIR);
	if (
		fs.existsSync(VERDACCIO) &&
		fs.existsSync(INSTALL_MARKER) &&
		fs.readFileSync(INSTALL_MARKER, 'utf8').trim() === hash
	)
		return;
	log('Installing Verdaccio into support/services/.registry…');
	fs.mkdirSync(INSTALL_DIR, { recursive: true });
	for (const file of ['package.json', 'package-lock.json', '.npmrc'])
		fs.copyFileSync(path.join(SOURCE_DIR, file), path.join(INSTALL_DIR, file));
	runCaptured('npm', ['ci', ...NPM_QUIET], { cwd: INSTALL_DIR });
	fs.writeFileSync(INSTALL_MARKER, `${hash}\n`);
}

/**
 * Starts Verdaccio with its storage in `<folder>/registry`. Packages it does not hold come from the
 * registry npm is configured with (its uplink), so that an install resolves as on npmjs.com.
 * @param {string} folder
 */
async function startRegistry(folder) {
	const home = path.join(folder, 'registry');
	fs.mkdirSync(path.join(home, 'storage'), { recursive: true });
	const uplink = runCaptured('npm', ['config', 'get', 'registry'], { cwd: folder }).trim();
	const port = await freePort();
	const url = `http://127.0.0.1:${port}/`;
	const config = [
		`storage: ${JSON.stringify(path.join(home, 'storage'))}`,
		'auth:',
		'  htpasswd:',
		`    file: ${JSON.stringify(path.join(home, 'htpasswd'))}`,
		'uplinks:',
		'  upstream:',
		`    url: ${JSON.stringify(uplink)}`,
		'    timeout: 60s',
		'packages:',
		`  ${JSON.stringify(PACKAGE.name)}:`,
		'    access: $all',
		'    publish: $authenticated',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'    proxy: upstream',
		'log: { type: stdout, format: json, level: warn }',
	].join('\n');
	const configFile = path.join(home, 'config.yaml');
	fs.writeFileSync(configFile, `${config}\n`);
	const args = [VERDACCIO, '--config', configFile, '--listen', `127.0.0.1:${port}`];
	const server = track(
		spawn(defaultReleaseNode(), args, { cwd: home, stdio: ['ignore', 'ignore', 'pipe'] }),
	);
	let errors = '';
	server.stderr?.on('data', (chunk) => (errors = (errors + chunk).slice(-4000)));
	try {
		await waitUntil(async () => (await fetch(`${url}-/ping`).catch(() => undefined))?.ok, {
			timeoutMs: 60_000,
			intervalMs: 200,
			child: server,
			what: `Verdaccio answering on ${url}`,
			detail: () => errors,
		});
	} catch (error) {
		await stopProcess(server); // at once when it has exited
		throw error;
	}
	// A publisher account: Verdaccio creates it on npm's adduser call and answers with a token.
	const user = `publisher-${port}`;
	const added = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
		method: 'PUT',
		headers: { 'Content-Type': 'application/json' },
		body: JSON.stringify({ name: user, password: crypto.randomBytes(12).toString('hex') }),
	});
	const { token } = /** @type {{ token?: string }} */ (await added.json());
	if (!added.ok || !token)
		throw new Error(`Verdaccio refused a publisher account (${added.status})`);
	const npmrc = path.join(home, 'npmrc');
	fs.writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`, {
		mode: 0o600,
	});
	return {
		url,
		/** An npm user config pointing at this registry, with the publisher's token. */
		npmrc,
		async stop() {
			await stopProcess(server);
			fs.rmSync(home, { recursive: true, force: true });
		},
	};
}

/**
 * Publishes the built package as the release workflow does: `npm publish` (n8n-node release's
 * last step) of what `npm pack` takes, to this registry.
 * @param {{ url: string, npmrc: string }} registry @param {string} folder
 * @returns {{ files: number, unpackedSize: number }}
 */
function publishAsReleased(registry, folder) {
	if (!fs.existsSync(path.join(ROOT_DIR, 'dist', 'index.js')))
		throw new Error('dist/ is missing: run `npm run build` first.');
	const staging = path.join(folder, 'release');
	fs.rmSync(staging, { recursive: true, force: true });
	fs.mkdirSync(staging, { recursive: true });
	// A copy of what `npm pack` takes: the registry gets the files a release publishes, no others.
	for (const file of packedFiles()) {
		fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
		fs.copyFileSync(path.join(ROOT_DIR, file), path.join(staging, file));
	}
	fs.copyFileSync(path.join(ROOT_DIR, '.npmrc'), path.join(staging, '.npmrc'));
	const env = { ...process.env, npm_config_userconfig: registry.npmrc };
	const output = JSON.parse(
		runCaptured('npm', ['publish', '--json', '--registry', registry.url], { cwd: staging, env }),
	);
	const published = output[PACKAGE.name] ?? output;
	return { files: published.entryCount, unpackedSize: published.unpackedSize };
}

/**
 * What a user runs on each n8n instance: `npm install <package>` in ~/.n8n/nodes, from the
 * registry (n8n's docs for queue mode and Docker). `beside` are packages another community
 * package would bring along, installed afterwards without their install scripts (n8n-workflow's
 * tree holds isolated-vm, whose native build needs Node's headers from the internet). Returns what
 * landed in node_modules.
 * @param {{ url: string }} registry @param {string} userFolder @param {string[]} [beside]
 */
function installFromRegistry(registry, userFolder, beside = []) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	if (!fs.existsSync(path.join(nodesDir, 'package.json')))
		fs.writeFileSync(
			path.join(nodesDir, 'package.json'),
			JSON.stringify({ name: 'installed-nodes', private: true }, null, 2),
		);
	// An empty user config: the install depends on nothing but the registry.
	const options = {
		cwd: nodesDir,
		env: { ...process.env, npm_config_userconfig: path.join(nodesDir, '.npmrc-none') },
	};
	const install = ['install', '--registry', registry.url, ...NPM_QUIET];
	runCaptured('npm', [...install, PACKAGE.name], options);
	if (beside.length > 0) runCaptured('npm', [...install, '--ignore-scripts', ...beside], options);
	return describeInstall(path.join(nodesDir, 'node_modules'));
}

/**
 * The packages npm placed under a node_modules folder (from npm's own record of it,
 * node_modules/.package-lock.json) and the bytes of all its files.
 * @param {string} modules
 */
function describeInstall(modules) {
	const record = JSON.parse(fs.readFileSync(path.join(modules, '.package-lock.json'), 'utf8'));
	const packages = Object.keys(record.packages)
		.map((key) => key.replace(/^node_modules\//, ''))
		.sort();
	let bytes = 0;
	for (const entry of fs.readdirSync(modules, { recursive: true, withFileTypes: true }))
		if (entry.isFile()) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size;
	return { packages, bytes };
}

module.exports = { ensureRegistry, installFromRegistry, publishAsReleased, startRegistry };
