// @ts-check
'use strict';
/**
 * Installs the packed package into a new app folder the way npm does for a user of the library:
 * the tarball extracted into node_modules/<name>, with n8n-workflow (its peer) beside it.
 */
const { spawnSync } = require('node:child_process');
const { mkdirSync, mkdtempSync, rmSync, symlinkSync } = require('node:fs');
const { createRequire } = require('node:module');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

/** @param {string} command @param {string[]} args @param {string} cwd */
function run(command, args, cwd) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
	return result.stdout;
}

/**
 * @param {string} packageDir the built package
 * @returns {{ requireFromApp: (name: string) => unknown, remove: () => void }}
 */
function installIntoApp(packageDir) {
	const app = mkdtempSync(join(tmpdir(), 'affiliate-tracking-app-'));
	const tarball = /** @type {string} */ (
		run('npm', ['pack', '--silent', '--pack-destination', app], packageDir).trim().split('\n').pop()
	);
	const name = /** @type {{ name: string }} */ (require(join(packageDir, 'package.json'))).name;
	const installed = join(app, 'node_modules', name);
	mkdirSync(installed, { recursive: true });
	run('tar', ['-xzf', join(app, tarball), '-C', installed, '--strip-components=1'], app);
	symlinkSync(
		join(packageDir, 'node_modules', 'n8n-workflow'),
		join(app, 'node_modules', 'n8n-workflow'),
	);
	return {
		requireFromApp: (module) => createRequire(join(app, 'server.js'))(module),
		remove: () => rmSync(app, { recursive: true, force: true }),
	};
}

module.exports = { installIntoApp };
