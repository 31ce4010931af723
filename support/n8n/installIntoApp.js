// @ts-check
'use strict';
/**
 * Installs the packed package into a new app folder the way npm does for a user of the library:
 * the tarball extracted into node_modules/<name>, with n8n-workflow (its peer) beside it; or with
 * `npm install <tarball>` itself, to see what npm adds.
 */
const {
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} = require('node:fs');
const { createRequire } = require('node:module');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const { installedPackages, packPackage } = require('./pack');
const { runCaptured } = require('../services/processes');

/**
 * @param {string} packageDir the built package
 * @returns {{ requireFromApp: (name: string) => unknown, remove: () => void }}
 */
function installIntoApp(packageDir) {
	const app = mkdtempSync(join(tmpdir(), 'affiliate-tracking-app-'));
	const tarball = packPackage(app, packageDir);
	const name = /** @type {{ name: string }} */ (require(join(packageDir, 'package.json'))).name;
	const installed = join(app, 'node_modules', name);
	mkdirSync(installed, { recursive: true });
	runCaptured('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], { cwd: app });
	symlinkSync(
		join(packageDir, 'node_modules', 'n8n-workflow'),
		join(app, 'node_modules', 'n8n-workflow'),
	);
	return {
		requireFromApp: (module) => createRequire(join(app, 'server.js'))(module),
		remove: () => rmSync(app, { recursive: true, force: true }),
	};
}

/**
 * `npm pack` of the built package, then `npm install <tarball>` into a new app, as a user's
 * install does.
 * @param {string} packageDir the built package
 * @returns {{ manifest: Record<string, unknown>, installed: string[], texts: () => Array<{ file: string, text: string }>, remove: () => void }}
 *   the packed package.json, the packages npm put under the app's node_modules, and every file
 *   the tarball holds, by its path in the package, as text
 */
function packAndInstall(packageDir) {
	const folder = mkdtempSync(join(tmpdir(), 'affiliate-tracking-pack-'));
	const tarball = packPackage(folder, packageDir);
	const extracted = join(folder, 'extracted');
	mkdirSync(extracted);
	runCaptured('tar', ['-xzf', tarball, '-C', extracted, '--strip-components=1'], { cwd: folder });
	const app = join(folder, 'app');
	mkdirSync(app);
	writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
	runCaptured('npm', ['install', tarball, '--ignore-scripts', '--no-audit', '--no-fund'], {
		cwd: app,
	});
	return {
		manifest: JSON.parse(readFileSync(join(extracted, 'package.json'), 'utf8')),
		installed: installedPackages(join(app, 'node_modules')),
		texts: () =>
			readdirSync(extracted, { recursive: true, encoding: 'utf8' })
				.filter((name) => statSync(join(extracted, name)).isFile())
				.map((name) => ({ file: name, text: readFileSync(join(extracted, name), 'utf8') })),
		remove: () => rmSync(folder, { recursive: true, force: true }),
	};
}

module.exports = { installIntoApp, packAndInstall };
