// @ts-check
'use strict';
/**
 * WeChat Pay API v3 notifications as WeChat Pay sends them, for the tests: the resource sealed
 * with AEAD_AES_256_GCM under the APIv3 key (the 16-byte tag appended, base64), the body signed
 * with SHA256withRSA over `timestamp\nnonce\nbody\n` by the WeChat Pay private key whose public
 * key ID goes in Wechatpay-Serial. WeChat Pay's SDKs only verify and decrypt (npm's
 * `wechatpay-node-v3`: `verifySign`, `decipher_gcm`): test/paymentWebhook/wechatPay.unit.test.ts
 * checks these notifications with it. The keys are made here with node:crypto (RSA 2048), anew in
 * each process: the signer's `secret` is the private key, the credential holds its public half.
 */
const {
	createCipheriv,
	createPublicKey,
	createSign,
	generateKeyPairSync,
	randomBytes,
} = require('node:crypto');

const samples = require('../../../nodes/PaymentWebhookTrigger/providers/wechatPay/samples');

const ALGORITHM = 'AEAD_AES_256_GCM';
const PUBLIC_KEY_ID = 'PUB_KEY_ID_0119000001092026112400000000000001';
/** The test merchant's APIv3 key (32 characters), and another merchant's. */
const APIV3_KEY = 'affiliateTrackingApiV3TestKey001';
const OTHER_APIV3_KEY = 'affiliateTrackingApiV3TestKey002';

/** A WeChat Pay private key (PKCS #8 PEM). */
function newPrivateKey() {
	return generateKeyPairSync('rsa', {
		modulusLength: 2048,
		privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
		publicKeyEncoding: { type: 'spki', format: 'pem' },
	}).privateKey;
}

/** @param {string} privateKey @returns {string} its public key, PEM as WeChat Pay's pub_key.pem */
const publicKeyOf = (privateKey) =>
	String(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }));

/**
 * A test merchant of its own (for unit tests that need several): its WeChat Pay key pair, the
 * public key's ID, its APIv3 key and merchant ID.
 */
function testMerchant() {
	const privateKey = newPrivateKey();
	return {
		privateKey,
		publicKey: publicKeyOf(privateKey),
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

/** @param {string} body @param {Record<string, string>} headers */
const delivery = (body, headers) => ({
	body,
	headers: { 'content-type': 'application/json', ...headers },
});
/** @param {{ body: string, headers: Record<string, string> }} signed */
const sent = ({ body, headers }) => delivery(body, headers);

const now = () => Math.floor(Date.now() / 1000);

/** @type {import('../signer').Signer} */
const signer = {
	secret: newPrivateKey(),
	otherSecret: newPrivateKey(),
	signatureHeader: 'wechatpay-signature',
	signsTimestamp: true,
	demoCredential: { id: 'paySigningWechat1', name: 'WeChat Pay public key and APIv3 key (demo)' },
	sign: (rawBody, secret, { timestamp }) =>
		signNotification(rawBody, secret, PUBLIC_KEY_ID, timestamp),
	credentialFor: (secret) => ({
		publicKey: publicKeyOf(secret),
		publicKeyId: PUBLIC_KEY_ID,
		decryptionSecret: APIV3_KEY,
	}),
	parameters: { merchantId: samples.merchantId },
	deliver(event, secret, { timestamp }) {
		const body = notificationBody(event, APIV3_KEY);
		return delivery(body, signNotification(body, secret, PUBLIC_KEY_ID, timestamp));
	},
	badDeliveries(sample, secret) {
		/** @param {Record<string, unknown>} event @param {{ key?: string, apiV3Key?: string, at?: number, keyId?: string }} [how] */
		const signed = (event, how = {}) => {
			const body = notificationBody(event, how.apiV3Key ?? APIV3_KEY);
			const headers = signNotification(
				body,
				how.key ?? secret,
				how.keyId ?? PUBLIC_KEY_ID,
				how.at ?? now(),
			);
			return { body, headers };
		};
		const forged = signed(sample('forged'));
		const tampered = signed(sample('tampered'));
		const reserialized = signed(sample('reserialized'));
		const otherMerchant = sample('other_merchant');
		return [
			{
				name: 'forged',
				...delivery(forged.body, {
					...forged.headers,
					'wechatpay-signature': signed(sample('forged_from')).headers['wechatpay-signature'],
				}),
			},
			{
				name: 'tampered',
				...delivery(tampered.body.replace('"summary":"', '"summary":"!'), tampered.headers),
			},
			{ name: 'stale', ...sent(signed(sample('stale'), { at: now() - 3600 })) },
			{ name: 'unsigned', ...delivery(signed(sample('unsigned')).body, {}) },
			{ name: 'wrong key', ...sent(signed(sample('wrong_key'), { key: signer.otherSecret })) },
			{
				name: 'another key ID',
				...sent(signed(sample('other_key_id'), { keyId: `${PUBLIC_KEY_ID}9` })),
			},
			{
				name: 'another merchant',
				...sent(
					signed({
						...otherMerchant,
						resource: { ...Object(otherMerchant.resource), mchid: '1900000999' },
					}),
				),
			},
			{
				name: 'resource that does not decrypt',
				...sent(signed(sample('undecryptable'), { apiV3Key: OTHER_APIV3_KEY })),
			},
			{
				name: 're-serialized body',
				...delivery(JSON.stringify(JSON.parse(reserialized.body), null, 2), reserialized.headers),
			},
		];
	},
};

module.exports = { ...signer, testMerchant, notificationBody, signNotification };
