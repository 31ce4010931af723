// @ts-check
'use strict';
/**
 * `npm pack` of the built package, the one place that packs it: the e2e install, the version
 * matrix, `npm start`, bench:n8n, the registry's publish, n8n's scanner (scripts/scan.mjs) and the
 * package tests (support/n8n/installIntoApp.js) all take the tarball from here. npm's scripts are
 * off (.npmrc), so `dist/` must be built first. Also the one listing of what is in a node_modules.
 */
const fs = require('node:fs');
const path = require('node:path');

const { runCaptured } = require('../services/processes');

const ROOT_DIR = path.resolve(__dirname, '..', '..');

/** @param {string[]} args @param {string} packageDir */
function npmPack(args, packageDir) {
	if (!fs.existsSync(path.join(packageDir, 'dist', 'index.js')))
		throw new Error(`${path.join(packageDir, 'dist')} is missing: run \`npm run build\` first.`);
	const output = runCaptured('npm', ['pack', '--json', ...args], { cwd: packageDir });
	const [packed] = /** @type {{ filename: string, files: { path: string }[] }[]} */ (
		JSON.parse(output)
	);
	return packed;
}

/**
 * Packs the package into `destination` and returns the tarball's path.
 * @param {string} destination @param {string} [packageDir] the clone's root unless given
 */
function packPackage(destination, packageDir = ROOT_DIR) {
	return path.join(destination, npmPack(['--pack-destination', destination], packageDir).filename);
}

/**
 * The files `npm pack` takes (a dry run), relative to the package's folder.
 * @param {string} [packageDir] the clone's root unless given
 */
function packedFiles(packageDir = ROOT_DIR) {
	return npmPack(['--dry-run'], packageDir).files.map((file) => file.path);
}

/**
 * The packages directly under a node_modules folder, scoped ones as @scope/name; none when the
 * folder does not exist.
 * @param {string} modules
 */
function installedPackages(modules) {
	if (!fs.existsSync(modules)) return [];
	return fs
		.readdirSync(modules)
		.filter((entry) => !entry.startsWith('.'))
		.flatMap((entry) =>
			entry.startsWith('@')
				? fs.readdirSync(path.join(modules, entry)).map((name) => `${entry}/${name}`)
				: [entry],
		);
}

module.exports = { installedPackages, packPackage, packedFiles };
