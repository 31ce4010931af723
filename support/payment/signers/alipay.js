// @ts-check
'use strict';
/**
 * Signs Alipay asynchronous notifications as Alipay sends them, for the tests: RSA2
 * (SHA256withRSA) over the fields without `sign` and `sign_type` that have a value, sorted by
 * name, `name=value` joined with `&`; the form encoded as Alipay's Java gateway encodes it
 * (java.net.URLEncoder: a space is `+`). `alipay-sdk` (Alipay's own) only verifies
 * notifications: test/paymentWebhook/alipay.unit.test.ts checks these with its
 * `checkNotifySignV2`. Keys are made here with node:crypto (RSA 2048).
 */
const { createSign, generateKeyPairSync } = require('node:crypto');

/**
 * A test app: the key pair Alipay signs its notifications with (the public half is what Alipay's
 * console shows as 支付宝公钥: bare base64), and the app's ID.
 * @returns {{ privateKey: string, publicKey: string, publicKeyBase64: string, appId: string }}
 */
function testApp() {
	const { privateKey, publicKey } = generateKeyPairSync('rsa', {
		modulusLength: 2048,
		privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
		publicKeyEncoding: { type: 'spki', format: 'pem' },
	});
	const publicKeyBase64 = publicKey.replace(/-----[A-Z ]+-----|\s/g, '');
	return { privateKey, publicKey, publicKeyBase64, appId: '2021000117600001' };
}

/** A value as java.net.URLEncoder writes it (UTF-8). @param {string} value */
function javaUrlEncode(value) {
	return encodeURIComponent(value)
		.replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
		.replace(/%20/g, '+');
}

/**
 * The text Alipay signs, written from its documentation (异步通知验签).
 * @param {Record<string, string>} fields
 */
function contentToSign(fields) {
	return Object.keys(fields)
		.filter((name) => name !== 'sign' && name !== 'sign_type' && fields[name] !== '')
		.sort()
		.map((name) => `${name}=${fields[name]}`)
		.join('&');
}

/**
 * `fields` with `sign` (RSA2 by `privateKey`) and `sign_type`.
 * @param {Record<string, string>} fields @param {string} privateKey
 * @returns {Record<string, string>}
 */
function signFields(fields, privateKey) {
	const sign = createSign('RSA-SHA256')
		.update(contentToSign(fields), 'utf8')
		.sign(privateKey, 'base64');
	return { ...fields, sign, sign_type: 'RSA2' };
}

/**
 * The body Alipay posts: the fields form-encoded in the given order.
 * @param {Record<string, string>} fields
 */
function formBody(fields) {
	return Object.entries(fields)
		.map(([name, value]) => `${javaUrlEncode(name)}=${javaUrlEncode(value)}`)
		.join('&');
}

module.exports = { testApp, javaUrlEncode, contentToSign, signFields, formBody };
