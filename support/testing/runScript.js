// @ts-check
'use strict';
/**
 * Runs one of scripts/ in a Node.js child process and collects its exit code and output, a local
 * HTTP server for it to call (or whose port it finds busy), and a process holding a demo home as
 * a running `npm start` does, for the tests of the commands the README prints. Here, in
 * JavaScript, because the community-node lint forbids child_process and node:http in the
 * TypeScript tests.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const { outputOf } = require('../services/processes');

const ROOT = join(__dirname, '..', '..');

/**
 * @param {string} script its path from the repository root
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options] env is added to this
 *   process's environment; after timeoutMs the script is killed (SIGKILL), so that a test that
 *   fails leaves no run behind
 */
function runScript(script, args, { env = {}, timeoutMs } = {}) {
	const child = spawn(process.execPath, [join(ROOT, script), ...args], {
		cwd: ROOT,
		env: { ...process.env, ...env },
		timeout: timeoutMs,
		killSignal: 'SIGKILL',
	});
	return outputOf(child);
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

/**
 * A Node.js process that claims `home` and `ports` as `npm start` does (support/n8n/demoClaim.js)
 * and holds them until `stop()`, which lets it exit as Ctrl-C does.
 * @param {string} home @param {{ name: string, port: number }[]} ports
 * @returns {Promise<{ pid: number, stop: () => Promise<void> }>}
 */
async function holdDemo(home, ports) {
	const claim = join(ROOT, 'support', 'n8n', 'demoClaim.js');
	const program = `require(${JSON.stringify(claim)}).claimDemo(${JSON.stringify({ home, ports, n8nUrl: 'http://127.0.0.1:0' })})
		.then(() => { console.log('claimed'); process.stdin.on('end', () => process.exit(0)).resume(); });`;
	const child = spawn(process.execPath, ['-e', program], { stdio: ['pipe', 'pipe', 'inherit'] });
	await new Promise((resolve, reject) => {
		child.stdout.once('data', resolve);
		child.once('exit', (code) => reject(new Error(`the demo holder exited with ${code}`)));
	});
	return {
		pid: /** @type {number} */ (child.pid),
		stop: () =>
			new Promise((resolve) => {
				child.once('exit', () => resolve());
				child.stdin.end();
			}),
	};
}

/**
 * A demo home in a temp folder with what `npm start` leaves in one (a log, the start count, the
 * examples' marker, n8n's folder), and `files()`: every file below it with its bytes and mtime,
 * to compare before and after.
 */
function demoHome() {
	const home = fs.mkdtempSync(join(tmpdir(), 'affiliate-tracking-demo-home-'));
	fs.mkdirSync(join(home, '.n8n'));
	fs.writeFileSync(join(home, '.n8n', 'database.sqlite'), "the first demo's n8n database");
	fs.writeFileSync(join(home, 'n8n.log'), "the first demo's log\n");
	fs.writeFileSync(join(home, '.starts'), '3\n');
	fs.writeFileSync(join(home, '.examples-imported'), '2026-01-01T00:00:00.000Z');
	return {
		home,
		/** @returns {Record<string, string>} each file's path under the home: its bytes and mtime */
		files: () =>
			Object.fromEntries(
				fs
					.readdirSync(home, { recursive: true, withFileTypes: true })
					.filter((entry) => entry.isFile())
					.map((entry) => {
						const file = join(entry.parentPath, entry.name);
						const text = fs.readFileSync(file, 'utf8');
						return [file.slice(home.length + 1), `${text} @${fs.statSync(file).mtimeMs}`];
					}),
			),
		remove: () => fs.rmSync(home, { recursive: true, force: true }),
	};
}

module.exports = { answeringServer, demoHome, holdDemo, runScript };
