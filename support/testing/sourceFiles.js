// @ts-check
'use strict';
/**
 * The TypeScript sources of the package, read from disk for test/package/layers.unit.test.ts (the
 * community lint forbids file access in .ts tests).
 */
const { filesUnder, readRepoFile } = require('./repoFile');

/**
 * Every .ts file below the given folders, by its path from the repository root.
 * @param {string[]} folders @returns {Array<{ path: string; source: string }>}
 */
function readSources(folders) {
	return folders
		.flatMap(filesUnder)
		.filter((path) => path.endsWith('.ts'))
		.map((path) => ({ path, source: readRepoFile(path) }));
}

module.exports = { readSources };
