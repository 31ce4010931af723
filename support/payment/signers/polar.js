// @ts-check
'use strict';
/**
 * Polar's deliveries, signed by the Standard Webhooks library as Polar signs them: a `whsec_…`
 * secret is handed to it as it is (its key is the base64 after `whsec_`); an older `polar_whs_…`
 * secret is base64-encoded first, as Polar's SDK did, so its key is the secret's own UTF-8 bytes.
 * A unit test checks these deliveries against Polar's own SDK (`@polar-sh/sdk` validateEvent).
 */
const { hmacHex } = require('../signer');

/** @type {import('../signer').Signer} */
module.exports = {
	secret: 'polar_whs_test_affiliate_tracking_polar_0001',
	otherSecret: `whsec_${Buffer.from('affiliate-tracking-polar-rolled-key').toString('base64')}`,
	signatureHeader: 'webhook-signature',
	signsTimestamp: true,
	demoCredential: { id: 'paySigningPolar01', name: 'Polar webhook signing secret (demo)' },
	sign(rawBody, secret, { timestamp, eventId }) {
		const { Webhook } = require('standardwebhooks');
		const key = secret.startsWith('whsec_') ? secret : Buffer.from(secret).toString('base64');
		const id = eventId ?? `msg_${hmacHex('id', rawBody).slice(0, 24)}`;
		return {
			'webhook-id': id,
			'webhook-timestamp': String(timestamp),
			'webhook-signature': new Webhook(key).sign(id, new Date(timestamp * 1000), rawBody),
		};
	},
};
