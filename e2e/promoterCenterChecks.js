// @ts-check
'use strict';
/**
 * Example (d)'s two doors on a started n8n, shared by test:e2e (e2e/topics/doors.js) and the
 * version matrix (e2e/test-compat.js): a fresh ES256 token, signed with the demo key pair's private
 * key (n8n's credential holds the public key only), opens the promoter center for its `sub` only
 * (minted by docs/promoter-center.md's snippet for the browser link, by `jose` for the server's
 * bearer call), whatever `user_id` the query or body carry; each bad token of issue 45's list and
 * more is refused (401 or 403, never a 500) with no Promoter Login.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { PROMOTER_CENTER_JWT, promoterCenterKeyPair } = require('../support/n8n/n8nDemoData');
const { scenario } = require('../support/scenarios');
const { docSnippetMinter, promoterCenterLink } = require('../scripts/promoter-center-link');

/** Example (d)'s server door (the browser door's path is in scripts/promoter-center-link.js). */
const SERVER_DOOR_PATH = '/webhook/promoter-center-login';
/** Someone else's user ID, sent in every query and body: it must change nothing. */
const OTHER_USER = 'user_1002';

/** @param {unknown} json */
const base64url = (json) =>
	Buffer.from(typeof json === 'string' ? json : JSON.stringify(json)).toString('base64url');
/**
 * A token signed here with `key`: an EC private key (a KeyObject) signs ES256 (JOSE's r‖s), a
 * string is an HMAC secret for the header's HS256 or HS512. Any header, any payload text.
 * @param {{ alg: string } & Record<string, unknown>} header @param {unknown} payload
 * @param {string | crypto.KeyObject} key
 */
function sign(header, payload, key) {
	const unsigned = `${base64url(header)}.${base64url(payload)}`;
	const signature =
		typeof key === 'string'
			? crypto
					.createHmac(header.alg === 'HS512' ? 'sha512' : 'sha256', key)
					.update(unsigned)
					.digest('base64url')
			: crypto
					.sign('sha256', Buffer.from(unsigned), { key, dsaEncoding: 'ieee-p1363' })
					.toString('base64url');
	return `${unsigned}.${signature}`;
}

/**
 * Example (d)'s claims for `userId`, now, as docs/promoter-center.md mints them.
 * @param {string} userId
 */
function claimsFor(userId) {
	const now = Math.floor(Date.now() / 1000);
	return { sub: userId, aud: PROMOTER_CENTER_JWT.audience, iat: now, exp: now + 300 };
}

/**
 * A token for the refusals: the demo key pair's private key unless `key` says otherwise.
 * @param {unknown} payload @param {{ alg?: string, key?: string | crypto.KeyObject }} [options]
 */
function forge(
	payload,
	{ alg = 'ES256', key = crypto.createPrivateKey(promoterCenterKeyPair().privateKeyPem) } = {},
) {
	return sign({ alg, typ: 'JWT' }, payload, key);
}

/**
 * The bad tokens for `userId`, each with what is wrong with it: undefined is no token at all, two
 * tokens are `token` given twice (the link's query) or two bearers (the server's header).
 * @param {string} userId @returns {[string, string | string[] | undefined][]}
 */
function refusedTokens(userId) {
	const { publicKeyPem } = promoterCenterKeyPair();
	const claims = claimsFor(userId);
	const { iat: now } = claims;
	const valid = forge(claims);
	const [signedHeader, , signature] = valid.split('.');
	const without = (/** @type {keyof typeof claims} */ name) => {
		const { [name]: _left, ...rest } = claims;
		return rest;
	};
	const anotherKey = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
	return [
		['no exp', forge(without('exp'))],
		['exp a year ahead', forge({ ...claims, exp: now + 365 * 86_400 })],
		['exp more than 300 s after iat', forge({ ...claims, iat: now - 200, exp: now + 200 })],
		['no iat', forge(without('iat'))],
		['another aud', forge({ ...claims, aud: 'payouts' })],
		['no aud', forge(without('aud'))],
		['nbf in the future', forge({ ...claims, nbf: now + 120 })],
		['sub a number', forge({ ...claims, sub: 1001 })],
		['sub empty', forge({ ...claims, sub: '' })],
		['token given twice', [valid, valid]],
		// Used after its exp, beyond the 30 s of clock skew, with a lifetime within the 300 s.
		['used after its exp', forge({ ...claims, iat: now - 340, exp: now - 40 })],
		[
			'HS512 signed with the public key as the secret',
			forge(claims, { alg: 'HS512', key: publicKeyPem }),
		],
		[
			'HS256 signed with the public key as the secret (algorithm confusion)',
			forge(claims, { alg: 'HS256', key: publicKeyPem }),
		],
		['signed with another key pair', forge(claims, { key: anotherKey })],
		['alg: none', `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`],
		[
			'sub changed after signing',
			`${signedHeader}.${base64url({ ...claims, sub: `${userId}_changed` })}.${signature}`,
		],
		['no token', undefined],
		['not three parts', `${signedHeader}.${base64url(claims)}`],
		['bad base64', `${signedHeader}.%%%not-base64%%%.${signature}`],
		['a payload that is not JSON', forge('not json at all')],
	];
}

/**
 * @typedef {object} PromoterCenterDoors
 * @property {ReturnType<typeof import('./checks').createChecks>['check']} check
 * @property {string} base the n8n's address
 * @property {import('../sandbox/server').Sandbox} sandbox
 * @property {string[]} seen every text n8n gave back, scanned for the secrets at the end
 * @property {(userIds: string[]) => Promise<string[]>} [inPromotersTable] which of these user IDs
 *   the data table "Promoters to report" holds (test:e2e; the matrix has no table helpers)
 */

/**
 * Calls the browser door with `token` (none when undefined, each of several), `user_id` beside it.
 * @param {string} base @param {string | string[] | undefined} token
 */
async function openLink(base, token) {
	const link = new URL(promoterCenterLink(base, ''));
	link.searchParams.delete('token');
	for (const one of [token ?? []].flat()) link.searchParams.append('token', one);
	link.searchParams.set('user_id', OTHER_USER);
	return fetch(link, { redirect: 'manual', signal: AbortSignal.timeout(60_000) });
}

/**
 * Calls the server door with `token` as its bearer (no Authorization header when undefined; one
 * header per token when several, which HTTP joins with a comma).
 * @param {string} base @param {string | string[] | undefined} token
 */
async function callServerDoor(base, token) {
	const headers = new Headers({ 'Content-Type': 'application/json' });
	for (const one of [token ?? []].flat()) headers.append('Authorization', `Bearer ${one}`);
	return fetch(`${base}${SERVER_DOOR_PATH}?user_id=${OTHER_USER}`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ user_id: OTHER_USER, userId: OTHER_USER }),
		signal: AbortSignal.timeout(60_000),
	});
}

/**
 * The promoter a promoter-center address opens in the sandbox (its token's user).
 * @param {import('../sandbox/server').Sandbox} sandbox @param {string | null} address
 */
function openedFor(sandbox, address) {
	const prefix = `${sandbox.url}/promoter-center/iframe/`;
	if (!address?.startsWith(prefix))
		throw new Error(`not the promoter center's iframe address: ${address}`);
	const entry = sandbox.state.centerTokens.get(address.slice(prefix.length));
	assert.ok(entry, 'the address holds no token the sandbox issued');
	return entry.userId;
}

/** Promoter Login calls the sandbox has received. @param {import('../sandbox/server').Sandbox} sandbox */
const loginCalls = (sandbox) =>
	sandbox.calls.filter((call) => call.path.endsWith('/promoter/login')).length;

/**
 * The three checks: the link, the server's call, the refusals. Returns the user IDs the fresh
 * tokens opened the promoter center for.
 * @param {PromoterCenterDoors} doors
 */
async function checkPromoterCenterDoors({ check, base, sandbox, seen, inPromotersTable }) {
	const { privateKeyPem } = promoterCenterKeyPair();
	const stamp = Date.now().toString(36);
	const linkUser = `doors_link_${stamp}`;
	const serverUser = `doors_server_${stamp}`;
	const refusedUser = `doors_refused_${stamp}`;
	/** @type {string[]} */
	const opened = [];

	await check(scenario('doors.promoterCenter.link'), async () => {
		const answer = await openLink(base, docSnippetMinter()(linkUser, privateKeyPem));
		seen.push(await answer.text());
		assert.equal(answer.status, 302, `status ${answer.status}`);
		const location = answer.headers.get('location');
		assert.equal(openedFor(sandbox, location), linkUser);
		opened.push(linkUser);
		return `302 → …/promoter-center/iframe/… for ${linkUser} (user_id=${OTHER_USER} in the query)`;
	});

	await check(scenario('doors.promoterCenter.server'), async () => {
		const { SignJWT } = await import('jose');
		const token = await new SignJWT({})
			.setProtectedHeader({ alg: 'ES256', typ: 'JWT' })
			.setSubject(serverUser)
			.setAudience(PROMOTER_CENTER_JWT.audience)
			.setIssuedAt()
			.setExpirationTime('5m')
			.sign(crypto.createPrivateKey(privateKeyPem));
		const answer = await callServerDoor(base, token);
		const text = await answer.text();
		seen.push(text);
		assert.equal(answer.status, 200, text);
		const json = /** @type {Record<string, string>} */ (JSON.parse(text));
		assert.deepEqual(Object.keys(json).sort(), ['promoterCenterIframeUrl', 'promoterCenterUrl']);
		assert.equal(openedFor(sandbox, json.promoterCenterIframeUrl), serverUser);
		assert.ok(json.promoterCenterUrl.startsWith(`${sandbox.url}/promoter-center?at=`));
		opened.push(serverUser);
		return `200 {promoterCenterUrl, promoterCenterIframeUrl} for ${serverUser} (user_id=${OTHER_USER} in the query and body)`;
	});

	await check(scenario('doors.promoterCenter.refusals'), async () => {
		const loginsBefore = loginCalls(sandbox);
		const tokensBefore = sandbox.state.centerTokens.size;
		/** @type {string[]} */
		const answers = [];
		const cases = refusedTokens(refusedUser);
		for (const [what, token] of cases) {
			for (const [door, call] of /** @type {const} */ ([
				['link', openLink],
				['server', callServerDoor],
			])) {
				const answer = await call(base, token);
				const text = await answer.text();
				seen.push(text);
				assert.ok(
					answer.status === 401 || answer.status === 403,
					`${what} at the ${door} door: ${answer.status} ${text}`,
				);
				answers.push(`${door} ${answer.status}`);
			}
		}
		assert.equal(loginCalls(sandbox) - loginsBefore, 0, 'a refused token ran Promoter Login');
		assert.equal(sandbox.state.centerTokens.size, tokensBefore, 'a promoter-center token issued');
		let rows = 'not read here';
		if (inPromotersTable) {
			const held = await inPromotersTable([refusedUser, `${refusedUser}_changed`, ...opened]);
			assert.deepEqual(held.sort(), [...opened].sort(), '"Promoters to report" rows');
			rows = `"Promoters to report" holds ${opened.length} opened, 0 refused`;
		}
		const tally = answers.reduce(
			(counts, answer) => counts.set(answer, (counts.get(answer) ?? 0) + 1),
			/** @type {Map<string, number>} */ (new Map()),
		);
		return `${cases.length} bad tokens × 2 doors = ${answers.length} refusals (${[...tally].map(([answer, n]) => `${answer} ×${n}`).join(', ')}), 0 Promoter Login calls; ${rows}`;
	});
	return opened;
}

module.exports = { OTHER_USER, checkPromoterCenterDoors, claimsFor, forge };
