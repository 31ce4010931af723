// @ts-check
'use strict';
/**
 * PayPal's webhook signing for tests. PayPal publishes no signer (its SDKs only verify), so this
 * builds a chain shaped like PayPal's (an RSA root and intermediate CA, an RSA leaf named
 * messageverificationcerts.sandbox.paypal.com) with @peculiar/x509, and signs as PayPal does:
 * SHA256withRSA over `<transmission_id>|<transmission_time>|<webhook_id>|<CRC32 of the body>`.
 * The chains are made on this machine (a file in the temporary folder, never in the repository:
 * a leaf key signs for whoever holds it); the sandbox serves each chain at its certificate URL
 * (sandbox/paymentProviders/paypal.js), and the test credential trusts the trusted chain's root
 * through its Root Certificate field.
 */
const { createPrivateKey, KeyObject, randomUUID, sign, webcrypto } = require('node:crypto');
const tls = require('node:tls');
const zlib = require('node:zlib');
// @peculiar/x509's dependency injection needs the metadata polyfill first.
require('reflect-metadata');
const x509 = require('@peculiar/x509');

const { machineFile, readMachineFile, writeMachineFile } = require('./machineChains');

x509.cryptoProvider.set(
	/** @type {Parameters<typeof x509.cryptoProvider.set>[0]} */ (/** @type {unknown} */ (webcrypto)),
);

const SANDBOX_LEAF = 'messageverificationcerts.sandbox.paypal.com';
const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
const VALIDITY = {
	notBefore: new Date('2020-01-01T00:00:00Z'),
	notAfter: new Date('2045-01-01T00:00:00Z'),
};

/**
 * @typedef {{ notBefore: Date, notAfter: Date }} Validity
 * @typedef {object} ChainOptions
 * @property {string} [rootName] the root's CN
 * @property {string} [leafName] the leaf's CN (PayPal's sandbox name unless said)
 * @property {Validity} [leafValidity]
 * @property {boolean} [withIntermediate] false: the leaf is issued by the root itself
 * @property {string} [certId] the chain's ID in its certificate URL
 *
 * @typedef {object} TestChain
 * @property {string} certId its certificate URL's last segment (`CERT-…`)
 * @property {string} rootPem the root to trust (the credential's Root Certificate)
 * @property {string} chainPem what the certificate URL serves: leaf, then intermediate
 * @property {KeyObject} leafKey the leaf's private key
 */

/** @returns {Promise<import('node:crypto').webcrypto.CryptoKeyPair>} */
const rsaKeys = () =>
	/** @type {Promise<import('node:crypto').webcrypto.CryptoKeyPair>} */ (
		webcrypto.subtle.generateKey(
			{ ...ALGORITHM, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
			true,
			['sign', 'verify'],
		)
	);

/** @param {boolean} ca */
const extensions = (ca) => [
	new x509.BasicConstraintsExtension(ca, undefined, true),
	new x509.KeyUsagesExtension(
		ca
			? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign
			: x509.KeyUsageFlags.digitalSignature,
		true,
	),
];

/**
 * A fresh chain: root, intermediate and leaf, as PayPal's are built.
 * @param {ChainOptions} [options] @returns {Promise<TestChain>}
 */
async function createTestChain(options = {}) {
	const [rootKeys, intermediateKeys, leafKeys] = await Promise.all([
		rsaKeys(),
		rsaKeys(),
		rsaKeys(),
	]);
	const rootName = `CN=${options.rootName ?? 'Affiliate Tracking PayPal Test Root'}, O=Test, C=US`;
	const intermediateName = 'CN=Affiliate Tracking PayPal Test CA, O=Test, C=US';
	const root = await x509.X509CertificateGenerator.createSelfSigned({
		name: rootName,
		keys: rootKeys,
		signingAlgorithm: ALGORITHM,
		...VALIDITY,
		extensions: extensions(true),
	});
	const intermediate = await x509.X509CertificateGenerator.create({
		subject: intermediateName,
		issuer: rootName,
		publicKey: intermediateKeys.publicKey,
		signingKey: rootKeys.privateKey,
		signingAlgorithm: ALGORITHM,
		...VALIDITY,
		extensions: extensions(true),
	});
	const direct = options.withIntermediate === false;
	const leaf = await x509.X509CertificateGenerator.create({
		subject: `CN=${options.leafName ?? SANDBOX_LEAF}, OU=Test, O=Test, C=US`,
		issuer: direct ? rootName : intermediateName,
		publicKey: leafKeys.publicKey,
		signingKey: direct ? rootKeys.privateKey : intermediateKeys.privateKey,
		signingAlgorithm: ALGORITHM,
		...(options.leafValidity ?? VALIDITY),
		extensions: extensions(false),
	});
	const pemOf = (/** @type {x509.X509Certificate} */ certificate) => certificate.toString('pem');
	return {
		certId: options.certId ?? `CERT-${Math.random().toString(16).slice(2, 10)}-test`,
		rootPem: pemOf(root),
		chainPem: [leaf, ...(direct ? [] : [intermediate])].map(pemOf).join('\n'),
		leafKey: KeyObject.from(leafKeys.privateKey),
	};
}

/** CRC-32 (zlib's) of the body, unsigned, as PayPal signs it. @param {string | Uint8Array} rawBody */
const crc32 = (rawBody) => zlib.crc32(typeof rawBody === 'string' ? Buffer.from(rawBody) : rawBody);

/** Node's own root store (PEM), where the DigiCert roots PayPal chains to are found. */
const nodeRootCertificates = () => [...tls.rootCertificates];

/**
 * The headers PayPal sends with `rawBody`: the transmission signed by `chain`'s leaf for the
 * webhook `webhookId` at `timestamp` (Unix seconds), naming `certUrl`.
 * @param {{ chain: TestChain, certUrl: string, rawBody: string, webhookId: string, timestamp: number, transmissionId?: string }} options
 * @returns {Record<string, string>}
 */
function transmissionHeaders({ chain, certUrl, rawBody, webhookId, timestamp, transmissionId }) {
	const id = transmissionId ?? randomUUID();
	const time = new Date(timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
	const signature = sign('sha256', Buffer.from(`${id}|${time}|${webhookId}|${crc32(rawBody)}`), {
		key: chain.leafKey,
	});
	return {
		'paypal-transmission-id': id,
		'paypal-transmission-time': time,
		'paypal-transmission-sig': signature.toString('base64'),
		'paypal-cert-url': certUrl,
		'paypal-auth-algo': 'SHA256withRSA',
	};
}

/** Where the test chains are kept, per user, on this machine. */
const STORED_CHAINS = machineFile('paypal');

/** @typedef {{ certId: string, rootPem: string, chainPem: string, leafKeyPem: string }} StoredChain */

/**
 * The stored chains, so that signing needs no await: `trusted` (the test credential's root) and
 * `other` (another root). A child process makes them on first use; `node
 * support/payment/paypalChain.js` makes new ones.
 * @returns {{ trusted: TestChain, other: TestChain }}
 */
function storedChains() {
	/** @type {Record<'trusted' | 'other', StoredChain>} */
	const stored = readMachineFile(STORED_CHAINS, __filename);
	/** @param {StoredChain} chain @returns {TestChain} */
	const load = ({ leafKeyPem, ...chain }) => ({ ...chain, leafKey: createPrivateKey(leafKeyPem) });
	return { trusted: load(stored.trusted), other: load(stored.other) };
}

async function storeChains() {
	/** @param {TestChain} chain @returns {StoredChain} */
	const store = ({ leafKey, ...chain }) => ({
		...chain,
		leafKeyPem: String(leafKey.export({ type: 'pkcs8', format: 'pem' })),
	});
	const [trusted, other] = await Promise.all([
		createTestChain({ certId: 'CERT-7e57c4a1-00000001-trusted' }),
		createTestChain({
			certId: 'CERT-7e57c4a1-00000002-other',
			rootName: 'Affiliate Tracking PayPal Other Test Root',
		}),
	]);
	writeMachineFile(STORED_CHAINS, { trusted: store(trusted), other: store(other) });
}

module.exports = {
	SANDBOX_LEAF,
	createTestChain,
	storedChains,
	transmissionHeaders,
	crc32,
	nodeRootCertificates,
};

// `node support/payment/paypalChain.js` makes new chains (and storedChains() runs it once).
if (require.main === module) void storeChains();
