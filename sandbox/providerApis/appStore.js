// @ts-check
'use strict';
/**
 * The App Store Server API's POST /inApps/v1/notifications/history as Apple answers it: the
 * App Store Connect API token (ES256 JWT) checked as Apple checks it, the notifications of a date
 * range in signedDate order, 20 a page, an opaque paginationToken bound to the request's body.
 */
const { createHash, createPublicKey, verify } = require('node:crypto');

const { Timeline } = require('./timeline');

/**
 * @typedef {{ issuerId: string, keyId: string, publicKeyPem: string, bundleId: string }} AppStoreConfig
 * @typedef {{ signedPayload: string, signedDate: number }} AppStoreRecord
 * @typedef {AppStoreRecord & { notificationType: unknown, transactionIds: unknown[] }} Notification
 *   with what the filters read, decoded once when recorded
 * @typedef {{ startDate: number, endDate: number, notificationType?: string, transactionId?: string,
 *   onlyFailures?: boolean }} HistoryFilter
 * @typedef {import('./server').ProviderRequest} ProviderRequest
 * @typedef {import('./server').Answer} Answer
 */

const PAGE_SIZE = 20;
const MAX_AGE_MS = 180 * 24 * 3600 * 1000;
const MAX_TOKEN_LIFETIME_S = 3600;
const ALLOWED_IAT_AHEAD_S = 60;
const AUDIENCE = 'appstoreconnect-v1';
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** @param {number} status @param {number} errorCode @param {string} errorMessage @returns {Answer} */
const appleError = (status, errorCode, errorMessage) => ({
	status,
	body: { errorCode, errorMessage },
});
const UNAUTHENTICATED = appleError(401, 4010000, 'Unauthenticated');
/** @param {string} message naming the field at fault */
const badRequest = (message) => appleError(400, 4000000, message);

/** The JSON object `text` holds, or null. @param {string} text @returns {Record<string, any> | null} */
function jsonObject(text) {
	try {
		const value = JSON.parse(text);
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : null;
	} catch {
		return null;
	}
}

/** The JSON object a base64url part of a JWS (or a pagination token) holds, or null. @param {string | undefined} part */
const decodePart = (part) =>
	part === undefined || !BASE64URL.test(part)
		? null
		: jsonObject(Buffer.from(part, 'base64url').toString('utf8'));

/**
 * What a notification's filters read from its JWS payload (not verified: the history only hands
 * it on): its type and the IDs of its transaction.
 * @param {AppStoreRecord} record @returns {Notification}
 */
function decodeNotification(record) {
	const payload = decodePart(record?.signedPayload?.split('.')[1]);
	if (payload === null || !Number.isInteger(record.signedDate))
		throw new TypeError('An App Store record needs a JWS signedPayload and an integer signedDate');
	const transaction = decodePart(payload.data?.signedTransactionInfo?.split('.')[1]);
	return {
		signedPayload: record.signedPayload,
		signedDate: record.signedDate,
		notificationType: payload.notificationType,
		transactionIds: [transaction?.transactionId, transaction?.originalTransactionId],
	};
}

/**
 * The body's filter, or the 400 naming the field at fault.
 * @param {Buffer} body @param {number} nowMs @returns {HistoryFilter | Answer}
 */
function parseFilter(body, nowMs) {
	const filter = jsonObject(body.toString('utf8'));
	if (filter === null) return badRequest('The body must be a JSON object.');
	for (const field of ['startDate', 'endDate'])
		if (!Number.isSafeInteger(filter[field]))
			return badRequest(`${field} is required: milliseconds since the epoch.`);
	if (filter.startDate >= filter.endDate) return badRequest('startDate must be before endDate.');
	if (filter.startDate < nowMs - MAX_AGE_MS)
		return badRequest('startDate must be no more than 180 days in the past.');
	for (const field of ['notificationType', 'transactionId'])
		if (filter[field] !== undefined && typeof filter[field] !== 'string')
			return badRequest(`${field} must be a string.`);
	if (filter.notificationType !== undefined && filter.transactionId !== undefined)
		return badRequest('notificationType and transactionId cannot both be given.');
	if (filter.onlyFailures !== undefined && typeof filter.onlyFailures !== 'boolean')
		return badRequest('onlyFailures must be a boolean.');
	return /** @type {HistoryFilter} */ (filter);
}

/** What a pagination token is bound to: the filter, whatever the body's spacing or key order. @param {HistoryFilter} filter */
const filterHash = (filter) =>
	createHash('sha256')
		.update(
			JSON.stringify([
				filter.startDate,
				filter.endDate,
				filter.notificationType ?? null,
				filter.transactionId ?? null,
				filter.onlyFailures ?? false,
			]),
		)
		.digest('base64url');

class AppStoreNotifications {
	/** @param {AppStoreConfig | undefined} config the one key accepted; none: every request refused */
	constructor(config) {
		this.config = config;
		this.publicKey = config ? createPublicKey(config.publicKeyPem) : null;
		this.route = { method: 'POST', path: '/inApps/v1/notifications/history' };
		/** @type {Timeline<Notification>} */
		this.timeline = new Timeline();
	}

	/** @param {AppStoreRecord} record */
	record(record) {
		const notification = decodeNotification(record);
		this.timeline.add(notification.signedDate, notification);
	}

	clear() {
		this.timeline.clear();
	}

	/** @param {404|405|429} status @returns {Answer} */
	refuse(status) {
		if (status === 429) return appleError(429, 4290000, 'Rate limit exceeded.');
		if (status === 405) return appleError(405, 4050000, 'Method not allowed.');
		return appleError(404, 4040000, 'Not found.');
	}

	/** @param {ProviderRequest} request @returns {Answer} */
	answer({ headers, query, body }) {
		const nowMs = Date.now();
		if (!this.authenticated(headers.authorization, nowMs)) return UNAUTHENTICATED;
		const filter = parseFilter(body, nowMs);
		if ('status' in filter) return filter;
		const hash = filterHash(filter);

		let start = this.timeline.position(filter.startDate, -1);
		const token = query.get('paginationToken');
		if (token !== null) {
			const position = decodePart(token);
			const { signedDate, seq } = position ?? {};
			if (position?.filter !== hash || !Number.isInteger(signedDate) || !Number.isInteger(seq))
				return badRequest('paginationToken is invalid for this request.');
			start = Math.max(start, this.timeline.position(signedDate, seq + 1));
		}
		const page = this.timeline.walk({
			start,
			step: 1,
			high: this.timeline.position(filter.endDate, -1),
			limit: PAGE_SIZE,
			matches: (notification) =>
				// Every recorded notification reached the server on its one attempt: none failed.
				!filter.onlyFailures &&
				(filter.notificationType === undefined ||
					notification.notificationType === filter.notificationType) &&
				(filter.transactionId === undefined ||
					notification.transactionIds.includes(filter.transactionId)),
		});
		const last = page.entries.at(-1);
		const nextToken =
			page.hasMore && last !== undefined
				? Buffer.from(
						JSON.stringify({ signedDate: last.key, seq: last.seq, filter: hash }),
					).toString('base64url')
				: undefined;
		return {
			status: 200,
			body: {
				notificationHistory: page.entries.map(({ value }) => ({
					signedPayload: value.signedPayload,
					sendAttempts: [{ attemptDate: value.signedDate, sendAttemptResult: 'SUCCESS' }],
				})),
				hasMore: page.hasMore,
				...(nextToken === undefined ? {} : { paginationToken: nextToken }),
			},
		};
	}

	/**
	 * Whether the Authorization header carries an App Store Connect API token of this app, signed by
	 * its key and valid now.
	 * @param {string | undefined} authorization @param {number} nowMs
	 */
	authenticated(authorization, nowMs) {
		const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
		const parts = token?.split('.') ?? [];
		const [header, payload] = parts.slice(0, 2).map(decodePart);
		if (!this.config || !this.publicKey || parts.length !== 3 || !header || !payload) return false;
		const { keyId, issuerId, bundleId } = this.config;
		if (header.alg !== 'ES256' || header.kid !== keyId) return false;
		if (payload.iss !== issuerId || payload.aud !== AUDIENCE || payload.bid !== bundleId)
			return false;
		const signature = BASE64URL.test(parts[2])
			? Buffer.from(parts[2], 'base64url')
			: Buffer.alloc(0);
		const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
		const key = { key: this.publicKey, dsaEncoding: /** @type {const} */ ('ieee-p1363') };
		if (signature.length !== 64 || !verify('sha256', signed, key, signature)) return false;
		const { iat, exp } = payload;
		if (typeof iat !== 'number' || typeof exp !== 'number') return false;
		const nowSeconds = nowMs / 1000;
		return (
			nowSeconds < exp &&
			iat <= nowSeconds + ALLOWED_IAT_AHEAD_S &&
			exp - iat <= MAX_TOKEN_LIFETIME_S
		);
	}
}

module.exports = { AppStoreNotifications };
