/**
 * RSA public keys as the providers show them, and SHA256withRSA (PKCS #1 v1.5) checks, for the
 * providers that sign their notifications with a key pair.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

const PEM_BLOCK = /^-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const PEM_LINE = /.{1,64}/g;

/**
 * Keys parsed from credentials, by their text: parsing costs several times the check itself, so a
 * credential's key is parsed once per process, not on every delivery. Bounded, as credentials are.
 */
const parsedKeys = new Map<string, KeyObject | null>();
const MAX_PARSED_KEYS = 64;

/**
 * The RSA public key in `text`: a PEM (public key or certificate), its line breaks lost or not
 * (a pasted PEM may arrive on one line), or bare base64 DER as some providers' consoles show it.
 * Null when it holds no RSA public key.
 */
export function rsaPublicKey(text: string): KeyObject | null {
	const known = parsedKeys.get(text);
	if (known !== undefined) return known;
	const key = parseRsaPublicKey(text);
	if (parsedKeys.size >= MAX_PARSED_KEYS) parsedKeys.clear();
	parsedKeys.set(text, key);
	return key;
}

function parseRsaPublicKey(text: string): KeyObject | null {
	const trimmed = text.trim();
	const block = PEM_BLOCK.exec(trimmed);
	const label = block === null ? 'PUBLIC KEY' : block[1];
	const base64 = (block === null ? trimmed : block[2]).replace(/\s+/g, '');
	if (label.includes('PRIVATE') || !BASE64.test(base64)) return null;
	const pem = `-----BEGIN ${label}-----\n${(base64.match(PEM_LINE) ?? []).join('\n')}\n-----END ${label}-----\n`;
	try {
		const key = createPublicKey(pem);
		return key.asymmetricKeyType === 'rsa' ? key : null;
	} catch {
		// Not a key at all: the caller says which credential field is wrong.
		return null;
	}
}

/** Why `text` is no usable RSA public key for the credential field `label`, or null. */
export function rsaPublicKeyProblem(text: string, label: string): string | null {
	if (text.trim() === '') return `The ${label} is empty`;
	if (text.includes('PRIVATE KEY')) {
		return `The ${label} is a private key: paste the provider's public key, and keep the private key secret`;
	}
	if (rsaPublicKey(text) === null) {
		return `The ${label} is not an RSA public key (a PEM, or the base64 key as the provider shows it)`;
	}
	return null;
}

/** True when `signature` (base64) is the SHA256withRSA signature of `signed` under `key`. */
export function rsaSha256Verifies(key: KeyObject, signed: Uint8Array, signature: string): boolean {
	const compact = signature.trim();
	if (!BASE64.test(compact)) return false;
	return verify('sha256', signed, key, Buffer.from(compact, 'base64'));
}
