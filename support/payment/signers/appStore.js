// @ts-check
'use strict';
/**
 * Apple App Store Server Notifications V2, signed as Apple signs them (support/payment/
 * appStoreChain.js, proven against Apple's own SignedDataVerifier): the signature is in the body,
 * `{"signedPayload": <JWS>}`, so no header carries one. The "secret" is the root certificate the
 * endpoint's credential trusts (its Root Certificate field): each stored test chain signs for its
 * own root. The test endpoint's Bundle ID and Environment are the samples'.
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
const decoded = (part) => Buffer.from(part, 'base64url').toString('utf8');
/** @param {string} text */
const encoded = (text) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * The sent body's notification with each signed part's payload passed through `map`, the
 * signatures kept (`keep`) or taken out.
 * @param {string} sent @param {(payload: string) => string} map @param {boolean} keep
 */
function rewrite(sent, map, keep) {
	/** @param {string} jws */
	const part = (jws) => {
		const { header, payload, signature } = partsOf(jws);
		return `${header}.${encoded(map(decoded(payload)))}.${keep ? signature : ''}`;
	};
	const { header, payload, signature } = partsOf(JSON.parse(sent).signedPayload);
	const notification = JSON.parse(decoded(payload));
	for (const field of ['signedTransactionInfo', 'signedRenewalInfo']) {
		if (typeof notification.data?.[field] === 'string') {
			notification.data[field] = part(notification.data[field]);
		}
	}
	const outer = `${header}.${encoded(map(JSON.stringify(notification)))}.${keep ? signature : ''}`;
	return JSON.stringify({ signedPayload: outer });
}

/** @type {import('../signer').Signer} */
module.exports = {
	secret: chains.trusted.rootPem,
	otherSecret: chains.other.rootPem,
	credentialData: { rootCertificate: chains.trusted.rootPem },
	settings: { bundleId: samples.bundleId, environment: samples.environment },
	signsTimestamp: false,
	demoCredential: { id: 'paySigningAppStore1', name: 'App Store test root certificate (demo)' },
	// Apple sends no signature header.
	sign: () => ({}),
	// A notification signed by Apple's chain, for another app or the other environment.
	moreBadDeliveries: (bodyFor, secret) =>
		/** @type {const} */ ([
			['another app', 'bundleId', 'com.example.another'],
			['other environment', 'environment', 'Production'],
		]).map(([name, field, value]) => {
			const notification = JSON.parse(bodyFor(name.replace(' ', '_')));
			notification.data[field] = value;
			notification.data.transactionInfo[field] = value;
			return { name, body: notificationBody(chainOf(secret), notification), headers: {} };
		}),
	inBody: {
		sign: (rawBody, secret) => notificationBody(chainOf(secret), JSON.parse(rawBody)),
		read: (sent) => {
			const { payload } = partsOf(JSON.parse(sent).signedPayload);
			const notification = JSON.parse(decoded(payload));
			const transaction = notification.data?.signedTransactionInfo;
			if (typeof transaction === 'string') {
				notification.data.transactionInfo = JSON.parse(decoded(partsOf(transaction).payload));
			}
			return JSON.stringify(notification);
		},
		tamper: (sent, change) => rewrite(sent, change, true),
		strip: (sent) => rewrite(sent, (payload) => payload, false),
	},
};
