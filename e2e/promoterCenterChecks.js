// @ts-check
'use strict';
/**
 * Example (d)'s two doors on a started n8n, shared by test:e2e (e2e/topics/doors.js) and the
 * version matrix (e2e/test-compat.js): a fresh token opens the promoter center for its `sub` only
 * (minted by docs/promoter-center.md's snippet for the browser link, by `jose` for the server's
 * bearer call), whatever `user_id` the query or body carry; each bad token is refused (401 or
 * 403, never a 500) with no Promoter Login.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const { PROMOTER_CENTER_JWT } = require('../support/n8n/n8nDemoData');
const { scenario } = require('../support/scenarios');
const { docSnippetMinter, promoterCenterLink } = require('../scripts/promoter-center-link');

/** Example (d)'s server door (the browser door's path is in scripts/promoter-center-link.js). */
const SERVER_DOOR_PATH = '/webhook/promoter-center-login';
/** Someone else's user ID, sent in every query and body: it must change nothing. */
const OTHER_USER = 'user_1002';

/** @param {unknown} json */
const base64url = (json) =>
	Buffer.from(typeof json === 'string' ? json : JSON.stringify(json)).toString('base64url');
/** @param {string} unsigned @param {string} secret */
const hs256 = (unsigned, secret) =>
	crypto.createHmac('sha256', secret).update(unsigned).digest('base64url');
/**
 * A token signed here, for the refusals: any header, any payload text, any secret.
 * @param {unknown} header @param {unknown} payload @param {string} secret
 */
function forge(header, payload, secret) {
	const unsigned = `${base64url(header)}.${base64url(payload)}`;
	return `${unsigned}.${hs256(unsigned, secret)}`;
}

/**
 * The bad tokens for `userId`, each with what is wrong with it (undefined: no token at all).
 * @param {string} userId @returns {[string, string | undefined][]}
 */
function refusedTokens(userId) {
	const { secret } = PROMOTER_CENTER_JWT;
	const now = Math.floor(Date.now() / 1000);
	const header = { alg: 'HS256', typ: 'JWT' };
	const claims = { sub: userId, iat: now, exp: now + 300 };
	const valid = forge(header, claims, secret);
	const [signedHeader, , signature] = valid.split('.');
	return [
		['expired', forge(header, { sub: userId, iat: now - 600, exp: now - 300 }, secret)],
		['signed with another secret', forge(header, claims, `${secret}-not-ours`)],
		['alg: none', `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`],
		[
			'sub changed after signing',
			`${signedHeader}.${base64url({ ...claims, sub: `${userId}_changed` })}.${signature}`,
		],
		['no token', undefined],
		['not three parts', `${signedHeader}.${base64url(claims)}`],
		['bad base64', `${signedHeader}.%%%not-base64%%%.${signature}`],
		['a payload that is not JSON', forge(header, 'not json at all', secret)],
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
 * Calls the browser door with `token` (none when undefined), `user_id` beside it.
 * @param {string} base @param {string | undefined} token
 */
async function openLink(base, token) {
	const link = new URL(promoterCenterLink(base, token ?? ''));
	if (token === undefined) link.searchParams.delete('token');
	link.searchParams.set('user_id', OTHER_USER);
	return fetch(link, { redirect: 'manual', signal: AbortSignal.timeout(60_000) });
}

/**
 * Calls the server door with `token` as its bearer (no Authorization header when undefined).
 * @param {string} base @param {string | undefined} token
 */
async function callServerDoor(base, token) {
	return fetch(`${base}${SERVER_DOOR_PATH}?user_id=${OTHER_USER}`, {
		method: 'POST',
		headers: {
			'Content-Type': 'application/json',
			...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
		},
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
	const { secret } = PROMOTER_CENTER_JWT;
	const stamp = Date.now().toString(36);
	const linkUser = `doors_link_${stamp}`;
	const serverUser = `doors_server_${stamp}`;
	const refusedUser = `doors_refused_${stamp}`;
	/** @type {string[]} */
	const opened = [];

	await check(scenario('doors.promoterCenter.link'), async () => {
		const answer = await openLink(base, docSnippetMinter()(linkUser, secret));
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
			.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
			.setSubject(serverUser)
			.setIssuedAt()
			.setExpirationTime('5m')
			.sign(new TextEncoder().encode(secret));
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
		for (const [what, token] of refusedTokens(refusedUser)) {
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
		return `${answers.length} refusals (${[...tally].map(([answer, n]) => `${answer} ×${n}`).join(', ')}), 0 Promoter Login calls; ${rows}`;
	});
	return opened;
}

module.exports = { OTHER_USER, checkPromoterCenterDoors };
