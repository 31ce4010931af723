// @ts-check
'use strict';
/**
 * `npm run build` unless dist/ was built from these very sources. npm test (before its
 * integration tests), scan and every suite in a real n8n run it, so that each works alone;
 * .ci/run runs seven, and `n8n-node build` takes about 15 s each time. The hash of what the build
 * reads (tsconfig.json's `include`, the icons it copies, the config files) is kept in
 * node_modules/.cache, outside the published dist/.
 */
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const INPUTS = ['index.ts', 'package.json', 'tsconfig.json', 'credentials', 'nodes', 'icons'];
const STAMP = path.join(
	ROOT,
	'node_modules',
	'.cache',
	'n8n-nodes-affiliate-tracking',
	'build-hash',
);
/** A file every build writes (tsc emits it from package.json): without it, dist/ is rebuilt. */
const BUILT = path.join(ROOT, 'dist', 'package.json');

/**
 * Every file under `entry`, relative to the root, sorted.
 * @param {string} entry @returns {string[]}
 */
function filesUnder(entry) {
	const full = path.join(ROOT, entry);
	if (!fs.existsSync(full)) return [];
	if (!fs.statSync(full).isDirectory()) return [entry];
	return fs
		.readdirSync(full)
		.sort()
		.flatMap((name) => filesUnder(path.join(entry, name)));
}

function sourceHash() {
	const hash = createHash('sha256');
	for (const file of INPUTS.flatMap(filesUnder)) {
		hash.update(`${file}\0`);
		hash.update(fs.readFileSync(path.join(ROOT, file)));
	}
	return hash.digest('hex');
}

const current = sourceHash();
const built = fs.existsSync(STAMP) && fs.existsSync(BUILT) ? fs.readFileSync(STAMP, 'utf8') : '';
if (built === current) {
	console.log('dist/ is built from these sources (scripts/build-if-changed.js): not rebuilt');
} else {
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const { status } = spawnSync(npm, ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
	if (status !== 0) process.exit(status ?? 1);
	fs.mkdirSync(path.dirname(STAMP), { recursive: true });
	fs.writeFileSync(STAMP, current);
}
