// @ts-check
'use strict';
/**
 * Signs WeChat Pay API v3 notifications as WeChat Pay sends them, for the tests: the resource
 * sealed with AEAD_AES_256_GCM under the APIv3 key (the 16-byte tag appended, base64), the body
 * signed with SHA256withRSA over `timestamp\nnonce\nbody\n` by the WeChat Pay private key whose
 * public key ID goes in Wechatpay-Serial. WeChat Pay's SDKs only verify and decrypt (npm's
 * `wechatpay-node-v3`: `verifySign`, `decipher_gcm`): test/paymentWebhook/wechatPay.unit.test.ts
 * checks these deliveries with it. Keys are made here with node:crypto (RSA 2048).
 */
const { createCipheriv, createSign, generateKeyPairSync, randomBytes } = require('node:crypto');

const ALGORITHM = 'AEAD_AES_256_GCM';

/**
 * A test merchant: its WeChat Pay key pair (PEM), the public key's ID, its APIv3 key and ID.
 * @returns {{ privateKey: string, publicKey: string, publicKeyId: string, apiV3Key: string, merchantId: string }}
 */
function testMerchant() {
	const { privateKey, publicKey } = generateKeyPairSync('rsa', {
		modulusLength: 2048,
		privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
		publicKeyEncoding: { type: 'spki', format: 'pem' },
	});
	return {
		privateKey,
		publicKey,
		publicKeyId: `PUB_KEY_ID_0119000001${randomBytes(8).toString('hex').toUpperCase()}`,
		apiV3Key: randomBytes(16).toString('hex'),
		merchantId: '1900000109',
	};
}

/**
 * `content` sealed as a notification's resource.
 * @param {object} content @param {string} apiV3Key
 * @param {{ originalType: string, associatedData?: string, nonce?: string }} options
 */
function sealResource(content, apiV3Key, { originalType, associatedData = originalType, nonce }) {
	const iv = nonce ?? randomBytes(6).toString('hex');
	const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(iv));
	cipher.setAAD(Buffer.from(associatedData, 'utf8'));
	const sealed = Buffer.concat([
		cipher.update(JSON.stringify(content), 'utf8'),
		cipher.final(),
		cipher.getAuthTag(),
	]);
	return {
		original_type: originalType,
		algorithm: ALGORITHM,
		ciphertext: sealed.toString('base64'),
		associated_data: associatedData,
		nonce: iv,
	};
}

/**
 * The headers WeChat Pay sends with `rawBody`, signed by `privateKey` at `timestamp` (Unix seconds,
 * now when absent).
 * @param {string | Buffer} rawBody @param {string} privateKey @param {string} publicKeyId
 * @param {{ timestamp?: number, nonce?: string }} [options]
 * @returns {Record<string, string>}
 */
function signNotification(rawBody, privateKey, publicKeyId, { timestamp, nonce } = {}) {
	const ts = String(timestamp ?? Math.floor(Date.now() / 1000));
	const headerNonce = nonce ?? randomBytes(16).toString('hex').toUpperCase();
	const signature = createSign('RSA-SHA256')
		.update(`${ts}\n${headerNonce}\n`)
		.update(rawBody)
		.update('\n')
		.sign(privateKey, 'base64');
	return {
		'wechatpay-timestamp': ts,
		'wechatpay-nonce': headerNonce,
		'wechatpay-signature': signature,
		'wechatpay-serial': publicKeyId,
		'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
	};
}

/**
 * A notification's body: the event with its resource sealed.
 * @param {'TRANSACTION.SUCCESS' | 'REFUND.SUCCESS'} eventType @param {object} content
 * @param {string} apiV3Key @param {{ id?: string, nonce?: string, associatedData?: string }} [options]
 */
function notificationBody(eventType, content, apiV3Key, options = {}) {
	const refund = eventType.startsWith('REFUND.');
	return JSON.stringify({
		id: options.id ?? `EV-${randomBytes(10).toString('hex')}`,
		create_time: '2026-11-24T08:00:00+08:00',
		resource_type: 'encrypt-resource',
		event_type: eventType,
		summary: refund ? '退款成功' : '支付成功',
		resource: sealResource(content, apiV3Key, {
			originalType: refund ? 'refund' : 'transaction',
			nonce: options.nonce,
			associatedData: options.associatedData,
		}),
	});
}

module.exports = { testMerchant, sealResource, signNotification, notificationBody };
