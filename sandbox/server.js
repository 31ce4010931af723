// @ts-check
'use strict';
/**
 * A local emulation of the brand-side open API, listening on 127.0.0.1 only. This file is the HTTP
 * server and the order a request goes through; each concern has its own module:
 * - the API: api/routes.js (the route table and its handlers), api/gateway.js (keys, allowlists,
 *   signatures, permissions), api/authorization.js, api/conversions.js, api/promoters.js,
 *   api/state.js (the business state), api/envelope.js (the answer envelope);
 * - around it: httpServer.js (the listening server), throttle.js (latency, 429 above a
 *   concurrency limit), faults.js (switchable faults), stats.js (counts, log, calls,
 *   percentiles), controlRoutes.js (/__sandbox/…), promoterCenterPage.js (the hosted promoter
 *   center stand-in);
 * - for tests and benchmarks only: instrumentation.js (the refund ledger, the bulk seeders).
 */
const http = require('node:http');

const { seedData } = require('./seed');
const { SandboxState } = require('./api/state');
const { PREFIX, matchRoute } = require('./api/routes');
const { authenticate, parseQuery, parseBody } = require('./api/gateway');
const { Instrumentation } = require('./instrumentation');
const { Throttle, tooManyRequests } = require('./throttle');
const { Faults, applyFault } = require('./faults');
const { RequestStats } = require('./stats');
const { CONTROL_PREFIX, handleControl } = require('./controlRoutes');
const { PAYMENT_PROVIDERS_PREFIX, handlePaymentProvider } = require('./paymentProviders');
const { PROMOTER_CENTER_PATH, servePromoterCenter } = require('./promoterCenterPage');
const { HttpService } = require('./httpServer');

/**
 * @typedef {import('./faults').Fault} Fault
 * @typedef {import('./api/gateway').Verification} Verification
 * @typedef {import('./api/gateway').RawRequest} RawRequest
 * @typedef {import('./api/routes').Route} Route
 * @typedef {import('./api/routes').Outcome} Outcome
 */

const NOT_FOUND_PAGE = '<html><body><h1>404 Not Found</h1></body></html>';

class Sandbox extends HttpService {
	/**
	 * @param {{ port?: number, host?: string, clockOffsetSeconds?: number, latencyMs?: number, maxConcurrent?: number,
	 *   retryAfterSeconds?: number, randomSeed?: number, logLimit?: number }} [options]
	 */
	constructor(options = {}) {
		super('sandbox', {
			port: options.port ?? 0,
			host: options.host ?? '127.0.0.1',
			keepAliveTimeoutMs: 5000,
		});
		/** Seconds added to the real clock: a test moves the server's time with it. */
		this.clockOffsetSeconds = options.clockOffsetSeconds ?? 0;
		this.throttle = new Throttle(options);
		this.faults = new Faults(options.randomSeed ?? 42);
		this.requestStats = new RequestStats(options.logLimit ?? 5000);
		this.state = new SandboxState(seedData(), () => this.nowMs());
		this.instrumentation = new Instrumentation(this.state);
		/** Counts resets: a request compares it before and after its latency. */
		this.generation = 0;
	}

	nowMs() {
		return Date.now() + this.clockOffsetSeconds * 1000;
	}

	/** The latency every API request waits; requestCount, log and calls: stats.js's. */
	get latencyMs() {
		return this.throttle.latencyMs;
	}

	set latencyMs(ms) {
		this.throttle.latencyMs = ms;
	}

	get requestCount() {
		return this.requestStats.requestCount;
	}

	get log() {
		return this.requestStats.log;
	}

	get calls() {
		return this.requestStats.calls;
	}

	/**
	 * Fresh business state and counters; keys and settings stay. A request still delayed by a
	 * latency when the state is reset is dropped unanswered, so that it never lands in the next
	 * test's state.
	 */
	reset() {
		this.generation++;
		this.state = new SandboxState(seedData(), () => this.nowMs());
		this.instrumentation = new Instrumentation(this.state);
		this.faults.clear();
		this.requestStats.reset();
	}

	/** Request count, peak concurrency, answers by HTTP status and latency percentiles since the last reset. */
	stats() {
		return this.requestStats.summary();
	}

	/** @param {Fault} fault @returns {Fault} the sandbox's own copy, whose `times` counts down */
	addFault(fault) {
		return this.faults.add(fault);
	}

	clearFaults() {
		this.faults.clear();
	}

	/**
	 * A request's way: control routes, the promoter center page and the payment providers' emulations
	 * (sandbox/paymentProviders/) first (not counted); then, for
	 * the API, the throttle's 429 and latency, a fault before, the gateway and the route's handler,
	 * a fault after, and the answer.
	 * @param {http.IncomingMessage} req @param {http.ServerResponse} res
	 */
	async handle(req, res) {
		const generation = this.generation;
		if (req.url?.startsWith(CONTROL_PREFIX)) return handleControl(this, req, res);
		if (req.url?.startsWith(PROMOTER_CENTER_PATH)) return servePromoterCenter(this.state, req, res);
		if (req.url?.startsWith(PAYMENT_PROVIDERS_PREFIX)) return handlePaymentProvider(req, res);
		res.on('close', this.requestStats.arrived());

		const body = Buffer.concat(await req.toArray());
		const rawUrl = req.url ?? '/';
		const queryAt = rawUrl.indexOf('?');
		const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
		const query = queryAt === -1 ? '' : rawUrl.slice(queryAt + 1);
		const method = (req.method ?? 'GET').toUpperCase();
		const matched = matchRoute(method, path);
		const logBase = {
			method,
			path,
			route: matched?.route.name ?? 'unknown',
			cls: matched?.route.cls ?? 'none',
		};
		/** @param {number} status @param {number|null} code @param {string|null} fault */
		const log = (status, code, fault) =>
			this.requestStats.record({ ...logBase, status, code, fault });
		const date = () => new Date(this.nowMs()).toUTCString();
		/**
		 * @param {number} status @param {http.OutgoingHttpHeaders} headers @param {string} [text]
		 * @param {number|null} [code]
		 */
		const send = (status, headers, text, code = null) => {
			log(status, code, null);
			res.writeHead(status, headers);
			res.end(text);
		};

		if (!matched) return send(404, { 'Content-Type': 'text/html' }, NOT_FOUND_PAGE);
		const { route } = matched;
		if (this.throttle.refuses(this.requestStats.inFlight)) {
			log(429, null, 'concurrency');
			return tooManyRequests(res, this.throttle.retryAfterSeconds, date());
		}
		await this.throttle.pace();

		const raw = { method, path, query, body };
		/**
		 * Applies a fault when one applies; whether it answered in the request's place.
		 * @param {'before'|'after'} when @param {Outcome|null} outcome
		 */
		const faulted = async (when, outcome) => {
			const fault = this.faults.pick(route, when, raw);
			if (!fault) return false;
			const context = { date: date(), retryAfterSeconds: this.throttle.retryAfterSeconds };
			const status = await applyFault(fault, route, res, context, outcome);
			if (status === null) return false;
			log(status, null, fault.kind);
			return true;
		};
		if (await faulted('before', null)) return;
		if (generation !== this.generation) {
			res.destroy();
			return;
		}

		/** @type {Verification} */
		const verification = { apiKey: null, keyVersion: null, signature: 'not checked' };
		const outcome = this.answer(req, route, matched.params, raw, verification);
		this.requestStats.recordCall({
			method,
			path,
			query,
			contentType: req.headers['content-type'] ?? null,
			body: body.toString('utf8'),
			...verification,
			code: 'redirect' in outcome ? null : outcome.code,
		});
		if (await faulted('after', outcome)) return;

		if ('redirect' in outcome) return send(302, { Date: date(), Location: outcome.redirect });
		const json = { Date: date(), 'Content-Type': 'application/json; charset=utf-8' };
		send(200, json, JSON.stringify(outcome), outcome.code);
	}

	/**
	 * The gateway, then the route's handler on the key's product; a Refund's answer is also counted
	 * in the instrumentation's refund ledger.
	 * @param {http.IncomingMessage} req @param {Route} route @param {string[]} params
	 * @param {RawRequest} raw @param {Verification} verification
	 * @returns {Outcome}
	 */
	answer(req, route, params, raw, verification) {
		const gate = authenticate(req, route, raw, this.state, this.nowMs(), verification);
		if (!('product' in gate)) return gate;
		const parsed = route.method === 'POST' ? parseBody(raw.body) : { input: {} };
		if (!('input' in parsed)) return parsed;
		const { input } = parsed;
		const query = parseQuery(raw.query);
		const outcome = route.handler({
			state: this.state,
			product: gate.product,
			input,
			query,
			params,
		});
		if (route.name === 'refund' && !('redirect' in outcome))
			this.instrumentation.recordRefund(input, outcome);
		return outcome;
	}
}

module.exports = { Sandbox, PREFIX };
