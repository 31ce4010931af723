// @ts-check
'use strict';
/**
 * What a provider's test signer (support/payment/signers/<id>.js) and samples (its folder's
 * samples.js) hold. A signer signs as the provider does, with the provider's own library where
 * npm has one; it shares no code with the node's checks.
 */
const { createHmac, generateKeyPairSync } = require('node:crypto');

/**
 * @typedef {object} Signer
 * @property {string} secret the test endpoint's secret, in the provider's own format
 * @property {string} otherSecret another endpoint's secret (a secret roll, a wrong key)
 * @property {string} [signatureHeader] the header that carries the signature (lower case); none
 *   when it is in the body (`encode` signs; the shared header cases give way to the signer's own)
 * @property {false} [signsTimestamp] false when no timestamp is signed (nothing can be stale)
 * @property {true} [fetchesCertificate] its check needs what the provider publishes (a certificate
 *   chain, fetched by the module's fetchForCheck from the running sandbox's emulation): the offline
 *   shared suites leave it out, its own suite covers it
 * @property {{ id: string, name: string }} demoCredential the demo's signing credential
 * @property {true} [oneBareSignature] the signature header holds one bare hex HMAC, so two values
 *   joined into it (a header sent twice) are malformed
 * @property {(rawBody: string, secret: string, options: { timestamp: number, eventId?: string }) => Record<string, string>} sign
 *   the headers the provider sends with `rawBody` (sent byte for byte as given)
 * @property {Record<string, string>} [credentialData] the test endpoint's credential fields, when
 *   the provider needs more than the Signing Secret (`secret`)
 * @property {Record<string, string>} [nodeParameters] the test endpoint's values of the provider's
 *   own node parameters (its `parameters`: an app ID, a merchant ID, an environment)
 * @property {string} [contentType] the body's content type (default application/json)
 * @property {(event: Record<string, unknown>) => string} [encode] the body as the provider sends an
 *   event (default JSON); a provider that signs inside the body (a JWS, a form field) signs here
 *   with its test key, and `sign` returns the headers it sends beside it
 * @property {(bodyFor: (name: string) => string, secret: string) => BadDelivery[]} [badDeliveries]
 *   instead of the bad kinds every provider gets, where those do not fit its scheme
 * @property {(bodyFor: (name: string) => string, secret: string) => BadDelivery[]} [moreBadDeliveries]
 *   its own bad kinds beyond those (another app or merchant, a resource that does not decrypt);
 *   `bodyFor(name)` is a purchase whose transaction ID ends in `name`
 * @property {{ type: string, id: string, name: string, data: (sandboxUrl: string) => Record<string, string> }} [apiCredential]
 *   the provider's API credential (the trigger's `apiCredential`), for the sandbox at `sandboxUrl`
 *   that emulates the provider's API (sandbox/paymentProviders/)
 * @property {(transactionId: string) => BadDelivery} [failingDelivery] a signed purchase whose
 *   provider API answers 500: the trigger answers 503, for the provider to retry
 * @property {(event: Record<string, unknown>, sandboxUrl: string) => Promise<{ body: string, headers: Record<string, string> }>} [viaSandbox]
 *   the body and headers of `event`, made with the sandbox running at `sandboxUrl` in another
 *   process (its emulated provider holds the keys): `npm run send:webhook`
 */

/**
 * @typedef {{ name: string, body: string, headers: Record<string, string>, transactionId?: string }} BadDelivery
 *   `transactionId`: the one the body names, where a search of the body cannot find it
 */

/**
 * @typedef {{ transactionId: string, userId?: string, amountMinor?: number, currency?: string, partial?: boolean, refundedMinor?: number, refundedTotalMinor?: number, eventId?: string, checkout?: boolean, perRefund?: boolean, refundStatus?: string, refundEventType?: 'refund.created' | 'refund.updated' | 'refund.failed', refundKey?: string }} SampleFields
 * `partial`: a refund of 40% unless `refundedMinor` (this refund) says; `refundedTotalMinor`: what
 * is refunded so far, this refund included (`refundedMinor` unless given), which providers that
 * state a running total send;
 * `checkout`: a Stripe purchase as `checkout.session.completed` (the user ID in its metadata);
 * `perRefund`: a Stripe refund as `refund.created` (this refund alone, no running total);
 * `refundStatus`: the `perRefund` refund's `status` (`succeeded` unless given);
 * `refundEventType`: the `perRefund` event's type (`refund.created` unless given);
 * `refundKey`: what a refund's own ID is made of, where the provider sends one (the transaction ID
 * unless given): two refunds of one purchase give two keys
 */

/**
 * @typedef {ReturnType<typeof sampleDefaults>} SampleValues a sample's fields with their defaults:
 *   `partial` (this refund returns less than was paid), `partlyRefunded` (after it, part of the
 *   payment is still kept)
 */

/**
 * @typedef {object} Samples
 * @property {{ purchase: string, refund: string }} eventTypes the samples' event types
 * @property {'body' | 'message' | 'none'} [eventIdFrom] where the item's eventId comes from: the
 *   sample's own ID (`eventId`, the default), the signed message ID, or nowhere
 * @property {Record<string, unknown>} otherEvent an event that is neither a purchase nor a refund
 * @property {(kind: 'purchase' | 'refund', fields: SampleValues) => Record<string, unknown>} sampleEvent
 *   a documented purchase or refund event, as the provider sends it
 * @property {true} [refundSizeUnsaid] its refund does not say if it is whole: refundType null
 * @property {(outcome: DisputeOutcome, fields: DisputeValues) => Record<string, unknown>} [disputeEvent]
 *   a dispute opened, won by the brand, or lost (a chargeback), for providers that report them
 */

/** @typedef {'opened' | 'won' | 'lost'} DisputeOutcome */
/**
 * @typedef {{ transactionId: string, amountMinor: number, currency: string, eventId: string }} DisputeValues
 * `transactionId`: the ID the purchase was tracked with
 */

/** @param {string} key @param {string} data @returns {string} hex HMAC-SHA256 */
function hmacHex(key, data) {
	return createHmac('sha256', key).update(data, 'utf8').digest('hex');
}

/** A new RSA 2048 key pair as the RSA-signing providers' are: PKCS #8 and SPKI, PEM. */
function newRsaKeyPair() {
	return generateKeyPairSync('rsa', {
		modulusLength: 2048,
		privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
		publicKeyEncoding: { type: 'spki', format: 'pem' },
	});
}

/**
 * The signer of a provider that sends the bare hex HMAC-SHA256 of the body, keyed with the secret
 * as shown, in one header and signs no timestamp.
 * @param {string} signatureHeader (lower case)
 * @param {Pick<Signer, 'secret' | 'otherSecret' | 'demoCredential'>} fields
 * @returns {Signer}
 */
function bodyHmacSigner(signatureHeader, fields) {
	return {
		...fields,
		signatureHeader,
		signsTimestamp: false,
		oneBareSignature: true,
		sign: (rawBody, secret) => ({ [signatureHeader]: hmacHex(secret, rawBody) }),
	};
}

/**
 * The defaults of a sample's fields, shared by every provider's samples.
 * @param {'purchase' | 'refund'} kind @param {SampleFields} fields
 */
function sampleDefaults(kind, fields) {
	const { transactionId, userId = 'user_1001', amountMinor = 10000, currency = 'USD' } = fields;
	const refundedMinor =
		fields.refundedMinor ?? (fields.partial ? Math.floor(amountMinor * 0.4) : amountMinor);
	const refundedTotalMinor = fields.refundedTotalMinor ?? refundedMinor;
	return {
		checkout: fields.checkout,
		perRefund: fields.perRefund,
		refundStatus: fields.refundStatus,
		refundEventType: fields.refundEventType,
		transactionId,
		userId,
		amountMinor,
		currency,
		partial: refundedMinor < amountMinor,
		partlyRefunded: refundedTotalMinor < amountMinor,
		refundedMinor,
		refundedTotalMinor,
		refundKey: fields.refundKey ?? transactionId,
		eventId: fields.eventId ?? `evt_${kind}_${transactionId}`,
		created: 1_764_000_000,
	};
}

/**
 * The running sandbox's base URL, for signers whose provider the sandbox emulates (its certificate,
 * its keys): SANDBOX_URL, which test:e2e and test:compat set to the sandbox they start, else
 * `npm start`'s (http://127.0.0.1:$SANDBOX_PORT, 8787). Read at each signing.
 */
const runningSandboxUrl = () =>
	process.env.SANDBOX_URL ?? `http://127.0.0.1:${process.env.SANDBOX_PORT ?? '8787'}`;

module.exports = { bodyHmacSigner, hmacHex, newRsaKeyPair, runningSandboxUrl, sampleDefaults };
