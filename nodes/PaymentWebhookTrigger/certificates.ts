/**
 * X.509 certificates as the providers that sign with a certificate chain use them, with
 * node:crypto only: a certificate from PEM or DER, a chain's links and
 * validity, and the rules of a root certificate a credential sets in place of the one a module
 * pins (tests only, named by subject and fingerprint, and never one whose key this repository
 * published).
 */
import { X509Certificate } from 'node:crypto';

import type { ReplacedRoot } from './provider';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The certificate a PEM text (or DER bytes) holds; null when it holds none. */
export function certificateOf(pem: string | Buffer): X509Certificate | null {
	try {
		return new X509Certificate(pem);
	} catch {
		// Not a certificate: the caller says which field or delivery is wrong.
		return null;
	}
}

/**
 * Every certificate of a PEM text, in order; null when one of its blocks is no certificate, or it
 * holds more than `most`.
 */
export function certificatesOfPem(text: string, most: number): X509Certificate[] | null {
	const blocks = text.match(PEM_CERTIFICATE) ?? [];
	if (blocks.length > most) return null;
	const certificates: X509Certificate[] = [];
	for (const block of blocks) {
		const certificate = certificateOf(block);
		if (certificate === null) return null;
		certificates.push(certificate);
	}
	return certificates;
}

/** `issuer` names and signed `certificate` (OpenSSL may throw on a key it cannot use: a no). */
export function issued(certificate: X509Certificate, issuer: X509Certificate): boolean {
	try {
		return certificate.checkIssued(issuer) && certificate.verify(issuer.publicKey);
	} catch {
		// A key OpenSSL cannot use signed nothing this check accepts.
		return false;
	}
}

/** Valid from notBefore to notAfter, both included, at `atMs` (Unix milliseconds). */
export function validAt(certificate: X509Certificate, atMs: number): boolean {
	const from = Date.parse(certificate.validFrom);
	const to = Date.parse(certificate.validTo);
	return from <= atMs && atMs <= to;
}

/** A certificate's subject on one line: `C=US, O=…, CN=…`. */
export const subjectLine = (certificate: X509Certificate): string =>
	certificate.subject.split('\n').join(', ');

/**
 * SHA-256 fingerprints of the test roots this package's repository published with their private
 * keys (support/payment/appStoreTestChains.json, until 29 November 2026): anyone
 * can sign under them, so no credential may trust them, for any provider, in any environment.
 * Tests make their own chains, on the machine that runs them.
 */
export const PUBLISHED_TEST_ROOTS: readonly string[] = [
	'32:D8:73:F1:56:5D:B0:45:C3:12:A9:D7:6F:C8:9B:BF:E7:52:68:01:7F:F0:D8:56:8E:29:E5:93:1E:23:23:3D',
	'7C:8C:C2:79:41:7A:89:54:E0:3B:51:1F:8F:85:01:95:54:C1:65:67:6E:22:2C:C0:7E:31:49:10:DE:F0:11:AB',
];

/**
 * The credential's root certificate when it replaces what a module pins (`pinned`, by name and
 * fingerprints): named by its subject and SHA-256 fingerprint. Null when the credential sets none,
 * one of the pinned roots, or no certificate (a set-up error the provider reports).
 */
export function replacedRootOf(
	rootCa: string,
	pinned: { name: string; fingerprints: readonly string[] },
): ReplacedRoot | null {
	if (rootCa === '') return null;
	const root = certificateOf(rootCa);
	if (root === null || pinned.fingerprints.includes(root.fingerprint256)) return null;
	return { pinned: pinned.name, subject: subjectLine(root), fingerprint256: root.fingerprint256 };
}

/**
 * Why a replaced root may not be trusted, or null: a test root whose private key is public,
 * always; any replaced root where the module's live traffic is selected (`live`, with the words
 * that name it). A warning cannot guard a workflow already active when its credential is edited,
 * so it is refused.
 */
export function replacedRootProblem(
	replaced: ReplacedRoot,
	live: { selected: boolean; refusal: string },
): string | null {
	if (PUBLISHED_TEST_ROOTS.includes(replaced.fingerprint256)) {
		return `The Root Certificate (SHA-256 ${replaced.fingerprint256}) is a test root this package's repository published with its private key: anyone can sign under it. Leave the field empty to trust ${replaced.pinned}`;
	}
	return live.selected ? live.refusal : null;
}
