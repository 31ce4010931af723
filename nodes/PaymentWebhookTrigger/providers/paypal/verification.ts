/**
 * PayPal REST webhooks, checked offline as PayPal documents and as its own SDKs checked them:
 * - Headers (developer.paypal.com/api/webhooks/v1, verify-webhook-signature: each field is "the
 *   … header of the notification message"): `paypal-transmission-id`, `paypal-transmission-time`
 *   (RFC 3339), `paypal-transmission-sig` (base64), `paypal-cert-url`, `paypal-auth-algo`
 *   (SHA256withRSA, the only one this check takes).
 * - Signed text: `<transmission_id>|<transmission_time>|<webhook_id>|<CRC32 of the body bytes, as
 *   an unsigned decimal>` (PayPal-Java-SDK Event.validateReceivedEvent and SSLUtil.crc32;
 *   PayPal-Python-SDK notifications.py `_get_expected_sig`, `crc32(...) & 0xffffffff`), RSA
 *   PKCS #1 v1.5 with SHA-256 under the key of the certificate at `paypal-cert-url`. The webhook
 *   ID is the endpoint's, as the app's webhook list shows it: the credential's Signing Secret.
 * - The certificate: fetched only from PayPal's API hosts over https (api.paypal.com,
 *   api-m.paypal.com and their sandbox twins, at `/v1/notifications/certs/<CERT-…>`, the form of
 *   PayPal-Java-SDK's sample URL; the hosts as github.com/dubinc/dub pull 3835 pins them), chained
 *   leaf → intermediates (those served, or the one PayPal's SDKs ship) → a pinned root
 *   (digicertRoots.ts),
 *   valid now, and the leaf's CN messageverificationcerts.paypal.com, or
 *   messageverificationcerts.sandbox.paypal.com for the sandbox (the CN rule of PayPal-Java-SDK
 *   SSLUtil.validateCertificateChain; the sandbox name from its test certificate).
 * - PayPal states no tolerance for `transmission_time`. Each retry is a new transmission with its
 *   own ID and time, so the trigger's Timestamp Tolerance applies (300 s unless set, an hour at
 *   most).
 * Tests only: the credential's Root Certificate replaces the pinned roots (named at activation and
 * on each item), never with Environment Live; only then may the certificate come from this
 * machine (loopback, http or https, any port), where the sandbox serves the test chain.
 */
import type { X509Certificate } from 'node:crypto';

import {
	certificateOf,
	certificatesOfPem,
	issued,
	replacedRootOf,
	replacedRootProblem,
	validAt,
} from '../../certificates';
import type { DeliveryRequest, ReplacedRoot, RequestHeaders, Verification } from '../../provider';
import { rsaSha256Verifies } from '../../rsa';
import {
	DIGICERT_GLOBAL_ROOT_G2,
	DIGICERT_HIGH_ASSURANCE_EV_ROOT_CA,
	DIGICERT_SHA2_EV_SERVER_CA,
} from './digicertRoots';

export const PAYPAL_HEADERS = {
	id: 'paypal-transmission-id',
	time: 'paypal-transmission-time',
	signature: 'paypal-transmission-sig',
	certUrl: 'paypal-cert-url',
	algorithm: 'paypal-auth-algo',
} as const;

/** The node parameter that says whose notifications the endpoint takes, and its values. */
export const ENVIRONMENT = 'paypalEnvironment';
export const LIVE = 'live';
export const SANDBOX = 'sandbox';

/** The CN of PayPal's signing certificate, per environment. */
export const LEAF_NAMES: Readonly<Record<string, string>> = {
	[LIVE]: 'messageverificationcerts.paypal.com',
	[SANDBOX]: 'messageverificationcerts.sandbox.paypal.com',
};

/** PayPal's API hosts, the only ones a certificate is fetched from (https, port 443). */
export const CERTIFICATE_HOSTS: readonly string[] = [
	'api.paypal.com',
	'api-m.paypal.com',
	'api.sandbox.paypal.com',
	'api-m.sandbox.paypal.com',
];
/** This machine, where the sandbox serves the test chain: only under a replaced root. */
const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];
const CERTIFICATE_PATH = /^\/v1\/notifications\/certs\/CERT-[A-Za-z0-9-]{1,100}$/;
/** The sandbox serves it under its own prefix (`/__providers/paypal`). */
const LOOPBACK_PATH = /^(?:\/[A-Za-z0-9_-]+)*\/v1\/notifications\/certs\/CERT-[A-Za-z0-9-]{1,100}$/;

const TRANSMISSION_ID = /^[A-Za-z0-9-]{1,50}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/;
const AUTH_ALGORITHM = 'SHA256withRSA';
/** A webhook ID as PayPal's API defines it (verify-webhook-signature's `webhook_id`). */
export const WEBHOOK_ID = /^[A-Za-z0-9]{1,50}$/;
/** Leaf, intermediates and perhaps the root: a few, never more than this. */
export const MOST_CERTIFICATES = 5;

/** The roots the package pins, by name and SHA-256 fingerprint. */
export const PINNED_ROOTS = {
	name: 'DigiCert High Assurance EV Root CA and DigiCert Global Root G2',
	fingerprints: [
		DIGICERT_HIGH_ASSURANCE_EV_ROOT_CA.fingerprint256,
		DIGICERT_GLOBAL_ROOT_G2.fingerprint256,
	],
};
const certificatesOf = (pins: ReadonlyArray<{ pem: string }>) =>
	pins
		.map(({ pem }) => certificateOf(pem))
		.filter((certificate): certificate is X509Certificate => certificate !== null);
const PINNED = certificatesOf([DIGICERT_HIGH_ASSURANCE_EV_ROOT_CA, DIGICERT_GLOBAL_ROOT_G2]);
/** Intermediates that complete a chain the URL serves as the leaf alone (checked like any). */
const KNOWN_INTERMEDIATES = certificatesOf([DIGICERT_SHA2_EV_SERVER_CA]);

/** One transmission's headers, read. */
export interface Transmission {
	id: string;
	time: string;
	timeSeconds: number;
	signature: string;
	certificateUrl: string;
}

/** What the credential and the node's parameters trust. */
export interface Trust {
	roots: readonly X509Certificate[];
	/** Intermediates the chain may use beside those the URL serves. */
	intermediates: readonly X509Certificate[];
	/** The replaced root's description, when the credential replaces the pinned ones. */
	replaced: ReplacedRoot | null;
	leafName: string;
}

type Refusal = Extract<Verification, { valid: false }>;

const refuse = (reason: string): Refusal => ({ valid: false, reason });
const setUpError = (reason: string): Refusal => ({ valid: false, reason, unusableSecret: true });

/** The credential's root when it replaces the pinned ones (tests only), or null. */
export const replacedRoot = (rootCa: string): ReplacedRoot | null =>
	replacedRootOf(rootCa, PINNED_ROOTS);

/** Why the credential's Root Certificate cannot be used (without the environment), or null. */
export function rootCaProblem(rootCa: string): string | null {
	if (rootCa === '') return null;
	const root = certificateOf(rootCa);
	if (root === null) return 'The Root Certificate is not a PEM certificate';
	if (!root.ca) return 'The Root Certificate is not a CA certificate';
	const replaced = replacedRoot(rootCa);
	return replaced === null ? null : replacedRootProblem(replaced, { selected: false, refusal: '' });
}

/** What the endpoint trusts, or the set-up error that keeps it from trusting anything. */
export function trustOf(
	rootCa: string,
	settings: Readonly<Record<string, string>>,
): Trust | Refusal {
	const environment = settings[ENVIRONMENT] ?? '';
	const leafName = LEAF_NAMES[environment];
	if (leafName === undefined)
		return setUpError('The Environment parameter must be live or sandbox');
	const problem = rootCaProblem(rootCa);
	if (problem !== null) return setUpError(problem);
	const replaced = replacedRoot(rootCa);
	if (replaced === null) {
		return { roots: PINNED, intermediates: KNOWN_INTERMEDIATES, replaced, leafName };
	}
	const live = replacedRootProblem(replaced, {
		selected: environment === LIVE,
		refusal: `The Root Certificate replaces ${PINNED_ROOTS.name}, which is for tests only: it is refused with Environment Live. Leave the field empty, or pick Environment Sandbox for tests`,
	});
	if (live !== null) return setUpError(live);
	const roots = [certificateOf(rootCa) as X509Certificate];
	return { roots, intermediates: [], replaced, leafName };
}

function headerOf(headers: RequestHeaders, name: string): string | null {
	const value = headers[name];
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** The transmission's headers, or why they are not PayPal's; never quotes a value. */
export function transmissionOf(headers: RequestHeaders): Transmission | Refusal {
	const values = Object.values(PAYPAL_HEADERS).map((name) => headerOf(headers, name));
	const missing = Object.values(PAYPAL_HEADERS).find((_, index) => values[index] === null);
	if (missing !== undefined) return refuse(`missing ${missing} header`);
	const [id, time, signature, certificateUrl, algorithm] = values as string[];
	if (algorithm.toLowerCase() !== AUTH_ALGORITHM.toLowerCase()) {
		return refuse(`the ${PAYPAL_HEADERS.algorithm} header is not ${AUTH_ALGORITHM}`);
	}
	if (!TRANSMISSION_ID.test(id)) return refuse(`malformed ${PAYPAL_HEADERS.id} header`);
	const timeMs = RFC3339.test(time) ? Date.parse(time) : Number.NaN;
	if (!Number.isFinite(timeMs)) return refuse(`malformed ${PAYPAL_HEADERS.time} header`);
	return { id, time, timeSeconds: Math.floor(timeMs / 1000), signature, certificateUrl };
}

/**
 * The certificate URL when the endpoint may fetch it: PayPal's hosts over https at the
 * certificate path, or, under a replaced root, this machine. Null otherwise.
 */
export function allowedCertificateUrl(text: string, trust: Trust): string | null {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		// Not a URL: nothing is fetched, and the delivery is refused.
		return null;
	}
	if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
		return null;
	}
	const host = url.hostname.toLowerCase();
	const paypal =
		url.protocol === 'https:' &&
		url.port === '' &&
		CERTIFICATE_HOSTS.includes(host) &&
		CERTIFICATE_PATH.test(url.pathname);
	const loopback =
		trust.replaced !== null &&
		(url.protocol === 'http:' || url.protocol === 'https:') &&
		LOOPBACK_HOSTS.includes(host) &&
		LOOPBACK_PATH.test(url.pathname);
	return paypal || loopback ? url.href : null;
}

/** Why the transmission is outside the tolerance, or null. */
function staleness({ timeSeconds }: Transmission, request: DeliveryRequest): string | null {
	return Math.abs(request.nowSeconds - timeSeconds) > request.toleranceSeconds
		? `the ${PAYPAL_HEADERS.time} is outside the tolerance of ${request.toleranceSeconds} s`
		: null;
}

export interface Checkable {
	transmission: Transmission;
	trust: Trust;
	/** The certificate URL, as fetched. */
	certificateUrl: string;
}

/**
 * What a delivery needs before its certificate is fetched: its settings and credential usable,
 * its headers PayPal's, its time within the tolerance, its certificate URL allowed. Or the
 * refusal, in which case nothing is fetched.
 */
export function checkable(request: DeliveryRequest): Checkable | Refusal {
	const trust = trustOf(request.secrets.rootCa, request.settings);
	if ('valid' in trust) return trust;
	const transmission = transmissionOf(request.headers);
	if ('valid' in transmission) return transmission;
	const stale = staleness(transmission, request);
	if (stale !== null) return refuse(stale);
	const certificateUrl = allowedCertificateUrl(transmission.certificateUrl, trust);
	if (certificateUrl === null) {
		return refuse(
			`the ${PAYPAL_HEADERS.certUrl} is not a PayPal certificate URL${trust.replaced === null ? '' : ' nor one on this machine'}`,
		);
	}
	return { transmission, trust, certificateUrl };
}

/**
 * Why `chain` (leaf first, then what the URL served) does not lead to one of `roots` at `atMs`,
 * through its own intermediates or `known` ones, or null.
 */
export function chainProblem(
	chain: readonly X509Certificate[],
	{ roots, intermediates: known }: Pick<Trust, 'roots' | 'intermediates'>,
	atMs: number,
): string | null {
	const [leaf, ...served] = chain;
	const rest = [...served, ...known];
	const used = new Set<X509Certificate>();
	let current = leaf;
	for (let depth = 0; depth < MOST_CERTIFICATES; depth++) {
		const role = depth === 0 ? 'leaf' : 'intermediate';
		if (!validAt(current, atMs)) return `the ${role} certificate is not valid now`;
		const root = roots.find((candidate) => issued(current, candidate));
		if (root !== undefined) {
			return validAt(root, atMs) ? null : 'the root certificate is not valid now';
		}
		const next = rest.find((each) => !used.has(each) && each.ca && issued(current, each));
		if (next === undefined) return `the ${role} certificate does not chain to a trusted root`;
		used.add(next);
		current = next;
	}
	return 'the certificate chain is too long';
}

/** The leaf's one CN is `name` (PayPal's signing certificate's, for the environment). */
function namedAs(leaf: X509Certificate, name: string): boolean {
	const names = leaf.subject.split('\n').filter((part) => part.startsWith('CN='));
	return names.length === 1 && names[0].slice('CN='.length).toLowerCase() === name;
}

const CRC32_TABLE = Array.from({ length: 256 }, (_, byte) => {
	let value = byte;
	for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
	return value >>> 0;
});

/** CRC-32 (IEEE, as zlib's and java.util.zip.CRC32's) of `bytes`, unsigned. */
export function crc32(bytes: Uint8Array): number {
	let crc = 0xffffffff;
	for (const byte of bytes) crc = CRC32_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

/** The text PayPal signs for a transmission of `rawBody` to the webhook `webhookId`. */
export const signedText = (transmission: Transmission, webhookId: string, rawBody: Uint8Array) =>
	`${transmission.id}|${transmission.time}|${webhookId}|${crc32(rawBody)}`;

/**
 * Checks one delivery with the certificate chain fetched for it (`fetched`, from fetchForCheck):
 * the chain, the leaf's name, then the signature over the webhook ID and the body's CRC32.
 */
export function verifyTransmission(request: DeliveryRequest): Verification {
	const ready = checkable(request);
	if ('valid' in ready) return ready;
	const { transmission, trust, certificateUrl } = ready;
	const fetched = request.fetched;
	if (fetched?.certificateUrl !== certificateUrl || fetched.certificates === undefined) {
		return refuse(`no certificate was found at the ${PAYPAL_HEADERS.certUrl}`);
	}
	const chain = certificatesOfPem(fetched.certificates, MOST_CERTIFICATES);
	if (chain === null || chain.length === 0) return refuse('the certificate URL holds no chain');
	const problem = chainProblem(chain, trust, request.nowSeconds * 1000);
	if (problem !== null) return refuse(problem);
	const [leaf] = chain;
	if (!namedAs(leaf, trust.leafName))
		return refuse(`the leaf certificate is not ${trust.leafName}`);
	if (leaf.publicKey.asymmetricKeyType !== 'rsa') return refuse('the leaf key is not RSA');
	const signed = Buffer.from(
		signedText(transmission, request.secrets.signingSecret, request.rawBody),
		'utf8',
	);
	if (!rsaSha256Verifies(leaf.publicKey, signed, transmission.signature)) {
		return refuse(
			`the ${PAYPAL_HEADERS.signature} does not match the body and webhook ID under the certificate`,
		);
	}
	return { valid: true, signedAt: transmission.timeSeconds, messageId: null };
}
