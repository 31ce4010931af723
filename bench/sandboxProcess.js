// @ts-check
'use strict';
/** The sandbox in a process of its own for the benchmarks, so that their CPU time is the client's. */
const { spawn } = require('node:child_process');
const path = require('node:path');
const { request } = require('undici');
const { track } = require('../support/services/processes');

const ROOT = path.resolve(__dirname, '..');

/** Starts `npm run sandbox` as a child process on a free port. */
async function startSandbox() {
	const child = track(
		spawn(process.execPath, [path.join(ROOT, 'sandbox', 'cli.js'), '--port', '0'], {
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	);
	const url = await new Promise((resolve, reject) => {
		let out = '';
		child.stdout.on('data', (chunk) => {
			out += chunk;
			const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
			if (match) resolve(match[1]);
		});
		child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
	});
	child.stdout.resume();
	return { url: /** @type {string} */ (url), stop: () => child.kill('SIGTERM') };
}

/** @param {string} url @param {string} route @param {object} [body] */
async function control(url, route, body) {
	// A connection of its own, closed after the answer: a kept-alive one could be closed by the
	// sandbox's keep-alive timeout just as it is reused ("other side closed").
	const response = await request(`${url}/__sandbox/${route}`, {
		method: body ? 'POST' : 'GET',
		body: body ? JSON.stringify(body) : undefined,
		reset: true,
	});
	return /** @type {any} */ (await response.body.json());
}

module.exports = { control, startSandbox };
