// @ts-check
'use strict';
/**
 * Creem's deliveries: `creem-signature`, the hex HMAC-SHA256 of the body keyed with the secret as
 * shown, as documented (Creem's SDKs only verify).
 */
const { bodyHmacSigner } = require('../signer');

module.exports = bodyHmacSigner('creem-signature', {
	secret: 'whsec_test_affiliate_tracking_creem_0001',
	otherSecret: 'whsec_test_affiliate_tracking_creem_rolled_0002',
	demoCredential: { id: 'paySigningCreem01', name: 'Creem webhook signing secret (demo)' },
});
