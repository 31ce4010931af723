// @ts-check
'use strict';
/**
 * Alipay asynchronous notifications as Alipay sends them, for the tests: RSA2 (SHA256withRSA)
 * over the fields without `sign` and `sign_type` that have a value, sorted by name, `name=value`
 * joined with `&` (written here from Alipay's documentation, 异步通知验签); the form encoded as
 * Alipay's Java gateway encodes it (java.net.URLEncoder: a space is `+`). `alipay-sdk` (Alipay's
 * own) only verifies notifications: test/paymentWebhook/alipay.unit.test.ts checks these with its
 * `checkNotifySignV2`. The keys are made with node:crypto (RSA 2048, signer.js's newRsaKeyPair),
 * anew in each process: the signer's `secret` is the private key, the credential holds the public
 * half as Alipay's console shows it (bare base64).
 */
const { createPublicKey, createSign } = require('node:crypto');

const { newRsaKeyPair } = require('../signer');
const samples = require('../../../nodes/PaymentWebhookTrigger/providers/alipay/samples');

const FORM = 'application/x-www-form-urlencoded; charset=utf-8';

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

/** A form's fields, decoded. @param {string} body @returns {Record<string, string>} */
const fieldsOf = (body) => Object.fromEntries(new URLSearchParams(body));

// Private keys Alipay signs with.
const secret = newRsaKeyPair().privateKey;
const otherSecret = newRsaKeyPair().privateKey;

/** @type {import('../signer').Signer} */
const signer = {
	secret,
	otherSecret,
	// The signature is the form's `sign` field: `encode` signs with the test key.
	signsTimestamp: false,
	demoCredential: { id: 'paySigningAlipay1', name: 'Alipay public key (demo)' },
	sign: () => ({}),
	credentialData: { publicKey: publicKeyBase64(secret) },
	nodeParameters: { appId: samples.appId },
	contentType: FORM,
	encode: (event) => formBody(signFields(event, secret)),
	// The shared kinds sign in a header; these are Alipay's, its signature in the form.
	badDeliveries(bodyFor, key) {
		/** @param {string} name @param {Record<string, string>} [changes] @param {string} [signingKey] */
		const resigned = (name, changes = {}, signingKey = key) =>
			formBody(signFields({ ...fieldsOf(bodyFor(name)), ...changes }, signingKey));
		const unsigned = fieldsOf(bodyFor('unsigned'));
		delete unsigned.sign;
		return [
			{
				name: 'forged',
				body: formBody({
					...fieldsOf(bodyFor('forged')),
					sign: fieldsOf(bodyFor('forged_from')).sign,
				}),
				headers: {},
			},
			{
				name: 'tampered',
				body: bodyFor('tampered').replace('total_amount=', 'total_amount=1'),
				headers: {},
			},
			{ name: 'unsigned', body: formBody(unsigned), headers: {} },
			{ name: 'wrong key', body: resigned('wrong_key', {}, otherSecret), headers: {} },
			{
				name: 'another app',
				body: resigned('other_app', { app_id: '2021000117600999' }),
				headers: {},
			},
			{
				// The subject's space (+) sent as a literal plus (%2B): another value than was signed.
				name: 're-encoded value',
				body: bodyFor('reencoded').replace('Pro+', 'Pro%2B'),
				headers: {},
			},
			{
				name: 'a field twice',
				body: `${bodyFor('field_twice')}&app_id=${samples.appId}`,
				headers: {},
			},
		];
	},
};

module.exports = { ...signer, javaUrlEncode, contentToSign, signFields, formBody, publicKeyBase64 };
