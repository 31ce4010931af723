#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run test:e2e`: the packed package in a real n8n, the way users get it.
 *
 * 1. `npm pack`, then the tarball installed into a fresh n8n user folder with the steps of n8n's
 *    community-package installer.
 * 2. The demo credential and the examples imported with `n8n import:*`; each example run headless
 *    with `n8n execute --id` against the sandbox, its output asserted.
 * 3. `n8n start`: n8n loads the node and the credential, the owner can sign in, the webhook
 *    examples answer over HTTP, and example (d)'s page opens in headless Chromium with the
 *    promoter center in its iframe.
 *
 * Needs e2e/ set up (done here when missing) and Chromium (from scripts/setup-system.sh, or
 * CHROMIUM_PATH); without it the run stops at once and says so. Prints one line per check and `E2E: N passed, N failed`.
 */
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {
	DEMO_CREDENTIAL,
	DEMO_KEY,
	E2E_MODULES,
	MCP_DEMO_TOKEN,
	EXAMPLES,
	PACKAGE,
	ensureN8n,
	exampleWebhooks,
	paymentTriggerPath,
	importCredentials,
	importDemo,
	importWorkflows,
	installAsCommunityPackage,
	n8nEnvironment,
	packPackage,
	readExample,
	executeWorkflow,
	startN8n,
	waitForWebhooks,
	NODE_TYPE,
	PAYMENT_TRIGGER_TYPE,
	TRIGGER_TYPE,
	assertPackageLoaded,
	signInToRest,
} = require('./n8n');
const { freePort, stopProcess } = require('./processes');
const { Sandbox } = require('../sandbox/server');
const {
	closeDialogs,
	credentialTest,
	launchChromium,
	nodesPanel,
	openExampleNode,
	openNode,
	signIn,
} = require('./editor');
const {
	ScriptedModel,
	askAgentAboutNewPromoter,
	assertReplyFromSandbox,
} = require('./scriptedModel');
const { NODES: HTTP_NODES, httpRequestWorkflow } = require('./httpRequestNode');
const { createChecks } = require('./checks');
const {
	checkWebhookSecurity,
	postStripeEvent,
	webhookSecurityCredentials,
	webhookSecurityWebhooks,
	webhookSecurityWorkflows,
} = require('./webhookSecurity');
const { TEST_SIGNING_SECRETS } = require('../harness/paymentSignatures');
const { KEYS, PRODUCTS, WRONG_SECRET } = require('../sandbox/seed');

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** `npm run screenshots` (--screenshots) keeps the editor's pictures in docs/images for the README. */
const SCREENSHOTS_DIR = process.argv.includes('--screenshots')
	? path.join(__dirname, '..', 'docs', 'images')
	: undefined;
const OWNER = { email: 'e2e-owner@example.com', password: 'E2e-owner-password-1' };
/** What the editor must show, read from the built package (test:e2e builds it first). */
const { AffiliateTracking } = require('../dist/index.js');
const { authenticationHint, SERVER_MESSAGES } = require('../dist/nodes/shared/transport/errors.js');
/** @type {string[]} */
const ACTION_LABELS = new AffiliateTracking().description.properties
	.filter((property) => property.name === 'operation')
	.flatMap((property) =>
		/** @type {{ action?: string }[]} */ (property.options ?? []).map((option) =>
			String(option.action),
		),
	);
/** n8n lists a polling trigger's events as "On <event>", lower-cased. */
const TRIGGER_EVENTS = ['On promoter balance changed', 'On promoter results changed'];
const SIGNATURE_REMEDY = authenticationHint(SERVER_MESSAGES.signatureFailed);
const API_SECRET = KEYS[DEMO_KEY].secret;
/** The HTTP Request node's v1 case signs with this key, through a second credential. */
const V1_KEY = 'pk_test_videomax_v1';
const V1_CREDENTIAL = { id: 'affTrackSandboxV1', name: 'Affiliate Tracking sandbox (v1 key)' };
/** Every secret the run's credentials hold: none may appear in anything n8n gives back. */
const SECRETS = [API_SECRET, KEYS[V1_KEY].secret, ...Object.values(TEST_SIGNING_SECRETS)];
const HTTP_WORKFLOW_ID = 'e2eHttpRequest001';

const { check, counts, abort, finish } = createChecks('E2E');
/** Every text n8n gave back, scanned for the API secret at the end. */
const seenOutput = /** @type {string[]} */ ([]);

/** The system packages come from scripts/setup-system.sh; a test only looks for them. */
function requireChromium() {
	if (fs.existsSync(CHROMIUM)) return;
	throw new Error(
		`Chromium is missing at ${CHROMIUM}: run \`bash scripts/setup-system.sh\` (Debian/Ubuntu) once, or set CHROMIUM_PATH to a Chromium or Chrome you have.`,
	);
}

/** @typedef {NonNullable<Awaited<ReturnType<typeof executeWorkflow>>['run']>} Run */

/**
 * The items of one node's output in a run.
 * @param {Run} run @param {string} node @param {number} [output]
 */
function outputOf(run, node, output = 0) {
	const runs = run.data.resultData.runData[node];
	assert.ok(
		runs,
		`node "${node}" did not run; ran: ${Object.keys(run.data.resultData.runData).join(', ')}`,
	);
	return (runs[0].data.main[output] ?? []).map((item) => item);
}

/** @param {NodeJS.ProcessEnv} env @param {string} id @returns {Promise<Run>} */
async function execute(env, id) {
	const { code, signal, stdout, stderr, run } = await executeWorkflow(env, id);
	seenOutput.push(stdout, stderr);
	assert.equal(
		code,
		0,
		`n8n execute --id=${id} exited with ${code ?? signal}:\n${stdout}\n${stderr}`,
	);
	assert.ok(run, `n8n execute --id=${id} printed no run:\n${stdout.slice(0, 2000)}`);
	return run;
}

/** @param {string} letter */
function example(letter) {
	const found = EXAMPLES.find((e) => e.letter === letter);
	if (!found) throw new Error(`no example ${letter}`);
	return found;
}

/** Today in UTC+8 as Y-m-d, and the first day of its month: the range example (b) reports. */
function monthToDateUtc8() {
	const today = new Date(Date.now() + 8 * 3600 * 1000).toISOString().slice(0, 10);
	return { from: `${today.slice(0, 8)}01`, to: today };
}

async function main() {
	const startedAt = Date.now();
	console.log(`E2E: ${PACKAGE.name}@${PACKAGE.version} in a real n8n`);
	await ensureN8n((line) => console.log(line));
	requireChromium();

	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	const userFolder = path.join(work, 'user');
	fs.mkdirSync(userFolder);
	const sandbox = new Sandbox({ port: 0 });
	await sandbox.start();
	const model = new ScriptedModel();
	await model.start();
	const port = await freePort();
	const env = n8nEnvironment({ userFolder, port, brokerPort: await freePort() });
	/** @type {import('node:child_process').ChildProcess | undefined} */
	let n8n;
	try {
		console.log(`Sandbox ${sandbox.url}, user folder ${userFolder}`);

		/** @type {{ directory: string, packageJson: Record<string, unknown> } | undefined} */
		let installed;
		await check('npm pack → installed into .n8n/nodes as n8n installs community packages', () => {
			const tarball = packPackage(work);
			installed = installAsCommunityPackage(tarball, userFolder);
			const { packageJson, directory } = installed;
			for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
				assert.equal(packageJson[field], undefined, `${field} left in the installed package.json`);
			assert.equal(
				packageJson.dependencies,
				undefined,
				'the package declares runtime dependencies',
			);
			const modules = path.join(directory, 'node_modules');
			const installedModules = fs.existsSync(modules) ? fs.readdirSync(modules) : [];
			assert.deepEqual(installedModules, [], 'npm install brought runtime dependencies');
			const files = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
				.stdout.trim()
				.split('\n');
			assert.ok(files.includes('package/dist/nodes/AffiliateTracking/AffiliateTracking.node.js'));
			// dist/package.json and the build info come from the starter's tsconfig, as in other community packages.
			const expected =
				/^package\/(dist\/(index\.|nodes\/|credentials\/|icons\/|package\.json$|tsconfig\.tsbuildinfo$)|package\.json$|README\.md$|LICENSE\.md$|CHANGELOG\.md$)/;
			const strays = files.filter((file) => !expected.test(file));
			assert.deepEqual(strays, [], 'files other than dist/ and the docs in the tarball');
			return `${path.basename(tarball)}: ${files.length} files, 0 runtime dependencies`;
		});
		if (!installed) throw new Error('the package is not installed; nothing else can run');

		await check(
			`n8n import:credentials and import:workflow (${EXAMPLES.length} examples, ${EXAMPLES.filter((e) => e.published).length} published)`,
			async () => {
				await importDemo(env, sandbox.url, model.url, true);
				await importCredentials(env, webhookSecurityCredentials());
				await importWorkflows(env, webhookSecurityWorkflows());
			},
		);

		// (a) refund: the sample event refunds txn_1001.
		await check('example a (execute): refund on a payment webhook', async () => {
			const run = await execute(env, example('a').id);
			const [refund] = outputOf(run, 'Refund');
			assert.equal(refund.json.status, 'APPLIED');
			assert.equal(refund.json.transaction_id, 'txn_1001');
			assert.equal(outputOf(run, 'Respond: refunded').length, 1);
			const conversion = sandbox.state.conversions.find((c) => c.transactionId === 'txn_1001');
			assert.equal(conversion?.adjustments, 1, 'the sandbox did not adjust txn_1001 exactly once');
			return `e2e a: execute --id=${example('a').id} → Refund ${refund.json.status} ${refund.json.transaction_id}, cancelled_reward_count ${refund.json.cancelled_reward_count}, preserved_paid_reward_count ${refund.json.preserved_paid_reward_count}`;
		});

		// (h) purchase: the sample event tracks pi_sample_purchase_1 for buyer_1.
		await check('example h (execute): purchase on a payment webhook', async () => {
			const run = await execute(env, example('h').id);
			const [tracked] = outputOf(run, 'Track Purchase');
			assert.equal(tracked.json.event_name, 'purchase', JSON.stringify(tracked.json));
			assert.equal(outputOf(run, 'Respond: tracked').length, 1);
			const recorded = sandbox.state.conversions.filter(
				(c) => c.transactionId === 'pi_sample_purchase_1',
			);
			assert.equal(recorded.length, 1, 'the sandbox did not record pi_sample_purchase_1 once');
			assert.equal(recorded[0].valueCents, 4900);
			return `e2e h: execute --id=${example('h').id} → Track Purchase conversion ${tracked.json.conversion_id} for pi_sample_purchase_1, 49.00`;
		});

		// (b) statistics: a signup today makes the month-to-date figures non-zero.
		await check('example b (execute): month-to-date statistics → xlsx', async () => {
			const ada = sandbox.state.promoters.get(`${PRODUCTS.videomax}|user_1001`);
			const signup = sandbox.state.trackConversion(PRODUCTS.videomax, {
				event_name: 'signup',
				invited_user_id: `e2e_buyer_${Date.now()}`,
				invite_code: ada?.referralCode,
			});
			assert.equal(signup.code, 0, `could not seed a signup: ${signup.message}`);
			const run = await execute(env, example('b').id);
			const [file] = outputOf(run, 'Spreadsheet (xlsx)');
			const binary = file.binary?.data;
			const { from, to } = monthToDateUtc8();
			assert.equal(binary?.fileName, `promoter-statistics-${to}.xlsx`);
			assert.equal(
				binary?.mimeType,
				'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
			);
			const bytes = binary.id
				? fs.readFileSync(
						path.join(userFolder, '.n8n', 'storage', binary.id.replace(/^filesystem(-v2)?:/, '')),
					)
				: Buffer.from(binary.data, 'base64');
			const xlsx = require(
				require.resolve('@e965/xlsx', { paths: [path.join(E2E_MODULES, 'n8n-nodes-base')] }),
			);
			const sheet = xlsx.read(bytes).Sheets['Month to date'];
			assert.ok(sheet, 'no sheet "Month to date" in the file');
			const rows = /** @type {Record<string, string | number>[]} */ (
				xlsx.utils.sheet_to_json(sheet)
			);
			assert.equal(rows.length, 2);
			for (const row of rows) {
				const expected = /** @type {Record<string, string | number>} */ (
					sandbox.state.readPromoter(
						PRODUCTS.videomax,
						String(row.Promoter),
						'statistics',
						new Map([
							['start_date', [from]],
							['end_date', [to]],
						]),
					).data
				);
				assert.deepEqual(row, {
					Promoter: row.Promoter,
					From: from,
					To: to,
					Clicks: expected.clicks,
					Signups: expected.signups,
					'Paying customers': expected.paying_customers,
					'Rewards accrued': Number(expected.rewards_accrued),
					'Rewards paid': Number(expected.rewards_paid),
					Currency: expected.currency,
				});
			}
			assert.deepEqual(
				rows.map((row) => row.Promoter),
				['user_1001', 'user_1002'],
			);
			assert.ok(Number(rows[0].Signups) >= 1, 'the signup made today is missing from user_1001');
			return `e2e b: execute --id=${example('b').id} → ${binary.fileName} (${bytes.length} bytes), rows ${rows.map((r) => `${r.Promoter}: ${r.Signups} signups`).join(', ')} for ${from}..${to}`;
		});

		// (c) relay landing: a debug code stands in for the relay.
		await check('example c (execute): relay landing → exchange → signup → redirect', async () => {
			const run = await execute(env, example('c').id);
			const [user] = outputOf(run, 'Exchange Code');
			const [signup] = outputOf(run, 'Track Signup');
			const [response] = outputOf(run, 'Redirect into the app', 1);
			assert.equal(user.json.user_name, 'Demo User');
			assert.equal(signup.json.event_name, 'signup');
			assert.equal(response.json.response.statusCode, 302);
			assert.equal(
				response.json.response.headers.location,
				'https://videomax.example/welcome?name=Demo%20User',
			);
			assert.ok(
				sandbox.state.conversions.some(
					(c) => c.invitedUserId === user.json.user_key && c.eventName === 'signup',
				),
				'the sandbox has no signup for the exchanged user',
			);
			return `e2e c: execute --id=${example('c').id} → Exchange Code ${user.json.user_key} (${user.json.user_name}), Track Signup conversion ${signup.json.conversion_id}, 302 → ${response.json.response.headers.location}`;
		});

		// (d) promoter center: the page's iframe carries a token the sandbox issued.
		await check('example d (execute): promoter login → HTML page with the iframe', async () => {
			const run = await execute(env, example('d').id);
			const [login] = outputOf(run, 'Promoter Login');
			const [page] = outputOf(run, 'Page with the promoter center', 1);
			const body = String(page.json.response.body);
			assert.ok(
				sandbox.state.centerTokens.has(login.json.token),
				'the token is not one the sandbox issued',
			);
			assert.ok(
				body.includes(
					`src="${sandbox.url}/promoter-center/iframe/${login.json.token}" allow="clipboard-write"`,
				),
				`the page has no iframe with the token:\n${body}`,
			);
			assert.equal(page.json.response.headers['content-type'], 'text/html; charset=utf-8');
			return `e2e d: execute --id=${example('d').id} → Promoter Login token ${login.json.token.slice(0, 6)}…, page ${body.length} bytes with <iframe src="…/promoter-center/iframe/<token>" allow="clipboard-write">`;
		});

		// Issue 20: n8n's HTTP Request node with Predefined Credential Type → Affiliate Tracking API.
		// One workflow, one node per case, run once; each check reads its node's output and what
		// the sandbox received (it verifies every signature and records the call).
		const httpCallsBefore = sandbox.calls.length;
		const today = monthToDateUtc8().to;
		const httpRange = { from: `${today.slice(0, 4)}-01-01`, to: today };
		// The writes (refund, signup) go to a promoter of their own, so that the reads of user_1001
		// and user_1002 see the same figures whatever order the nodes run in.
		const [httpPromoter] = sandbox.state.addPromoters(PRODUCTS.videomax, 1, 'http_request_writes');
		const [httpRefundTxn] = sandbox.state.addPurchases(
			PRODUCTS.videomax,
			1,
			'http_request_node',
			httpPromoter,
		);
		const httpInvitedUser = `http_raw_${Date.now()}`;
		const httpInviteCode = sandbox.state.promoters.get(
			`${PRODUCTS.videomax}|${httpPromoter}`,
		)?.referralCode;
		// Spacing, key order and non-ASCII text the node's own serializer would never produce.
		const httpRawJsonBody = `{ "event_name": "signup",\n  "invited_user_id": "${httpInvitedUser}", "invite_code": "${httpInviteCode}", "invited_user_name": "Zoë 李" }`;
		/** @type {Run | undefined} */
		let httpRun;
		await check(
			'HTTP Request node workflow (8 cases, HTTP Request 4.5, 4.2 and 3) imported beside a second credential, with a v1 key, and run with n8n execute',
			async () => {
				assert.ok(httpInviteCode, `${httpPromoter} has no referral code`);
				await importCredentials(env, [
					{
						...V1_CREDENTIAL,
						type: 'affiliateTrackingApi',
						data: {
							baseUrl: sandbox.url,
							apiKey: V1_KEY,
							apiSecret: KEYS[V1_KEY].secret,
							signatureVersion: 'v1',
						},
					},
				]);
				const workflow = httpRequestWorkflow({
					sandboxUrl: sandbox.url,
					v2: DEMO_CREDENTIAL,
					v1: V1_CREDENTIAL,
					transactionId: httpRefundTxn,
					rawJsonBody: httpRawJsonBody,
					range: httpRange,
				});
				await importWorkflows(env, [{ workflow, id: HTTP_WORKFLOW_ID, publish: false }]);
				httpRun = await execute(env, HTTP_WORKFLOW_ID);
				const ran = Object.keys(httpRun.data.resultData.runData).filter((name) =>
					Object.values(HTTP_NODES).includes(name),
				);
				assert.equal(ran.length, Object.keys(HTTP_NODES).length, `ran: ${ran.join(', ')}`);
				return `${ran.length} HTTP Request nodes ran; the sandbox received ${sandbox.calls.length - httpCallsBefore} calls`;
			},
		);
		/** The items a case's node put out. @param {string} node */
		const httpOutput = (node) => {
			assert.ok(httpRun, 'the HTTP Request node workflow did not run');
			return outputOf(httpRun, node).map((item) => item.json);
		};
		/** The calls the sandbox received during the run, to one path. @param {string} method @param {string} endpoint */
		const httpCalls = (method, endpoint) =>
			sandbox.calls
				.slice(httpCallsBefore)
				.filter((call) => call.method === method && call.path === `/api/open/v1${endpoint}`);
		/** A call the sandbox verified: signed with the right key version and answered with code 0. @param {import('../sandbox/server').RecordedCall | undefined} call @param {'v1' | 'v2'} version */
		const assertVerified = (call, version) => {
			assert.ok(call, 'the sandbox received no such call');
			assert.deepEqual(
				[call.signature, call.keyVersion, call.code],
				['valid', version, 0],
				`sandbox saw ${JSON.stringify(call)}`,
			);
			return `${call.method} ${call.path}${call.query ? `?${call.query}` : ''} (${call.apiKey}, ${call.keyVersion}, signature ${call.signature})`;
		};
		/** @param {string} query */
		const queryOf = (query) => Object.fromEntries(new URLSearchParams(query));
		/** The sandbox's own statistics of a promoter. @param {string} userId @param {Record<string, string>} query */
		const sandboxStatistics = (userId, query) =>
			sandbox.state.readPromoter(
				PRODUCTS.videomax,
				userId,
				'statistics',
				new Map(Object.entries(query).map(([name, value]) => [name, [value]])),
			).data;

		await check(
			'HTTP Request node 4.5 + Affiliate Tracking API credential: v2 POST with a JSON body (track/refund)',
			() => {
				const [output] = httpOutput(HTTP_NODES.postJson);
				assert.equal(output.code, 0, JSON.stringify(output));
				assert.deepEqual(
					[output.data.status, output.data.transaction_id],
					['APPLIED', httpRefundTxn],
				);
				const [call, ...more] = httpCalls('POST', '/track/refund');
				assert.equal(more.length, 0, 'more than one refund call');
				const seen = assertVerified(call, 'v2');
				assert.equal(call.query, '');
				assert.deepEqual(JSON.parse(call.body), {
					transaction_id: httpRefundTxn,
					reason: 'Refunded through the HTTP Request node',
				});
				const conversion = sandbox.state.conversions.find((c) => c.transactionId === httpRefundTxn);
				assert.equal(conversion?.adjustments, 1);
				return `sandbox: ${seen} body ${call.body}; node output ${JSON.stringify(output)}`;
			},
		);

		await check(
			'HTTP Request node 4.5: v2 GET with query parameters (promoters/{id}/statistics)',
			() => {
				const [output] = httpOutput(HTTP_NODES.getQuery);
				const query = { start_date: httpRange.from, end_date: httpRange.to };
				assert.equal(output.code, 0, JSON.stringify(output));
				assert.deepEqual(output.data, sandboxStatistics('user_1001', query));
				const call = httpCalls('GET', '/promoters/user_1001/statistics').find((candidate) =>
					candidate.query.includes('end_date'),
				);
				const seen = assertVerified(call, 'v2');
				assert.deepEqual(queryOf(String(call?.query)), query);
				return `sandbox: ${seen}; node output data ${JSON.stringify(output.data)}`;
			},
		);

		await check(
			'HTTP Request node 4.5 + a v1 credential: v1 POST with a JSON body (promoter/login)',
			() => {
				const [output] = httpOutput(HTTP_NODES.postV1);
				assert.equal(output.code, 0, JSON.stringify(output));
				assert.ok(
					sandbox.state.centerTokens.has(output.data.token),
					'the token is not one the sandbox issued',
				);
				const [call] = httpCalls('POST', '/promoter/login').filter((candidate) =>
					candidate.body.includes('http_request_v1'),
				);
				const seen = assertVerified(call, 'v1');
				assert.deepEqual(JSON.parse(call.body), {
					user_id: 'http_request_v1',
					username: 'Signed with v1',
				});
				return `sandbox: ${seen} body ${call.body}; node output token ${output.data.token.slice(0, 6)}…, user_string_id ${output.data.user_string_id}`;
			},
		);

		await check(
			'HTTP Request node, requests the node never makes: query in the URL and in Query Parameters at once (4.2); a JSON body given as a raw string (4.5)',
			() => {
				const [statistics] = httpOutput(HTTP_NODES.queryInUrlAndParameters);
				const query = { start_date: httpRange.from, end_date: httpRange.to };
				assert.equal(statistics.code, 0, JSON.stringify(statistics));
				assert.deepEqual(statistics.data, sandboxStatistics('user_1002', query));
				const [mixed] = httpCalls('GET', '/promoters/user_1002/statistics');
				const seenMixed = assertVerified(mixed, 'v2');
				assert.deepEqual(queryOf(String(mixed?.query)), query);

				const [signup] = httpOutput(HTTP_NODES.rawJsonString);
				assert.equal(signup.code, 0, JSON.stringify(signup));
				assert.equal(signup.data.event_name, 'signup');
				const [raw] = httpCalls('POST', '/track/conversion').filter((candidate) =>
					candidate.body.includes(httpInvitedUser),
				);
				const seenRaw = assertVerified(raw, 'v2');
				assert.equal(raw.body, httpRawJsonBody, 'the raw body did not arrive byte for byte');
				assert.match(String(raw.contentType), /^application\/json/);
				assert.ok(
					sandbox.state.conversions.some(
						(c) => c.invitedUserId === httpInvitedUser && c.eventName === 'signup',
					),
					'the sandbox has no signup for the raw body',
				);
				return `sandbox: ${seenMixed}; ${seenRaw} body sent as written (${Buffer.byteLength(raw.body)} bytes) → conversion ${signup.data.conversion_id}`;
			},
		);

		await check('HTTP Request node v3: GET with expand=links,statistics (promoters/{id})', () => {
			const [output] = httpOutput(HTTP_NODES.version3);
			assert.equal(output.code, 0, JSON.stringify(output));
			const expected = sandbox.state.readPromoter(
				PRODUCTS.videomax,
				'user_1001',
				'get',
				new Map([['expand', ['links,statistics']]]),
			).data;
			assert.deepEqual(output.data, expected);
			const [call] = httpCalls('GET', '/promoters/user_1001');
			const seen = assertVerified(call, 'v2');
			assert.deepEqual(queryOf(String(call?.query)), { expand: 'links,statistics' });
			return `sandbox: ${seen}; node output: promoter ${output.data.external_user_id} with ${output.data.links.length} links and statistics`;
		});

		await check(
			'HTTP Request node 4.5 pagination (Update a Parameter in Each Request): two pages, each signed',
			() => {
				const pages = httpOutput(HTTP_NODES.pagination);
				const calls = httpCalls('GET', '/promoters/user_1001/statistics').filter(
					(call) => !call.query.includes('end_date'),
				);
				const starts = ['2020-01-01', httpRange.from];
				assert.equal(calls.length, 2, `calls: ${JSON.stringify(calls)}`);
				const seen = calls.map((call, index) => {
					assert.deepEqual(queryOf(call.query), { start_date: starts[index] });
					return assertVerified(call, 'v2');
				});
				assert.deepEqual(
					pages.map((page) => page.data),
					starts.map((start) => sandboxStatistics('user_1001', { start_date: start })),
				);
				return `sandbox: ${seen.join('; ')}; ${pages.length} items`;
			},
		);

		await check(
			'HTTP Request node 4.5: a multipart (Form-Data) body is refused before sending, with a clear error',
			() => {
				const [output] = httpOutput(HTTP_NODES.multipart);
				const shown = JSON.stringify(output);
				assert.ok(output.error, `no error item: ${shown}`);
				assert.match(shown, /multipart/i);
				const sent = httpCalls('POST', '/track/conversion').filter((call) =>
					/multipart/i.test(String(call.contentType)),
				);
				assert.equal(sent.length, 0, 'a multipart request reached the sandbox');
				return `error item, nothing sent to the sandbox: "${output.error.message ?? output.error}"`;
			},
		);

		const base = `http://127.0.0.1:${port}`;
		const serverLog = path.join(work, 'n8n.log');
		await check(
			'n8n start answers /healthz/readiness and serves the published webhooks',
			async () => {
				const log = fs.createWriteStream(serverLog);
				const started = Date.now();
				n8n = await startN8n(
					n8nEnvironment({
						userFolder,
						port,
						brokerPort: await freePort(),
						logLevel: 'info',
						owner: OWNER,
					}),
					{
						port,
						onOutput: (line) => log.write(`${line}\n`),
					},
				);
				const ready = Date.now();
				const webhooks = [...exampleWebhooks(), ...webhookSecurityWebhooks()];
				await waitForWebhooks(port, webhooks);
				return `ready after ${((ready - started) / 1000).toFixed(1)} s, ${webhooks.length} webhooks after ${((Date.now() - started) / 1000).toFixed(1)} s`;
			},
		);
		if (!n8n) throw new Error(`n8n did not start; its log is ${serverLog}`);

		let cookie = '';
		await check('the owner account signs in', async () => {
			cookie = await signInToRest(base, {
				emailOrLdapLoginId: OWNER.email,
				password: OWNER.password,
			});
		});

		await check(
			`n8n loaded ${NODE_TYPE}, ${TRIGGER_TYPE}, ${PAYMENT_TRIGGER_TYPE} and both credential types`,
			() => assertPackageLoaded(base, cookie),
		);

		/**
		 * A Stripe event delivered to an example's Payment Webhook Trigger, signed with the demo
		 * secret unless `signed` is false.
		 * @param {string} webhookId @param {'purchase' | 'refund'} kind
		 * @param {import('../harness/paymentSignatures').SampleFields} fields @param {boolean} [signed]
		 */
		const deliverStripe = (webhookId, kind, fields, signed = true) =>
			postStripeEvent({
				base,
				webhookPath: paymentTriggerPath(webhookId),
				kind,
				fields,
				signed,
				seen: seenOutput,
			});

		await check(
			'example a (signed Stripe webhook): repeat, not referred, partial, forged',
			async () => {
				/** @param {string} transactionId @param {{ partial?: boolean, signed?: boolean }} [options] */
				const post = (transactionId, { partial = false, signed = true } = {}) =>
					deliverStripe('payment-refunded', 'refund', { transactionId, partial }, signed);
				const repeat = await post('txn_1001');
				assert.deepEqual([repeat.status, repeat.json.status], [200, 'ALREADY_PROCESSED']);
				const unknown = await post('order_never_referred');
				assert.deepEqual(
					[unknown.status, unknown.json.reversed, unknown.json.code],
					[200, false, 1000001],
				);
				const voided = await post('txn_voided');
				assert.deepEqual([voided.status, voided.json.code], [500, 6000000]);
				const partial = await post('txn_1002', { partial: true });
				assert.equal(partial.status, 200);
				assert.match(partial.json.ignored, /Partial refund/);
				const refundsBefore = sandbox.calls.filter((call) =>
					call.path.endsWith('/track/refund'),
				).length;
				const forged = await post('txn_1002', { signed: false });
				assert.equal(forged.status, 401);
				assert.equal(
					sandbox.calls.filter((call) => call.path.endsWith('/track/refund')).length,
					refundsBefore,
					'an unsigned refund reached the sandbox',
				);
				return 'repeat → 200 ALREADY_PROCESSED; not referred → 200 code 1000001; voided → 500 code 6000000; partial → 200 ignored; unsigned → 401, no refund call';
			},
		);

		await check(
			'example h (signed Stripe webhook): a purchase delivered twice is tracked once',
			async () => {
				const transactionId = `pi_e2e_h_${Date.now().toString(36)}`;
				const fields = { transactionId, userId: 'buyer_1', amountMinor: 4900, checkout: true };
				const first = await deliverStripe('payment-succeeded', 'purchase', fields);
				assert.deepEqual(
					[first.status, first.json.status],
					[200, 'TRACKED'],
					JSON.stringify(first.json),
				);
				const again = await deliverStripe('payment-succeeded', 'purchase', fields);
				assert.deepEqual(
					[again.status, again.json.status],
					[200, 'ALREADY_TRACKED'],
					JSON.stringify(again.json),
				);
				const forged = await deliverStripe(
					'payment-succeeded',
					'purchase',
					{ ...fields, transactionId: `${transactionId}_forged` },
					false,
				);
				assert.equal(forged.status, 401);
				const recorded = sandbox.state.conversions.filter((c) =>
					c.transactionId?.startsWith(transactionId),
				);
				assert.equal(
					recorded.length,
					1,
					`the sandbox holds ${recorded.length} purchases for ${transactionId}`,
				);
				assert.equal(recorded[0].valueCents, 4900);
				return `${transactionId}: 200 TRACKED, then 200 ALREADY_TRACKED; unsigned → 401; the sandbox holds 1 purchase of 49.00`;
			},
		);

		await checkWebhookSecurity({ check, base, cookie, sandbox, seenOutput });

		await check(
			'example c (webhook): landing redirects, a used code falls back to sign-up',
			async () => {
				const issued = sandbox.state.issueAuthCode(
					PRODUCTS.photopal,
					{
						source_product_key: PRODUCTS.photopal,
						target_product_key: PRODUCTS.videomax,
						user_id: 'pp_e2e',
						extra: { name: 'Eve' },
					},
					'source_product_key',
					true,
				);
				const landing = new URL(/** @type {{ redirect_url: string }} */ (issued.data).redirect_url);
				const address = `${base}/webhook/affiliate-landing${landing.search}`;
				const first = await fetch(address, { redirect: 'manual' });
				assert.equal(first.status, 302);
				assert.equal(first.headers.get('location'), 'https://videomax.example/welcome?name=Eve');
				const again = await fetch(address, { redirect: 'manual' });
				assert.equal(again.status, 302);
				assert.equal(again.headers.get('location'), 'https://videomax.example/signup');
				return `GET ${landing.search.replace(/x_auth_code=[^&]+/, 'x_auth_code=…')} → 302 ${first.headers.get('location')}; same code again → 302 ${again.headers.get('location')}`;
			},
		);

		await check(
			'example d (Chromium): the page embeds the promoter center with a fresh token',
			async () => {
				const browser = await launchChromium(CHROMIUM);
				try {
					const page = await browser.newPage();
					const response = await page.goto(`${base}/webhook/promoter-center?user_id=user_1001`);
					assert.equal(response?.status(), 200);
					const iframe = page.locator('iframe#promoter-center');
					const src = String(await iframe.getAttribute('src'));
					assert.equal(await iframe.getAttribute('allow'), 'clipboard-write');
					const token = src.slice(`${sandbox.url}/promoter-center/iframe/`.length);
					assert.ok(
						src.startsWith(`${sandbox.url}/promoter-center/iframe/`) && token.length > 0,
						src,
					);
					assert.ok(
						sandbox.state.centerTokens.has(token),
						'the iframe token is not one the sandbox issued',
					);
					const shown = await page
						.frameLocator('iframe#promoter-center')
						.locator('#promoter')
						.textContent();
					assert.equal(shown, 'Ada');
					const screenshot = path.join(work, 'promoter-center.png');
					await page.screenshot({ path: screenshot });
					seenOutput.push(await page.content());
					return `iframe src …/promoter-center/iframe/${token.slice(0, 6)}… allow="clipboard-write", frame shows promoter "${shown}"`;
				} finally {
					await browser.close();
				}
			},
		);

		{
			const browser = await launchChromium(CHROMIUM);
			const page = await browser.newPage({ viewport: { width: 1400, height: 1150 } });
			const pictures = SCREENSHOTS_DIR ?? path.join(work, 'screenshots');
			fs.mkdirSync(pictures, { recursive: true });
			/** @type {import('./editor').Screenshot} */
			const screenshot = async (shown, name, element) => {
				seenOutput.push(await shown.content());
				await (element ?? shown).screenshot({ path: path.join(pictures, `${name}.png`) });
			};
			try {
				await check(
					'the editor (Chromium): signed in, "Affiliate" in the nodes panel lists the trigger\'s events and the 13 actions',
					async () => {
						await signIn(page, base, OWNER);
						const panel = await nodesPanel(page, base, screenshot);
						assert.deepEqual(panel.searchResults, ['Affiliate Tracking']);
						assert.deepEqual(panel.headers, { triggers: 'Triggers (2)', actions: 'Actions (13)' });
						const missing = [...ACTION_LABELS, ...TRIGGER_EVENTS].filter(
							(label) => !panel.listed.includes(label),
						);
						assert.deepEqual(missing, [], 'not listed in the nodes panel');
						return `nodes panel: ${panel.headers.triggers}, ${panel.headers.actions}: ${panel.listed.filter((label) => !/ACTIONS$/.test(label)).join(', ')}`;
					},
				);
				await check(
					"the editor: the credential dialog's test passes with the sandbox's key, and shows the service's message and remedy with a wrong secret",
					async () => {
						const credential = { baseUrl: sandbox.url, apiKey: DEMO_KEY, apiSecret: API_SECRET };
						const good = await credentialTest(
							page,
							credential,
							screenshot,
							'credential-test-success',
						);
						assert.ok(
							good.passed && good.shown.includes('Connection tested successfully'),
							good.shown.join(' | '),
						);
						const bad = await credentialTest(
							page,
							{ ...credential, apiSecret: WRONG_SECRET },
							screenshot,
							'credential-test-wrong-secret',
						);
						const expected = `Signature verification failed. ${SIGNATURE_REMEDY}`;
						assert.ok(!bad.passed && bad.shown.includes(expected), bad.shown.join(' | '));
						await closeDialogs(page);
						return `Test: "Connection tested successfully"; wrong secret: "Couldn’t connect with these settings" + "${expected}"`;
					},
				);
				await check(
					"the editor: example (a)'s canvas, and its Refund node's parameters as the README describes",
					async () => {
						const opened = await openExampleNode(page, base, example('a').id, 'Refund', screenshot);
						assert.ok(opened.names.includes('Refund') && opened.names.includes('Payment refunded'));
						for (const shown of [
							'Transaction ID',
							'Reason',
							'{{ $json.transactionId }}',
							'Full refunds only: cancels the unpaid rewards of the purchase (paid ones are kept and counted). Repeating a refund is safe: it answers ALREADY_PROCESSED and changes nothing.',
						]) {
							assert.ok(
								opened.shown.includes(shown),
								`"${shown}" not in the node view: ${opened.shown.join(' | ')}`,
							);
						}
						return `${opened.names.length} nodes on the canvas; Refund shows Transaction ID {{ $json.transactionId }}, Reason, the full-refund notice; screenshots in ${pictures}`;
					},
				);
				await check(
					'the editor: the HTTP Request node set up with Predefined Credential Type → Affiliate Tracking API',
					async () => {
						const shown = await openNode(
							page,
							base,
							HTTP_WORKFLOW_ID,
							HTTP_NODES.postJson,
							screenshot,
							'http-request-credential',
						);
						for (const expected of [
							'Predefined Credential Type',
							'Affiliate Tracking API',
							DEMO_CREDENTIAL.name,
						]) {
							assert.ok(
								shown.includes(expected),
								`"${expected}" not in the node view: ${shown.join(' | ')}`,
							);
						}
						return `the HTTP Request node shows Authentication "Predefined Credential Type", Credential Type "Affiliate Tracking API", credential "${DEMO_CREDENTIAL.name}"`;
					},
				);
			} finally {
				await browser.close();
			}
		}

		await check(
			"example e (AI agent): the model's tool call runs the node, whose figures reach the reply",
			async () => {
				const chat = readExample(example('e').file).nodes.find((node) =>
					node.type.endsWith('.chatTrigger'),
				);
				assert.ok(chat, 'example (e) has no chat trigger');
				const { promoter, text, reply } = await askAgentAboutNewPromoter(
					sandbox,
					PRODUCTS.videomax,
					`${base}/webhook/${chat.webhookId}/chat`,
					'e2e-session',
				);
				seenOutput.push(text);
				// The model was offered both tools, and called the statistics one for the promoter asked about.
				const [first, second] = model.requests;
				const offered = (first?.tools ?? []).map((tool) => tool.function.name).sort();
				assert.deepEqual(offered, ['Get_Promoter', 'Get_Promoter_Statistics']);
				const call = second?.messages.find((message) => message.tool_calls)?.tool_calls?.[0];
				assert.equal(call?.function.name, 'Get_Promoter_Statistics');
				assert.deepEqual(JSON.parse(String(call?.function.arguments)), {
					userId: promoter,
					startDate: '2020-01-01',
					endDate: '2030-12-31',
				});
				// The node ran with the model's arguments, and the reply carries the sandbox's figures.
				const read = assertReplyFromSandbox(sandbox, PRODUCTS.videomax, promoter, reply);
				return `e2e e: tools offered ${offered.join(', ')}; model called ${call?.function.name}(${call?.function.arguments}); node read ${read}; reply "${reply}"`;
			},
		);

		await check(
			'example g (MCP): a real MCP client (@modelcontextprotocol/sdk) lists the tools and calls Get Promoter Statistics',
			async () => {
				const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
				const {
					StreamableHTTPClientTransport,
				} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
				const trigger = readExample(example('g').file).nodes.find((node) =>
					String(node.type).endsWith('.mcpTrigger'),
				);
				const endpoint = new URL(`${base}/mcp/${trigger?.parameters.path}`);
				// Without the example's bearer token the server answers nothing.
				const anonymous = await fetch(endpoint, {
					method: 'POST',
					headers: {
						'Content-Type': 'application/json',
						Accept: 'application/json, text/event-stream',
					},
					body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
				});
				seenOutput.push(await anonymous.text());
				assert.equal(anonymous.status, 403, 'the MCP endpoint answered without the bearer token');
				// A promoter of its own, with figures the client has to bring back.
				const [promoter] = sandbox.state.addPromoters(PRODUCTS.videomax, 1, 'mcp_asked');
				sandbox.state.addActivity(PRODUCTS.videomax, promoter, { clicks: 4, payingCustomers: 2 });
				const callsBefore = sandbox.calls.length;
				const client = new Client({ name: 'e2e-mcp-client', version: '1.0.0' });
				const transport = new StreamableHTTPClientTransport(endpoint, {
					requestInit: { headers: { Authorization: `Bearer ${MCP_DEMO_TOKEN}` } },
				});
				await client.connect(transport);
				try {
					const { tools } = await client.listTools();
					seenOutput.push(JSON.stringify(tools));
					const listed = tools.map(
						(tool) => `${tool.name}(${Object.keys(tool.inputSchema.properties ?? {}).join(', ')})`,
					);
					assert.deepEqual(tools.map((tool) => tool.name).sort(), [
						'Get_Promoter',
						'Get_Promoter_Statistics',
					]);
					const range = { startDate: '2020-01-01', endDate: monthToDateUtc8().to };
					const result = await client.callTool({
						name: 'Get_Promoter_Statistics',
						arguments: { userId: promoter, ...range },
					});
					const text = JSON.stringify(result);
					seenOutput.push(text);
					assert.ok(!result.isError, `the tool call failed: ${text}`);
					const content = /** @type {{ type: string, text?: string }[]} */ (result.content);
					/** @type {unknown} */
					const answered = JSON.parse(content.map((part) => part.text ?? '').join(''));
					const [figures] = /** @type {Record<string, unknown>[]} */ (
						Array.isArray(answered) ? answered : [answered]
					);
					const expected = sandbox.state.readPromoter(
						PRODUCTS.videomax,
						promoter,
						'statistics',
						new Map([
							['start_date', [range.startDate]],
							['end_date', [range.endDate]],
						]),
					).data;
					assert.deepEqual(figures, expected);
					const reads = sandbox.calls
						.slice(callsBefore)
						.filter((call) => call.path.includes(`/promoters/${promoter}`));
					assert.equal(reads.length, 1, `reads: ${JSON.stringify(reads)}`);
					assert.deepEqual(
						[reads[0].path, reads[0].signature, reads[0].keyVersion, reads[0].code],
						[`/api/open/v1/promoters/${promoter}/statistics`, 'valid', 'v2', 0],
					);
					return `MCP (Streamable HTTP ${endpoint.pathname}, bearer token; 403 without) tools/list → ${listed.join('; ')}; tools/call Get_Promoter_Statistics(${promoter}) → ${JSON.stringify(figures)}`;
				} finally {
					await client.close();
				}
			},
		);

		await check(
			'example f (active trigger, polling every minute): a new paying customer becomes a chat message',
			async () => {
				const { parse } = require(path.join(E2E_MODULES, 'flatted'));
				const workflowId = example('f').id;
				const promoter = 'user_1002';
				/** @param {string} route */
				const rest = async (route) => {
					const answer = await fetch(`${base}/rest/${route}`, { headers: { cookie } });
					assert.equal(answer.status, 200, `/rest/${route}: ${answer.status}`);
					return /** @type {any} */ (await answer.json()).data;
				};
				const executions = async () =>
					/** @type {{ id: string, status: string }[]} */ (
						(await rest(`executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`))
							.results
					);
				const pollsSeen = () =>
					sandbox.log.filter((entry) => entry.path.endsWith(`/promoters/${promoter}/statistics`))
						.length;
				// The first poll after activation only records the figures: after each poll the sandbox
				// gets one more paying customer, until a poll has turned one into an execution.
				const deadline = Date.now() + 200_000;
				const pollsBefore = pollsSeen();
				let polls = pollsBefore;
				let added = 0;
				const payingCustomers = () =>
					/** @type {{ data: { paying_customers: number } }} */ (
						sandbox.state.readPromoter(PRODUCTS.videomax, promoter, 'statistics', new Map())
					).data.paying_customers;
				// The totals each poll could have read: a poll that emits may show in n8n's executions
				// list only after the next customer was added.
				const totalsSeen = [payingCustomers()];
				while ((await executions()).length === 0) {
					assert.ok(Date.now() < deadline, `no execution after ${added} paying customers added`);
					if (pollsSeen() > polls) {
						polls = pollsSeen();
						// Let n8n store what the poll recorded before the figures move on.
						await new Promise((resolve) => setTimeout(resolve, 2000));
						sandbox.state.addActivity(PRODUCTS.videomax, promoter, { payingCustomers: 1 });
						totalsSeen.push(payingCustomers());
						added++;
					}
					await new Promise((resolve) => setTimeout(resolve, 1000));
				}
				let [execution] = await executions();
				while (execution.status === 'running' || execution.status === 'new') {
					await new Promise((resolve) => setTimeout(resolve, 500));
					[execution] = await executions();
				}
				assert.equal(execution.status, 'success');
				const run = parse((await rest(`executions/${execution.id}`)).data);
				const trigger = run.resultData.runData['New paying customers'][0].data.main[0];
				const messages = run.resultData.runData['Chat message'][0].data.main[0];
				seenOutput.push(JSON.stringify(run));
				assert.equal(trigger.length, 1);
				assert.equal(trigger[0].json.user_id, promoter);
				const total = trigger[0].json.paying_customers;
				assert.ok(
					totalsSeen.slice(1).includes(total),
					`the trigger reported ${total} paying customers; the sandbox had ${totalsSeen.join(', ')}`,
				);
				const increase = trigger[0].json.increase.paying_customers;
				assert.ok(increase >= 1 && increase <= added, `increase ${increase}, added ${added}`);
				const text = messages[0].json.text;
				assert.match(text, new RegExp(`for promoter ${promoter}: \\+${increase}, ${total} in all`));
				return `e2e f: ${polls - pollsBefore} polls seen, ${added} paying customer(s) added after them → execution ${execution.id}: trigger item ${JSON.stringify(trigger[0].json)} → "${text}"`;
			},
		);

		await check('the API secrets (v2 and v1) appear in no output, response, log or request', () => {
			seenOutput.push(fs.readFileSync(serverLog, 'utf8'));
			// What the sandbox received (paths, queries, bodies) as well: a secret must never be sent.
			seenOutput.push(JSON.stringify(sandbox.calls));
			const leaks = seenOutput.filter((text) => SECRETS.some((secret) => text.includes(secret)));
			assert.equal(
				leaks.length,
				0,
				`${leaks.length} of ${seenOutput.length} outputs contain an API secret`,
			);
			return `${seenOutput.length} outputs scanned for ${SECRETS.length} secrets`;
		});
	} finally {
		if (n8n) await stopProcess(n8n);
		await sandbox.stop();
		await model.stop();
		if (counts.failed === 0) fs.rmSync(work, { recursive: true, force: true });
		else console.log(`Kept ${work} for inspection (user folder, n8n.log).`);
	}
	console.log(`E2E took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}

main().catch(abort).finally(finish);
