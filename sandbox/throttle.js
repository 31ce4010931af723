// @ts-check
'use strict';
/**
 * The sandbox's pace, as benchmarks set it: a latency every API request waits before its answer,
 * and a concurrency limit above which it answers 429 with Retry-After, as the service's gateway
 * does under load. POST /__sandbox/settings changes both from another process.
 */

/** @typedef {{ latencyMs?: number, maxConcurrent?: number|null, retryAfterSeconds?: number }} ThrottleSettings */

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The gateway's 429 page. @param {import('node:http').ServerResponse} res
 * @param {number} retryAfterSeconds @param {string} date the HTTP Date header
 */
function tooManyRequests(res, retryAfterSeconds, date) {
	res.writeHead(429, {
		'Content-Type': 'text/html',
		'Retry-After': String(retryAfterSeconds),
		Date: date,
	});
	res.end('<html><body><h1>429 Too Many Requests</h1></body></html>');
}

class Throttle {
	/** @param {{ latencyMs?: number, maxConcurrent?: number, retryAfterSeconds?: number }} options */
	constructor(options) {
		this.latencyMs = options.latencyMs ?? 0;
		/** Above this many requests in flight the sandbox answers 429 with Retry-After. */
		this.maxConcurrent = options.maxConcurrent ?? Infinity;
		this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
	}

	/** @param {number} inFlight requests in flight, this one included */
	refuses(inFlight) {
		return inFlight > this.maxConcurrent;
	}

	/** Waits the latency every API request waits. */
	async pace() {
		if (this.latencyMs > 0) await sleep(this.latencyMs);
	}

	/** The settings as JSON carries them (no limit: null). */
	settings() {
		return {
			latencyMs: this.latencyMs,
			maxConcurrent: this.maxConcurrent === Infinity ? null : this.maxConcurrent,
			retryAfterSeconds: this.retryAfterSeconds,
		};
	}

	/** The settings given; `maxConcurrent: null` lifts the limit. @param {ThrottleSettings} settings */
	update(settings) {
		if (typeof settings.latencyMs === 'number') this.latencyMs = settings.latencyMs;
		if (typeof settings.maxConcurrent === 'number') this.maxConcurrent = settings.maxConcurrent;
		if (settings.maxConcurrent === null) this.maxConcurrent = Infinity;
		if (typeof settings.retryAfterSeconds === 'number')
			this.retryAfterSeconds = settings.retryAfterSeconds;
	}
}

module.exports = { Throttle, tooManyRequests, sleep };
