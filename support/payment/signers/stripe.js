// @ts-check
'use strict';
/** Stripe's deliveries, signed by Stripe's own library (no API key is used: signing is local). */

let webhooks = /** @type {import('stripe').Stripe['webhooks'] | undefined} */ (undefined);

/** @type {import('../signer').Signer} */
module.exports = {
	secret: 'whsec_test_affiliate_tracking_stripe_0001',
	otherSecret: 'whsec_test_affiliate_tracking_stripe_rolled_0002',
	signatureHeader: 'stripe-signature',
	demoCredential: { id: 'paySigningStripe1', name: 'Stripe webhook signing secret (demo)' },
	sign(rawBody, secret, { timestamp }) {
		if (!webhooks) {
			const Stripe = require('stripe');
			webhooks = new Stripe('sk_test_signing_only').webhooks;
		}
		return {
			'stripe-signature': webhooks.generateTestHeaderString({
				payload: rawBody,
				secret,
				timestamp,
			}),
		};
	},
};
