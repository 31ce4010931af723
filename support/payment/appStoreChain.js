// @ts-check
'use strict';
/**
 * App Store Server Notifications V2 for tests. Apple publishes no signer (its App Store Server
 * Library only verifies), so this builds a certificate chain shaped like Apple's with
 * @peculiar/x509 (root and intermediate on P-384, the intermediate a CA carrying Apple's marker
 * 1.2.840.113635.100.6.2.1, a P-256 leaf carrying 1.2.840.113635.100.6.11.1) and signs as Apple's
 * documentation describes: a compact JWS, ES256, the `x5c` header holding leaf, intermediate and
 * root. test/paymentWebhook/appStoreChain.unit.test.ts proves what it signs with Apple's own
 * `SignedDataVerifier`. The credential trusts the test root through its Root Certificate field.
 */
const { createPrivateKey, KeyObject, sign, webcrypto, X509Certificate } = require('node:crypto');
// @peculiar/x509's dependency injection needs the metadata polyfill first.
require('reflect-metadata');
const x509 = require('@peculiar/x509');

const { machineFile, readMachineFile, writeMachineFile } = require('./machineChains');

// Node's WebCrypto is the standard one; the types differ only by name (no DOM lib here).
x509.cryptoProvider.set(
	/** @type {Parameters<typeof x509.cryptoProvider.set>[0]} */ (/** @type {unknown} */ (webcrypto)),
);

const LEAF_MARKER_OID = '1.2.840.113635.100.6.11.1';
const INTERMEDIATE_MARKER_OID = '1.2.840.113635.100.6.2.1';
/** Apple's markers carry an ASN.1 NULL. */
const ASN1_NULL = new Uint8Array([0x05, 0x00]);

/** The validity every test certificate has unless a test changes it. */
const DEFAULT_VALIDITY = {
	notBefore: new Date('2020-01-01T00:00:00Z'),
	notAfter: new Date('2045-01-01T00:00:00Z'),
};

/**
 * @typedef {{ notBefore: Date, notAfter: Date }} Validity
 * @typedef {object} ChainOptions
 * @property {boolean} [leafMarker] false: the leaf lacks 1.2.840.113635.100.6.11.1
 * @property {boolean} [intermediateMarker] false: the intermediate lacks 1.2.840.113635.100.6.2.1
 * @property {Validity} [leafValidity] the leaf's validity (the others keep the default)
 * @property {string} [rootName] the root's common name
 *
 * @typedef {object} TestChain
 * @property {string} rootPem the root to trust (the credential's Root Certificate)
 * @property {Buffer} rootDer the same, DER (what Apple's SignedDataVerifier takes)
 * @property {string[]} x5c leaf, intermediate and root, base64 DER, as a JWS header holds them
 * @property {KeyObject} leafKey the leaf's private key
 */

/** @param {boolean} ca @param {string | null} marker Apple's marker the certificate carries */
function extensionsOf(ca, marker) {
	const usages = ca
		? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
		: x509.KeyUsageFlags.digitalSignature;
	return [
		new x509.BasicConstraintsExtension(ca, undefined, true),
		new x509.KeyUsagesExtension(usages, true),
		...(marker === null ? [] : [new x509.Extension(marker, false, ASN1_NULL)]),
	];
}

/** @param {'P-256' | 'P-384'} namedCurve @returns {Promise<import('node:crypto').webcrypto.CryptoKeyPair>} */
const keyPair = (namedCurve) =>
	/** @type {Promise<import('node:crypto').webcrypto.CryptoKeyPair>} */ (
		webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve }, true, ['sign', 'verify'])
	);

/**
 * A fresh chain: root, intermediate and leaf, as Apple's signing chain is built.
 * @param {ChainOptions} [options]
 * @returns {Promise<TestChain>}
 */
async function createTestChain(options = {}) {
	const { leafMarker = true, intermediateMarker = true } = options;
	const signingAlgorithm = { name: 'ECDSA', hash: 'SHA-384' };
	const [rootKeys, intermediateKeys, leafKeys] = await Promise.all([
		keyPair('P-384'),
		keyPair('P-384'),
		keyPair('P-256'),
	]);
	const rootName = `CN=${options.rootName ?? 'Affiliate Tracking Test Root CA - G3'}, O=Test, C=US`;
	const intermediateName = 'CN=Affiliate Tracking Test Developer Relations CA - G6, O=Test, C=US';
	const root = await x509.X509CertificateGenerator.createSelfSigned({
		name: rootName,
		keys: rootKeys,
		signingAlgorithm,
		...DEFAULT_VALIDITY,
		extensions: extensionsOf(true, null),
	});
	const intermediate = await x509.X509CertificateGenerator.create({
		subject: intermediateName,
		issuer: rootName,
		publicKey: intermediateKeys.publicKey,
		signingKey: rootKeys.privateKey,
		signingAlgorithm,
		...DEFAULT_VALIDITY,
		extensions: extensionsOf(true, intermediateMarker ? INTERMEDIATE_MARKER_OID : null),
	});
	const leaf = await x509.X509CertificateGenerator.create({
		subject: 'CN=Affiliate Tracking Test App Store Signing, O=Test, C=US',
		issuer: intermediateName,
		publicKey: leafKeys.publicKey,
		signingKey: intermediateKeys.privateKey,
		signingAlgorithm,
		...(options.leafValidity ?? DEFAULT_VALIDITY),
		extensions: extensionsOf(false, leafMarker ? LEAF_MARKER_OID : null),
	});
	const der = (/** @type {x509.X509Certificate} */ certificate) => Buffer.from(certificate.rawData);
	return {
		rootPem: root.toString('pem'),
		rootDer: der(root),
		x5c: [leaf, intermediate, root].map((certificate) => der(certificate).toString('base64')),
		leafKey: KeyObject.from(leafKeys.privateKey),
	};
}

/** @param {unknown} value */
const base64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * `payload` signed as Apple signs its data: compact JWS, ES256 (r‖s), x5c in the header.
 * @param {TestChain} chain @param {object} payload
 */
function signJws(chain, payload) {
	const signingInput = `${base64url({ alg: 'ES256', x5c: chain.x5c })}.${base64url(payload)}`;
	const signature = sign('sha256', Buffer.from(signingInput), {
		key: chain.leafKey,
		dsaEncoding: 'ieee-p1363',
	});
	return `${signingInput}.${signature.toString('base64url')}`;
}

/**
 * @typedef {object} DecodedNotification a notification as Apple's decoded payload shows it, with
 * the transaction and renewal info decoded in `data.transactionInfo` / `data.renewalInfo`
 * @property {string} notificationType
 * @property {string} [subtype]
 * @property {string} notificationUUID
 * @property {number} [signedDate]
 * @property {{ bundleId: string, environment: string, transactionInfo?: Record<string, unknown>,
 *   renewalInfo?: Record<string, unknown>, [field: string]: unknown }} [data] none in a summary
 */

/**
 * The `signedPayload` of a notification: the transaction and renewal info signed on their own
 * (each with the notification's `signedDate` unless it has one), then the notification.
 * `signedDate` defaults to now.
 * @param {TestChain} chain @param {DecodedNotification} notification
 */
function signNotification(chain, notification) {
	const signedDate = notification.signedDate ?? Date.now();
	// A summary notification (RENEWAL_EXTENSION) has no `data`.
	if (notification.data === undefined) return signJws(chain, { ...notification, signedDate });
	const { transactionInfo, renewalInfo, ...data } = notification.data;
	/** @param {Record<string, unknown>} info */
	const signInfo = (info) => signJws(chain, { signedDate, ...info });
	return signJws(chain, {
		...notification,
		signedDate,
		data: {
			...data,
			...(transactionInfo && { signedTransactionInfo: signInfo(transactionInfo) }),
			...(renewalInfo && { signedRenewalInfo: signInfo(renewalInfo) }),
		},
	});
}

/**
 * The body Apple posts for a notification, byte for byte.
 * @param {TestChain} chain @param {DecodedNotification} notification
 */
function notificationBody(chain, notification) {
	return JSON.stringify({ signedPayload: signNotification(chain, notification) });
}

/**
 * The test chains, so that signing needs no await (key pairs and certificates are made by
 * WebCrypto, which is asynchronous): `trusted`, the test credential's root, and `other`, another
 * endpoint's. Made on this machine, never kept in the repository: a chain's leaf key signs for
 * whoever holds it, and the node refuses the roots the repository once published
 * (PUBLISHED_TEST_ROOTS). A child process makes them on first use; `node
 * support/payment/appStoreChain.js` makes new ones.
 */
const STORED_CHAINS = machineFile('app-store');

/** @typedef {{ rootPem: string, x5c: string[], leafKeyPem: string }} StoredChain */

/** @returns {{ trusted: TestChain, other: TestChain }} */
function storedChains() {
	/** @type {Record<'trusted' | 'other', StoredChain>} */
	const stored = readMachineFile(STORED_CHAINS, __filename);
	/** @param {StoredChain} chain @returns {TestChain} */
	const load = ({ rootPem, x5c, leafKeyPem }) => ({
		rootPem,
		rootDer: new X509Certificate(rootPem).raw,
		x5c,
		leafKey: createPrivateKey(leafKeyPem),
	});
	return { trusted: load(stored.trusted), other: load(stored.other) };
}

async function storeChains() {
	/** @param {TestChain} chain @returns {StoredChain} */
	const store = ({ rootPem, x5c, leafKey }) => ({
		rootPem,
		x5c,
		leafKeyPem: String(leafKey.export({ type: 'pkcs8', format: 'pem' })),
	});
	const trusted = await createTestChain();
	const other = await createTestChain({ rootName: 'Affiliate Tracking Other Test Root' });
	writeMachineFile(STORED_CHAINS, { trusted: store(trusted), other: store(other) });
}

if (require.main === module) void storeChains();

module.exports = {
	createTestChain,
	storedChains,
	signJws,
	signNotification,
	notificationBody,
	LEAF_MARKER_OID,
	INTERMEDIATE_MARKER_OID,
};
