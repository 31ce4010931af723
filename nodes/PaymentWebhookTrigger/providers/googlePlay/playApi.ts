/**
 * The Google Play Developer API, read with a service account: what a notification lacks (the
 * order, the user, the price). OAuth as Google's "Using OAuth 2.0 for Server to Server
 * Applications" says: a JWT assertion `{iss: client_email, scope, aud: token URL, iat, exp}`
 * signed RS256 with the service account's private key, exchanged at the token endpoint
 * (grant_type urn:ietf:params:oauth:grant-type:jwt-bearer) for an access token, cached until a
 * minute before it expires. Then, under
 * https://androidpublisher.googleapis.com/androidpublisher/v3/applications/{packageName}:
 * `purchases/products/{productId}/tokens/{token}` (purchases.products.get),
 * `purchases/subscriptionsv2/tokens/{token}` (purchases.subscriptionsv2.get) and
 * `orders/{orderId}` (orders.get). Any answer but 200 throws ProviderUnavailableError: the push is
 * answered 503 and Pub/Sub retries it.
 *
 * The hosts are pinned: the service account's own `token_uri` is not followed. The credential's
 * "Google Endpoints (Tests Only)" replaces all three with one base URL on this machine's loopback
 * only (http://127.0.0.1 or localhost), for the sandbox's emulation; the trigger then says so
 * (n8n's log at activation, `pinnedRootReplaced` on each item).
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

import {
	objectAt,
	ProviderUnavailableError,
	textAt,
	type JsonObject,
	type ProviderNetwork,
	type ReplacedRoot,
} from '../../provider';

/** The API credential's fields. */
export const SERVICE_ACCOUNT_FIELD = 'privateKeyJson';
export const ENDPOINTS_FIELD = 'googleEndpoints';

export const ANDROIDPUBLISHER_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ASSERTION_LIFETIME_SECONDS = 3600;
/** An access token is renewed this long before Google says it expires. */
const TOKEN_MARGIN_SECONDS = 60;

export interface GoogleEndpoints {
	keys: string;
	token: string;
	api: string;
}

/** Google's own hosts. */
export const GOOGLE_ENDPOINTS: GoogleEndpoints = {
	keys: 'https://www.googleapis.com/oauth2/v3/certs',
	token: 'https://oauth2.googleapis.com/token',
	api: 'https://androidpublisher.googleapis.com/androidpublisher/v3',
};

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The endpoints the credential's fields say: Google's, or the test override's on the loopback
 * (keys at `<base>/oauth2/v3/certs`, the token at `<base>/token`, the API at
 * `<base>/androidpublisher/v3`); why not, for an override elsewhere.
 */
export function endpointsOf(
	api: Readonly<Record<string, string>> | undefined,
): { endpoints: GoogleEndpoints; override: string | null } | { problem: string } {
	const override = (api?.[ENDPOINTS_FIELD] ?? '').trim().replace(/\/+$/, '');
	if (override === '') return { endpoints: GOOGLE_ENDPOINTS, override: null };
	let url: URL;
	try {
		url = new URL(override);
	} catch {
		return { problem: 'Google Endpoints (Tests Only) is not a URL' };
	}
	if (!['http:', 'https:'].includes(url.protocol) || !LOOPBACK_HOSTS.includes(url.hostname)) {
		return {
			problem:
				"Google Endpoints (Tests Only) must be on this machine's loopback (http://127.0.0.1 or localhost): leave it empty for Google's own hosts",
		};
	}
	return {
		endpoints: {
			keys: `${override}/oauth2/v3/certs`,
			token: `${override}/token`,
			api: `${override}/androidpublisher/v3`,
		},
		override,
	};
}

/** What the trigger says of a test override (the log line at activation, items' flag). */
export function replacedEndpoints(
	api: Readonly<Record<string, string>> | undefined,
): ReplacedRoot | null {
	const resolved = endpointsOf(api);
	if ('problem' in resolved || resolved.override === null) return null;
	return {
		pinned: "Google's published keys, token endpoint and Play Developer API",
		subject: `the keys at ${resolved.endpoints.keys}`,
		fingerprint256: '',
		field: 'Google Endpoints (Tests Only)',
	};
}

export interface ServiceAccount {
	clientEmail: string;
	privateKeyId: string;
	privateKey: KeyObject;
}

const parsedAccounts = new Map<string, ServiceAccount | { problem: string }>();
const MAX_PARSED_ACCOUNTS = 16;

function parseServiceAccount(json: string): ServiceAccount | { problem: string } {
	let account: JsonObject | null;
	try {
		account = objectAt(JSON.parse(json));
	} catch {
		account = null;
	}
	if (account === null) {
		return { problem: 'The Service Account Key is not JSON: paste the whole key file' };
	}
	if (account.type !== 'service_account') {
		return {
			problem: 'The Service Account Key is not a service account key ("type": "service_account")',
		};
	}
	const clientEmail = textAt(account.client_email);
	if (clientEmail === null) return { problem: 'The Service Account Key has no client_email' };
	try {
		const privateKey = createPrivateKey(String(account.private_key ?? ''));
		if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
		// It must sign: the credential test proves it offline.
		sign('sha256', Buffer.from('probe'), privateKey);
		return { clientEmail, privateKeyId: textAt(account.private_key_id) ?? '', privateKey };
	} catch {
		return { problem: 'The Service Account Key holds no RSA private key that signs' };
	}
}

/** The service account a key file holds, parsed once per process; or why it is unusable. */
export function serviceAccountOf(json: string): ServiceAccount | { problem: string } {
	const text = json.trim();
	if (text === '') return { problem: 'The Service Account Key is empty' };
	let parsed = parsedAccounts.get(text);
	if (parsed === undefined) {
		if (parsedAccounts.size >= MAX_PARSED_ACCOUNTS) parsedAccounts.clear();
		parsed = parseServiceAccount(text);
		parsedAccounts.set(text, parsed);
	}
	return parsed;
}

/** Why the API credential cannot be used, or null (the credential test; nothing is sent). */
export function apiCredentialProblem(
	api: Readonly<Record<string, string>> | undefined,
): string | null {
	const resolved = endpointsOf(api);
	if ('problem' in resolved) return resolved.problem;
	const account = serviceAccountOf(api?.[SERVICE_ACCOUNT_FIELD] ?? '');
	return 'problem' in account ? account.problem : null;
}

const encoded = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The JWT assertion a service account signs for the token endpoint at `tokenUrl`. */
export function assertionOf(account: ServiceAccount, tokenUrl: string, nowSeconds: number): string {
	const header = {
		alg: 'RS256',
		typ: 'JWT',
		...(account.privateKeyId && { kid: account.privateKeyId }),
	};
	const claims = {
		iss: account.clientEmail,
		scope: ANDROIDPUBLISHER_SCOPE,
		aud: tokenUrl,
		iat: nowSeconds,
		exp: nowSeconds + ASSERTION_LIFETIME_SECONDS,
	};
	const signingInput = `${encoded(header)}.${encoded(claims)}`;
	const signature = sign('sha256', Buffer.from(signingInput), account.privateKey);
	return `${signingInput}.${signature.toString('base64url')}`;
}

/** Access tokens by token URL and service account, until shortly before they expire. */
const accessTokens = new Map<string, { token: string; expiresAt: number }>();

/** Forgets the cached access tokens (tests). */
export function clearAccessTokens(): void {
	accessTokens.clear();
}

function jsonOf(text: string): JsonObject | null {
	try {
		return objectAt(JSON.parse(text));
	} catch {
		return null;
	}
}

async function accessToken(
	account: ServiceAccount,
	tokenUrl: string,
	network: ProviderNetwork,
	nowSeconds: number,
): Promise<string> {
	const key = `${tokenUrl} ${account.clientEmail} ${account.privateKeyId}`;
	const cached = accessTokens.get(key);
	if (cached !== undefined && cached.expiresAt > nowSeconds) return cached.token;
	const answer = await network({
		method: 'POST',
		url: tokenUrl,
		form: { grant_type: JWT_BEARER_GRANT, assertion: assertionOf(account, tokenUrl, nowSeconds) },
	});
	const body = jsonOf(answer.body);
	const token = textAt(body?.access_token);
	if (answer.status !== 200 || token === null) {
		throw new ProviderUnavailableError(`Google's token endpoint answered ${answer.status}`);
	}
	const lifetime = typeof body?.expires_in === 'number' ? body.expires_in : 3600;
	accessTokens.set(key, { token, expiresAt: nowSeconds + lifetime - TOKEN_MARGIN_SECONDS });
	return token;
}

/** A reader of the Play Developer API for one package, with the credential's service account. */
export interface PlayApi {
	get(path: string, what: string): Promise<JsonObject>;
}

export function playApiOf(
	api: Readonly<Record<string, string>>,
	packageName: string,
	network: ProviderNetwork,
	nowSeconds: number,
): PlayApi {
	const resolved = endpointsOf(api);
	if ('problem' in resolved) throw new ProviderUnavailableError(resolved.problem);
	const account = serviceAccountOf(api[SERVICE_ACCOUNT_FIELD] ?? '');
	if ('problem' in account) throw new ProviderUnavailableError(account.problem);
	const base = `${resolved.endpoints.api}/applications/${encodeURIComponent(packageName)}`;
	return {
		async get(path, what) {
			const token = await accessToken(account, resolved.endpoints.token, network, nowSeconds);
			const answer = await network({
				method: 'GET',
				url: `${base}/${path}`,
				headers: { authorization: `Bearer ${token}` },
			});
			const body = jsonOf(answer.body);
			if (answer.status !== 200 || body === null) {
				throw new ProviderUnavailableError(
					`the Play Developer API answered ${answer.status} for ${what}`,
				);
			}
			return body;
		},
	};
}
