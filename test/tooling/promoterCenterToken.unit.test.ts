/**
 * docs/promoter-center.md's node:crypto snippet, run as the page shows it
 * (scripts/promoter-center-link.js): the token it mints is the ES256 JWT example (d) asks for,
 * verifiable with the public key alone. n8n's own nodes accepting it (and refusing every other
 * token) is proven by test:e2e and the version matrix.
 */
import { generateKeyPairSync, verify } from 'node:crypto';

import { scenario } from '../../support/scenarios';
import { docSnippetMinter, promoterCenterLink } from '../../scripts/promoter-center-link';

const brand = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const PRIVATE_KEY_PEM = String(brand.privateKey.export({ type: 'pkcs8', format: 'pem' }));

/** @param {string} part */
const decoded = (part: string): Record<string, unknown> =>
	JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe(scenario('tooling.promoterCenterToken'), () => {
	const before = Math.floor(Date.now() / 1000);
	const token = docSnippetMinter()('user_1001', PRIVATE_KEY_PEM);
	const [header, payload, signature] = token.split('.');

	it('is three base64url parts: an ES256 header, sub, aud promoter-center, iat, exp 300 s later', () => {
		expect(token.split('.')).toHaveLength(3);
		expect(decoded(header)).toEqual({ alg: 'ES256', typ: 'JWT' });
		const claims = decoded(payload);
		expect(Object.keys(claims).sort()).toEqual(['aud', 'exp', 'iat', 'sub']);
		expect(claims.sub).toBe('user_1001');
		expect(claims.aud).toBe('promoter-center');
		expect(claims.iat).toBeGreaterThanOrEqual(before);
		expect(claims.iat).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
		expect(claims.exp).toBe(Number(claims.iat) + 300);
	});

	it('is signed with the private key: the public key alone verifies it, another key does not', () => {
		const check = (key: typeof brand.publicKey, signed = `${header}.${payload}`) =>
			verify(
				'sha256',
				Buffer.from(signed),
				{ key, dsaEncoding: 'ieee-p1363' },
				Buffer.from(signature, 'base64url'),
			);
		// JOSE's ES256 signature: r and s, 32 bytes each.
		expect(Buffer.from(signature, 'base64url')).toHaveLength(64);
		expect(check(brand.publicKey)).toBe(true);
		expect(check(stranger.publicKey)).toBe(false);
		expect(check(brand.publicKey, `${header}.${payload}x`)).toBe(false);
	});

	it("goes into example (d)'s link as its token query parameter", () => {
		const link = new URL(promoterCenterLink('http://127.0.0.1:5678/', token));
		expect(link.pathname).toBe('/webhook/promoter-center');
		expect(link.searchParams.get('token')).toBe(token);
	});
});
