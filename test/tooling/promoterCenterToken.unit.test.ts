/**
 * docs/promoter-center.md's node:crypto snippet, run as the page shows it
 * (scripts/promoter-center-link.js): the token it mints is the HS256 JWT example (d) asks for.
 * n8n's own nodes accepting it is proven by test:e2e and the version matrix.
 */
import { createHmac } from 'node:crypto';

import { scenario } from '../../support/scenarios';
import { docSnippetMinter, promoterCenterLink } from '../../scripts/promoter-center-link';

const SHARED_WITH_N8N = 'a-secret-shared-with-n8n-only';

/** @param {string} part */
const decoded = (part: string): Record<string, unknown> =>
	JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe(scenario('tooling.promoterCenterToken'), () => {
	const before = Math.floor(Date.now() / 1000);
	const token = docSnippetMinter()('user_1001', SHARED_WITH_N8N);
	const [header, payload, signature] = token.split('.');

	it('is three base64url parts: an HS256 header, sub, iat and exp five minutes ahead', () => {
		expect(token.split('.')).toHaveLength(3);
		expect(decoded(header)).toEqual({ alg: 'HS256', typ: 'JWT' });
		const claims = decoded(payload);
		expect(claims.sub).toBe('user_1001');
		expect(claims.iat).toBeGreaterThanOrEqual(before);
		expect(claims.exp).toBe(Number(claims.iat) + 300);
	});

	it('is signed with HMAC-SHA256 of the shared secret over header.payload', () => {
		const expected = createHmac('sha256', SHARED_WITH_N8N)
			.update(`${header}.${payload}`)
			.digest('base64url');
		expect(signature).toBe(expected);
		const other = createHmac('sha256', `${SHARED_WITH_N8N}x`)
			.update(`${header}.${payload}`)
			.digest('base64url');
		expect(signature).not.toBe(other);
	});

	it("goes into example (d)'s link as its token query parameter", () => {
		const link = new URL(promoterCenterLink('http://127.0.0.1:5678/', token));
		expect(link.pathname).toBe('/webhook/promoter-center');
		expect(link.searchParams.get('token')).toBe(token);
	});
});
