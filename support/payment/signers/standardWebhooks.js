// @ts-check
'use strict';
/** Standard Webhooks deliveries, signed by the standard's own library (`standardwebhooks`). */
const { hmacHex } = require('../signer');

/** @param {string} keyText @returns {string} `whsec_` and the base64 of the key bytes */
const whsec = (keyText) => `whsec_${Buffer.from(keyText).toString('base64')}`;

/** @type {import('../signer').Signer & { whsec: typeof whsec }} */
module.exports = {
	secret: whsec('affiliate-tracking-standard-webhooks-test-key'),
	otherSecret: whsec('affiliate-tracking-standard-webhooks-rolled-key'),
	signatureHeader: 'webhook-signature',
	demoCredential: { id: 'paySigningStdHook', name: 'Standard Webhooks signing secret (demo)' },
	sign(rawBody, secret, { timestamp, eventId }) {
		const { Webhook } = require('standardwebhooks');
		const id = eventId ?? `msg_${hmacHex('id', rawBody).slice(0, 24)}`;
		return {
			'webhook-id': id,
			'webhook-timestamp': String(timestamp),
			'webhook-signature': new Webhook(secret).sign(id, new Date(timestamp * 1000), rawBody),
		};
	},
	whsec,
};
