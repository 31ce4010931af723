// @ts-check
'use strict';
/**
 * test:e2e, example (d) as a brand embeds it: a brand page served on loopback puts the promoter
 * center in an iframe through the example's link, with a token minted by docs/promoter-center.md's
 * snippet, and Chromium opens it: a fresh token opens the sandbox's promoter center for that user,
 * a tampered one does not. Then n8n keeps nothing a stranger could reuse, after three paths: a
 * successful embed, an embed whose Data Table write fails (a copy of (d) naming no table: it still
 * answers), and a manual _Try it_ (n8n's REST run, as the editor's button): no saved execution of
 * either workflow, none of the promoter-center tokens issued meanwhile anywhere in n8n's database
 * (every table read through the release's own sqlite3), and none of the brand's JWTs once n8n's
 * pruning has deleted the unsaved executions (n8n 2.x keeps each one's request, the JWT with it,
 * until its next hard-delete pass: every minute in test:e2e, every 15 by default).
 */
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');

const { promoterCenterKeyPair } = require('../../support/n8n/n8nDemoData');
const { DEFAULT_N8N_MODULES, defaultReleaseNode } = require('../../support/n8n/n8nInstance');
const { launchChromium } = require('../../support/n8n/editor');
const { sleep, waitUntil } = require('../../support/services/processes');
const { scenario } = require('../../support/scenarios');
const { docSnippetMinter, promoterCenterLink } = require('../../scripts/promoter-center-link');
const { CHROMIUM, example } = require('./context');

/** The signed-in user of the brand page; the sandbox's seed names this promoter Ada. */
const SIGNED_IN = { userId: 'user_1001', name: 'Ada' };

/**
 * A brand's account page on 127.0.0.1 that embeds the promoter center: `/account?token=<JWT>`.
 * @param {string} n8nUrl
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
async function startBrandPage(n8nUrl) {
	const server = http.createServer((req, res) => {
		const token = new URL(req.url ?? '/', 'http://brand').searchParams.get('token') ?? '';
		const src = promoterCenterLink(n8nUrl, token).replace(/"/g, '&quot;');
		res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
		res.end(
			`<!doctype html><title>Your account</title><h1>Your account</h1>` +
				`<iframe id="promoter-center" src="${src}" allow="clipboard-write"></iframe>`,
		);
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${address.port}`,
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}

/**
 * Every row of every table of n8n's SQLite database, as text (the release's sqlite3 is built for
 * the release's Node, so that Node reads it).
 * @param {string} userFolder
 */
function databaseText(userFolder) {
	const file = path.join(userFolder, '.n8n', 'database.sqlite');
	const script = `
const sqlite3 = require(${JSON.stringify(path.join(DEFAULT_N8N_MODULES, 'sqlite3'))});
const db = new sqlite3.Database(${JSON.stringify(file)}, sqlite3.OPEN_READONLY);
db.all("SELECT name FROM sqlite_master WHERE type = 'table'", (error, tables) => {
	if (error) throw error;
	let left = tables.length;
	const out = {};
	for (const { name } of tables)
		db.all(\`SELECT * FROM "\${name}"\`, (failed, rows) => {
			if (failed) throw failed;
			out[name] = rows;
			if (--left === 0) { process.stdout.write(JSON.stringify(out)); db.close(); }
		});
});`;
	const result = spawnSync(defaultReleaseNode(), ['-e', script], {
		encoding: 'utf8',
		maxBuffer: 512 * 1024 * 1024,
	});
	assert.equal(result.status, 0, `reading ${file}: ${result.stderr}`);
	return /** @type {Record<string, unknown[]>} */ (JSON.parse(result.stdout));
}

/**
 * Opens the brand page with `token` and reads what its iframe shows.
 * @param {import('playwright-core').Browser} browser @param {string} brandUrl @param {string} token
 */
async function openBrandPage(browser, brandUrl, token) {
	const page = await browser.newPage();
	try {
		await page.goto(`${brandUrl}/account?token=${encodeURIComponent(token)}`);
		const handle = await page.locator('iframe#promoter-center').elementHandle();
		const frame = await handle?.contentFrame();
		assert.ok(frame, 'the brand page has no promoter-center frame');
		await frame.waitForLoadState('load');
		const promoter = await frame.locator('#promoter').count();
		return {
			url: frame.url(),
			shown: promoter > 0 ? await frame.locator('#promoter').textContent() : undefined,
			content: await frame.content(),
		};
	} finally {
		await page.close();
	}
}

/**
 * The saved executions of workflow `id`.
 * @param {string} base @param {string} cookie @param {string} id
 */
async function savedExecutions(base, cookie, id) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: id }));
	const answer = await fetch(`${base}/rest/executions?filter=${filter}`, { headers: { cookie } });
	assert.equal(answer.status, 200, `/rest/executions: ${answer.status}`);
	return /** @type {{ data: { results: unknown[] } }} */ (await answer.json()).data.results.length;
}

/**
 * Promoter-center tokens the sandbox issued for `userId`.
 * @param {import('../../sandbox/server').Sandbox} sandbox @param {string} userId
 */
const issuedFor = (sandbox, userId) =>
	[...sandbox.state.centerTokens.values()].filter((entry) => entry.userId === userId).length;

/**
 * Runs example (d) from its _Try it_ trigger as the editor's button does (REST, the owner's
 * session) and waits until its Promoter Login got a promoter-center token for the sample user.
 * @param {import('./context').Started} context
 */
async function tryItManually(context) {
	const { sandbox, base, cookie } = context;
	const id = example('d').id;
	const headers = { cookie, 'Content-Type': 'application/json' };
	const read = await fetch(`${base}/rest/workflows/${id}`, { headers });
	assert.equal(read.status, 200, `GET /rest/workflows/${id}: ${read.status}`);
	const workflowData = /** @type {{ data: unknown }} */ (await read.json()).data;
	const before = issuedFor(sandbox, SIGNED_IN.userId);
	const run = await fetch(`${base}/rest/workflows/${id}/run`, {
		method: 'POST',
		headers,
		body: JSON.stringify({ workflowData, triggerToStartFrom: { name: 'Try it' } }),
	});
	const ran = await run.text();
	assert.equal(run.status, 200, `POST /rest/workflows/${id}/run: ${run.status} ${ran}`);
	await waitUntil(() => issuedFor(sandbox, SIGNED_IN.userId) > before, {
		timeoutMs: 60_000,
		intervalMs: 200,
		what: `example (d)'s manual run logging ${SIGNED_IN.userId} in`,
	});
	return ran;
}

/**
 * Returns whether the embed opened the promoter center for the token's user only. The database is
 * searched for every promoter-center token issued since `tokensBefore`, and for the brand's JWTs.
 * @param {import('./context').Started} context @param {Set<string>} tokensBefore
 * @param {{ id: string, path: string }} failingTable the copy of (d) whose Data Table write fails
 */
async function embedChecks(context, tokensBefore, failingTable) {
	const { check, sandbox, base, cookie, userFolder, seenOutput } = context;
	/** The brand's JWTs sent meanwhile: none may stay in n8n either. @type {string[]} */
	const jwts = [];
	let embedded = false;
	await check(scenario('doors.promoterCenter.embed'), async () => {
		const brand = await startBrandPage(base);
		const browser = await launchChromium(CHROMIUM);
		try {
			const fresh = docSnippetMinter()(SIGNED_IN.userId, promoterCenterKeyPair().privateKeyPem);
			jwts.push(fresh);
			const opened = await openBrandPage(browser, brand.url, fresh);
			seenOutput.push(opened.content);
			assert.ok(opened.url.startsWith(`${sandbox.url}/promoter-center/iframe/`), opened.url);
			assert.equal(opened.shown, SIGNED_IN.name);
			// Another user's ID in the payload, the signature left as it was.
			const [header, payload, signature] = fresh.split('.');
			const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
			const changed = Buffer.from(JSON.stringify({ ...claims, sub: 'user_1002' }));
			const tampered = `${header}.${changed.toString('base64url')}.${signature}`;
			const refused = await openBrandPage(browser, brand.url, tampered);
			seenOutput.push(refused.content);
			assert.ok(!refused.url.startsWith(sandbox.url), `the tampered token opened ${refused.url}`);
			assert.equal(refused.shown, undefined);
			embedded = true;
			return `fresh → frame at …/promoter-center/iframe/… shows "${opened.shown}"; tampered → frame stays at n8n: "${refused.content
				.replace(/<[^>]+>/g, '')
				.trim()
				.slice(0, 60)}"`;
		} finally {
			await browser.close();
			await brand.close();
		}
	});

	await check(scenario('doors.promoterCenter.nothingKept'), async () => {
		// An embed whose Data Table write fails: the answer is sent first, so it still opens.
		const failingUser = `kept_failing_${Date.now().toString(36)}`;
		const failingJwt = docSnippetMinter()(failingUser, promoterCenterKeyPair().privateKeyPem);
		jwts.push(failingJwt);
		const failing = await fetch(
			`${base}/webhook/${failingTable.path}?token=${encodeURIComponent(failingJwt)}`,
			{ redirect: 'manual', signal: AbortSignal.timeout(60_000) },
		);
		seenOutput.push(await failing.text());
		assert.equal(failing.status, 302, `the failing write's embed answered ${failing.status}`);
		const location = failing.headers.get('location') ?? '';
		assert.ok(location.startsWith(`${sandbox.url}/promoter-center/iframe/`), location);
		// A manual run from Try it.
		seenOutput.push(await tryItManually(context));
		// Each run is over once nothing of it is listed (a running one is), and stays so.
		for (const id of [example('d').id, failingTable.id])
			await waitUntil(async () => (await savedExecutions(base, cookie, id)) === 0, {
				timeoutMs: 30_000,
				intervalMs: 500,
				what: `no execution of ${id} listed`,
			});
		await sleep(2000);
		const saved = [
			await savedExecutions(base, cookie, example('d').id),
			await savedExecutions(base, cookie, failingTable.id),
		];
		assert.deepEqual(saved, [0, 0], 'saved executions of example d and its failing-write copy');
		const issued = [...sandbox.state.centerTokens.keys()].filter((t) => !tokensBefore.has(t));
		assert.ok(issued.length >= 3, `${issued.length} promoter-center tokens issued, not 3 or more`);
		const tables = databaseText(userFolder);
		const text = JSON.stringify(tables);
		const left = issued.filter((token) => text.includes(token));
		assert.equal(left.length, 0, `${left.length} of ${issued.length} tokens in the database`);
		// The JWTs: gone once the next hard-delete pass has run (once a minute here).
		const pruningFrom = Date.now();
		let jwtsLeft = 0;
		await waitUntil(
			() => {
				const now = JSON.stringify(databaseText(userFolder));
				jwtsLeft = jwts.filter((jwt) => now.includes(jwt)).length;
				return jwtsLeft === 0 && !issued.some((token) => now.includes(token));
			},
			{
				timeoutMs: 150_000,
				intervalMs: 5000,
				what: `the database without the ${jwts.length} JWTs (${jwtsLeft} left)`,
			},
		);
		return `after a successful embed, an embed whose Data Table write fails (302, answered) and a manual Try it: ${issued.length} promoter-center tokens, none in the database (${Object.keys(tables).length} tables, ${(text.length / 1024).toFixed(0)} KiB); 0 saved executions; the ${jwts.length} JWTs gone after ${((Date.now() - pruningFrom) / 1000).toFixed(0)} s (n8n's hard-delete pass)`;
	});
	return embedded;
}

module.exports = { embedChecks };
