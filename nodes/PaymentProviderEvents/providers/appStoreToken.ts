/**
 * The App Store Server API's request token: a JWT signed ES256 with the In-App Purchase key
 * (the `.p8` file), short-lived, for one app. Header `{alg: ES256, kid, typ: JWT}`, payload
 * `{iss, iat, exp, aud: appstoreconnect-v1, bid}`; the signature is JOSE's raw r‖s. The
 * credential's authenticate() signs one for every request (credentials/PaymentProviderApi).
 * node:crypto only.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

export const APP_STORE_API_AUDIENCE = 'appstoreconnect-v1';
/** A token's lifetime: Apple accepts at most an hour; 20 minutes covers a request and its waits. */
export const APP_STORE_TOKEN_LIFETIME_SECONDS = 20 * 60;

/** The credential's fields a token is made of. */
export interface AppStoreKey {
	issuerId: string;
	keyId: string;
	privateKey: string;
	bundleId: string;
}

/** The key a PEM `.p8` text holds, if it is an EC P-256 private key; else why not. */
export function privateKeyOf(pem: string): { key: KeyObject } | { problem: string } {
	let key: KeyObject;
	try {
		// A key pasted into a one-line field may arrive with its line breaks as "\n".
		key = createPrivateKey(pem.trim().replace(/\\n/g, '\n'));
	} catch {
		return {
			problem:
				'The Private Key is not a PEM private key: paste the whole .p8 file, from -----BEGIN PRIVATE KEY----- to -----END PRIVATE KEY-----',
		};
	}
	if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
		return {
			problem:
				'The Private Key is not an In-App Purchase key (an EC P-256 key, the .p8 file App Store Connect gives once under Users and Access → Integrations → In-App Purchase)',
		};
	}
	return { key };
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token for the API, issued at `nowSeconds`. Throws when the key is no P-256 private key. */
export function appStoreToken(credentials: AppStoreKey, nowSeconds: number): string {
	const parsed = privateKeyOf(credentials.privateKey);
	if ('problem' in parsed) throw new Error(parsed.problem);
	const header = { alg: 'ES256', kid: credentials.keyId.trim(), typ: 'JWT' };
	const payload = {
		iss: credentials.issuerId.trim(),
		iat: nowSeconds,
		exp: nowSeconds + APP_STORE_TOKEN_LIFETIME_SECONDS,
		aud: APP_STORE_API_AUDIENCE,
		bid: credentials.bundleId.trim(),
	};
	const signingInput = `${base64url(header)}.${base64url(payload)}`;
	const signature = sign('sha256', Buffer.from(signingInput), {
		key: parsed.key,
		dsaEncoding: 'ieee-p1363',
	});
	return `${signingInput}.${signature.toString('base64url')}`;
}
