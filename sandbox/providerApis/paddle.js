// @ts-check
'use strict';
/**
 * Paddle Billing's GET /events as the real API pages it: by event_id (IDs that sort as time),
 * `after` an ID compared as a string in the chosen order, `meta.pagination.next` the absolute URL
 * of the next page, `estimated_total` the events the filter matches, Paddle's error bodies.
 */
const { randomUUID } = require('node:crypto');

const { Timeline } = require('./timeline');

/**
 * @typedef {{ event_id: string, event_type: string, occurred_at: string, data: unknown }} PaddleEvent
 * @typedef {import('./server').ProviderRequest} ProviderRequest
 * @typedef {import('./server').Answer} Answer
 */

const DEFAULT_PER_PAGE = 50;
const MAX_PER_PAGE = 200;
const ORDERS = ['id[ASC]', 'id[DESC]'];

/**
 * Paddle's error body, with a request ID as every Paddle answer has.
 * @param {number} status @param {string} code @param {string} detail
 * @param {Array<{ field: string, message: string }>} [errors] the fields at fault
 * @returns {Answer}
 */
const paddleError = (status, code, detail, errors) => ({
	status,
	body: {
		error: { type: 'request_error', code, detail, ...(errors ? { errors } : {}) },
		meta: { request_id: randomUUID() },
	},
});

/** @param {string} field @param {string} message */
const invalidField = (field, message) =>
	paddleError(400, 'invalid_field', 'Invalid request.', [{ field, message }]);

class PaddleEvents {
	route = { method: 'GET', path: '/events' };
	/** @type {Timeline<PaddleEvent>} */
	timeline = new Timeline();
	/** Events by type, so that estimated_total counts no array. @type {Map<string, number>} */
	countsByType = new Map();

	/** @param {string | undefined} apiKey the one key accepted; none: every request refused */
	constructor(apiKey) {
		this.apiKey = apiKey;
	}

	/** @param {PaddleEvent} event */
	record(event) {
		if (typeof event?.event_id !== 'string' || typeof event.event_type !== 'string')
			throw new TypeError('A Paddle event needs a string event_id and event_type');
		const at = this.timeline.position(event.event_id, -1);
		if (this.timeline.at(at)?.key === event.event_id)
			throw new Error(`Paddle event ${event.event_id} is already recorded`);
		this.timeline.add(event.event_id, event);
		this.countsByType.set(event.event_type, (this.countsByType.get(event.event_type) ?? 0) + 1);
	}

	clear() {
		this.timeline.clear();
		this.countsByType.clear();
	}

	/** @param {404|405|429} status @param {ProviderRequest} request @returns {Answer} */
	refuse(status, request) {
		if (status === 429)
			return paddleError(
				429,
				'too_many_requests',
				'Too many requests. Retry after the Retry-After seconds.',
			);
		if (status === 405)
			return paddleError(
				405,
				'method_not_allowed',
				`${request.method} is not allowed on ${request.path}.`,
			);
		return paddleError(404, 'not_found', `No route ${request.path}.`);
	}

	/** @param {ProviderRequest} request @returns {Answer} */
	answer({ headers, query, baseUrl, path }) {
		const key = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
		if (key === undefined || key !== this.apiKey)
			return paddleError(
				403,
				'authentication_malformed',
				'Authentication header included, but incorrectly formatted or the API key is not valid.',
			);

		const order = query.get('order_by') ?? 'id[ASC]';
		if (!ORDERS.includes(order))
			return invalidField('order_by', `must be one of ${ORDERS.join(', ')}`);
		const perPageText = query.get('per_page') ?? String(DEFAULT_PER_PAGE);
		if (!/^-?\d+$/.test(perPageText) || Number(perPageText) < 1)
			return invalidField('per_page', 'must be an integer of at least 1');
		const perPage = Math.min(Number(perPageText), MAX_PER_PAGE);
		const typesText = query.get('event_type');
		const types = typesText === null ? null : new Set(typesText.split(',').filter(Boolean));

		const after = query.get('after');
		const ascending = order === 'id[ASC]';
		const start = ascending
			? after === null
				? 0
				: this.timeline.position(after, Infinity)
			: (after === null ? this.timeline.length : this.timeline.position(after, -1)) - 1;
		const page = this.timeline.walk({
			start,
			step: ascending ? 1 : -1,
			limit: perPage,
			matches: types === null ? undefined : (event) => types.has(event.event_type),
		});
		const data = page.entries.map((entry) => entry.value);

		const nextQuery = new URLSearchParams(query);
		const lastId = data.at(-1)?.event_id ?? after;
		if (lastId !== null) nextQuery.set('after', lastId);
		return {
			status: 200,
			body: {
				data,
				meta: {
					request_id: randomUUID(),
					pagination: {
						per_page: perPage,
						next: `${baseUrl}${path}?${nextQuery}`,
						has_more: page.hasMore,
						estimated_total: this.matchingTotal(types),
					},
				},
			},
		};
	}

	/** @param {Set<string> | null} types the event_type filter, null for none */
	matchingTotal(types) {
		if (types === null) return this.timeline.length;
		return [...types].reduce((total, type) => total + (this.countsByType.get(type) ?? 0), 0);
	}
}

module.exports = { PaddleEvents };
