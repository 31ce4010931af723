// @ts-check
'use strict';
/**
 * Paddle Billing's deliveries: `ts=<unix>;h1=<hex HMAC-SHA256 of "<ts>:<body>">`, as Paddle
 * documents it (its SDK only verifies: a unit test checks these signatures against it).
 */
const { hmacHex } = require('../signer');

/** @type {import('../signer').Signer} */
module.exports = {
	secret: 'pdl_ntfset_test_affiliate_tracking_paddle_0001',
	otherSecret: 'pdl_ntfset_test_affiliate_tracking_paddle_rolled_0002',
	signatureHeader: 'paddle-signature',
	demoCredential: { id: 'paySigningPaddle1', name: 'Paddle webhook signing secret (demo)' },
	sign: (rawBody, secret, { timestamp }) => ({
		'paddle-signature': `ts=${timestamp};h1=${hmacHex(secret, `${timestamp}:${rawBody}`)}`,
	}),
};
