// @ts-check
'use strict';
/**
 * Google, as the Payment Webhook Trigger's Google Play provider reaches it, under
 * `/__providers/googlePlay`: the keys Pub/Sub signs push tokens with (`/oauth2/v3/certs`, a JWK
 * Set, Cache-Control max-age), the OAuth token endpoint (`POST /token`: the service account's
 * JWT assertion checked against its public key, scope, audience and lifetime) and the Play
 * Developer API's purchases.products.get, purchases.subscriptionsv2.get and orders.get
 * (`/androidpublisher/v3/applications/<package>/…`, each needing an access token it issued).
 *
 * Keys are generated per process (each run): Google's signing key (kid `emulated-google-1`),
 * another key that is not published (a forger's, under the same kid), and the service account.
 * The API answers from purchases the tests register: in this process with `register` (the test
 * signer's `encode` does it for each sample it sends), from another with
 * `POST /__providers/googlePlay/purchases` (`npm run send:webhook`). A purchase registered with
 * `failWith` (a status) gets that status from every API call about it: Google failing, so the
 * trigger answers 503 and Pub/Sub retries. `POST /push-token` mints a push token with the claims
 * it is given, as Pub/Sub would sign it (for a sender in another process).
 */
const { createPublicKey, generateKeyPairSync, randomBytes, sign, verify } = require('node:crypto');

const NAME = 'googlePlay';
const KID = 'emulated-google-1';
const SERVICE_ACCOUNT_EMAIL = 'play-reader@emulated-project.iam.gserviceaccount.com';
const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const KEYS_MAX_AGE_SECONDS = 3600;

/**
 * @typedef {{ purchaseToken: string, orderId: string, purchase?: Record<string, unknown>,
 *   order?: Record<string, unknown>, failWith?: number }} Registered
 *   what the API holds of a purchase: its purchases.* answer, its orders.get answer
 * @typedef {{ status: number, headers?: Record<string, string>, body: unknown }} Answer
 */

/** @type {{ google: import('node:crypto').KeyObject, other: import('node:crypto').KeyObject, account: import('node:crypto').KeyObject } | undefined} */
let keys;
/** The keys of this run, made at first use. */
function keysOfRun() {
	if (keys === undefined) {
		const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
		keys = { google: rsa(), other: rsa(), account: rsa() };
	}
	return keys;
}

/** @type {Map<string, Registered>} by purchase token */
const byToken = new Map();
/** @type {Map<string, Registered>} by order ID */
const byOrder = new Map();
/** The access tokens issued. @type {Set<string>} */
const accessTokens = new Set();

/** Holds what the API answers for a purchase (and its order). @param {Registered} registered */
function register(registered) {
	byToken.set(registered.purchaseToken, registered);
	byOrder.set(registered.orderId, registered);
}

/** @param {unknown} value */
const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A push token as Pub/Sub signs one (RS256, Google's kid), with `claims` over the defaults;
 * `key` 'other' signs with the unpublished key under the same kid.
 * @param {Record<string, unknown>} claims @param {'google' | 'other'} [key]
 */
function mintPushToken(claims, key = 'google') {
	const now = Math.floor(Date.now() / 1000);
	const payload = {
		iss: 'https://accounts.google.com',
		azp: '110000000000000000001',
		sub: '110000000000000000001',
		email_verified: true,
		iat: now,
		exp: now + 3600,
		...claims,
	};
	const input = `${part({ alg: 'RS256', kid: KID, typ: 'JWT' })}.${part(payload)}`;
	return `${input}.${sign('sha256', Buffer.from(input), keysOfRun()[key]).toString('base64url')}`;
}

/** The service account's JSON key file (its private key is this run's). */
function serviceAccountJson() {
	return JSON.stringify({
		type: 'service_account',
		project_id: 'emulated-project',
		private_key_id: 'emulated-account-key-1',
		private_key: keysOfRun().account.export({ type: 'pkcs8', format: 'pem' }),
		client_email: SERVICE_ACCOUNT_EMAIL,
		client_id: '110000000000000000002',
		token_uri: 'https://oauth2.googleapis.com/token',
	});
}

/** The JSON object `text` holds, or null. @param {string} text @returns {Record<string, any> | null} */
function jsonObject(text) {
	try {
		const value = JSON.parse(text);
		return value !== null && typeof value === 'object' ? value : null;
	} catch {
		return null;
	}
}

/** @param {string} part a JWT's base64url part */
const decodePart = (part) => jsonObject(Buffer.from(part, 'base64url').toString('utf8'));

/** @param {number} status @param {string} message @returns {Answer} */
const googleError = (status, message) => ({ status, body: { error: { code: status, message } } });

/**
 * The token endpoint: a JWT-bearer grant whose assertion the service account signed for this
 * endpoint, for the androidpublisher scope, living at most an hour.
 * @param {URLSearchParams} form @returns {Answer}
 */
function tokenAnswer(form) {
	const bad = (/** @type {string} */ why) => ({
		status: 400,
		body: { error: 'invalid_grant', error_description: why },
	});
	if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
		return bad('unsupported grant_type');
	const [header, payload, signature] = String(form.get('assertion')).split('.');
	const claims = decodePart(payload ?? '');
	if (decodePart(header ?? '')?.alg !== 'RS256' || claims === null) return bad('not an RS256 JWT');
	const publicKey = createPublicKey(keysOfRun().account);
	if (
		!verify(
			'sha256',
			Buffer.from(`${header}.${payload}`),
			publicKey,
			Buffer.from(signature ?? '', 'base64url'),
		)
	)
		return bad('Invalid JWT Signature.');
	const now = Math.floor(Date.now() / 1000);
	if (claims.iss !== SERVICE_ACCOUNT_EMAIL) return bad('unknown service account');
	if (claims.scope !== SCOPE) return bad('scope');
	if (typeof claims.aud !== 'string' || !claims.aud.endsWith(`/__providers/${NAME}/token`))
		return bad('aud');
	if (!(claims.exp > now && claims.exp - claims.iat <= 3600 && claims.iat <= now + 60))
		return bad('Invalid JWT: Token must be a short-lived token (60 minutes)');
	const token = `ya29.emulated.${randomBytes(16).toString('hex')}`;
	accessTokens.add(token);
	return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
}

/**
 * The Play Developer API, for the purchases registered.
 * @param {string} path after /androidpublisher/v3 @param {string | undefined} authorization
 * @returns {Answer}
 */
function apiAnswer(path, authorization) {
	const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
	if (token === undefined || !accessTokens.has(token))
		return googleError(401, 'Request had invalid authentication credentials.');
	const [, , , kind, ...rest] = path.split('/').map(decodeURIComponent);
	/** @type {Registered | undefined} */
	let found;
	/** @type {'purchase' | 'order'} */
	let what = 'purchase';
	if (kind === 'purchases' && rest[0] === 'products' && rest[2] === 'tokens')
		found = byToken.get(rest[3]);
	else if (kind === 'purchases' && rest[0] === 'subscriptionsv2' && rest[1] === 'tokens')
		found = byToken.get(rest[2]);
	else if (kind === 'orders') {
		found = byOrder.get(rest[0]);
		what = 'order';
	} else return googleError(404, 'Not Found');
	if (found?.failWith !== undefined) return googleError(found.failWith, 'Internal error.');
	const body = found?.[what];
	return body === undefined ? googleError(404, `No such ${what}.`) : { status: 200, body };
}

/**
 * What the emulation answers a request: `path` after `/__providers/googlePlay`.
 * @param {{ method: string, path: string, headers: Record<string, string | string[] | undefined>, body: Buffer }} request
 * @returns {Answer}
 */
function answer({ method, path, headers, body }) {
	const route = path.split('?')[0];
	if (method === 'GET' && route === '/oauth2/v3/certs') {
		const jwk = createPublicKey(keysOfRun().google).export({ format: 'jwk' });
		return {
			status: 200,
			headers: { 'Cache-Control': `public, max-age=${KEYS_MAX_AGE_SECONDS}` },
			body: { keys: [{ ...jwk, kid: KID, alg: 'RS256', use: 'sig' }] },
		};
	}
	if (method === 'POST' && route === '/token')
		return tokenAnswer(new URLSearchParams(body.toString('utf8')));
	if (method === 'GET' && route.startsWith('/androidpublisher/v3/applications/')) {
		const authorization = headers.authorization;
		return apiAnswer(
			route.slice('/androidpublisher/v3'.length),
			typeof authorization === 'string' ? authorization : undefined,
		);
	}
	const json = jsonObject(body.toString('utf8'));
	if (method === 'POST' && route === '/purchases' && json !== null) {
		register(/** @type {Registered} */ (json));
		return { status: 201, body: { registered: json.purchaseToken } };
	}
	if (method === 'POST' && route === '/push-token' && json !== null) {
		const { key, ...claims } = json;
		return {
			status: 200,
			body: { token: mintPushToken(claims, key === 'other' ? 'other' : 'google') },
		};
	}
	return googleError(404, 'Not Found');
}

/** @type {import('./index').ProviderEmulation['handle']} */
function handle(req, res, path, body) {
	const {
		status,
		headers = {},
		body: answered,
	} = answer({
		method: req.method ?? 'GET',
		path,
		headers: req.headers,
		body,
	});
	res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	res.end(JSON.stringify(answered));
}

module.exports = {
	name: NAME,
	handle,
	answer,
	register,
	mintPushToken,
	serviceAccountJson,
	KID,
	SERVICE_ACCOUNT_EMAIL,
};
