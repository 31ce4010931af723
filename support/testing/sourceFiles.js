// @ts-check
'use strict';
/**
 * The TypeScript sources of the package, read from disk for test/package/layers.unit.test.ts (the
 * community lint forbids file access in .ts tests).
 */
const { readdirSync, readFileSync } = require('node:fs');
const { join, posix } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/**
 * Every .ts file below the given folders, by its path from the repository root.
 * @param {string[]} folders @returns {Array<{ path: string; source: string }>}
 */
function readSources(folders) {
	return folders.flatMap((folder) =>
		readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
			.filter((name) => name.endsWith('.ts'))
			.map((name) => posix.join(folder, name.split('\\').join('/')))
			.map((path) => ({ path, source: readFileSync(join(ROOT, path), 'utf8') })),
	);
}

module.exports = { readSources };
