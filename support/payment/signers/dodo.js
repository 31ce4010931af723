// @ts-check
'use strict';
/**
 * Dodo Payments' deliveries: Standard Webhooks, signed by the standard's own library
 * (`standardwebhooks`, through ./standardWebhooks.js) with a `whsec_…` secret as Dodo shows it.
 */
const standardWebhooks = require('./standardWebhooks');

/** @type {import('../signer').Signer} */
module.exports = {
	secret: standardWebhooks.whsec('affiliate-tracking-dodo-payments-test-key'),
	otherSecret: standardWebhooks.whsec('affiliate-tracking-dodo-payments-rolled-key'),
	signatureHeader: 'webhook-signature',
	demoCredential: { id: 'paySigningDodo001', name: 'Dodo Payments webhook signing secret (demo)' },
	sign: standardWebhooks.sign,
};
