// @ts-check
'use strict';
/** A file of the repository as text, for the tests (the community lint forbids file access in .ts tests). */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

/** @param {string} path from the repository root */
function readRepoFile(path) {
	return readFileSync(join(__dirname, '..', '..', path), 'utf8');
}

module.exports = { readRepoFile };
