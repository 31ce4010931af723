// @ts-check
'use strict';
/**
 * WeChat Pay API v3 notifications as WeChat Pay sends them, for the tests: the resource sealed
 * with AEAD_AES_256_GCM under the APIv3 key (the 16-byte tag appended, base64), the body signed
 * with SHA256withRSA over `timestamp\nnonce\nbody\n` by the WeChat Pay private key whose public
 * key ID goes in Wechatpay-Serial. WeChat Pay's SDKs only verify and decrypt (npm's
 * `wechatpay-node-v3`: `verifySign`, `decipher_gcm`): test/paymentWebhook/wechatPay.unit.test.ts
 * checks these notifications with it. The keys are made with node:crypto (RSA 2048, signer.js's
 * newRsaKeyPair), anew in each process: the signer's `secret` is the private key, the credential
 * holds its public half.
 */
const { createCipheriv, createDecipheriv, createSign, randomBytes } = require('node:crypto');

const { newRsaKeyPair } = require('../signer');
const samples = require('../../../nodes/PaymentWebhookTrigger/providers/wechatPay/samples');

const ALGORITHM = 'AEAD_AES_256_GCM';
const PUBLIC_KEY_ID = 'PUB_KEY_ID_0119000001092026112400000000000001';
/** The test merchant's APIv3 key (32 characters), and another merchant's. */
const APIV3_KEY = 'affiliateTrackingApiV3TestKey001';
const OTHER_APIV3_KEY = 'affiliateTrackingApiV3TestKey002';

/**
 * A test merchant of its own (for unit tests that need several): its WeChat Pay key pair, the
 * public key's ID, its APIv3 key and merchant ID.
 */
function testMerchant() {
	return {
		...newRsaKeyPair(),
		publicKeyId: `PUB_KEY_ID_0119000001${randomBytes(8).toString('hex').toUpperCase()}`,
		apiV3Key: randomBytes(16).toString('hex'),
		merchantId: samples.merchantId,
	};
}

/**
 * `content` sealed as a notification's resource.
 * @param {unknown} content @param {string} apiV3Key @param {string} originalType
 */
function sealResource(content, apiV3Key, originalType) {
	const nonce = randomBytes(6).toString('hex');
	const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key, 'utf8'), Buffer.from(nonce));
	cipher.setAAD(Buffer.from(originalType, 'utf8'));
	const sealed = Buffer.concat([
		cipher.update(JSON.stringify(content), 'utf8'),
		cipher.final(),
		cipher.getAuthTag(),
	]);
	return {
		original_type: originalType,
		algorithm: ALGORITHM,
		ciphertext: sealed.toString('base64'),
		associated_data: originalType,
		nonce,
	};
}

/**
 * The body WeChat Pay posts for `event` (a sample: its resource in plain), the resource sealed
 * under `apiV3Key`.
 * @param {Record<string, unknown>} event @param {string} apiV3Key
 */
function notificationBody(event, apiV3Key) {
	const originalType = String(event.event_type).startsWith('REFUND.') ? 'refund' : 'transaction';
	return JSON.stringify({
		...event,
		resource: sealResource(event.resource, apiV3Key, originalType),
	});
}

/**
 * The headers WeChat Pay sends with `rawBody`, signed by `privateKey` at `timestamp`.
 * @param {string} rawBody @param {string} privateKey @param {string} publicKeyId @param {number} timestamp
 * @returns {Record<string, string>}
 */
function signNotification(rawBody, privateKey, publicKeyId, timestamp) {
	const nonce = randomBytes(16).toString('hex').toUpperCase();
	const signature = createSign('RSA-SHA256')
		.update(`${timestamp}\n${nonce}\n${rawBody}\n`, 'utf8')
		.sign(privateKey, 'base64');
	return {
		'wechatpay-timestamp': String(timestamp),
		'wechatpay-nonce': nonce,
		'wechatpay-signature': signature,
		'wechatpay-serial': publicKeyId,
		'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
	};
}

/**
 * A notification's body opened again (the signer holds the APIv3 key): the event with its
 * resource in plain, to change before sealing anew.
 * @param {string} body @returns {Record<string, unknown>}
 */
function openNotification(body) {
	const event = JSON.parse(body);
	const { ciphertext, nonce, associated_data: associatedData } = event.resource;
	const sealed = Buffer.from(ciphertext, 'base64');
	const decipher = createDecipheriv(
		'aes-256-gcm',
		Buffer.from(APIV3_KEY, 'utf8'),
		Buffer.from(nonce),
	);
	decipher.setAuthTag(sealed.subarray(sealed.length - 16));
	decipher.setAAD(Buffer.from(associatedData, 'utf8'));
	const plain = Buffer.concat([
		decipher.update(sealed.subarray(0, sealed.length - 16)),
		decipher.final(),
	]);
	return { ...event, resource: JSON.parse(plain.toString('utf8')) };
}

const now = () => Math.floor(Date.now() / 1000);
// WeChat Pay's key pair; its public key is PEM as WeChat Pay's pub_key.pem.
const keys = newRsaKeyPair();

/** @type {import('../signer').Signer} */
const signer = {
	secret: keys.privateKey,
	otherSecret: newRsaKeyPair().privateKey,
	signatureHeader: 'wechatpay-signature',
	demoCredential: { id: 'paySigningWechat1', name: 'WeChat Pay public key and APIv3 key (demo)' },
	sign: (rawBody, key, { timestamp }) => signNotification(rawBody, key, PUBLIC_KEY_ID, timestamp),
	credentialData: {
		publicKey: keys.publicKey,
		publicKeyId: PUBLIC_KEY_ID,
		decryptionSecret: APIV3_KEY,
	},
	nodeParameters: { merchantId: samples.merchantId },
	encode: (event) => notificationBody(event, APIV3_KEY),
	// The shared tampered case changes the buyer, which the sealed resource hides: these replace them.
	badDeliveries(bodyFor, key) {
		/** @param {string} body @param {{ key?: string, at?: number }} [how] */
		const signed = (body, how = {}) => ({
			body,
			headers: signNotification(body, how.key ?? key, PUBLIC_KEY_ID, how.at ?? now()),
		});
		const forged = signed(bodyFor('forged'));
		const tampered = signed(bodyFor('tampered'));
		const reserialized = signed(bodyFor('reserialized'));
		return [
			{
				name: 'forged',
				body: forged.body,
				headers: {
					...forged.headers,
					'wechatpay-signature': signed(bodyFor('forged_from')).headers['wechatpay-signature'],
				},
			},
			// What the signature covers around the sealed resource, changed.
			{
				name: 'tampered',
				body: tampered.body.replace('"summary":"', '"summary":"!'),
				headers: tampered.headers,
			},
			{ name: 'stale', ...signed(bodyFor('stale'), { at: now() - 3600 }) },
			{ name: 'unsigned', body: bodyFor('unsigned'), headers: {} },
			{ name: 'wrong key', ...signed(bodyFor('wrong_key'), { key: signer.otherSecret }) },
			{
				name: 're-serialized body',
				body: JSON.stringify(JSON.parse(reserialized.body), null, 2),
				headers: reserialized.headers,
			},
		];
	},
	moreBadDeliveries(bodyFor, key) {
		/** @param {string} body @param {string} [keyId] */
		const signed = (body, keyId = PUBLIC_KEY_ID) => ({
			body,
			headers: signNotification(body, key, keyId, now()),
		});
		const otherMerchant = openNotification(bodyFor('other_merchant'));
		return [
			{ name: 'another key ID', ...signed(bodyFor('other_key_id'), `${PUBLIC_KEY_ID}9`) },
			{
				name: 'another merchant',
				...signed(
					notificationBody(
						{
							...otherMerchant,
							resource: { ...Object(otherMerchant.resource), mchid: '1900000999' },
						},
						APIV3_KEY,
					),
				),
			},
			{
				name: 'resource that does not decrypt',
				...signed(notificationBody(openNotification(bodyFor('undecryptable')), OTHER_APIV3_KEY)),
			},
		];
	},
};

module.exports = { ...signer, testMerchant, notificationBody, signNotification };
