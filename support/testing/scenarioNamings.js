// @ts-check
'use strict';
/**
 * Where the tests name their scenarios (support/scenarios.js), for
 * test/package/scenarios.unit.test.ts: each scenario() call in test/ and e2e/, and the layer a
 * file's place gives its tests.
 */
const { filesUnder, readRepoFile } = require('./repoFile');

/** @typedef {import('../scenarios').Layer} Layer */

/** Where tests live, and the layer a file's place gives its tests. */
const TEST_FOLDERS = ['test', 'e2e'];
const TEST_FILE = /\.(unit|engine|contract|package)\.test\.ts$/;

/**
 * The layer of a test file by its path: its suffix under test/, e2e under e2e/, null elsewhere.
 * @param {string} path from the repository root @returns {Layer | null}
 */
function layerOfFile(path) {
	if (path.startsWith('e2e/')) return 'e2e';
	const match = TEST_FILE.exec(path);
	return match === null ? null : /** @type {Layer} */ (match[1]);
}

/**
 * Every place a test names a scenario: each call of scenario() in test/ and e2e/, by file and
 * line. A call whose argument is no string literal is listed with `id: null`, so that no id hides.
 * @returns {Array<{ id: string | null; path: string; line: number }>}
 */
function scenarioNamings() {
	const call = /\bscenario\(\s*(?:(['"`])([^'"`$]+)\1\s*\))?/g;
	return TEST_FOLDERS.flatMap(filesUnder)
		.filter((path) => /\.(ts|js)$/.test(path))
		.flatMap((path) => {
			const source = readRepoFile(path);
			return [...source.matchAll(call)].map((match) => ({
				id: match[2] ?? null,
				path,
				line: source.slice(0, match.index).split('\n').length,
			}));
		});
}

module.exports = { layerOfFile, scenarioNamings };
