// @ts-check
'use strict';
/**
 * Apple App Store Server Notifications V2, signed as Apple signs them (support/payment/
 * appStoreChain.js, proven against Apple's own SignedDataVerifier). The signature is in the body,
 * `{"signedPayload": <JWS>}`: `encode` signs with the stored test chain and no header carries one.
 * The "secret" is the root certificate the endpoint's credential trusts (its Root Certificate
 * field); each stored chain signs for its own root. The bad kinds are made in the body. The test
 * endpoint's Bundle ID and Environment are the samples'.
 */
const { notificationBody, storedChains } = require('../appStoreChain');
const samples = require('../../../nodes/PaymentWebhookTrigger/providers/appStore/samples');

const chains = storedChains();

/** The stored chain whose root is `rootPem`. @param {string} rootPem */
function chainOf(rootPem) {
	const chain = [chains.trusted, chains.other].find((candidate) => candidate.rootPem === rootPem);
	if (chain === undefined) throw new Error('No stored App Store test chain has this root');
	return chain;
}

/** The parts of a JWS. @param {string} jws */
const partsOf = (jws) => {
	const [header, payload, signature] = jws.split('.');
	return { header, payload, signature };
};
/** @param {string} part */
const decoded = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
/** @param {unknown} value */
const encoded = (value) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

const SIGNED_INFO = /** @type {const} */ ({
	signedTransactionInfo: 'transactionInfo',
	signedRenewalInfo: 'renewalInfo',
});

/**
 * @typedef {import('../appStoreChain').DecodedNotification} DecodedNotification
 * @typedef {DecodedNotification & { data: NonNullable<DecodedNotification['data']> }} PurchaseNotification
 */

/**
 * A sent purchase's notification decoded, its transaction and renewal info too (as samples.js
 * has them), ready to be signed again.
 * @param {string} sent @returns {PurchaseNotification}
 */
function decodedNotification(sent) {
	const notification = decoded(partsOf(JSON.parse(sent).signedPayload).payload);
	for (const [signed, plain] of Object.entries(SIGNED_INFO)) {
		const jws = notification.data?.[signed];
		if (typeof jws !== 'string') continue;
		delete notification.data[signed];
		notification.data[plain] = decoded(partsOf(jws).payload);
	}
	return notification;
}

/**
 * The sent body with each signed part's payload passed through `change`, the signatures kept
 * (`keep`) or taken out: content changed under its signature, or no signature.
 * @param {string} sent @param {(payload: Record<string, unknown>) => object} change
 * @param {boolean} keep
 */
function rewrite(sent, change, keep) {
	/** @param {string} jws @param {(payload: Record<string, any>) => object} map */
	const part = (jws, map) => {
		const { header, payload, signature } = partsOf(jws);
		return `${header}.${encoded(map(decoded(payload)))}.${keep ? signature : ''}`;
	};
	const signedPayload = part(JSON.parse(sent).signedPayload, (notification) => {
		for (const signed of Object.keys(SIGNED_INFO)) {
			const jws = notification.data?.[signed];
			if (typeof jws === 'string') notification.data[signed] = part(jws, change);
		}
		return change(notification);
	});
	return JSON.stringify({ signedPayload });
}

/**
 * A bad delivery: no header, and the transaction ID it names (inside the signed payload, where a
 * search of the body cannot find it).
 * @param {string} name @param {string} body @returns {import('../signer').BadDelivery}
 */
const bad = (name, body) => ({
	name,
	body,
	headers: {},
	transactionId: String(decodedNotification(body).data.transactionInfo?.transactionId),
});

/** @param {Record<string, unknown>} payload */
const tampered = (payload) => ({ ...payload, tampered: true });

/** @type {import('../signer').Signer} */
module.exports = {
	secret: chains.trusted.rootPem,
	otherSecret: chains.other.rootPem,
	credentialData: { rootCa: chains.trusted.rootPem },
	nodeParameters: { bundleId: samples.bundleId, environment: samples.environment },
	signsTimestamp: false,
	demoCredential: { id: 'paySigningAppStore1', name: 'App Store test root certificate (demo)' },
	encode: (event) => notificationBody(chains.trusted, /** @type {never} */ (event)),
	// Apple sends no signature header.
	sign: () => ({}),
	// Made in the body: another purchase's signature over this one's content, content changed
	// under its signature, no signature, a chain under another root. No stale kind (no tolerance:
	// Apple retries with the first signature) and no re-serialized one (the signature covers the
	// signed payload, not the outer JSON's spacing).
	badDeliveries: (bodyFor) => [
		bad(
			'forged',
			rewrite(
				bodyFor('other'),
				(payload) => JSON.parse(JSON.stringify(payload).replaceAll('_other', '_forged')),
				true,
			),
		),
		bad('tampered', rewrite(bodyFor('tampered'), tampered, true)),
		bad(
			'unsigned',
			rewrite(bodyFor('unsigned'), (payload) => payload, false),
		),
		bad(
			'wrong secret',
			notificationBody(chains.other, decodedNotification(bodyFor('wrong_secret'))),
		),
	],
	// A notification signed by the trusted chain for another app, or for the other environment.
	moreBadDeliveries: (bodyFor, secret) =>
		/** @type {const} */ ([
			['another app', 'bundleId', 'com.example.another'],
			['other environment', 'environment', 'Production'],
		]).map(([name, field, value]) => {
			const notification = decodedNotification(bodyFor(name.replace(' ', '_')));
			notification.data[field] = value;
			if (notification.data.transactionInfo) notification.data.transactionInfo[field] = value;
			return bad(name, notificationBody(chainOf(secret), notification));
		}),
};
