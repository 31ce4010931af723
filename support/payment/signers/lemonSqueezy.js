// @ts-check
'use strict';
/** Lemon Squeezy's deliveries: `X-Signature`, the hex HMAC-SHA256 of the body, as documented. */
const { hmacHex } = require('../signer');

/** @type {import('../signer').Signer} */
module.exports = {
	secret: 'ls_test_affiliate_tracking_signing_0001',
	otherSecret: 'ls_test_affiliate_tracking_signing_rolled_0002',
	signatureHeader: 'x-signature',
	signsTimestamp: false,
	demoCredential: { id: 'paySigningLemonSq', name: 'Lemon Squeezy webhook signing secret (demo)' },
	sign: (rawBody, secret) => ({ 'x-signature': hmacHex(secret, rawBody) }),
};
