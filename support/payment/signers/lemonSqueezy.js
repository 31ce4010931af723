// @ts-check
'use strict';
/** Lemon Squeezy's deliveries: `X-Signature`, the hex HMAC-SHA256 of the body, as documented. */
const { bodyHmacSigner } = require('../signer');

module.exports = bodyHmacSigner('x-signature', {
	secret: 'ls_test_affiliate_tracking_signing_0001',
	otherSecret: 'ls_test_affiliate_tracking_signing_rolled_0002',
	demoCredential: { id: 'paySigningLemonSq', name: 'Lemon Squeezy webhook signing secret (demo)' },
});
