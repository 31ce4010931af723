// @ts-check
'use strict';
/**
 * n8n-core's log in the harness: what its logger writes (a failed node's error, reported by its
 * ErrorReporter, for one) is kept here instead of the console, where each test that proves an
 * error printed it between jest's PASS lines. runWorkflow.js and pollTrigger.js scan each run's
 * lines for the API secret, as they scan the run; a test may read them.
 */
const { createRequire } = require('node:module');
const { Writable } = require('node:stream');

// n8n-core's own copies of its dependency injection and logger (it nests them).
const coreRequire = createRequire(require.resolve('n8n-core'));
const { Container } = coreRequire('@n8n/di');
const { Logger } = coreRequire('@n8n/backend-common');
const winston = createRequire(coreRequire.resolve('@n8n/backend-common'))('winston');

/** Every line n8n-core logged since the harness took its logger, as written. @type {string[]} */
const lines = [];
let captured = false;

/**
 * Moves n8n-core's logger from the console to `lines` (once) and returns them.
 * @returns {string[]}
 */
function engineLog() {
	if (!captured) {
		captured = true;
		/** @type {import('winston').Logger} */
		const internal = Container.get(Logger).internalLogger;
		for (const transport of [...internal.transports])
			if (transport instanceof winston.transports.Console) internal.remove(transport);
		const stream = new Writable({
			write(chunk, _encoding, done) {
				lines.push(String(chunk).trimEnd());
				done();
			},
		});
		internal.add(new winston.transports.Stream({ stream }));
	}
	return lines;
}

module.exports = { engineLog };
