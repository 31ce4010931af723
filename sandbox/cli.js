#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run sandbox [-- --port 8787] [--latency 20] [--max-concurrent 20]`: runs the sandbox until Ctrl-C.
 */
const { parseArgs } = require('node:util');

const { Sandbox } = require('./server');
const { KEYS } = require('./seed');

const USAGE = 'usage: npm run sandbox [-- --port 8787] [--latency 20] [--max-concurrent 20]';

/** The options given; on a bad one, exits with the parser's message (it names the option). */
function parseOptions() {
	try {
		return parseArgs({
			options: {
				port: { type: 'string' },
				latency: { type: 'string' },
				'max-concurrent': { type: 'string' },
			},
		}).values;
	} catch (error) {
		console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
		process.exit(2);
	}
}

const OPTIONS = parseOptions();

/** @param {keyof typeof OPTIONS} name @param {number} fallback */
function numberOption(name, fallback) {
	const given = OPTIONS[name];
	if (given === undefined) return fallback;
	const value = Number(given);
	if (!Number.isFinite(value) || value < 0) {
		console.error(`--${name} needs a number, got "${given}"`);
		process.exit(2);
	}
	return value;
}

async function main() {
	const sandbox = new Sandbox({
		port: numberOption('port', Number(process.env.SANDBOX_PORT ?? 8787)),
		latencyMs: numberOption('latency', 0),
		maxConcurrent: numberOption('max-concurrent', Infinity),
	});
	const url = await sandbox.start();
	console.log(`Affiliate tracking sandbox listening on ${url}`);
	console.log("Use it as the credential's Base URL. Test keys (public fixtures, valid only here):");
	for (const [apiKey, key] of Object.entries(KEYS)) {
		const notes = [
			key.status && key.status !== 'active' ? key.status : '',
			key.permissions ? `permissions: ${key.permissions.join(', ')}` : '',
			key.allowlist ? `allowlist: ${key.allowlist.join(', ')}` : '',
		]
			.filter(Boolean)
			.join('; ');
		console.log(
			`  ${apiKey.padEnd(24)} ${key.secret.padEnd(32)} ${key.version}  ${key.product}${notes ? `  (${notes})` : ''}`,
		);
	}
	console.log('Press Ctrl-C to stop.');
	const stop = async () => {
		await sandbox.stop();
		console.log(`Sandbox stopped after ${sandbox.requestCount} requests.`);
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
