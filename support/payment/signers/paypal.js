// @ts-check
'use strict';
/**
 * PayPal REST webhooks, signed as PayPal signs them (support/payment/paypalChain.js): the headers
 * name the transmission, its time, its SHA256withRSA signature and the URL of the certificate
 * chain, which the running sandbox serves (sandbox/paymentProviders/paypal.js). The "secret" is
 * the endpoint's webhook ID (the credential's Signing Secret); the test credential trusts the
 * stored test root (Root Certificate), with the node's Environment Sandbox.
 *
 * The sandbox's URL: `runningSandboxUrl` (support/payment/signer.js).
 */
const { storedChains, transmissionHeaders } = require('../paypalChain');
const { runningSandboxUrl } = require('../signer');

const chains = storedChains();
const SECRET = 'AffiliateTrackingTestWebhook1';
const OTHER_SECRET = 'AffiliateTrackingOtherWebhook2';

/** Where the sandbox serves `chain`. @param {import('../paypalChain').TestChain} chain */
const certUrlOf = (chain) =>
	`${runningSandboxUrl()}/__providers/paypal/v1/notifications/certs/${chain.certId}`;

/** Now, in Unix seconds. */
const now = () => Math.floor(Date.now() / 1000);

/**
 * A bad delivery of `body` signed by `chain` with `webhookId` at `timestamp`, naming `certUrl`.
 * @param {string} name @param {string} body
 * @param {{ chain?: import('../paypalChain').TestChain, certUrl?: string, webhookId?: string, timestamp?: number, sentBody?: string }} [options]
 * @returns {import('../signer').BadDelivery}
 */
function bad(name, body, options = {}) {
	const chain = options.chain ?? chains.trusted;
	const headers = transmissionHeaders({
		chain,
		certUrl: options.certUrl ?? certUrlOf(chain),
		rawBody: body,
		webhookId: options.webhookId ?? SECRET,
		timestamp: options.timestamp ?? now(),
	});
	return { name, body: options.sentBody ?? body, headers };
}

/** `body` with the buyer's ID (`custom_id`) changed after signing. @param {string} body */
const changedBuyer = (body) => {
	const event = JSON.parse(body);
	event.resource.custom_id = 'attacker_1';
	return JSON.stringify(event);
};

/** @type {import('../signer').Signer} */
module.exports = {
	secret: SECRET,
	otherSecret: OTHER_SECRET,
	signatureHeader: 'paypal-transmission-sig',
	fetchesCertificate: true,
	credentialData: { signingSecret: SECRET, rootCa: chains.trusted.rootPem },
	nodeParameters: { paypalEnvironment: 'sandbox' },
	demoCredential: { id: 'paySigningPaypal01', name: 'PayPal test webhook ID and root (demo)' },
	sign: (rawBody, secret, { timestamp }) =>
		transmissionHeaders({
			chain: chains.trusted,
			certUrl: certUrlOf(chains.trusted),
			rawBody,
			webhookId: secret,
			timestamp,
		}),
	// Each refused before anything runs: a certificate from a host that is not PayPal's (nothing is
	// fetched), a chain under another root, another endpoint's webhook ID, a body changed after
	// signing (its CRC32), a transmission an hour old, no headers at all.
	badDeliveries: (bodyFor, secret) => [
		bad('another host', bodyFor('another_host'), {
			certUrl: `https://certs.example.com/v1/notifications/certs/${chains.trusted.certId}`,
		}),
		bad('another root', bodyFor('another_root'), { chain: chains.other }),
		bad('another webhook ID', bodyFor('another_webhook'), {
			webhookId: secret === SECRET ? OTHER_SECRET : SECRET,
		}),
		(() => {
			const body = bodyFor('changed_body');
			return bad('changed body (CRC32)', body, { sentBody: changedBuyer(body) });
		})(),
		bad('old transmission time', bodyFor('old_time'), { timestamp: now() - 3600 }),
		{ name: 'unsigned', body: bodyFor('unsigned'), headers: {} },
	],
};
