// @ts-check
'use strict';
/**
 * Alipay asynchronous notifications as Alipay sends them, for the tests: RSA2 (SHA256withRSA)
 * over the fields without `sign` and `sign_type` that have a value, sorted by name, `name=value`
 * joined with `&` (written here from Alipay's documentation, 异步通知验签); the form encoded as
 * Alipay's Java gateway encodes it (java.net.URLEncoder: a space is `+`). `alipay-sdk` (Alipay's
 * own) only verifies notifications: test/paymentWebhook/alipay.unit.test.ts checks these with its
 * `checkNotifySignV2`. The keys are made here with node:crypto (RSA 2048), anew in each process:
 * the signer's `secret` is the private key, the credential holds the public half as Alipay's
 * console shows it (bare base64).
 */
const { createPublicKey, createSign, generateKeyPairSync } = require('node:crypto');

const samples = require('../../../nodes/PaymentWebhookTrigger/providers/alipay/samples');

const FORM = 'application/x-www-form-urlencoded; charset=utf-8';

/** A private key Alipay signs with (PKCS #8 PEM). */
function newPrivateKey() {
	return generateKeyPairSync('rsa', {
		modulusLength: 2048,
		privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
		publicKeyEncoding: { type: 'spki', format: 'pem' },
	}).privateKey;
}

/** @param {string} privateKey @returns {string} the public key as Alipay's console shows it */
const publicKeyBase64 = (privateKey) =>
	createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');

/** A value as java.net.URLEncoder writes it (UTF-8). @param {string} value */
function javaUrlEncode(value) {
	return encodeURIComponent(value)
		.replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
		.replace(/%20/g, '+');
}

/** The text Alipay signs. @param {Record<string, string>} fields */
function contentToSign(fields) {
	return Object.keys(fields)
		.filter((name) => name !== 'sign' && name !== 'sign_type' && fields[name] !== '')
		.sort()
		.map((name) => `${name}=${fields[name]}`)
		.join('&');
}

/**
 * `fields` with `sign` (RSA2 by `privateKey`) and `sign_type`.
 * @param {Record<string, unknown>} fields @param {string} privateKey
 * @returns {Record<string, string>}
 */
function signFields(fields, privateKey) {
	const text = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
	const sign = createSign('RSA-SHA256')
		.update(contentToSign(text), 'utf8')
		.sign(privateKey, 'base64');
	return { ...text, sign, sign_type: 'RSA2' };
}

/** The body Alipay posts: the fields form-encoded in the given order. @param {Record<string, string>} fields */
function formBody(fields) {
	return Object.entries(fields)
		.map(([name, value]) => `${javaUrlEncode(name)}=${javaUrlEncode(value)}`)
		.join('&');
}

/** @param {string} body */
const delivery = (body) => ({ body, headers: { 'content-type': FORM } });

/** @type {import('../signer').Signer} */
const signer = {
	secret: newPrivateKey(),
	otherSecret: newPrivateKey(),
	signsTimestamp: false,
	demoCredential: { id: 'paySigningAlipay1', name: 'Alipay public key (demo)' },
	credentialFor: (secret) => ({ publicKey: publicKeyBase64(secret) }),
	parameters: { appId: samples.appId },
	deliver: (event, secret) => delivery(formBody(signFields(event, secret))),
	badDeliveries(sample, secret) {
		const signed = (/** @type {Record<string, unknown>} */ event, key = secret) =>
			signFields(event, key);
		const forged = signed(sample('forged'));
		const unsigned = signed(sample('unsigned'));
		delete unsigned.sign;
		return [
			{
				name: 'forged',
				...delivery(formBody({ ...forged, sign: signed(sample('forged_from')).sign })),
			},
			{
				name: 'tampered',
				...delivery(formBody({ ...signed(sample('tampered')), total_amount: '0.01' })),
			},
			{ name: 'unsigned', ...delivery(formBody(unsigned)) },
			{ name: 'wrong key', ...delivery(formBody(signed(sample('wrong_key'), signer.otherSecret))) },
			{
				name: 'another app',
				...delivery(formBody(signed({ ...sample('other_app'), app_id: '2021000117600999' }))),
			},
			{
				// The subject's space (+) sent as a literal plus (%2B): another value than was signed.
				name: 're-encoded value',
				...delivery(formBody(signed(sample('reencoded'))).replace('Pro+', 'Pro%2B')),
			},
			{
				name: 'a field twice',
				...delivery(`${formBody(signed(sample('field_twice')))}&app_id=${samples.appId}`),
			},
		];
	},
};

module.exports = { ...signer, javaUrlEncode, contentToSign, signFields, formBody, publicKeyBase64 };
