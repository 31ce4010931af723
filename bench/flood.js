// @ts-check
'use strict';
/**
 * `npm run bench:flood`: what a flood of forged payment webhooks costs a running n8n 2.41.1, per
 * receiver and per expression-engine setting, and how valid deliveries fare meanwhile. For each
 * setting n8n 2.41.1 offers (`vm`, its default; `vm` with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true; N8N_EXPRESSION_ENGINE=legacy) one n8n main (regular
 * mode, SQLite, its own user folder, the package installed as a community package) serves four
 * published workflows, each a receiver followed by a NoOp node:
 *   a. the Payment Webhook Trigger, provider Stripe, at version 2, and the same at version 1
 *      (n8n evaluates a version-1 start node's `binaryData` option as an expression on every
 *      delivery: `parseRequestBody` in n8n/dist/webhooks/webhook-helpers.js);
 *   b. n8n's Stripe Trigger with its credential's Signature Secret;
 *   c. n8n's Webhook node (version 2, static parameters) with Header Auth.
 * A forged delivery is a Stripe-style `Stripe-Signature` header signed with a wrong secret for
 * (a) and (b), a wrong header token for (c); each must be refused (401, the Webhook node 403),
 * or the run fails. Accepted deliveries are a Stripe `checkout.session.completed` event signed
 * with the stripe SDK to (a), the right token to (c); each must get 2xx.
 *
 * The Stripe Trigger's activation (`webhookMethods.checkExists`/`create`) calls api.stripe.com,
 * which this machine cannot reach. n8n 2.41.1's publication service (on by default) does not run
 * them again for a published workflow whose recorded published version is the active one and
 * whose webhook is registered in its database: that is the state n8n keeps after it created the
 * endpoint at Stripe. `registeredStripeEndpoint` writes those two rows (workflow_published_version,
 * webhook_entity) into the user folder's SQLite before n8n starts; n8n's files are untouched.
 *
 * Per engine: a warm-up; then BENCH_FLOOD_ROUNDS rounds, each a block of forged deliveries to
 * every receiver (in turn, the order reversed every other round, so that the machine's other load
 * falls on all alike) and a block of accepted deliveries to (a) version 2 and (c); n8n's CPU (its
 * process tree: main and task runner) read before each block and after n8n has gone quiet again.
 * Then the flood with valid deliveries: forged deliveries to (a) version 2 at full rate while
 * BENCH_FLOOD_VALID valid ones go to the same trigger (paced, BENCH_FLOOD_VALID_PER_SECOND, at
 * most 5 in flight), the flood lasting until the last valid one is answered; and the same through
 * nginx with `limit_req` (support/services/nginx.js), the forged deliveries from 127.0.0.3 and the valid
 * ones from 127.0.0.2, first the forged deliveries alone, then with the valid ones.
 *
 * Environment: BENCH_FLOOD_FORGED (default 300 forged deliveries per receiver and engine,
 * split over the rounds), BENCH_FLOOD_ROUNDS (3), BENCH_FLOOD_IN_FLIGHT (20), BENCH_FLOOD_ACCEPTED
 * (150 accepted deliveries per receiver and engine, split over the rounds), BENCH_FLOOD_VALID
 * (100), BENCH_FLOOD_VALID_PER_SECOND (10), BENCH_FLOOD_RATE_LIMIT (nginx's `perSecond,burst`,
 * default 20,40), BENCH_FLOOD_ENGINES (default "vm,lazy,legacy").
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const {
	N8N_VERSION,
	defaultReleaseNode,
	importCredentials,
	importWorkflows,
	installDefaultRelease,
	installPackedPackage,
	n8nEnvironment,
	startN8nServing,
} = require('../support/n8n/n8nInstance');
const {
	PAYMENT_TRIGGER_TYPE,
	SIGNING_CREDENTIALS,
	paymentTriggerPath,
	signingCredential,
} = require('../support/n8n/n8nDemoData');
const {
	TEST_SIGNING_SECRETS,
	sampleEvent,
	signDelivery,
} = require('../support/payment/paymentSignatures');
const { DEFAULT_RATE_LIMIT, startNginx } = require('../support/services/nginx');
const {
	freePort,
	processTreeCpuSeconds,
	runOrThrow,
	sleep,
	stopProcess,
} = require('../support/services/processes');
const { percentile } = require('../sandbox/server');
const { fmt, median, medianAndRange, ratioLine, rounds } = require('../support/statistics');

const FORGED = Number(process.env.BENCH_FLOOD_FORGED ?? 300);
const ROUNDS = Number(process.env.BENCH_FLOOD_ROUNDS ?? 3);
const IN_FLIGHT = Number(process.env.BENCH_FLOOD_IN_FLIGHT ?? 20);
const ACCEPTED = Number(process.env.BENCH_FLOOD_ACCEPTED ?? 150);
const VALID = Number(process.env.BENCH_FLOOD_VALID ?? 100);
const VALID_PER_SECOND = Number(process.env.BENCH_FLOOD_VALID_PER_SECOND ?? 10);
const VALID_IN_FLIGHT = 5;
const [LIMIT_PER_SECOND, LIMIT_BURST] = (
	process.env.BENCH_FLOOD_RATE_LIMIT ??
	`${DEFAULT_RATE_LIMIT.perSecond},${DEFAULT_RATE_LIMIT.burst}`
)
	.split(',')
	.map(Number);
const RATE_LIMIT = { perSecond: LIMIT_PER_SECOND, burst: LIMIT_BURST };
/** Deliveries of each kind to each receiver before the measured rounds (first runs, JIT). */
const WARM_UP = 20;
/** The flood's source address and the provider's, for nginx's per-address limit. */
const ATTACKER_ADDRESS = '127.0.0.3';
const PROVIDER_ADDRESS = '127.0.0.2';
/** n8n is quiet again when its processes used at most one clock tick in this long. */
const QUIET_MS = 300;

/**
 * @typedef {{ key: 'vm' | 'lazy' | 'legacy', label: string, env: Record<string, string> }} Engine
 * @typedef {{ body: string, headers: Record<string, string> }} Delivery
 * @typedef {{ key: 'trigger2' | 'trigger1' | 'stripe' | 'webhook', name: string, path: string, refusal: number, forged: () => Delivery, valid?: () => Delivery }} Receiver
 * @typedef {{ status: number, ms: number }} Answer
 */

/** @type {Engine[]} */
const ALL_ENGINES = [
	{ key: 'vm', label: '`vm` (default)', env: {} },
	{
		key: 'lazy',
		label: '`vm` + lazy acquire',
		env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
	},
	{ key: 'legacy', label: '`legacy`', env: { N8N_EXPRESSION_ENGINE: 'legacy' } },
];
const ENGINE_KEYS = (process.env.BENCH_FLOOD_ENGINES ?? 'vm,lazy,legacy').split(',');
const ENGINES = ALL_ENGINES.filter((engine) => ENGINE_KEYS.includes(engine.key));

const STRIPE_SECRET = TEST_SIGNING_SECRETS.stripe;
const STRIPE_CREDENTIAL = { id: 'floodStripeApi01', name: 'Stripe (flood bench)' };
const HEADER_CREDENTIAL = { id: 'floodHeaderAuth1', name: 'Webhook header token (flood bench)' };
const HEADER_NAME = 'X-Webhook-Token';
const HEADER_TOKEN = 'flood-bench-token-for-the-local-n8n-only';

let sequence = 0;
/** A Stripe `checkout.session.completed` event, as text, with a new transaction ID. */
function purchaseBody() {
	sequence++;
	return JSON.stringify(
		sampleEvent('stripe', 'purchase', {
			transactionId: `pi_flood_${sequence}`,
			userId: `buyer_${sequence}`,
			amountMinor: 4990,
			eventId: `evt_flood_${sequence}`,
			checkout: true,
		}),
	);
}
/** Signed with the endpoint's secret by the stripe SDK, now. @returns {Delivery} */
function signedPurchase() {
	const body = purchaseBody();
	return { body, headers: signDelivery('stripe', body, STRIPE_SECRET) };
}
/** A well-formed Stripe-Signature header made with a guessed secret. @returns {Delivery} */
function forgedPurchase() {
	const body = purchaseBody();
	return { body, headers: signDelivery('stripe', body, `${STRIPE_SECRET}_guessed`) };
}

/**
 * The four workflows, each a receiver and a NoOp node, with their receivers.
 * @returns {{ workflows: { workflow: object, id: string, publish: boolean }[], receivers: Receiver[], stripe: { workflowId: string, node: string, path: string } }}
 */
function benchWorkflows() {
	/** @param {string} id @param {string} name @param {Record<string, unknown>} receiver */
	const workflow = (id, name, receiver) => ({
		id,
		publish: true,
		workflow: {
			name,
			nodes: [
				{ position: [0, 0], ...receiver },
				{
					id: `${id}-noop`,
					name: 'No Operation, do nothing',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [220, 0],
					parameters: {},
				},
			],
			connections: {
				[String(receiver.name)]: {
					main: [[{ node: 'No Operation, do nothing', type: 'main', index: 0 }]],
				},
			},
			settings: { executionOrder: 'v1' },
		},
	});
	/** @param {number} version @param {string} webhookId */
	const paymentTrigger = (version, webhookId) => ({
		id: `flood-payment-trigger-v${version}`,
		name: 'Payment Webhook Trigger',
		type: PAYMENT_TRIGGER_TYPE,
		typeVersion: version,
		webhookId,
		parameters: {
			provider: 'stripe',
			events: ['checkout.session.completed'],
			responseMode: 'onReceived',
			options: {},
		},
		credentials: { paymentWebhookSigningApi: SIGNING_CREDENTIALS.stripe },
	});
	const ids = {
		trigger2: '6f1d0c3e-2a4b-4c5d-8e9f-f100d0000002',
		trigger1: '6f1d0c3e-2a4b-4c5d-8e9f-f100d0000001',
		stripe: '6f1d0c3e-2a4b-4c5d-8e9f-f100d000000b',
		webhook: '6f1d0c3e-2a4b-4c5d-8e9f-f100d000000c',
	};
	const webhookPath = 'flood-webhook-node';
	const workflows = [
		workflow(
			'floodTriggerV2',
			'Flood: Payment Webhook Trigger v2',
			paymentTrigger(2, ids.trigger2),
		),
		workflow(
			'floodTriggerV1',
			'Flood: Payment Webhook Trigger v1',
			paymentTrigger(1, ids.trigger1),
		),
		workflow('floodStripeTrig1', "Flood: n8n's Stripe Trigger", {
			id: 'flood-stripe-trigger',
			name: 'Stripe Trigger',
			type: 'n8n-nodes-base.stripeTrigger',
			typeVersion: 1,
			webhookId: ids.stripe,
			parameters: { events: ['*'] },
			credentials: { stripeApi: STRIPE_CREDENTIAL },
		}),
		workflow('floodWebhookNode', "Flood: n8n's Webhook node, Header Auth", {
			id: 'flood-webhook-node',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: ids.webhook,
			parameters: {
				httpMethod: 'POST',
				path: webhookPath,
				authentication: 'headerAuth',
				responseMode: 'onReceived',
				options: {},
			},
			credentials: { httpHeaderAuth: HEADER_CREDENTIAL },
		}),
	];
	/** @param {string} body @param {string} token @returns {Delivery} */
	const withToken = (body, token) => ({ body, headers: { [HEADER_NAME]: token } });
	/** @type {Receiver[]} */
	const receivers = [
		{
			key: 'trigger2',
			name: 'Payment Webhook Trigger v2',
			path: paymentTriggerPath(ids.trigger2),
			refusal: 401,
			forged: forgedPurchase,
			valid: signedPurchase,
		},
		{
			key: 'trigger1',
			name: 'Payment Webhook Trigger v1',
			path: paymentTriggerPath(ids.trigger1),
			refusal: 401,
			forged: forgedPurchase,
		},
		{
			key: 'stripe',
			name: "n8n's Stripe Trigger",
			path: `${ids.stripe}/webhook`,
			refusal: 401,
			forged: forgedPurchase,
		},
		{
			key: 'webhook',
			name: "n8n's Webhook node (v2, Header Auth)",
			path: webhookPath,
			refusal: 403,
			forged: () => withToken(purchaseBody(), `${HEADER_TOKEN}-guessed`),
			valid: () => withToken(purchaseBody(), HEADER_TOKEN),
		},
	];
	return {
		workflows,
		receivers,
		stripe: {
			workflowId: 'floodStripeTrig1',
			node: 'Stripe Trigger',
			path: `${ids.stripe}/webhook`,
		},
	};
}

/**
 * Writes into the user folder's SQLite (n8n stopped) what n8n 2.41.1 keeps once it has created a
 * published Stripe Trigger's endpoint at Stripe: the published version (the active one) and the
 * registered webhook. Its publication service then finds nothing to activate at start
 * (workflow-publication-applier.js: an empty trigger diff and no unregistered webhook) and calls
 * no webhookMethods; the trigger checks deliveries with its credential's Signature Secret (no
 * secret in its static data). Run with the release's Node 24 (node:sqlite).
 * @param {string} userFolder @param {{ workflowId: string, node: string, path: string }} stripe
 */
function registeredStripeEndpoint(userFolder, { workflowId, node, path: webhookPath }) {
	const script = `
const { DatabaseSync } = require('node:sqlite');
const [database, workflowId, node, webhookPath] = process.argv.slice(1);
const db = new DatabaseSync(database);
const { activeVersionId } = db.prepare('SELECT activeVersionId FROM workflow_entity WHERE id = ?').get(workflowId);
if (!activeVersionId) throw new Error(workflowId + ' is not published');
db.prepare('INSERT OR REPLACE INTO workflow_published_version (workflowId, publishedVersionId) VALUES (?, ?)').run(workflowId, activeVersionId);
db.prepare('INSERT OR REPLACE INTO webhook_entity (workflowId, webhookPath, method, node) VALUES (?, ?, ?, ?)').run(workflowId, webhookPath, 'POST', node);
db.close();`;
	runOrThrow(
		defaultReleaseNode(),
		[
			'--no-warnings',
			'-e',
			script,
			path.join(userFolder, '.n8n', 'database.sqlite'),
			workflowId,
			node,
			webhookPath,
		],
		{ stdio: 'pipe' },
	);
}

/**
 * POSTs one delivery through `agent` and resolves with the status and the time to the answer's end.
 * A failed request resolves with status 0.
 * @param {http.Agent} agent @param {string} url @param {Delivery} delivery @returns {Promise<Answer>}
 */
function post(agent, url, { body, headers }) {
	return new Promise((resolve) => {
		const started = performance.now();
		const request = http.request(
			url,
			{
				method: 'POST',
				agent,
				headers: {
					'Content-Type': 'application/json',
					'Content-Length': String(Buffer.byteLength(body)),
					...headers,
				},
			},
			(response) => {
				response.resume();
				response.once('end', () =>
					resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
				);
				response.once('error', () => resolve({ status: 0, ms: performance.now() - started }));
			},
		);
		request.setTimeout(120_000, () => request.destroy(new Error('timeout')));
		request.once('error', () => resolve({ status: 0, ms: performance.now() - started }));
		request.end(body);
	});
}

/**
 * Sends deliveries with `inFlight` at once: `deliveries` made beforehand, or, while `more()` says
 * so, deliveries made by `make`. Resolves with every answer.
 * @param {http.Agent} agent @param {string} url @param {number} inFlight
 * @param {{ deliveries: Delivery[] } | { make: () => Delivery, more: (sent: number) => boolean }} source
 */
async function send(agent, url, inFlight, source) {
	/** @type {Answer[]} */
	const answers = [];
	let sent = 0;
	const next = () => {
		if ('deliveries' in source)
			return sent < source.deliveries.length ? source.deliveries[sent++] : null;
		if (!source.more(sent)) return null;
		sent++;
		return source.make();
	};
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			for (let delivery = next(); delivery; delivery = next())
				answers.push(await post(agent, url, delivery));
		}),
	);
	return answers;
}

/**
 * The provider's deliveries: `count` made by `make`, the i-th sent at i / perSecond seconds (or
 * later, with `inFlight` at most at once). Resolves with every answer.
 * @param {http.Agent} agent @param {string} url @param {number} count @param {() => Delivery} make
 * @param {{ perSecond: number, inFlight: number }} pace
 */
async function sendPaced(agent, url, count, make, { perSecond, inFlight }) {
	const started = performance.now();
	/** @type {Answer[]} */
	const answers = [];
	let next = 0;
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (next < count) {
				const i = next++;
				const wait = started + (i * 1000) / perSecond - performance.now();
				if (wait > 0) await sleep(wait);
				answers.push(await post(agent, url, make()));
			}
		}),
	);
	return answers;
}

/**
 * Waits until n8n's processes have used at most one clock tick in QUIET_MS (the executions that
 * accepted deliveries started have ended), 30 s at most.
 * @param {number} pid
 */
async function quiet(pid) {
	const deadline = Date.now() + 30_000;
	let before = processTreeCpuSeconds(pid);
	for (;;) {
		await sleep(QUIET_MS);
		const now = processTreeCpuSeconds(pid);
		if (now - before <= 0.0101 || Date.now() > deadline) return;
		before = now;
	}
}

/** How many answers had each status: `401 ×100`, `429 ×250, 401 ×50`. @param {Answer[]} answers */
function statusCounts(answers) {
	/** @type {Map<number, number>} */
	const counts = new Map();
	for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
	return [...counts]
		.sort((a, b) => b[1] - a[1])
		.map(([status, count]) => `${status === 0 ? 'no answer' : status} ×${count}`)
		.join(', ');
}

/** @param {Answer[]} answers */
const is2xx = (answers) => answers.filter((a) => a.status >= 200 && a.status < 300).length;

/**
 * Fails the run unless every answer has one of `statuses`.
 * @param {Answer[]} answers @param {number[]} statuses @param {string} what
 */
function expectStatuses(answers, statuses, what) {
	const wrong = answers.filter((answer) => !statuses.includes(answer.status));
	if (wrong.length > 0)
		throw new Error(
			`${what}: ${wrong.length} of ${answers.length} answers not ${statuses.join(' or ')} (${statusCounts(answers)})`,
		);
}

/**
 * A flood's figures: forged deliveries sent, answered 429 (by nginx) and passed on (answered by
 * n8n), its seconds, the valid deliveries' latency and 2xx count, n8n's CPU in ms.
 * @typedef {{ forged: number, limited: number, passed: number, seconds: number, p50: number, p99: number, ok: number, valid: number, cpuMs: number }} Flood
 * @param {{ forgedAnswers: Answer[], validAnswers: Answer[], seconds: number, cpuMs: number }} run
 * @returns {Flood}
 */
function floodFigures({ forgedAnswers, validAnswers, seconds, cpuMs }) {
	const latencies = validAnswers.map((a) => a.ms);
	const limited = forgedAnswers.filter((a) => a.status === 429).length;
	return {
		forged: forgedAnswers.length,
		limited,
		passed: forgedAnswers.length - limited,
		seconds,
		p50: /** @type {number} */ (percentile(latencies, 50)),
		p99: /** @type {number} */ (percentile(latencies, 99)),
		ok: is2xx(validAnswers),
		valid: validAnswers.length,
		cpuMs,
	};
}

/**
 * @typedef {{ engine: Engine, forged: Record<string, number[]>, accepted: Record<string, number[]>, flood: Flood, nginxAlone: { sent: number, limited: number, cpuMs: number }, nginxFlood: Flood }} EngineResult
 *   forged and accepted: CPU ms per delivery, one value per round, by receiver key
 */

/**
 * One engine setting: n8n started with it, the rounds, the floods; n8n stopped.
 * @param {Engine} engine @param {{ work: string, baseEnv: NodeJS.ProcessEnv, port: number, receivers: Receiver[] }} setup
 * @returns {Promise<EngineResult>}
 */
async function runEngine(engine, { work, baseEnv, port, receivers }) {
	const env = { ...baseEnv };
	delete env.N8N_EXPRESSION_ENGINE;
	delete env.N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE;
	Object.assign(env, engine.env);
	const { child, webhooksSeconds } = await startN8nServing(env, {
		port,
		logFile: path.join(work, `n8n-${engine.key}.log`),
		webhooks: receivers.map((receiver) => ({ method: 'POST', path: receiver.path })),
	});
	console.log(`${engine.label}: n8n serves the four webhooks after ${fmt(webhooksSeconds, 1)} s`);
	const pid = /** @type {number} */ (child.pid);
	const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
	const url = (/** @type {Receiver} */ receiver, base = `http://127.0.0.1:${port}`) =>
		`${base}/webhook/${receiver.path}`;
	const trigger2 = /** @type {Receiver} */ (receivers.find((r) => r.key === 'trigger2'));
	const accepting = receivers.filter((receiver) => receiver.valid);
	try {
		/**
		 * One measured block: `count` deliveries made by `make` (before the clock starts), n8n's
		 * CPU in ms per delivery; every answer must have one of `statuses`.
		 * @param {Receiver} receiver @param {number} count @param {() => Delivery} make
		 * @param {number[]} statuses @param {string} what
		 */
		const block = async (receiver, count, make, statuses, what) => {
			const deliveries = Array.from({ length: count }, make);
			const before = processTreeCpuSeconds(pid);
			const answers = await send(agent, url(receiver), IN_FLIGHT, { deliveries });
			await quiet(pid);
			const cpuMs = (processTreeCpuSeconds(pid) - before) * 1000;
			expectStatuses(answers, statuses, `${engine.key}, ${receiver.name}, ${what}`);
			return cpuMs / count;
		};
		const is2xxStatus = [200, 201, 202, 204];
		for (const receiver of receivers)
			await block(receiver, WARM_UP, receiver.forged, [receiver.refusal], 'warm-up, forged');
		for (const receiver of accepting)
			await block(
				receiver,
				WARM_UP,
				/** @type {() => Delivery} */ (receiver.valid),
				is2xxStatus,
				'warm-up, accepted',
			);

		/** @type {Record<string, number[]>} */
		const forged = Object.fromEntries(receivers.map((r) => [r.key, []]));
		/** @type {Record<string, number[]>} */
		const accepted = Object.fromEntries(accepting.map((r) => [r.key, []]));
		for (let round = 1; round <= ROUNDS; round++) {
			const forward = round % 2 === 1;
			const forgedCount = Math.round(FORGED / ROUNDS);
			const acceptedCount = Math.round(ACCEPTED / ROUNDS);
			for (const receiver of forward ? receivers : [...receivers].reverse())
				forged[receiver.key].push(
					await block(receiver, forgedCount, receiver.forged, [receiver.refusal], 'forged'),
				);
			for (const receiver of forward ? accepting : [...accepting].reverse())
				accepted[receiver.key].push(
					await block(
						receiver,
						acceptedCount,
						/** @type {() => Delivery} */ (receiver.valid),
						is2xxStatus,
						'accepted',
					),
				);
			console.log(
				`  ${engine.key}, round ${round}/${ROUNDS}: CPU ms per forged delivery ${receivers.map((r) => `${r.key} ${fmt(forged[r.key][round - 1], 2)}`).join(', ')}; per accepted ${accepting.map((r) => `${r.key} ${fmt(accepted[r.key][round - 1], 2)}`).join(', ')}`,
			);
		}

		/**
		 * The flood: forged deliveries to (a) v2 at full rate, from `attacker`, until the provider's
		 * VALID deliveries (paced) are answered and at least `minimum` forged ones were sent.
		 * @param {string} base @param {http.Agent} attacker @param {http.Agent} provider @param {number} minimum
		 */
		const flood = async (base, attacker, provider, minimum) => {
			let validDone = false;
			const before = processTreeCpuSeconds(pid);
			const started = performance.now();
			const [forgedAnswers, validAnswers] = await Promise.all([
				send(attacker, url(trigger2, base), IN_FLIGHT, {
					make: forgedPurchase,
					more: (sent) => sent < minimum || !validDone,
				}),
				sendPaced(provider, url(trigger2, base), VALID, signedPurchase, {
					perSecond: VALID_PER_SECOND,
					inFlight: VALID_IN_FLIGHT,
				}).finally(() => (validDone = true)),
			]);
			const seconds = (performance.now() - started) / 1000;
			await quiet(pid);
			const cpuMs = (processTreeCpuSeconds(pid) - before) * 1000;
			return { forgedAnswers, validAnswers, seconds, cpuMs };
		};

		// 3. The flood and valid deliveries, straight to n8n.
		const direct = await flood(`http://127.0.0.1:${port}`, agent, agent, FORGED);
		expectStatuses(direct.forgedAnswers, [401], `${engine.key}, flood, forged`);
		const floodResult = floodFigures(direct);
		console.log(
			`  ${engine.key}, flood: ${floodResult.forged} forged in ${fmt(direct.seconds, 1)} s (${statusCounts(direct.forgedAnswers)}); valid ${statusCounts(direct.validAnswers)}, p50 ${fmt(floodResult.p50)} ms, p99 ${fmt(floodResult.p99)} ms; n8n CPU ${fmt(direct.cpuMs / 1000, 1)} s`,
		);

		// 4. The same through nginx with limit_req, the attacker and the provider from their own addresses.
		const nginx = await startNginx(work, {
			processors: [port],
			rateLimit: RATE_LIMIT,
			name: `nginx-${engine.key}`,
		});
		const attacker = new http.Agent({
			keepAlive: true,
			maxSockets: IN_FLIGHT,
			localAddress: ATTACKER_ADDRESS,
		});
		const provider = new http.Agent({
			keepAlive: true,
			maxSockets: VALID_IN_FLIGHT,
			localAddress: PROVIDER_ADDRESS,
		});
		try {
			const before = processTreeCpuSeconds(pid);
			const alone = await send(attacker, url(trigger2, nginx.url), IN_FLIGHT, {
				deliveries: Array.from({ length: FORGED }, forgedPurchase),
			});
			await quiet(pid);
			const aloneCpuMs = (processTreeCpuSeconds(pid) - before) * 1000;
			expectStatuses(alone, [401, 429], `${engine.key}, nginx, forged alone`);
			const nginxAlone = {
				sent: alone.length,
				limited: alone.filter((a) => a.status === 429).length,
				cpuMs: aloneCpuMs,
			};
			console.log(
				`  ${engine.key}, nginx, forged alone: ${statusCounts(alone)}; n8n CPU ${fmt(aloneCpuMs / alone.length, 2)} ms per forged delivery sent`,
			);
			// The limit's bucket fills again before the flood with valid deliveries.
			await sleep(((RATE_LIMIT.burst + 1) / RATE_LIMIT.perSecond) * 1000);
			const limited = await flood(nginx.url, attacker, provider, FORGED);
			expectStatuses(limited.forgedAnswers, [401, 429], `${engine.key}, nginx flood, forged`);
			const nginxFlood = floodFigures(limited);
			console.log(
				`  ${engine.key}, nginx, with valid deliveries: forged ${statusCounts(limited.forgedAnswers)} in ${fmt(limited.seconds, 1)} s; valid ${statusCounts(limited.validAnswers)}, p50 ${fmt(nginxFlood.p50)} ms, p99 ${fmt(nginxFlood.p99)} ms; n8n CPU ${fmt(limited.cpuMs / 1000, 1)} s`,
			);
			return { engine, forged, accepted, flood: floodResult, nginxAlone, nginxFlood };
		} finally {
			attacker.destroy();
			provider.destroy();
			await nginx.stop();
		}
	} finally {
		agent.destroy();
		await stopProcess(child);
		try {
			process.kill(-pid, 'SIGKILL'); // its task runner, if still there
		} catch {
			// the group has exited
		}
	}
}

async function main() {
	const started = Date.now();
	await installDefaultRelease((line) => console.log(line));
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'affiliate-tracking-bench-flood-'));
	const userFolder = path.join(work, 'user');
	fs.mkdirSync(userFolder);
	try {
		const port = await freePort();
		const baseEnv = n8nEnvironment({ userFolder, port, brokerPort: await freePort() });
		installPackedPackage(userFolder);
		const { workflows, receivers, stripe } = benchWorkflows();
		await importCredentials(baseEnv, [
			signingCredential('stripe'),
			{
				...STRIPE_CREDENTIAL,
				type: 'stripeApi',
				// The secret key is only sent to api.stripe.com, which nothing here calls.
				data: { secretKey: 'sk_test_flood_bench_unused', signatureSecret: STRIPE_SECRET },
			},
			{
				...HEADER_CREDENTIAL,
				type: 'httpHeaderAuth',
				data: { name: HEADER_NAME, value: HEADER_TOKEN },
			},
		]);
		await importWorkflows(baseEnv, workflows);
		registeredStripeEndpoint(userFolder, stripe);

		/** @type {EngineResult[]} */
		const results = [];
		for (const engine of ENGINES)
			results.push(await runEngine(engine, { work, baseEnv, port, receivers }));

		const perRound = (/** @type {number[]} */ values) => medianAndRange(values, 2);
		const lines = [
			`\n## A flood of forged deliveries (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}; n8n ${N8N_VERSION}, regular mode, SQLite; ${FORGED} forged and ${ACCEPTED} accepted deliveries per receiver and engine in ${rounds(ROUNDS)}, ${IN_FLIGHT} in flight, after a ${WARM_UP}-delivery warm-up of each)\n`,
			'CPU ms of n8n (main + task runner) per refused delivery, median (range) of the rounds:\n',
			`| receiver | refusal | ${results.map((r) => r.engine.label).join(' | ')} |`,
			`|---|---:|${results.map(() => '---:').join('|')}|`,
			...receivers.map(
				(receiver) =>
					`| ${receiver.name} | ${receiver.refusal} | ${results.map((r) => perRound(r.forged[receiver.key])).join(' | ')} |`,
			),
			'\nCPU ms of n8n per accepted delivery (the same NoOp workflow behind each), median (range):\n',
			`| receiver | ${results.map((r) => r.engine.label).join(' | ')} |`,
			`|---|${results.map(() => '---:').join('|')}|`,
			...receivers
				.filter((receiver) => receiver.valid)
				.map(
					(receiver) =>
						`| ${receiver.name} | ${results.map((r) => perRound(r.accepted[receiver.key])).join(' | ')} |`,
				),
			'',
		];
		const lazy = results.find((r) => r.engine.key === 'lazy');
		if (lazy) {
			const ratios = lazy.forged.trigger2.map((x, i) => x / lazy.forged.webhook[i]);
			lines.push(
				`${ratioLine('Payment Webhook Trigger v2 refusal / Webhook node refusal, vm + lazy acquire:', lazy.forged.trigger2, lazy.forged.webhook)}; by round ${ratios.map((r) => fmt(r, 2)).join(', ')}`,
				`Payment Webhook Trigger v1 refusal / Webhook node refusal, vm + lazy acquire: median ${fmt(median(lazy.forged.trigger1.map((x, i) => x / lazy.forged.webhook[i])), 2)}`,
				'',
			);
		}
		lines.push(
			`The flood with valid deliveries: forged deliveries to the Payment Webhook Trigger v2 at ${IN_FLIGHT} in flight until the last of ${VALID} valid ones to the same trigger (sent at ${VALID_PER_SECOND}/s, at most ${VALID_IN_FLIGHT} in flight) is answered; n8n's CPU includes the valid deliveries' executions.\n`,
			'| engine | forged sent (all 401) | seconds | valid p50 ms | valid p99 ms | valid 2xx | n8n CPU s |',
			'|---|---:|---:|---:|---:|---:|---:|',
			...results.map(
				({ engine, flood }) =>
					`| ${engine.label} | ${flood.forged} | ${fmt(flood.seconds, 1)} | ${fmt(flood.p50)} | ${fmt(flood.p99)} | ${flood.ok} of ${flood.valid} | ${fmt(flood.cpuMs / 1000, 1)} |`,
			),
			'',
			`Through nginx with limit_req (${RATE_LIMIT.perSecond} r/s, burst ${RATE_LIMIT.burst}, per client address), the forged deliveries from ${ATTACKER_ADDRESS}, the valid ones from ${PROVIDER_ADDRESS}: first ${FORGED} forged deliveries alone, then the flood with valid deliveries as above. Forged deliveries nginx passed on were answered 401 by n8n.\n`,
			'| engine | alone: answered 429 by nginx | passed to n8n | n8n CPU ms per forged sent | with valid: forged sent | answered 429 | passed to n8n | valid p50 ms | valid p99 ms | valid 2xx | n8n CPU ms per forged sent |',
			'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
			...results.map(
				({ engine, nginxAlone: alone, nginxFlood: flood }) =>
					`| ${engine.label} | ${alone.limited} | ${alone.sent - alone.limited} | ${fmt(alone.cpuMs / alone.sent, 2)} | ${flood.forged} | ${flood.limited} | ${flood.passed} | ${fmt(flood.p50)} | ${fmt(flood.p99)} | ${flood.ok} of ${flood.valid} | ${fmt(flood.cpuMs / flood.forged, 2)} |`,
			),
		);
		console.log(lines.join('\n'));
		console.log(`\nbench:flood took ${fmt((Date.now() - started) / 1000)} s`);
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
