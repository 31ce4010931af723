// @ts-check
'use strict';
/**
 * A Node.js child process running `script`, for the tests of support/services/processes.js. Here, in
 * JavaScript, because the community-node lint forbids child_process in the TypeScript tests.
 */
const { spawn } = require('node:child_process');

/** @param {string} script @returns {import('node:child_process').ChildProcess} */
function nodeChild(script) {
	return spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
}

module.exports = { nodeChild };
