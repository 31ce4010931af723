/**
 * What the provider APIs emulator's contract tests share: keys made for the run in each
 * provider's format, an emulator taking them, HTTP calls and their answers' fields, IDs, and
 * App Store Connect tokens (ES256 JWS in JOSE form).
 */
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

import { ProviderApis } from '../../sandbox';

// Made for this run, in each provider's format.
export const STRIPE_KEY = `sk_test_${randomBytes(16).toString('hex')}`;
export const PADDLE_KEY = `pdl_sdbx_apikey_${randomBytes(16).toString('hex')}`;
export const ISSUER = '57246542-96fe-1a63-e053-0824d011072a';
export const KEY_ID = '2X9R4HXF34';
export const BUNDLE = 'com.example.videomax';

export const appleKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
export const otherKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const publicKeyPem = appleKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** An emulator taking the keys above, started before the file's tests and stopped after. */
export function startedProviderApis(): ProviderApis {
	const apis = new ProviderApis({
		stripeSecretKey: STRIPE_KEY,
		paddleApiKey: PADDLE_KEY,
		appStore: { issuerId: ISSUER, keyId: KEY_ID, publicKeyPem, bundleId: BUNDLE },
	});
	beforeAll(() => apis.start());
	afterAll(() => apis.stop());
	return apis;
}

export type Json = Record<string, unknown>;

/** The fields the tests read of the three APIs' answers (each answer has some of them). */
export interface Answer {
	data: Json[];
	has_more: boolean;
	error: Json;
	meta: {
		pagination: { per_page: number; next: string; has_more: boolean; estimated_total: number };
	};
	notificationHistory: { signedPayload: string; sendAttempts: Json[] }[];
	hasMore: boolean;
	paginationToken?: string;
	errorCode: number;
	errorMessage: string;
}

export async function call(url: string, init: RequestInit = {}) {
	const response = await fetch(url, init);
	return {
		status: response.status,
		headers: response.headers,
		json: (await response.json()) as Answer,
	};
}

/** `evt_0042`: IDs that sort as their index. */
export const pad = (index: number) => String(index).padStart(4, '0');
/** The indexes from `first` down to `last`, as IDs. */
export const idsDown = (first: number, last: number, prefix = 'evt_') =>
	Array.from({ length: first - last + 1 }, (_, at) => `${prefix}${pad(first - at)}`);
export const idsOf = (items: Json[], field = 'id') => items.map((item) => item[field] as string);

export const base64url = (value: object) =>
	Buffer.from(JSON.stringify(value)).toString('base64url');
/** A compact JWS signed ES256 in JOSE form, as Apple and App Store Connect tokens are. */
export function jws(header: object, payload: object, key: KeyObject = appleKeys.privateKey) {
	const signingInput = `${base64url(header)}.${base64url(payload)}`;
	const signature = sign('sha256', Buffer.from(signingInput), { key, dsaEncoding: 'ieee-p1363' });
	return `${signingInput}.${signature.toString('base64url')}`;
}
export const DAY = 86_400_000;
export const now = () => Math.floor(Date.now() / 1000);
/** An App Store Connect API token, valid unless `header`, `payload` or `key` say otherwise. */
export const appleToken = ({ header = {}, payload = {}, key = appleKeys.privateKey } = {}) =>
	jws(
		{ alg: 'ES256', kid: KEY_ID, typ: 'JWT', ...header },
		{
			iss: ISSUER,
			iat: now(),
			exp: now() + 1200,
			aud: 'appstoreconnect-v1',
			bid: BUNDLE,
			...payload,
		},
		key,
	);
