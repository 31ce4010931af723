// @ts-check
'use strict';
/**
 * test:e2e, every door the examples open to the internet. Every example is imported as shipped
 * and published (examples (i) and (j), which the demo leaves out, by `doorsWorkflows`); each public entry
 * point (Webhook, Chat Trigger, MCP Server Trigger, Form Trigger, Payment Webhook Trigger) is
 * called as a stranger would: no credentials, another person's user ID in the query and the body.
 * A door is shut when that call reaches no API endpoint (the sandbox's records; the relay
 * landing's exchange of a code it never issued aside), no model (the scripted model's log), and
 * answers nothing only a promoter should see. Then example (d)'s promoter center for the token's
 * user only (e2e/promoterCenterChecks.js), a brand page on loopback that embeds it, opened in
 * Chromium, and n8n's database read for the promoter-center tokens the embeds got. Prints
 * `DOORS: <n> public entry points in <m> examples, <n> shut to strangers; promoter center for
 * the token's user only: yes|no`.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const {
	PAYMENT_TRIGGER_TYPE,
	ROOT_DIR,
	paymentTriggerPath,
	paymentTriggerUrl,
	readExample,
} = require('../../support/n8n/n8nDemoData');
const { sleep, waitUntil } = require('../../support/services/processes');
const { scenario } = require('../../support/scenarios');
const {
	checkPromoterCenterDoors,
	claimsFor,
	forge,
	OTHER_USER,
} = require('../promoterCenterChecks');
const { promoterCenterLink } = require('../../scripts/promoter-center-link');
const { embedChecks } = require('./embed');
const { promotersToReport } = require('./report');

/** The node types that open a door to the internet, by the name n8n's panel gives them. */
const ENTRY_POINTS = {
	'n8n-nodes-base.webhook': 'Webhook',
	'@n8n/n8n-nodes-langchain.chatTrigger': 'Chat Trigger',
	'@n8n/n8n-nodes-langchain.mcpTrigger': 'MCP Server Trigger',
	'n8n-nodes-base.formTrigger': 'Form Trigger',
	[PAYMENT_TRIGGER_TYPE]: 'Payment Webhook Trigger',
};
/** Examples (i) and (j), which npm start and the demo leave out: imported here under these ids. */
const QUEUE_EXAMPLES = [
	{ file: 'i-purchase-claim-queue-mode.json', id: 'doorsPurchaseClaim' },
	{ file: 'j-refund-ledger-queue-mode.json', id: 'doorsRefundLedger1' },
];
/**
 * Example (d) as shipped but for its Data Table write, which names a table that does not exist: an
 * embed whose write fails after the answer (e2e/topics/embed.js's "nothing kept" check).
 */
const FAILING_TABLE = {
	id: 'doorsPromoterFailing',
	path: 'promoter-center-failing-table',
	table: 'No such table (a failing write)',
};
/**
 * Example (d) with HS256, the documented alternative: its own credential, whose secret is 32
 * random bytes made for this run and used for nothing else.
 */
const HS256_VARIANT = {
	id: 'doorsPromoterHs256',
	path: 'promoter-center-hs256',
	credential: { id: 'doorsPromoterHs256', name: 'Promoter center sign-in (HS256)' },
	secret: crypto.randomBytes(32).toString('base64'),
};
/** The relay landing exchanges whatever code it is given: that call is the one allowed. */
const EXCHANGE_PATH = '/oauth/getUserByAuthorizationCode';

/** @typedef {{ file: string, node: string, type: string, call: (base: string) => Promise<Response> }} Door */

/** Example (d) with its Data Table write failing, at FAILING_TABLE's paths. */
function failingTableExample() {
	const workflow = readExample('d-promoter-center-embed.json');
	workflow.name = `${workflow.name} (its Data Table write failing)`;
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.webhook') {
			node.parameters.path = `${FAILING_TABLE.path}${node.parameters.httpMethod === 'POST' ? '-login' : ''}`;
			node.webhookId = `${node.webhookId.slice(0, -12)}${'f'.repeat(12)}`;
		}
		if (node.name === 'Add to Promoters to report')
			node.parameters.dataTableId = { __rl: true, mode: 'name', value: FAILING_TABLE.table };
	}
	return workflow;
}

/** Example (d) with HS256_VARIANT's credential, at its paths. */
function hs256Example() {
	const workflow = readExample('d-promoter-center-embed.json');
	workflow.name = `${workflow.name} (HS256)`;
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.webhook') {
			node.parameters.path = `${HS256_VARIANT.path}${node.parameters.httpMethod === 'POST' ? '-login' : ''}`;
			node.webhookId = `${node.webhookId.slice(0, -12)}${'e'.repeat(12)}`;
		}
		if (node.credentials?.jwtAuth) node.credentials.jwtAuth = { ...HS256_VARIANT.credential };
	}
	return workflow;
}

/**
 * Examples (i) and (j) as shipped, published, and a PostgreSQL credential of the name their nodes
 * use that points at a closed port (the stranger's call must never get that far).
 */
function doorsWorkflows() {
	const queueExamples = QUEUE_EXAMPLES.map(({ file, id }) => ({
		workflow: readExample(file),
		id,
		publish: true,
	}));
	const postgres = queueExamples[0].workflow.nodes.find((node) => node.credentials?.postgres)
		?.credentials.postgres;
	return {
		workflows: [
			...queueExamples,
			{ workflow: failingTableExample(), id: FAILING_TABLE.id, publish: true },
			{ workflow: hs256Example(), id: HS256_VARIANT.id, publish: true },
		],
		credentials: [
			{
				...HS256_VARIANT.credential,
				type: 'jwtAuth',
				data: { keyType: 'passphrase', secret: HS256_VARIANT.secret, algorithm: 'HS256' },
			},
			{
				...postgres,
				type: 'postgres',
				data: {
					host: '127.0.0.1',
					port: 9,
					database: 'closed',
					user: 'closed',
					password: 'closed',
				},
			},
		],
	};
}

/** Example (i)'s webhook and the failing-write (d)'s link, for n8n's start to wait for. */
function doorsWebhooks() {
	return [
		...QUEUE_EXAMPLES.flatMap(({ file }) =>
			readExample(file).nodes.flatMap((node) =>
				node.type === PAYMENT_TRIGGER_TYPE && node.webhookId
					? [{ method: 'POST', path: paymentTriggerPath(node.webhookId) }]
					: [],
			),
		),
		{ method: 'GET', path: FAILING_TABLE.path },
		{ method: 'GET', path: HS256_VARIANT.path },
	];
}

/** A body that names someone else, as a stranger would send it. */
const strangerBody = () => ({ user_id: OTHER_USER, userId: OTHER_USER });

/**
 * The stranger's call to one entry point.
 * @param {Record<string, any>} node @returns {(base: string) => Promise<Response>}
 */
function strangerCall(node) {
	const json = { 'Content-Type': 'application/json' };
	const query = `user_id=${OTHER_USER}`;
	/** @param {string} address @param {RequestInit} init */
	const send = (address, init) =>
		fetch(address, { redirect: 'manual', signal: AbortSignal.timeout(60_000), ...init });
	switch (node.type) {
		case 'n8n-nodes-base.webhook': {
			const method = node.parameters.httpMethod ?? 'GET';
			return (base) =>
				send(`${base}/webhook/${node.parameters.path}?${query}`, {
					method,
					...(method === 'GET' ? {} : { headers: json, body: JSON.stringify(strangerBody()) }),
				});
		}
		case '@n8n/n8n-nodes-langchain.chatTrigger':
			// A made-up n8n session cookie as well: the chat must check more than its presence.
			return (base) =>
				send(`${base}/webhook/${node.webhookId}/chat?${query}`, {
					method: 'POST',
					headers: { ...json, Cookie: 'n8n-auth=made-up' },
					body: JSON.stringify({
						...strangerBody(),
						action: 'sendMessage',
						sessionId: 'stranger',
						chatInput: `How is promoter ${OTHER_USER} doing?`,
					}),
				});
		case '@n8n/n8n-nodes-langchain.mcpTrigger':
			return (base) =>
				send(`${base}/mcp/${node.parameters.path}?${query}`, {
					method: 'POST',
					headers: { ...json, Accept: 'application/json, text/event-stream' },
					body: JSON.stringify({
						jsonrpc: '2.0',
						id: 1,
						method: 'tools/call',
						params: { name: 'Get_Promoter', arguments: strangerBody() },
					}),
				});
		case PAYMENT_TRIGGER_TYPE:
			// A Stripe-shaped purchase for someone else, unsigned.
			return (base) =>
				send(`${paymentTriggerUrl(base, node.webhookId)}?${query}`, {
					method: 'POST',
					headers: json,
					body: JSON.stringify({
						...strangerBody(),
						id: 'evt_stranger',
						type: 'checkout.session.completed',
						data: { object: { client_reference_id: OTHER_USER, metadata: strangerBody() } },
					}),
				});
		default:
			throw new Error(
				`no stranger's call for ${node.type} (${ENTRY_POINTS[node.type] ?? 'unknown'}): add one`,
			);
	}
}

/** Every public entry point of every example as shipped. @returns {Door[]} */
function examplesDoors() {
	const files = fs
		.readdirSync(path.join(ROOT_DIR, 'examples'))
		.filter((file) => file.endsWith('.json'))
		.sort();
	return files.flatMap((file) =>
		readExample(file)
			.nodes.filter((node) => node.type in ENTRY_POINTS)
			.map((node) => ({ file, node: node.name, type: node.type, call: strangerCall(node) })),
	);
}

/**
 * What only a promoter should see: the sandbox's address (every promoter-center address starts
 * with it), the promoter-center tokens it issued, the promoters' referral codes and names.
 * @param {import('../../sandbox/server').Sandbox} sandbox
 */
function promoterOnly(sandbox) {
	const promoters = [...sandbox.state.promoters.values()];
	return [
		sandbox.url,
		...sandbox.state.centerTokens.keys(),
		...promoters.flatMap((promoter) => [promoter.referralCode, promoter.username]),
	].filter(/** @returns {text is string} */ (text) => typeof text === 'string' && text.length > 0);
}

/**
 * Example (f)'s trigger reads the sandbox every minute on its own. The strangers' calls start just
 * after one of its polls, so that none of its reads falls among them.
 * @param {import('../../sandbox/server').Sandbox} sandbox
 */
async function afterAPoll(sandbox) {
	const polls = () => sandbox.calls.filter((call) => call.path.endsWith('/statistics')).length;
	const before = polls();
	await waitUntil(() => polls() > before, {
		timeoutMs: 90_000,
		intervalMs: 200,
		what: "example (f)'s next poll",
	});
	// A poll reads each watched promoter in turn.
	await sleep(2000);
}

/** @param {import('./context').Started} context */
async function doorsChecks(context) {
	const { check, sandbox, model, base, seenOutput } = context;
	const doors = examplesDoors();
	const tokensBefore = new Set(sandbox.state.centerTokens.keys());
	const examples = new Set(doors.map((door) => door.file));
	let shut = 0;
	await afterAPoll(sandbox);
	for (const door of doors) {
		await check(
			`${door.file.replace(/\.json$/, '')}, ${ENTRY_POINTS[door.type]} "${door.node}" (no credentials, ${OTHER_USER} in the query and body): ${scenario('doors.strangers')}`,
			async () => {
				const callsBefore = sandbox.calls.length;
				const modelBefore = model.requests.length;
				const answer = await door.call(base);
				const text = await answer.text();
				seenOutput.push(text);
				await sleep(500);
				const calls = sandbox.calls
					.slice(callsBefore)
					.filter((call) => !call.path.endsWith(EXCHANGE_PATH));
				assert.deepEqual(
					calls.map((call) => call.path),
					[],
					'the stranger reached the API',
				);
				assert.equal(model.requests.length - modelBefore, 0, 'the stranger reached the model');
				const shown = promoterOnly(sandbox).filter((secret) => text.includes(secret));
				assert.equal(shown.length, 0, `the answer shows what only a promoter should see: ${text}`);
				shut++;
				const location = answer.headers.get('location');
				return `${answer.status}${location ? ` → ${location}` : ''} ${text.slice(0, 80).replace(/\s+/g, ' ')}`;
			},
		);
	}

	const opened = await checkPromoterCenterDoors({
		check,
		base,
		sandbox,
		seen: seenOutput,
		inPromotersTable: async (userIds) =>
			(await promotersToReport(context)).filter((userId) => userIds.includes(userId)),
	});
	let hs256 = false;
	await check(
		'example d with HS256, the documented alternative (32 random bytes): a token signed with its secret opens the promoter center, one signed with another secret does not',
		async () => {
			const user = `doors_hs256_${Date.now().toString(36)}`;
			const link = (/** @type {string} */ token) =>
				promoterCenterLink(base, token).replace(
					'/webhook/promoter-center?',
					`/webhook/${HS256_VARIANT.path}?`,
				);
			const open = async (/** @type {string} */ token) => {
				const answer = await fetch(link(token), {
					redirect: 'manual',
					signal: AbortSignal.timeout(60_000),
				});
				seenOutput.push(await answer.text());
				return answer;
			};
			const logins = () =>
				sandbox.calls.filter((call) => call.path.endsWith('/promoter/login')).length;
			const passing = await open(
				forge(claimsFor(user), { alg: 'HS256', key: HS256_VARIANT.secret }),
			);
			assert.equal(passing.status, 302, `the HS256 token: ${passing.status}`);
			const location = passing.headers.get('location') ?? '';
			const prefix = `${sandbox.url}/promoter-center/iframe/`;
			assert.equal(sandbox.state.centerTokens.get(location.slice(prefix.length))?.userId, user);
			const before = logins();
			const forged = await open(
				forge(claimsFor(user), { alg: 'HS256', key: crypto.randomBytes(32).toString('base64') }),
			);
			assert.ok([401, 403].includes(forged.status), `the forged HS256 token: ${forged.status}`);
			assert.equal(logins() - before, 0, 'the forged token ran Promoter Login');
			hs256 = true;
			return `signed with its secret → 302 for ${user}; another secret → ${forged.status}, no Promoter Login`;
		},
	);
	const embedded = await embedChecks(context, tokensBefore, FAILING_TABLE);
	const onlyTheTokensUser = opened.length === 2 && embedded && hs256;
	console.log(
		`DOORS: ${doors.length} public entry points in ${examples.size} examples, ${shut} shut to strangers; promoter center for the token's user only: ${onlyTheTokensUser ? 'yes' : 'no'}`,
	);
}

module.exports = { HS256_VARIANT, doorsChecks, doorsWebhooks, doorsWorkflows };
