// @ts-check
'use strict';
/** Files of the repository, for the tests (the community lint forbids file access in .ts tests). */
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

/** @param {string} path from the repository root */
function readRepoFile(path) {
	return readFileSync(join(__dirname, '..', '..', path), 'utf8');
}

/** Every file below `folder`, by its path from the repository root. @param {string} folder */
function filesUnder(folder) {
	return readdirSync(join(__dirname, '..', '..', folder), {
		recursive: true,
		encoding: 'utf8',
	}).map((name) => `${folder}/${name.split('\\').join('/')}`);
}

module.exports = { filesUnder, readRepoFile };
