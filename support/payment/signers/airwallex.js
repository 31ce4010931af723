// @ts-check
'use strict';
/**
 * Airwallex's deliveries. No library on npm signs Airwallex webhooks, so this follows Airwallex's
 * documentation ("Listen for webhook events", its Java code example): the value to digest is the
 * `x-timestamp` header (Unix milliseconds) with the raw body appended, nothing between them;
 * `x-signature` is its HMAC-SHA256 in lower-case hex, keyed with the webhook's secret as the web
 * app shows it. test/paymentWebhook/airwallex.unit.test.ts checks it against the documented
 * example.
 */
const { hmacHex } = require('../signer');

/**
 * The headers Airwallex sends with `rawBody`, signed at `timestampMs` (Unix milliseconds).
 * @param {string} rawBody @param {string} secret @param {number} timestampMs
 */
function signAtMilliseconds(rawBody, secret, timestampMs) {
	const timestamp = String(timestampMs);
	return { 'x-timestamp': timestamp, 'x-signature': hmacHex(secret, timestamp + rawBody) };
}

/** @type {import('../signer').Signer & { signAtMilliseconds: typeof signAtMilliseconds }} */
module.exports = {
	secret: 'airwallex_test_affiliate_tracking_webhook_0001',
	otherSecret: 'airwallex_test_affiliate_tracking_webhook_rolled_0002',
	signatureHeader: 'x-signature',
	oneBareSignature: true,
	demoCredential: { id: 'paySigningAirwlx1', name: 'Airwallex webhook signing secret (demo)' },
	sign: (rawBody, secret, { timestamp }) => signAtMilliseconds(rawBody, secret, timestamp * 1000),
	signAtMilliseconds,
};
