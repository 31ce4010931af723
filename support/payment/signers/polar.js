// @ts-check
'use strict';
/**
 * Polar's deliveries, signed by the Standard Webhooks signer (./standardWebhooks.js) as Polar
 * signs them: a `whsec_…` secret is handed to it as it is (its key is the base64 after `whsec_`);
 * an older `polar_whs_…` secret is base64-encoded first, as Polar's SDK did, so its key is the
 * secret's own UTF-8 bytes.
 * A unit test checks these deliveries against Polar's own SDK (`@polar-sh/sdk` validateEvent).
 */
const standardWebhooks = require('./standardWebhooks');

/** @type {import('../signer').Signer} */
module.exports = {
	secret: 'polar_whs_test_affiliate_tracking_polar_0001',
	otherSecret: standardWebhooks.whsec('affiliate-tracking-polar-rolled-key'),
	signatureHeader: 'webhook-signature',
	demoCredential: { id: 'paySigningPolar01', name: 'Polar webhook signing secret (demo)' },
	sign: (rawBody, secret, options) =>
		standardWebhooks.sign(
			rawBody,
			secret.startsWith('whsec_') ? secret : standardWebhooks.whsec(secret),
			options,
		),
};
