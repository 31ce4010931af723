// @ts-check
'use strict';
/**
 * A local emulation of the brand-side open API: the spec's endpoints, both signature versions
 * verified from the raw request, key states, allowlists, permissions, business state, and
 * switchable faults for tests and benchmarks. Listens on 127.0.0.1 only.
 */
const http = require('node:http');
const net = require('node:net');

const { seedData } = require('./seed');
const { SandboxState, CODE, fail } = require('./state');
const { expectedV1, expectedV2, sameSignature } = require('./verify');

const PREFIX = '/api/open/v1';
const TIMESTAMP_TOLERANCE_S = 300;

/**
 * @typedef {'oauth'|'conversion'|'refund'|'promoterLogin'|'promoterRead'} RequestClass
 * @typedef {{ name: string, cls: RequestClass, method: string, v2Only?: boolean, permission?: string, permissionCode?: number, serverError: string }} Route
 * @typedef {{ kind: 'latency'|'http5xx'|'rateLimit'|'malformedJson'|'drop'|'appError', match?: RequestClass|'*', requestContains?: string,
 *   when?: 'before'|'after', times?: number, probability?: number, latencyMs?: number, status?: number, retryAfterSeconds?: number }} Fault
 * @typedef {{ method: string, path: string, route: string, cls: string, status: number, code: number|null, fault: string|null }} LogEntry
 * @typedef {{ apiKey: string|null, keyVersion: 'v1'|'v2'|null, signature: 'valid'|'invalid'|'not checked' }} Verification
 * @typedef {{ method: string, path: string, query: string, contentType: string|null, body: string, code: number|null } & Verification} RecordedCall
 */

/** @type {Record<string, Route>} */
const STATIC_ROUTES = {
	'POST /oauth/authorize': {
		name: 'authorize',
		cls: 'oauth',
		method: 'POST',
		serverError: 'Failed to create the authorization code',
	},
	'GET /oauth/authorizeAndRedirect': {
		name: 'authorizeAndRedirect',
		cls: 'oauth',
		method: 'GET',
		serverError: 'Failed to create the authorization code',
	},
	'POST /oauth/getUserByAuthorizationCode': {
		name: 'exchangeCode',
		cls: 'oauth',
		method: 'POST',
		serverError: 'Failed to read the authorization code',
	},
	'POST /oauth/getDebugAuthCode': {
		name: 'debugCode',
		cls: 'oauth',
		method: 'POST',
		serverError: 'Failed to create the authorization code',
	},
	'POST /track/conversion': {
		name: 'trackConversion',
		cls: 'conversion',
		method: 'POST',
		serverError: 'Failed to record the conversion',
	},
	'POST /track/refund': {
		name: 'refund',
		cls: 'refund',
		method: 'POST',
		v2Only: true,
		permission: 'conversion:adjust',
		permissionCode: CODE.auth,
		serverError: 'Failed to apply the conversion adjustment',
	},
	'POST /promoter/login': {
		name: 'promoterLogin',
		cls: 'promoterLogin',
		method: 'POST',
		serverError: 'Failed to log the promoter in',
	},
};

/** @param {string} view @returns {Route} */
const promoterRoute = (view) => ({
	name: `promoter.${view}`,
	cls: 'promoterRead',
	method: 'GET',
	v2Only: true,
	permission: 'promoter:read',
	permissionCode: CODE.other,
	serverError: 'Failed to retrieve promoter data',
});

const PROMOTER_CENTER_PATH = '/promoter-center';

/** @param {string} text */
function escapeHtml(text) {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** @param {string} method @param {string} path @returns {{ route: Route, userId?: string, view?: 'get'|'links'|'statistics'|'balances' } | null} */
function matchRoute(method, path) {
	if (!path.startsWith(`${PREFIX}/`)) return null;
	const rest = path.slice(PREFIX.length);
	const fixed = STATIC_ROUTES[`${method} ${rest}`];
	if (fixed) return { route: fixed };
	const m = /^\/promoters\/([^/]*)(?:\/(links|statistics|balances))?$/.exec(rest);
	if (m && method === 'GET') {
		const view = /** @type {'links'|'statistics'|'balances'|undefined} */ (m[2]) ?? 'get';
		return { route: promoterRoute(view), userId: m[1], view };
	}
	return null;
}

/** @param {string} ip */
function normaliseIp(ip) {
	return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

/**
 * Whether a key's allowlist admits `ip` (normalised). @param {string} ip
 * @param {string[]} rules single addresses (IPv4 or IPv6) and IPv4 CIDRs
 */
function allowlisted(ip, rules) {
	const family = net.isIP(ip);
	if (family === 0) return false;
	const list = new net.BlockList();
	for (const rule of rules) {
		const [base, bits] = rule.split('/');
		if (bits !== undefined) {
			if (net.isIPv4(base)) list.addSubnet(base, Number(bits), 'ipv4');
		} else {
			const address = normaliseIp(rule);
			if (net.isIP(address)) list.addAddress(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
		}
	}
	return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Every value given for each name. URLSearchParams splits a pair at its first `=` only, so a value
 * that holds `=` (base64, say) is read whole, and decodes `+` and percent escapes as forms do.
 * @param {string} query @returns {Map<string, string[]>}
 */
function parseQuery(query) {
	/** @type {Map<string, string[]>} */
	const values = new Map();
	for (const [name, value] of new URLSearchParams(query))
		values.set(name, [...(values.get(name) ?? []), value]);
	return values;
}

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

/**
 * The p-th percentile (0–100) of a list of numbers by the nearest-rank method (the smallest value
 * with at least p % of the values at or below it), or null for no values. The one percentile of
 * the repository: the benchmarks and the queue test use it too.
 * @param {number[]} values @param {number} p
 */
function percentile(values, p) {
	if (values.length === 0) return null;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

class Sandbox {
	/**
	 * @param {{ port?: number, host?: string, clockOffsetSeconds?: number, latencyMs?: number, maxConcurrent?: number,
	 *   retryAfterSeconds?: number, randomSeed?: number, logLimit?: number }} [options]
	 */
	constructor(options = {}) {
		this.port = options.port ?? 0;
		this.host = options.host ?? '127.0.0.1';
		/** Seconds added to the real clock: a test moves the server's time with it. */
		this.clockOffsetSeconds = options.clockOffsetSeconds ?? 0;
		this.latencyMs = options.latencyMs ?? 0;
		/** Above this many requests in flight the sandbox answers 429 with Retry-After. */
		this.maxConcurrent = options.maxConcurrent ?? Infinity;
		this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
		this.random = mulberry32(options.randomSeed ?? 42);
		this.logLimit = options.logLimit ?? 5000;
		/** @type {Fault[]} */
		this.faults = [];
		this.state = new SandboxState(seedData(), () => this.nowMs());
		/** Counts resets: a request compares it before and after its latency. */
		this.generation = 0;
		this.requestCount = 0;
		this.inFlight = 0;
		this.peakInFlight = 0;
		/** @type {LogEntry[]} */
		this.log = [];
		/**
		 * Every API call that reached authentication, as received (method, encoded path, raw query,
		 * body text), with the key it named, that key's version and whether its signature verified:
		 * what a test asserts about requests n8n built itself (GET /__sandbox/calls from outside).
		 * @type {RecordedCall[]}
		 */
		this.calls = [];
		/** Milliseconds from a request's arrival to its answer, for the benchmark's percentiles. */
		/** @type {number[]} */
		this.durationsMs = [];
		/** @type {http.Server | null} */
		this.server = null;
		/** @type {Set<import('node:net').Socket>} */
		this.sockets = new Set();
	}

	nowMs() {
		return Date.now() + this.clockOffsetSeconds * 1000;
	}

	get url() {
		return `http://${this.host}:${this.port}`;
	}

	/**
	 * Fresh business state and counters; keys and settings stay. A request still delayed by a
	 * latency when the state is reset is dropped unanswered, so that it never lands in the next
	 * test's state.
	 */
	reset() {
		this.generation++;
		this.state = new SandboxState(seedData(), () => this.nowMs());
		this.faults = [];
		this.requestCount = 0;
		this.peakInFlight = 0;
		this.log = [];
		this.calls = [];
		this.durationsMs = [];
	}

	/** Request count, peak concurrency, answers by HTTP status and latency percentiles since the last reset. */
	stats() {
		/** @type {Record<string, number>} */
		const byStatus = {};
		for (const entry of this.log) byStatus[entry.status] = (byStatus[entry.status] ?? 0) + 1;
		return {
			requests: this.requestCount,
			peakInFlight: this.peakInFlight,
			byStatus,
			p50Ms: percentile(this.durationsMs, 50),
			p99Ms: percentile(this.durationsMs, 99),
		};
	}

	/** @param {Fault} fault */
	addFault(fault) {
		this.faults.push({ match: '*', times: Infinity, probability: 1, ...fault });
	}

	clearFaults() {
		this.faults = [];
	}

	/** @returns {Promise<string>} the base URL */
	async start() {
		this.server = http.createServer((req, res) => {
			this.handle(req, res).catch((error) => {
				if (!res.headersSent) {
					res.writeHead(500, { 'Content-Type': 'text/plain' });
					res.end(`sandbox error: ${error instanceof Error ? error.message : String(error)}`);
				}
			});
		});
		this.server.keepAliveTimeout = 5000;
		this.server.on('connection', (socket) => {
			this.sockets.add(socket);
			socket.on('close', () => this.sockets.delete(socket));
		});
		const server = this.server;
		await new Promise((resolve, reject) => {
			server.once('error', reject);
			server.listen(this.port, this.host, () => resolve(undefined));
		});
		const address = server.address();
		if (address && typeof address === 'object') this.port = address.port;
		return this.url;
	}

	async stop() {
		const server = this.server;
		if (!server) return;
		this.server = null;
		for (const socket of this.sockets) socket.destroy();
		await new Promise((resolve) => server.close(() => resolve(undefined)));
	}

	/**
	 * The first fault that applies to a request: its class, and `requestContains` (when set) found
	 * in the raw path, query or body, so that a test can hit one item of a batch.
	 * @param {Route} route @param {'before'|'after'} when @param {{ path: string, query: string, body: Buffer }} raw
	 * @returns {Fault | undefined}
	 */
	pickFault(route, when, raw) {
		for (const fault of this.faults) {
			if ((fault.when ?? (fault.kind === 'malformedJson' ? 'after' : 'before')) !== when) continue;
			if (fault.match !== '*' && fault.match !== route.cls) continue;
			if (
				fault.requestContains !== undefined &&
				![raw.path, raw.query, raw.body.toString()].some((part) =>
					part.includes(/** @type {string} */ (fault.requestContains)),
				)
			)
				continue;
			if ((fault.times ?? Infinity) <= 0) continue;
			if ((fault.probability ?? 1) < 1 && this.random() >= (fault.probability ?? 1)) continue;
			fault.times = (fault.times ?? Infinity) - 1;
			return fault;
		}
		return undefined;
	}

	/** @param {LogEntry} entry */
	record(entry) {
		this.log.push(entry);
		if (this.log.length > this.logLimit) this.log.splice(0, this.log.length - this.logLimit);
	}

	/** @param {RecordedCall} call */
	recordCall(call) {
		this.calls.push(call);
		if (this.calls.length > this.logLimit) this.calls.splice(0, this.calls.length - this.logLimit);
	}

	/** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
	async handle(req, res) {
		const arrived = performance.now();
		const generation = this.generation;
		const resetMeanwhile = () => {
			if (generation === this.generation) return false;
			res.destroy();
			return true;
		};
		if (req.url?.startsWith('/__sandbox/')) {
			await this.handleControl(req, res);
			return;
		}
		if (req.url?.startsWith(`${PROMOTER_CENTER_PATH}`)) {
			this.servePromoterCenter(req, res);
			return;
		}
		this.requestCount++;
		this.inFlight++;
		this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
		res.on('close', () => {
			this.inFlight--;
			if (this.durationsMs.length < 1_000_000) this.durationsMs.push(performance.now() - arrived);
		});

		/** @type {Buffer[]} */
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const body = Buffer.concat(chunks);
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

		if (!matched) {
			this.record({ ...logBase, status: 404, code: null, fault: null });
			res.writeHead(404, { 'Content-Type': 'text/html' });
			res.end('<html><body><h1>404 Not Found</h1></body></html>');
			return;
		}
		const { route } = matched;

		if (this.inFlight > this.maxConcurrent) {
			this.record({ ...logBase, status: 429, code: null, fault: 'concurrency' });
			res.writeHead(429, {
				'Content-Type': 'text/html',
				'Retry-After': String(this.retryAfterSeconds),
				Date: new Date(this.nowMs()).toUTCString(),
			});
			res.end('<html><body><h1>429 Too Many Requests</h1></body></html>');
			return;
		}
		if (this.latencyMs > 0) await sleep(this.latencyMs);

		const raw = { method, path, query, body };
		const before = this.pickFault(route, 'before', raw);
		if (before && (await this.applyFault(before, route, res, logBase, null))) return;
		if (resetMeanwhile()) return;

		/** @type {Verification} */
		const verification = { apiKey: null, keyVersion: null, signature: 'not checked' };
		const outcome = this.process(req, route, matched, raw, verification);
		const contentType = req.headers['content-type'];
		this.recordCall({
			method,
			path,
			query,
			contentType: contentType ?? null,
			body: body.toString('utf8'),
			...verification,
			code: 'redirect' in outcome ? null : outcome.code,
		});
		const after = this.pickFault(route, 'after', raw);
		if (after && (await this.applyFault(after, route, res, logBase, outcome))) return;

		const headers = { Date: new Date(this.nowMs()).toUTCString() };
		if ('redirect' in outcome) {
			this.record({ ...logBase, status: 302, code: null, fault: null });
			res.writeHead(302, { ...headers, Location: outcome.redirect });
			res.end();
			return;
		}
		this.record({ ...logBase, status: 200, code: outcome.code, fault: null });
		res.writeHead(200, { ...headers, 'Content-Type': 'application/json; charset=utf-8' });
		res.end(JSON.stringify(outcome));
	}

	/**
	 * A stand-in for the hosted promoter center, so that the addresses Promoter Login builds open a
	 * real page: `{url}/promoter-center?at=<token>` (full page) and `{url}/promoter-center/iframe/<token>`.
	 * @param {http.IncomingMessage} req @param {http.ServerResponse} res
	 */
	servePromoterCenter(req, res) {
		const url = new URL(req.url ?? '/', this.url);
		const iframe = /^\/promoter-center\/iframe\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
		const token = iframe
			? iframe[1]
			: url.pathname === PROMOTER_CENTER_PATH
				? url.searchParams.get('at')
				: null;
		const found = token ? this.state.promoterForCenterToken(token) : undefined;
		const body = found
			? `<h1 id="promoter">${escapeHtml(found.promoter.username ?? found.promoter.userId)}</h1>` +
				`<p>Promoter center of ${escapeHtml(found.product.name)} (${iframe ? 'iframe' : 'full page'}).</p>` +
				`<p>Referral code: <code id="referral-code">${escapeHtml(found.promoter.referralCode ?? '')}</code></p>`
			: '<h1 id="expired">Your login has expired</h1><p>Open the promoter center again from the brand.</p>';
		res.writeHead(found ? 200 : 401, {
			'Content-Type': 'text/html; charset=utf-8',
			'Cache-Control': 'no-store',
		});
		res.end(
			`<!doctype html><html><head><title>Promoter center</title></head><body>${body}</body></html>`,
		);
	}

	/**
	 * The control routes for a sandbox in another process (`npm run sandbox`, benchmarks), outside
	 * the API prefix: GET /__sandbox/stats, POST /__sandbox/reset, POST /__sandbox/settings
	 * ({ latencyMs, maxConcurrent, retryAfterSeconds }), POST /__sandbox/activity
	 * ({ product, userId, clicks?, payingCustomers?, credit?: { currency, cents } }: new figures
	 * for a promoter, as the trigger's tests need between two polls), GET /__sandbox/calls (the
	 * API calls received since the last reset, each with its key, key version and whether its
	 * signature verified).
	 * @param {http.IncomingMessage} req @param {http.ServerResponse} res
	 */
	async handleControl(req, res) {
		/** @type {Buffer[]} */
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const answer = (/** @type {number} */ status, /** @type {unknown} */ body) => {
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		if (req.method === 'GET' && req.url === '/__sandbox/stats') return answer(200, this.stats());
		if (req.method === 'GET' && req.url === '/__sandbox/calls')
			return answer(200, { calls: this.calls });
		if (req.method === 'POST' && req.url === '/__sandbox/reset') {
			this.reset();
			return answer(200, { reset: true });
		}
		if (req.method === 'POST' && req.url === '/__sandbox/settings') {
			const settings = JSON.parse(Buffer.concat(chunks).toString() || '{}');
			if (typeof settings.latencyMs === 'number') this.latencyMs = settings.latencyMs;
			if (typeof settings.maxConcurrent === 'number') this.maxConcurrent = settings.maxConcurrent;
			if (settings.maxConcurrent === null) this.maxConcurrent = Infinity;
			if (typeof settings.retryAfterSeconds === 'number')
				this.retryAfterSeconds = settings.retryAfterSeconds;
			return answer(200, {
				latencyMs: this.latencyMs,
				maxConcurrent: this.maxConcurrent === Infinity ? null : this.maxConcurrent,
				retryAfterSeconds: this.retryAfterSeconds,
			});
		}
		if (req.method === 'POST' && req.url === '/__sandbox/activity') {
			const { product, userId, ...activity } = JSON.parse(Buffer.concat(chunks).toString() || '{}');
			try {
				this.state.addActivity(product, userId, activity);
			} catch (error) {
				return answer(400, { error: error instanceof Error ? error.message : String(error) });
			}
			return answer(200, { recorded: true });
		}
		return answer(404, { error: 'unknown control route' });
	}

	/**
	 * @param {Fault} fault @param {Route} route @param {http.ServerResponse} res
	 * @param {{ method: string, path: string, route: string, cls: string }} logBase
	 * @param {import('./state').Envelope | import('./state').Redirect | null} outcome
	 * @returns {Promise<boolean>} whether the response was taken over by the fault
	 */
	async applyFault(fault, route, res, logBase, outcome) {
		const log = (/** @type {number} */ status) =>
			this.record({ ...logBase, status, code: null, fault: fault.kind });
		const date = new Date(this.nowMs()).toUTCString();
		switch (fault.kind) {
			case 'latency':
				await sleep(fault.latencyMs ?? 1000);
				return false;
			case 'http5xx': {
				const status = fault.status ?? 502;
				log(status);
				res.writeHead(status, { 'Content-Type': 'text/html', Date: date });
				res.end(
					`<html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`,
				);
				return true;
			}
			case 'rateLimit':
				log(429);
				res.writeHead(429, {
					'Content-Type': 'text/html',
					'Retry-After': String(fault.retryAfterSeconds ?? this.retryAfterSeconds),
					Date: date,
				});
				res.end('<html><body><h1>429 Too Many Requests</h1></body></html>');
				return true;
			case 'malformedJson': {
				log(200);
				const text = JSON.stringify(
					outcome && !('redirect' in outcome) ? outcome : { code: 0, message: 'success', data: {} },
				);
				res.writeHead(200, { 'Content-Type': 'application/json', Date: date });
				res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
				return true;
			}
			case 'drop':
				log(0);
				res.socket?.destroy();
				return true;
			case 'appError':
				log(200);
				res.writeHead(200, { 'Content-Type': 'application/json', Date: date });
				res.end(JSON.stringify(fail(CODE.other, route.serverError)));
				return true;
			default:
				return false;
		}
	}

	/**
	 * Authentication in the order a gateway checks it, then the endpoint.
	 * @param {http.IncomingMessage} req @param {Route} route
	 * @param {{ userId?: string, view?: 'get'|'links'|'statistics'|'balances' }} matched
	 * @param {{ method: string, path: string, query: string, body: Buffer }} raw
	 * @param {Verification} verification filled in with the key and the signature check's result
	 * @returns {import('./state').Envelope | import('./state').Redirect}
	 */
	process(req, route, matched, raw, verification) {
		const header = (/** @type {string} */ name) => {
			const value = req.headers[name];
			return Array.isArray(value) ? value[0] : value;
		};
		const apiKey = header('x-api-key');
		const signature = header('x-api-sign');
		verification.apiKey = apiKey ?? null;
		if (!apiKey || !signature) return fail(CODE.auth, 'The API key and signature are required');
		const key = this.state.keys.get(apiKey);
		verification.keyVersion = key?.version ?? null;
		if (!key || key.status === 'deleted') return fail(CODE.auth, 'The API key was not found');
		if (key.status === 'disabled') return fail(CODE.auth, 'The API key is disabled');
		if (key.status === 'expired') return fail(CODE.auth, 'The API key has expired');
		const ip = normaliseIp(req.socket.remoteAddress ?? '');
		if (key.allowlist && !allowlisted(ip, key.allowlist))
			return fail(CODE.auth, 'The client IP address is not allowlisted');
		if (route.v2Only && key.version !== 'v2')
			return fail(CODE.auth, 'This endpoint requires signature version 2');

		const nowSeconds = Math.floor(this.nowMs() / 1000);
		let timestamp = header('x-api-timestamp');
		if (timestamp === undefined || timestamp === '') {
			if (key.version === 'v2') return fail(CODE.auth, 'The request timestamp is required');
			timestamp = String(nowSeconds);
		}
		if (
			!/^\d+$/.test(timestamp) ||
			Math.abs(Number(timestamp) - nowSeconds) > TIMESTAMP_TOLERANCE_S
		) {
			return fail(CODE.auth, 'The request timestamp is invalid or expired');
		}
		const contentType = header('content-type') ?? '';
		const expected =
			key.version === 'v1'
				? expectedV1({ ...raw, contentType }, timestamp, key.secret)
				: expectedV2(raw, timestamp, key.secret);
		verification.signature = sameSignature(signature, expected) ? 'valid' : 'invalid';
		if (verification.signature === 'invalid')
			return fail(CODE.auth, 'Signature verification failed');
		if (route.permission && key.permissions && !key.permissions.includes(route.permission)) {
			return fail(
				route.permissionCode ?? CODE.auth,
				`Missing required permission: ${route.permission}`,
			);
		}

		const product = key.product;
		const query = parseQuery(raw.query);
		if (route.method === 'GET') {
			if (route.name === 'authorizeAndRedirect') return this.authorizeAndRedirect(product, query);
			return this.state.readPromoter(product, matched.userId ?? '', matched.view ?? 'get', query);
		}
		let input;
		try {
			input = raw.body.length === 0 ? {} : JSON.parse(raw.body.toString('utf8'));
		} catch {
			return fail(CODE.invalid, 'The request body is not valid JSON');
		}
		if (input === null || typeof input !== 'object' || Array.isArray(input))
			return fail(CODE.invalid, 'The request body must be a JSON object');
		switch (route.name) {
			case 'authorize':
				return this.state.issueAuthCode(product, input, 'product_key', false);
			case 'debugCode':
				return this.state.issueAuthCode(product, input, 'source_product_key', true);
			case 'exchangeCode':
				return this.state.exchangeCode(product, input);
			case 'trackConversion':
				return this.state.trackConversion(product, input);
			case 'refund':
				return this.state.refund(product, input);
			default:
				return this.state.promoterLogin(product, input);
		}
	}

	/** Endpoint 2: the same checks as endpoint 1, answered with a 302 on success. @param {string} product @param {Map<string, string[]>} query */
	authorizeAndRedirect(product, query) {
		/** @type {Record<string, unknown>} */
		const input = {};
		for (const field of ['product_key', 'target_product_key', 'user_id'])
			input[field] = query.get(field)?.[0];
		const extra = query.get('extra')?.[0];
		if (extra !== undefined && extra !== '') {
			try {
				input.extra = JSON.parse(extra);
			} catch {
				return fail(CODE.invalid, 'The extra field must be a JSON-encoded object');
			}
		}
		const envelope = this.state.issueAuthCode(product, input, 'product_key', false);
		if (envelope.code !== CODE.ok) return envelope;
		return { redirect: /** @type {{ redirect_url: string }} */ (envelope.data).redirect_url };
	}
}

module.exports = { Sandbox, PREFIX, mulberry32, percentile };
