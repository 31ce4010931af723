// @ts-check
'use strict';
/**
 * A local emulation of three payment providers' event-history APIs, for the reconciliation pass's
 * tests, listening on 127.0.0.1 only: Stripe's GET /v1/events (stripe.js) under /stripe, Paddle
 * Billing's GET /events (paddle.js) under /paddle, the App Store Server API's notification history
 * (appStore.js) under /appstore. Each keeps its events in a timeline.js. This file is the server:
 * the provider a path names, its call count, a test's throttle (429 with Retry-After), the route.
 */
const http = require('node:http');

const { StripeEvents } = require('./stripe');
const { PaddleEvents } = require('./paddle');
const { AppStoreNotifications } = require('./appStore');
const { HttpService } = require('../httpServer');

/**
 * @typedef {'stripe' | 'paddle' | 'appStore'} Provider
 * @typedef {{ method: string, path: string, query: URLSearchParams, headers: http.IncomingHttpHeaders,
 *   body: Buffer, baseUrl: string }} ProviderRequest `path` inside the provider's base URL
 * @typedef {{ status: number, body: unknown }} Answer
 * @typedef {{ route: { method: string, path: string }, record: (event: any) => void, clear: () => void,
 *   answer: (request: ProviderRequest) => Answer,
 *   refuse: (status: 404|405|429, request: ProviderRequest) => Answer }} ProviderApi
 * @typedef {{ stripeSecretKey?: string, paddleApiKey?: string,
 *   appStore?: import('./appStore').AppStoreConfig }} ProviderApisOptions
 *   a provider given no key refuses every request
 */

/** @type {Record<Provider, string>} */
const PREFIXES = { stripe: '/stripe', paddle: '/paddle', appStore: '/appstore' };
const PROVIDERS = /** @type {Provider[]} */ (Object.keys(PREFIXES));

class ProviderApis extends HttpService {
	/** @param {ProviderApisOptions} [options] */
	constructor(options = {}) {
		super('provider APIs', { port: 0, host: '127.0.0.1' });
		/** @type {Record<Provider, ProviderApi>} */
		this.providers = {
			stripe: new StripeEvents(options.stripeSecretKey),
			paddle: new PaddleEvents(options.paddleApiKey),
			appStore: new AppStoreNotifications(options.appStore),
		};
		/** @type {Map<Provider, { count: number, retryAfterSeconds: number }>} */
		this.throttles = new Map();
		/** @type {Map<Provider, number>} */
		this.callCounts = new Map();
	}

	/** @returns {Record<Provider, string>} */
	get baseUrls() {
		return {
			stripe: `${this.url}${PREFIXES.stripe}`,
			paddle: `${this.url}${PREFIXES.paddle}`,
			appStore: `${this.url}${PREFIXES.appStore}`,
		};
	}

	/**
	 * Adds an event to a provider's history, in time order wherever it falls: a Stripe Event, a
	 * Paddle event, or Apple's `{ signedPayload, signedDate }`.
	 * @param {Provider} provider @param {object} event
	 */
	record(provider, event) {
		this.provider(provider).record(event);
	}

	/**
	 * The next `count` requests to the provider are answered 429 with Retry-After.
	 * @param {Provider} provider @param {{ count: number, retryAfterSeconds: number }} throttle
	 */
	throttle(provider, { count, retryAfterSeconds }) {
		this.provider(provider);
		this.throttles.set(provider, { count, retryAfterSeconds });
	}

	/** Requests the provider's base URL received since the last reset, 429s and errors included. @param {Provider} provider */
	calls(provider) {
		this.provider(provider);
		return this.callCounts.get(provider) ?? 0;
	}

	/** Forgets the events, throttles and counts; the keys and the port stay. */
	reset() {
		for (const provider of PROVIDERS) this.providers[provider].clear();
		this.throttles.clear();
		this.callCounts.clear();
	}

	/** @param {Provider} provider @returns {ProviderApi} */
	provider(provider) {
		if (!PROVIDERS.includes(provider))
			throw new Error(`No provider "${provider}": one of ${PROVIDERS.join(', ')}`);
		return this.providers[provider];
	}

	/**
	 * A request's way: the provider its path names (counted), that provider's throttle, its route
	 * (404, 405), its answer.
	 * @param {http.IncomingMessage} req @param {http.ServerResponse} res
	 */
	async handle(req, res) {
		const body = Buffer.concat(await req.toArray());
		const url = new URL(`${this.url}${req.url ?? '/'}`);
		const provider = PROVIDERS.find(
			(name) => url.pathname === PREFIXES[name] || url.pathname.startsWith(`${PREFIXES[name]}/`),
		);
		if (provider === undefined) return sendJson(res, { status: 404, body: { error: 'Not found' } });
		this.callCounts.set(provider, (this.callCounts.get(provider) ?? 0) + 1);
		const api = this.providers[provider];
		/** @type {ProviderRequest} */
		const request = {
			method: (req.method ?? 'GET').toUpperCase(),
			path: url.pathname.slice(PREFIXES[provider].length),
			query: url.searchParams,
			headers: req.headers,
			body,
			baseUrl: this.baseUrls[provider],
		};

		const throttle = this.throttles.get(provider);
		if (throttle !== undefined && throttle.count > 0) {
			throttle.count--;
			const retryAfter = { 'Retry-After': String(throttle.retryAfterSeconds) };
			return sendJson(res, api.refuse(429, request), retryAfter);
		}
		if (request.path !== api.route.path) return sendJson(res, api.refuse(404, request));
		if (request.method !== api.route.method)
			return sendJson(res, api.refuse(405, request), { Allow: api.route.method });
		sendJson(res, api.answer(request));
	}
}

/**
 * @param {http.ServerResponse} res @param {Answer} answer
 * @param {http.OutgoingHttpHeaders} [headers] beside the content type
 */
function sendJson(res, { status, body }, headers = {}) {
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
	res.end(JSON.stringify(body));
}

module.exports = { ProviderApis };
