// @ts-check
'use strict';
/**
 * Runs one of scripts/ in a Node.js child process and collects its exit code and output, and a
 * local HTTP server for it to call, for the tests of the commands the README prints. Here, in
 * JavaScript, because the community-node lint forbids child_process and node:http in the
 * TypeScript tests.
 */
const { spawn } = require('node:child_process');
const http = require('node:http');
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

/**
 * A server on 127.0.0.1 answering every request with `status` and `{"answered": status}`, keeping
 * what it received; `close()` frees its port.
 * @param {number} status
 */
async function answeringServer(status) {
	/** @type {{ headers: http.IncomingHttpHeaders, body: string }[]} */
	const received = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			received.push({ headers: req.headers, body });
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ answered: status }));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}/webhook/payment-succeeded/webhook`,
		received,
		/** @returns {Promise<void>} */
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

module.exports = { answeringServer, runScript };
