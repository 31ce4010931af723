// @ts-check
'use strict';
/**
 * Stripe's GET /v1/events as the real API pages it: newest first, `starting_after` going back in
 * time and `ending_before` coming forward (the page nearest the cursor, still newest first), the
 * created range and the type filter applied before paging, Stripe's error bodies.
 */
const { Timeline } = require('./timeline');

/**
 * @typedef {{ id: string, object: 'event', created: number, type: string, data: { object: unknown } }} StripeEvent
 * @typedef {import('./server').ProviderRequest} ProviderRequest
 * @typedef {import('./server').Answer} Answer
 */

const MAX_LIMIT = 100;
const MAX_TYPES = 20;
const CREATED_BOUNDS = ['created', 'created[gte]', 'created[gt]', 'created[lte]', 'created[lt]'];
const TYPES_PARAM = /^types\[\d*\]$/;
const KNOWN_PARAMS = ['limit', 'starting_after', 'ending_before', 'type', ...CREATED_BOUNDS];

/**
 * Stripe's error body. @param {number} status
 * @param {{ message: string, code?: string, param?: string }} error @returns {Answer}
 */
const stripeError = (status, error) => ({
	status,
	body: { error: { type: 'invalid_request_error', ...error } },
});

/** A key as Stripe's 401 shows it: never whole. @param {string} key */
const redacted = (key) =>
	key.length < 16
		? '*'.repeat(key.length)
		: `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`;

/**
 * An integer parameter, or the 400 naming it. @param {string} name @param {string} text
 * @returns {number | Answer}
 */
function integerParam(name, text) {
	return /^-?\d+$/.test(text)
		? Number(text)
		: stripeError(400, { message: `Invalid integer: ${text}`, param: name });
}

/**
 * `type` (one name, `*` as a wildcard) or `types[]` (up to 20 names) as a test of an event's
 * type; null when neither is given.
 * @param {URLSearchParams} query @returns {((event: StripeEvent) => boolean) | null | Answer}
 */
function typeFilter(query) {
	const types = [...query].filter(([name]) => TYPES_PARAM.test(name)).map(([, value]) => value);
	const type = query.get('type');
	if (type !== null && types.length > 0)
		return stripeError(400, {
			message: 'You may only specify one of these parameters: type, types.',
		});
	if (types.length > MAX_TYPES)
		return stripeError(400, {
			message: `You may pass at most ${MAX_TYPES} types.`,
			param: 'types',
		});
	if (types.length > 0) {
		const wanted = new Set(types);
		return (event) => wanted.has(event.type);
	}
	if (type === null) return null;
	const prefix = type.endsWith('*') ? type.slice(0, -1) : null;
	return (event) => (prefix === null ? event.type === type : event.type.startsWith(prefix));
}

class StripeEvents {
	/** @param {string | undefined} secretKey the one key accepted; none: every request refused */
	constructor(secretKey) {
		this.secretKey = secretKey;
		this.route = { method: 'GET', path: '/v1/events' };
		/** @type {Timeline<StripeEvent>} */
		this.timeline = new Timeline();
		/** A cursor's place in the timeline. @type {Map<string, import('./timeline').Entry<StripeEvent>>} */
		this.byId = new Map();
	}

	/** @param {StripeEvent} event */
	record(event) {
		if (typeof event?.id !== 'string' || !Number.isInteger(event.created))
			throw new TypeError('A Stripe event needs a string id and an integer created');
		if (this.byId.has(event.id)) throw new Error(`Stripe event ${event.id} is already recorded`);
		this.byId.set(event.id, this.timeline.add(event.created, event));
	}

	clear() {
		this.timeline.clear();
		this.byId.clear();
	}

	/** @param {404|405|429} status @param {ProviderRequest} request @returns {Answer} */
	refuse(status, request) {
		if (status === 429)
			return stripeError(429, { code: 'rate_limit', message: 'Too many requests' });
		return stripeError(status, {
			message: `Unrecognized request URL (${request.method}: ${request.path}).`,
		});
	}

	/** @param {ProviderRequest} request @returns {Answer} */
	answer({ headers, query }) {
		const key = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
		if (key === undefined)
			return stripeError(401, {
				message:
					'You did not provide an API key. Use Bearer auth: Authorization: Bearer YOUR_SECRET_KEY.',
			});
		if (key !== this.secretKey)
			return stripeError(401, { message: `Invalid API Key provided: ${redacted(key)}` });

		const unknown = [...query.keys()].find(
			(name) => !KNOWN_PARAMS.includes(name) && !TYPES_PARAM.test(name),
		);
		if (unknown !== undefined)
			return stripeError(400, {
				message: `Received unknown parameter: ${unknown}`,
				param: unknown,
			});
		const limit = integerParam('limit', query.get('limit') ?? '10');
		if (typeof limit !== 'number') return limit;
		if (limit < 1 || limit > MAX_LIMIT)
			return stripeError(400, {
				message: `This value must be between 1 and ${MAX_LIMIT}.`,
				param: 'limit',
			});
		const matches = typeFilter(query);
		if (matches !== null && typeof matches !== 'function') return matches;
		const range = this.createdRange(query);
		if (!('low' in range)) return range;

		const startingAfter = query.get('starting_after');
		const endingBefore = query.get('ending_before');
		if (startingAfter !== null && endingBefore !== null)
			return stripeError(400, {
				message: 'You may only specify one of these parameters: ending_before, starting_after.',
			});
		const [cursorParam, cursorId] =
			endingBefore !== null ? ['ending_before', endingBefore] : ['starting_after', startingAfter];
		const cursor = cursorId === null ? undefined : this.byId.get(cursorId);
		if (cursorId !== null && cursor === undefined)
			return stripeError(404, {
				code: 'resource_missing',
				message: `No such event: '${cursorId}'`,
				param: cursorParam,
			});

		const walk = { ...range, limit, matches: matches ?? undefined };
		const at = cursor === undefined ? null : this.timeline.indexOf(cursor);
		// Forward from ending_before: the nearest newer events, then turned newest first.
		const forward = at !== null && cursorParam === 'ending_before';
		const page = forward
			? this.timeline.walk({ ...walk, start: Math.max(at + 1, range.low), step: 1 })
			: this.timeline.walk({ ...walk, start: Math.min(at ?? Infinity, range.high) - 1, step: -1 });
		const data = page.entries.map((entry) => entry.value);
		if (forward) data.reverse();
		return {
			status: 200,
			body: { object: 'list', url: '/v1/events', has_more: page.hasMore, data },
		};
	}

	/**
	 * The indexes [low, high) of the events the created bounds admit.
	 * @param {URLSearchParams} query @returns {{ low: number, high: number } | Answer}
	 */
	createdRange(query) {
		let low = 0;
		let high = this.timeline.length;
		for (const name of CREATED_BOUNDS) {
			const text = query.get(name);
			if (text === null) continue;
			const seconds = integerParam(name, text);
			if (typeof seconds !== 'number') return seconds;
			const first = this.timeline.position(seconds, -1);
			const past = this.timeline.position(seconds, Infinity);
			if (name === 'created[gte]' || name === 'created') low = Math.max(low, first);
			if (name === 'created[gt]') low = Math.max(low, past);
			if (name === 'created[lte]' || name === 'created') high = Math.min(high, past);
			if (name === 'created[lt]') high = Math.min(high, first);
		}
		return { low, high };
	}
}

module.exports = { StripeEvents };
