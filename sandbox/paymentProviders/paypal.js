// @ts-check
'use strict';
/**
 * PayPal's certificate URLs, emulated: `GET /__providers/paypal/v1/notifications/certs/<CERT-…>`
 * serves the test chain of that ID (support/payment/paypalChain.js, made on this machine), leaf
 * first, as PayPal serves its signing certificate; any other ID is 404, as PayPal answers an
 * unknown one. The test signer (support/payment/signers/paypal.js) names these URLs in
 * `paypal-cert-url`, and the test credential trusts the chain's root, so that the Payment Webhook
 * Trigger fetches and checks the chain as it does PayPal's.
 */
const CERTS = /^\/v1\/notifications\/certs\/(CERT-[A-Za-z0-9-]+)$/;

/** The stored chains by ID, read on the first request. @type {Map<string, string> | undefined} */
let chainsById;

/** @returns {Map<string, string>} */
function chains() {
	// Loaded on first use: making chains needs @peculiar/x509, which no other route does.
	const { storedChains } = require('../../support/payment/paypalChain');
	chainsById ??= new Map(
		Object.values(storedChains()).map((chain) => [chain.certId, chain.chainPem]),
	);
	return chainsById;
}

/** @type {import('./index').ProviderEmulation} */
module.exports = {
	name: 'paypal',
	handle(req, res, path) {
		const match = req.method === 'GET' ? CERTS.exec(path) : null;
		const chain = match === null ? undefined : chains().get(match[1]);
		if (chain === undefined) {
			res.writeHead(404, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify({ name: 'RESOURCE_NOT_FOUND', message: 'No certificate here' }));
			return;
		}
		res.writeHead(200, { 'Content-Type': 'application/x-pem-file' });
		res.end(`${chain}\n`);
	},
};
