// @ts-check
'use strict';
/**
 * Process helpers of the end-to-end runs, the version matrix and the benchmarks, apart from
 * anything n8n-specific (that is e2e/n8n.js and e2e/n8nInstall.js): commands run to their end,
 * long ones with progress, free loopback ports, and stopping a process.
 */
const { spawn, spawnSync } = require('node:child_process');
const net = require('node:net');

/** @param {string} message */
function fail(message) {
	const error = new Error(message);
	error.name = 'SetupError';
	return error;
}

/** @param {string} command @param {string[]} args @param {import('node:child_process').SpawnSyncOptions} options */
function runOrThrow(command, args, options) {
	const result = spawnSync(command, args, { stdio: 'inherit', ...options });
	if (result.status !== 0) {
		const output = result.stderr ? `:\n${result.stderr}` : '';
		throw fail(
			`${command} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}${output}`,
		);
	}
	return result;
}

/**
 * Runs a command with its output captured and returns its standard output; throws with its
 * standard error when it fails.
 * @param {string} command @param {string[]} args @param {import('node:child_process').SpawnSyncOptions} [options]
 */
function runCaptured(command, args, options = {}) {
	return String(runOrThrow(command, args, { encoding: 'utf8', stdio: 'pipe', ...options }).stdout);
}

/**
 * Runs a long command with a progress line every 20 seconds (npm prints none when its output is
 * not a terminal).
 * @param {string} command @param {string[]} args @param {import('node:child_process').SpawnOptions} options
 * @param {(line: string) => void} log @param {() => string} describeProgress
 * @returns {Promise<void>}
 */
function runWithProgress(command, args, options, log, describeProgress) {
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { stdio: 'inherit', ...options });
		const timer = setInterval(
			() => log(`  … ${Math.round((Date.now() - started) / 1000)} s, ${describeProgress()}`),
			20_000,
		);
		child.once('error', reject);
		child.once('exit', (code, signal) => {
			clearInterval(timer);
			if (code === 0) resolve();
			else reject(fail(`${command} ${args.join(' ')} failed with exit code ${code ?? signal}`));
		});
	});
}

/** A free TCP port on 127.0.0.1. @returns {Promise<number>} */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

/**
 * `signal` (SIGTERM), then SIGKILL after `graceMs`; resolves when the process has exited.
 * @param {import('node:child_process').ChildProcess} child @param {number} [graceMs]
 * @param {NodeJS.Signals} [signal]
 */
function stopProcess(child, graceMs = 15_000, signal = 'SIGTERM') {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
		child.once('exit', () => {
			clearTimeout(kill);
			resolve(undefined);
		});
		child.kill(signal);
	});
}

/** Resolves after `ms`. @param {number} ms @returns {Promise<void>} */
function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

module.exports = { fail, freePort, runCaptured, runOrThrow, runWithProgress, sleep, stopProcess };
