/**
 * Apple's signed data (a notification's `signedPayload`, its `signedTransactionInfo` and
 * `signedRenewalInfo`), checked offline as Apple's App Store Server Library checks it: a compact
 * JWS, ES256, whose `x5c` header holds leaf, intermediate and root. The root must be the trusted
 * one byte for byte (Apple Root CA - G3, or a test root from the credential); each certificate is
 * signed by the next and valid at the payload's `signedDate`; the intermediate is a CA carrying
 * Apple's marker 1.2.840.113635.100.6.2.1, the leaf carries 1.2.840.113635.100.6.11.1; the
 * signature verifies with the leaf's P-256 key. node:crypto only.
 */
import { verify, X509Certificate } from 'node:crypto';

import { issued, validAt } from '../../certificates';
import { objectAt, type JsonObject } from '../../provider';
import { hasExtension } from './der';

/** Apple's marker on the certificate that signs App Store data. */
export const LEAF_MARKER_OID = '1.2.840.113635.100.6.11.1';
/** Apple's marker on the Worldwide Developer Relations intermediate. */
export const INTERMEDIATE_MARKER_OID = '1.2.840.113635.100.6.2.1';

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const CHAIN_ROLES = ['leaf', 'intermediate', 'root'] as const;
/** An ES256 signature: r and s, 32 bytes each (JOSE's form, not DER). */
const ES256_SIGNATURE_BYTES = 64;

export type SignedData =
	| { valid: true; payload: JsonObject; signedAtMs: number }
	| { valid: false; reason: string };

function jsonObjectOf(base64url: string): JsonObject | null {
	try {
		return objectAt(JSON.parse(Buffer.from(base64url, 'base64url').toString('utf8')));
	} catch {
		return null;
	}
}

/** The `x5c` certificates, leaf first; null unless there are three that parse. */
function chainOf(x5c: unknown): X509Certificate[] | null {
	if (!Array.isArray(x5c) || x5c.length !== CHAIN_ROLES.length) return null;
	const chain: X509Certificate[] = [];
	for (const entry of x5c) {
		if (typeof entry !== 'string' || !BASE64.test(entry)) return null;
		try {
			chain.push(new X509Certificate(Buffer.from(entry, 'base64')));
		} catch {
			return null;
		}
	}
	return chain;
}

/**
 * Why `chain` (leaf, intermediate, root) is not an App Store signing chain under `root` at `atMs`
 * (Unix milliseconds), or null when it is.
 */
export function chainProblem(
	chain: readonly X509Certificate[],
	root: X509Certificate,
	atMs: number,
): string | null {
	const [leaf, intermediate, last] = chain;
	if (!last.raw.equals(root.raw)) return 'the x5c chain does not end at the trusted root';
	if (!issued(intermediate, root)) return 'the intermediate certificate is not issued by the root';
	if (!intermediate.ca) return 'the intermediate certificate is not a CA';
	if (!issued(leaf, intermediate)) return 'the leaf certificate is not issued by the intermediate';
	if (!hasExtension(intermediate.raw, INTERMEDIATE_MARKER_OID)) {
		return `the intermediate certificate lacks Apple's marker ${INTERMEDIATE_MARKER_OID}`;
	}
	if (!hasExtension(leaf.raw, LEAF_MARKER_OID)) {
		return `the leaf certificate lacks Apple's marker ${LEAF_MARKER_OID}`;
	}
	const expired = CHAIN_ROLES.find((_, index) => !validAt(chain[index], atMs));
	if (expired !== undefined) return `the ${expired} certificate is not valid at the signing date`;
	return null;
}

/** The leaf's key signed `signingInput`: an ES256 signature by a P-256 key. */
function signedByLeaf(leaf: X509Certificate, signingInput: string, signature: Buffer): boolean {
	const key = leaf.publicKey;
	if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
		return false;
	}
	if (signature.length !== ES256_SIGNATURE_BYTES) return false;
	try {
		return verify(
			'sha256',
			Buffer.from(signingInput),
			{ key, dsaEncoding: 'ieee-p1363' },
			signature,
		);
	} catch {
		return false;
	}
}

/**
 * Checks one piece of Apple's signed data; `name` names it in the reason of a refusal (which
 * quotes none of its content). Never throws.
 */
export function verifySignedData(jws: unknown, name: string, root: X509Certificate): SignedData {
	const refuse = (why: string): SignedData => ({ valid: false, reason: `${name}: ${why}` });
	const parts = typeof jws === 'string' ? jws.split('.') : [];
	if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) {
		return refuse('not a compact JWS');
	}
	const [encodedHeader, encodedPayload, encodedSignature] = parts;
	const header = jsonObjectOf(encodedHeader);
	if (header === null) return refuse('the JWS header is not a JSON object');
	if (header.alg !== 'ES256') return refuse('the JWS algorithm is not ES256');
	const chain = chainOf(header.x5c);
	if (chain === null)
		return refuse('x5c does not hold three certificates (leaf, intermediate, root)');
	const payload = jsonObjectOf(encodedPayload);
	if (payload === null) return refuse('the JWS payload is not a JSON object');
	const signedAtMs = payload.signedDate;
	if (typeof signedAtMs !== 'number' || !Number.isFinite(signedAtMs)) {
		return refuse('the payload has no signedDate');
	}
	const problem = chainProblem(chain, root, signedAtMs);
	if (problem !== null) return refuse(problem);
	const signature = Buffer.from(encodedSignature, 'base64url');
	if (!signedByLeaf(chain[0], `${encodedHeader}.${encodedPayload}`, signature)) {
		return refuse("the signature does not verify with the leaf certificate's key");
	}
	return { valid: true, payload, signedAtMs };
}
