/**
 * The OIDC token a Pub/Sub push carries (`Authorization: Bearer <JWT>`), checked as Google's
 * "Authentication for push subscriptions" says: an RS256 JWT signed by one of Google's keys
 * (published as JWK at https://www.googleapis.com/oauth2/v3/certs, named by the header's `kid`),
 * `iss` accounts.google.com or https://accounts.google.com, `aud` the audience set on the push
 * subscription, `email` the push service account with `email_verified` true, `exp` in the future.
 *
 * The keys are fetched (`keysFor`) before the sync check, and cached as long as Google's
 * Cache-Control max-age says; a token naming a `kid` the cache lacks refetches them, at most once
 * a minute (a forger's made-up kids cost Google one request a minute). node:crypto only.
 */
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';

import {
	objectAt,
	ProviderUnavailableError,
	type JsonObject,
	type ProviderNetwork,
	type RequestHeaders,
} from '../../provider';

export const GOOGLE_ISSUERS: readonly string[] = [
	'accounts.google.com',
	'https://accounts.google.com',
];
/** How far a token's `iat` may be ahead, and its `exp` behind, this server's clock. */
export const CLOCK_SKEW_SECONDS = 60;
/** Google's push tokens live an hour; one that claims to live longer was not made by Pub/Sub. */
const MAX_LIFETIME_SECONDS = 3600 + CLOCK_SKEW_SECONDS;
/** Keys kept when Google sends no max-age, and the least time between two refetches. */
const DEFAULT_MAX_AGE_SECONDS = 300;
const REFETCH_INTERVAL_MS = 60_000;
const JWT_PART = /^[A-Za-z0-9_-]+$/;

export interface PushToken {
	header: JsonObject;
	payload: JsonObject;
	signingInput: string;
	signature: Buffer;
}

function jsonPart(part: string): JsonObject | null {
	try {
		return objectAt(JSON.parse(Buffer.from(part, 'base64url').toString('utf8')));
	} catch {
		return null;
	}
}

/** The bearer token of the Authorization header, parsed (not checked); null when there is none. */
export function pushTokenOf(headers: RequestHeaders): PushToken | null {
	const authorization = headers.authorization;
	if (typeof authorization !== 'string') return null;
	const match = /^Bearer ([^\s]+)$/.exec(authorization.trim());
	const parts = match?.[1].split('.') ?? [];
	if (parts.length !== 3 || !parts.every((part) => JWT_PART.test(part))) return null;
	const header = jsonPart(parts[0]);
	const payload = jsonPart(parts[1]);
	if (header === null || payload === null) return null;
	return {
		header,
		payload,
		signingInput: `${parts[0]}.${parts[1]}`,
		signature: Buffer.from(parts[2], 'base64url'),
	};
}

/** What the node's parameters say a push must carry. */
export interface PushExpectations {
	audience: string;
	serviceAccount: string;
}

/** The JWK of `kid` among Google's keys (a JWK Set, as text), or null. */
function jwkOf(keysText: string, kid: unknown): JsonWebKey | null {
	try {
		const set = objectAt(JSON.parse(keysText));
		const keys = Array.isArray(set?.keys) ? (set.keys as unknown[]) : [];
		const found = keys.map(objectAt).find((key) => key !== null && key.kid === kid);
		return found ? (found as JsonWebKey) : null;
	} catch {
		return null;
	}
}

function signedBy(token: PushToken, jwk: JsonWebKey): boolean {
	try {
		const key = createPublicKey({ key: jwk, format: 'jwk' });
		if (key.asymmetricKeyType !== 'rsa') return false;
		return verify('sha256', Buffer.from(token.signingInput), key, token.signature);
	} catch {
		return false;
	}
}

/**
 * Why the push token is not Google's token for this endpoint at `nowSeconds`, or null. Never
 * quotes a claim: the reason goes to n8n's log.
 */
export function pushTokenProblem(
	token: PushToken | null,
	keysText: string | undefined,
	expected: PushExpectations,
	nowSeconds: number,
): string | null {
	if (token === null) return 'no Authorization: Bearer token (a push without authentication)';
	if (token.header.alg !== 'RS256') return 'the push token is not RS256';
	const jwk = jwkOf(keysText ?? '', token.header.kid);
	if (jwk === null) return "the push token's kid is none of Google's published keys";
	if (!signedBy(token, jwk)) return "the push token's signature does not verify with Google's key";
	const { iss, aud, email, email_verified: emailVerified, exp, iat } = token.payload;
	if (typeof iss !== 'string' || !GOOGLE_ISSUERS.includes(iss)) {
		return 'the push token was not issued by accounts.google.com';
	}
	if (aud !== expected.audience) return 'the push token is for another audience';
	if (email !== expected.serviceAccount) return 'the push token is for another service account';
	if (emailVerified !== true) return "the push token's email is not verified";
	if (typeof exp !== 'number' || typeof iat !== 'number') return 'the push token has no exp or iat';
	if (exp + CLOCK_SKEW_SECONDS <= nowSeconds) return 'the push token has expired';
	if (iat > nowSeconds + CLOCK_SKEW_SECONDS || exp <= iat || exp - iat > MAX_LIFETIME_SECONDS) {
		return "the push token's iat and exp are not a push token's";
	}
	return null;
}

interface CachedKeys {
	text: string;
	expiresAtMs: number;
	fetchedAtMs: number;
}

/** Google's keys by the URL they were fetched from (the pinned one, or a test override). */
const cache = new Map<string, CachedKeys>();

/** The max-age of a Cache-Control header, in seconds; the default when it has none. */
function maxAgeOf(cacheControl: string | undefined): number {
	const match = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl ?? '');
	return match ? Number(match[1]) : DEFAULT_MAX_AGE_SECONDS;
}

function isKeySet(text: string): boolean {
	try {
		return Array.isArray(objectAt(JSON.parse(text))?.keys);
	} catch {
		return false;
	}
}

/**
 * Google's keys, as text, for a token naming `kid`: from the cache while it is fresh and holds
 * the kid; fetched when stale, or when the kid is unknown and the last fetch is a minute old.
 * Throws ProviderUnavailableError when Google does not answer 200 and nothing is cached.
 */
export async function keysFor(
	url: string,
	kid: unknown,
	network: ProviderNetwork,
	nowMs: number,
): Promise<string> {
	const cached = cache.get(url);
	const fresh = cached !== undefined && cached.expiresAtMs > nowMs;
	if (
		fresh &&
		(jwkOf(cached.text, kid) !== null || nowMs - cached.fetchedAtMs < REFETCH_INTERVAL_MS)
	) {
		return cached.text;
	}
	const answer = await network({ method: 'GET', url });
	// Only a JWK Set is cached: anything else would refuse every push until it expired.
	if (answer.status !== 200 || !isKeySet(answer.body)) {
		if (fresh) return cached.text;
		throw new ProviderUnavailableError(
			`Google's keys (${url}) answered ${answer.status}, no JWK Set`,
		);
	}
	const maxAge = maxAgeOf(answer.headers['cache-control']);
	cache.set(url, { text: answer.body, expiresAtMs: nowMs + maxAge * 1000, fetchedAtMs: nowMs });
	return answer.body;
}

/** Forgets the cached keys (tests). */
export function clearKeyCache(): void {
	cache.clear();
}
