// @ts-check
'use strict';
/**
 * Switchable faults for tests and benchmarks: a latency, a 5xx page, a 429, a truncated JSON
 * answer, a dropped connection or the endpoint's 6000000 server failure, before or after the
 * endpoint ran, for a class of requests or one request of a batch, a number of times or with a
 * probability drawn from a seeded generator (the same on every run).
 */
const { CODE, fail } = require('./api/envelope');
const { tooManyRequests, sleep } = require('./throttle');

/**
 * @typedef {import('./api/routes').Route} Route
 * @typedef {import('./api/routes').Outcome} Outcome
 * @typedef {import('./api/gateway').RawRequest} RawRequest
 * @typedef {{ kind: 'latency'|'http5xx'|'rateLimit'|'malformedJson'|'drop'|'appError', match?: import('./api/routes').RequestClass|'*', requestContains?: string,
 *   when?: 'before'|'after', times?: number, probability?: number, latencyMs?: number, status?: number, retryAfterSeconds?: number }} Fault
 *   `latencyMs` on a `drop`: the request is held that long first (a caller that dies meanwhile, its
 *   request never having reached the service, when the drop comes before the endpoint ran)
 */

/** A small seeded generator, so that a fault probability (or a test's storm) is the same on every run. @param {number} seed */
function mulberry32(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

class Faults {
	/** @param {number} randomSeed */
	constructor(randomSeed) {
		this.random = mulberry32(randomSeed);
		/** @type {Fault[]} */
		this.list = [];
	}

	/**
	 * Adds a fault (by default for every class, always, every time).
	 * @param {Fault} fault @returns {Fault} the sandbox's own copy, whose `times` counts down
	 */
	add(fault) {
		const added = { match: /** @type {'*'} */ ('*'), times: Infinity, probability: 1, ...fault };
		this.list.push(added);
		return added;
	}

	clear() {
		this.list = [];
	}

	/**
	 * The first fault that applies to a request: its class, and `requestContains` (when set) found
	 * in the raw path, query or body, so that a test can hit one item of a batch.
	 * @param {Route} route @param {'before'|'after'} when @param {RawRequest} raw
	 * @returns {Fault | undefined}
	 */
	pick(route, when, raw) {
		for (const fault of this.list) {
			if ((fault.when ?? (fault.kind === 'malformedJson' ? 'after' : 'before')) !== when) continue;
			if (fault.match !== '*' && fault.match !== route.cls) continue;
			const wanted = fault.requestContains;
			const parts = () => [raw.path, raw.query, raw.body.toString()];
			if (wanted !== undefined && !parts().some((part) => part.includes(wanted))) continue;
			if ((fault.times ?? Infinity) <= 0) continue;
			if ((fault.probability ?? 1) < 1 && this.random() >= (fault.probability ?? 1)) continue;
			fault.times = (fault.times ?? Infinity) - 1;
			return fault;
		}
		return undefined;
	}
}

/**
 * Applies a fault to the response: a latency waits and lets the request go on; every other kind
 * answers (or drops) in the request's place.
 * @param {Fault} fault @param {Route} route @param {import('node:http').ServerResponse} res
 * @param {{ date: string, retryAfterSeconds: number }} context the HTTP Date, the default Retry-After
 * @param {Outcome | null} outcome the endpoint's answer, for a fault after it ran
 * @returns {Promise<number | null>} the HTTP status answered (0: dropped), or null when the request goes on
 */
async function applyFault(fault, route, res, context, outcome) {
	const { date } = context;
	switch (fault.kind) {
		case 'latency':
			await sleep(fault.latencyMs ?? 1000);
			return null;
		case 'http5xx': {
			const status = fault.status ?? 502;
			res.writeHead(status, { 'Content-Type': 'text/html', Date: date });
			res.end(
				`<html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`,
			);
			return status;
		}
		case 'rateLimit':
			tooManyRequests(res, fault.retryAfterSeconds ?? context.retryAfterSeconds, date);
			return 429;
		case 'malformedJson': {
			const text = JSON.stringify(
				outcome && !('redirect' in outcome) ? outcome : { code: 0, message: 'success', data: {} },
			);
			res.writeHead(200, { 'Content-Type': 'application/json', Date: date });
			res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
			return 200;
		}
		case 'drop':
			if (fault.latencyMs !== undefined) await sleep(fault.latencyMs);
			res.socket?.destroy();
			return 0;
		case 'appError':
			res.writeHead(200, { 'Content-Type': 'application/json', Date: date });
			res.end(JSON.stringify(fail(CODE.other, route.serverError)));
			return 200;
		default:
			return null;
	}
}

module.exports = { Faults, applyFault, mulberry32 };
