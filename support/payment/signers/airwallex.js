// @ts-check
'use strict';
/**
 * Signs deliveries as Airwallex does, for the tests. No library on npm signs Airwallex webhooks,
 * so this follows Airwallex's documentation ("Listen for webhook events", its Java code example):
 * the value to digest is the `x-timestamp` header (Unix milliseconds) with the raw body appended,
 * nothing between them; `x-signature` is its HMAC-SHA256 in lower-case hex, keyed with the
 * webhook's secret as the web app shows it. test/paymentWebhook/airwallex.unit.test.ts checks it.
 */
const { createHmac } = require('node:crypto');

/**
 * The headers Airwallex sends with `rawBody`, signed with `secret` at `timestampMs` (now when
 * absent). The body must be sent byte for byte as given.
 * @param {string} rawBody @param {string} secret @param {{ timestampMs?: number }} [options]
 * @returns {{ 'x-timestamp': string, 'x-signature': string }}
 */
function signAirwallex(rawBody, secret, { timestampMs } = {}) {
	const timestamp = String(timestampMs ?? Date.now());
	const signature = createHmac('sha256', secret)
		.update(timestamp + rawBody, 'utf8')
		.digest('hex');
	return { 'x-timestamp': timestamp, 'x-signature': signature };
}

module.exports = { signAirwallex };
