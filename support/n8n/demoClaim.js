// @ts-check
'use strict';
/**
 * What `npm start` (scripts/start.js) claims before it changes anything: the demo home, through
 * a PID file naming the `npm start` that uses it, and its two ports, held by listeners of its own
 * until the sandbox and n8n take them. A second `npm start` on the same home, or one whose port is
 * busy, stops here, naming the running demo or the port and its variable, and leaves the home's
 * files as they were: before, it rebuilt the package, re-imported the shared demo credential with
 * a dead sandbox's URL and only then found n8n's port busy. It loads Node's built-ins and
 * processes.js (built-ins only) and nothing else, so that it runs before the rest is loaded.
 */
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const { processIsAlive } = require('../services/processes');

/** The demo home unless N8N_DEMO_FOLDER names another: git ignores it. */
const DEFAULT_DEMO_HOME = path.join(__dirname, '..', '.n8n-home');
/** In the demo home while an `npm start` uses it: `{ pid, n8nUrl, startedAt }`. */
const PID_FILE = 'npm-start.pid.json';

/**
 * @typedef {{ pid: number, n8nUrl: string, startedAt: string }} RunningDemo
 * @typedef {{ name: string, port: number }} NamedPort a port and the variable that sets it
 */

/** Thrown when the demo cannot start; its message says why and what to do. */
class DemoClaimError extends Error {}

/**
 * The demo that holds `home`, when its PID file names a process that still runs.
 * @param {string} home @returns {RunningDemo | undefined}
 */
function runningDemo(home) {
	let running;
	try {
		running = /** @type {RunningDemo} */ (
			JSON.parse(fs.readFileSync(path.join(home, PID_FILE), 'utf8'))
		);
	} catch {
		return undefined; // none, or a file cut short: no demo to name
	}
	return Number.isInteger(running.pid) && processIsAlive(running.pid) ? running : undefined;
}

/**
 * Throws when another `npm start` runs on `home`, naming its PID.
 * @param {string} home
 */
function assertNoDemoRunning(home) {
	const running = runningDemo(home);
	if (running === undefined) return;
	throw new DemoClaimError(
		`npm start is already running on ${home} (PID ${running.pid}, n8n on ${running.n8nUrl}, since ${running.startedAt}). ` +
			'Stop it with Ctrl-C in its terminal, or give this one a home of its own with N8N_DEMO_FOLDER (and other ports).',
	);
}

/**
 * Listens on each port on 127.0.0.1 and holds it; resolves with a function that frees one port
 * (for the server about to listen on it). A busy port rejects, naming the port and its variable;
 * the ports claimed so far are freed.
 * @param {NamedPort[]} ports @returns {Promise<(port: number) => Promise<void>>}
 */
async function claimPorts(ports) {
	/** @type {Map<number, net.Server>} */
	const held = new Map();
	const release = (/** @type {number} */ port) =>
		new Promise((resolve) => {
			const server = held.get(port);
			held.delete(port);
			if (server) server.close(() => resolve(undefined));
			else resolve(undefined);
		}).then(() => undefined);
	for (const { name, port } of ports) {
		const server = net.createServer((socket) => socket.destroy());
		try {
			await new Promise((resolve, reject) => {
				server.once('error', reject);
				server.listen(port, '127.0.0.1', () => resolve(undefined));
			});
		} catch (error) {
			await Promise.all([...held.keys()].map(release));
			const code = /** @type {NodeJS.ErrnoException} */ (error).code;
			throw new DemoClaimError(
				code === 'EADDRINUSE'
					? `Port ${port} (${name}) is in use on 127.0.0.1. Stop what uses it, or set ${name} to a free port.`
					: `Port ${port} (${name}) cannot be used on 127.0.0.1 (${code}). Set ${name} to another port.`,
			);
		}
		server.unref();
		held.set(port, server);
	}
	return release;
}

/**
 * Claims the demo home and the ports, in that order, before anything changes: throws a
 * DemoClaimError when another demo runs on the home or a port is busy. Then writes the PID file,
 * removed when this process exits, and resolves with the function that frees a held port.
 * @param {{ home: string, ports: NamedPort[], n8nUrl: string }} demo
 */
async function claimDemo({ home, ports, n8nUrl }) {
	assertNoDemoRunning(home);
	const release = await claimPorts(ports);
	fs.mkdirSync(home, { recursive: true });
	const pidFile = path.join(home, PID_FILE);
	/** @type {RunningDemo} */
	const running = { pid: process.pid, n8nUrl, startedAt: new Date().toISOString() };
	const text = `${JSON.stringify(running)}\n`;
	try {
		fs.writeFileSync(pidFile, text, { flag: 'wx' });
	} catch {
		// A file left by a demo that no longer runs is replaced; one that started meanwhile wins.
		assertNoDemoRunning(home);
		fs.writeFileSync(pidFile, text);
	}
	process.once('exit', () => {
		if (runningDemo(home)?.pid === process.pid) fs.rmSync(pidFile, { force: true });
	});
	return release;
}

module.exports = { DEFAULT_DEMO_HOME, DemoClaimError, PID_FILE, claimDemo };
