// @ts-check
'use strict';
/**
 * test:upgrade's front-door rounds (issue 53), on the n8n 2.41.1 the upgrade round left running on
 * PostgreSQL with example (a) published, and the doors of support/services/nginx.js (the lines of
 * docs/front-door.md and deploy/nginx/):
 * - **case**: spellings of `/webhook/` (case, `%2F`, `%77`, `//`, dot segments) sent straight to
 *   n8n (which of them its webhook handler takes) and through a door in front of a stand-in that
 *   answers as n8n does while it starts (readiness 503, everything else 200) and counts what
 *   reaches it past the gate; the case-sensitive location of before as the control;
 * - **hung processor**: n8n SIGSTOPped behind its gate while refunds arrive through the door: each
 *   attempt answered within the readiness check's timeout (503), each refund applied exactly once
 *   after SIGCONT;
 * - **re-created**: n8n behind a name (dnsmasq, support/services/dnsmasq.js) moves from 127.0.0.2
 *   to 127.0.0.3 while refunds arrive through a door that re-resolves it (`resolver`, variables),
 *   started while the name did not resolve: each applied exactly once, none answered without a
 *   run, no reload of nginx.
 * Each prints its `FRONT DOOR …:` line.
 */
const assert = require('node:assert/strict');
const http = require('node:http');

const { deliverAll, planStorm } = require('../../support/payment/paymentProvider');
const { startNginx, READINESS_TIMEOUT_SECONDS } = require('../../support/services/nginx');
const { startDnsmasq } = require('../../support/services/dnsmasq');
const { freePort } = require('../../support/services/processes');
const { TESTED_RATE_LIMIT } = require('../../support/n8n/queueDeployment');
const {
	assertAllDelivered,
	fallbackSummary,
	refundWorkflowAnswered,
	stormOutcome,
} = require('../queue/faultRounds');

/**
 * The bound on an answer while n8n hangs: the readiness check gives up after
 * READINESS_TIMEOUT_SECONDS; the rest is margin for a loaded machine, far below nginx's 60 s.
 */
const ANSWER_BOUND_SECONDS = 10;
/**
 * How long n8n stays SIGSTOPped: longer than the bound, so that without the check's timeouts the
 * first attempts (waiting for SIGCONT) break it, and none is answered while n8n is stopped.
 */
const HUNG_MS = 12_000;
/** The name n8n is reached by in the re-created round, and its two addresses. */
const N8N_NAME = 'n8n.door.test';
const ADDRESSES = ['127.0.0.2', '127.0.0.3'];
/** nginx re-resolves the name this often (deploy/ uses Docker's DNS with a longer `valid`). */
const RESOLVER_VALID = 'valid=1s';
/** Refunds delivered before the move; as many again sent from its start on. */
const REFUNDS_AROUND_MOVE = 20;

/**
 * @typedef {{ sandbox: import('../../sandbox').Sandbox, postgres: { query: (sql: string) => string[] }, folder: string, product: string,
 *   refundIds: Set<string>, webhookPath: string, retry: { maxAttempts: number, firstRetryMs: number, maxRetryMs: number }, stops: (() => Promise<void>)[] }} Context
 */

/** Spellings of `/webhook/<path>` that nginx normalises to it; n8n's Express ignores case. @param {string} path */
const spellings = (path) => [
	`/webhook/${path}`,
	`/WEBHOOK/${path}`,
	`/Webhook/${path}`,
	`/wEbHoOk/${path}`,
	`/webhook%2F${path}`,
	`/WEBHOOK%2f${path}`,
	`/%77ebhook/${path}`,
	`/%57EBHOOK/${path}`,
	`//webhook/${path}`,
	`/./WEBHOOK/${path}`,
	`/x/../Webhook/${path}`,
	`/webhook//${path}`,
];

/**
 * A POST of `{}` to `path` as written (fetch would normalise it). @param {string} base @param {string} path
 * @returns {Promise<number>} the status
 */
function rawPost(base, path) {
	const { hostname, port } = new URL(base);
	return new Promise((resolve, reject) => {
		const request = http.request(
			{
				host: hostname,
				port,
				path,
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
			},
			(answer) => {
				answer.resume();
				answer.on('end', () => resolve(answer.statusCode ?? 0));
			},
		);
		request.on('error', reject);
		request.end('{}');
	});
}

/**
 * An HTTP server answering as n8n does while it starts (readiness 503, anything else its 200) and
 * counting what reaches it. @returns {Promise<{ port: number, readiness: () => number, reached: string[], close: () => Promise<void> }>}
 */
async function startingN8nStandIn() {
	const reached = /** @type {string[]} */ ([]);
	let readiness = 0;
	const server = http.createServer((request, answer) => {
		request.resume();
		if (request.url === '/healthz/readiness') {
			readiness++;
			answer.writeHead(503).end('{"status":"error"}');
		} else {
			reached.push(String(request.url));
			answer.writeHead(200).end('n8n is starting up. Please wait');
		}
	});
	const port = await freePort();
	await new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(undefined)));
	return {
		port,
		readiness: () => readiness,
		reached,
		close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
	};
}

/**
 * The case round. @param {Context} context @param {number} n8nPort the running n8n, on 127.0.0.1
 */
async function runCaseRound(context, n8nPort) {
	const paths = spellings(context.webhookPath.replace(/^\/webhook\//, ''));
	const straight = await Promise.all(paths.map((p) => rawPost(`http://127.0.0.1:${n8nPort}`, p)));
	// n8n's trigger refuses an unsigned body with 401: that spelling reached its webhook handler.
	const reachWebhook = paths.filter((_, i) => straight[i] === 401);
	assert.ok(
		reachWebhook.includes(paths[0]) && reachWebhook.includes(paths[1]),
		`n8n's webhook answered /webhook/ and /WEBHOOK/ ${straight[0]} and ${straight[1]}, not its trigger's 401: the round proves nothing`,
	);
	/** Sends every spelling through a door in front of a stand-in. @param {string} name @param {(lines: string[]) => string[]} [edit] */
	const throughDoor = async (name, edit) => {
		const standIn = await startingN8nStandIn();
		const door = await startNginx(context.folder, {
			processors: [standIn.port],
			rateLimit: TESTED_RATE_LIMIT,
			name,
			edit,
		});
		try {
			// Before: startNginx's own probe of the catch-all.
			const [reachedBefore, readinessBefore] = [standIn.reached.length, standIn.readiness()];
			const statuses = [];
			for (const p of paths) statuses.push(await rawPost(door.url, p));
			return {
				statuses,
				reached: standIn.reached.slice(reachedBefore),
				readiness: standIn.readiness() - readinessBefore,
			};
		} finally {
			await door.stop();
			await standIn.close();
		}
	};
	const gated = await throughDoor('nginx-case');
	const before = await throughDoor('nginx-case-before', (lines) =>
		lines.map((line) => line.replace('location ~* ^/webhook/', 'location /webhook/')),
	);
	const notGated = paths.filter((_, i) => gated.statuses[i] !== 503);
	console.log(
		`FRONT DOOR case: ${paths.length} spellings of /webhook/<path> (${reachWebhook.length} reach n8n's webhook straight: its 401), through the door while n8n starts: 503 ×${paths.length - notGated.length}, readiness asked ${gated.readiness} times, ${gated.reached.length} reached n8n ungated (the case-sensitive location of before: ${before.reached.length} reached it: ${before.reached.slice(0, 3).join(', ')})`,
	);
	assert.deepEqual(gated.reached, [], 'requests reached n8n past the gate');
	assert.deepEqual(notGated, [], 'spellings the gate did not answer 503');
	// The control: the counting can fail.
	assert.ok(
		before.reached.length > 0,
		'the location of before let nothing through: the round proves nothing',
	);
	return `straight: ${paths.map((p, i) => `${p} ${straight[i]}`).join(', ')}`;
}

/**
 * Delivers `refunds` new refunds through `url` in the phases `deliver` sends them in (all at once
 * by default), and checks the outcome: every delivery 2xx from a run, each refund applied exactly
 * once.
 * @typedef {Awaited<ReturnType<typeof deliverAll>>} Delivered
 * @typedef {(events: import('../../support/payment/paymentProvider').WebhookEvent[], hooks?: { onAttempt?: (attempt: { startedAt: number, endedAt: number, ok: boolean }) => void }) => Promise<Delivered>} Send
 * @param {Context} context @param {string} url @param {string} prefix @param {number} refunds
 * @param {(send: Send, events: import('../../support/payment/paymentProvider').WebhookEvent[]) => Promise<Delivered[]>} [deliver]
 */
async function deliverRound(
	context,
	url,
	prefix,
	refunds,
	deliver = async (send, events) => [await send(events)],
) {
	const storm = planStorm(context.sandbox.instrumentation, context.product, {
		refunds,
		repeats: 0,
		notReferred: 0,
		partial: 0,
		prefix: `${prefix}${Date.now().toString(36)}`,
	});
	for (const id of storm.refundIds) context.refundIds.add(id);
	/** @type {Send} */
	const send = (events, hooks = {}) =>
		deliverAll(url, events, {
			inFlight: 5,
			...context.retry,
			ranWorkflow: refundWorkflowAnswered,
			...hooks,
		});
	const parts = await deliver(send, storm.events);
	const delivered = {
		deliveries: parts.flatMap((part) => part.deliveries),
		attempts: parts.reduce((sum, part) => sum + part.attempts, 0),
		elapsedMs: parts.reduce((sum, part) => sum + part.elapsedMs, 0),
	};
	const outcome = stormOutcome(
		context.sandbox,
		storm,
		delivered,
		context.refundIds,
		context.postgres,
	);
	const exactlyOnce = outcome.notOnce.length === 0 && outcome.strays.length === 0;
	const check = () => {
		assertAllDelivered(outcome.genuine, 'deliveries');
		assert.deepEqual(
			outcome.notOnce.slice(0, 5),
			[],
			`${outcome.notOnce.length} refunds not applied exactly once`,
		);
		assert.deepEqual(
			outcome.strays.slice(0, 5),
			[],
			'refunds applied to transactions no round refunds',
		);
	};
	const failures = outcome.genuine.flatMap((d) => d.failures);
	return { delivered, outcome, exactlyOnce, check, failures };
}

/** `503 ×12, timeout ×1` of a round's failed attempts. @param {string[]} failures */
const failureSummary = (failures) => {
	const kinds = new Map();
	for (const failure of failures) {
		const kind = /^HTTP (\d+)/.exec(failure)?.[1] ?? failure.split(':')[0];
		kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
	}
	return [...kinds].map(([kind, n]) => `${kind} ×${n}`).join(', ') || 'none';
};

/**
 * The hung-processor round. @param {Context} context @param {string} doorUrl the door of n8n
 * @param {import('node:child_process').ChildProcess} n8n its process
 */
async function runHungRound(context, doorUrl, n8n) {
	const pid = /** @type {number} */ (n8n.pid);
	/** @type {{ startedAt: number, endedAt: number, ok: boolean }[]} */
	const attempts = [];
	process.kill(pid, 'SIGSTOP');
	const stoppedAt = Date.now();
	let continuedAt = Infinity;
	const resume = () => {
		if (continuedAt !== Infinity) return;
		process.kill(pid, 'SIGCONT');
		continuedAt = Date.now();
	};
	const timer = setTimeout(resume, HUNG_MS);
	let round;
	try {
		round = await deliverRound(
			context,
			`${doorUrl}${context.webhookPath}`,
			'hung',
			30,
			async (send, events) => [
				await send(events, { onAttempt: (attempt) => attempts.push(attempt) }),
			],
		);
	} finally {
		clearTimeout(timer);
		resume();
	}
	const whileStopped = attempts.filter((a) => a.startedAt < continuedAt);
	const answeredWhileStopped = whileStopped.filter((a) => a.endedAt <= continuedAt);
	const slowest = Math.max(...whileStopped.map((a) => a.endedAt - a.startedAt)) / 1000;
	const { outcome } = round;
	console.log(
		`FRONT DOOR hung processor: n8n SIGSTOPped ${((continuedAt - stoppedAt) / 1000).toFixed(1)} s behind its gate (readiness timeout ${READINESS_TIMEOUT_SECONDS} s), ${outcome.genuine.length} refunds through the door; ${whileStopped.length} attempts while it was stopped answered within ${slowest.toFixed(1)} s, exactly once: ${round.exactlyOnce ? 'yes' : 'no'} (${outcome.applied} applied after SIGCONT), ${outcome.withoutRun} answered without a run, ${fallbackSummary(outcome.fallbacks)}; failed attempts: ${failureSummary(round.failures)}`,
	);
	round.check();
	assert.ok(answeredWhileStopped.length > 0, 'no attempt was answered while n8n was stopped');
	assert.deepEqual(
		answeredWhileStopped.filter((a) => a.ok),
		[],
		'a 2xx while n8n was stopped',
	);
	assert.ok(
		slowest < ANSWER_BOUND_SECONDS,
		`an attempt while n8n was stopped took ${slowest} s (bound ${ANSWER_BOUND_SECONDS} s)`,
	);
	const other = round.failures.filter((f) => !f.startsWith('HTTP 503'));
	assert.deepEqual(other.slice(0, 3), [], "attempts failed otherwise than with the gate's 503");
	return `${attempts.length} attempts, ${answeredWhileStopped.length} answered while stopped`;
}

/**
 * The re-created round: n8n (stopped by the caller) comes back on 127.0.0.2 behind a name, then
 * moves to 127.0.0.3 mid-round. Returns the running n8n's stop.
 * @param {Context} context
 * @param {(host: string) => Promise<{ child: import('node:child_process').ChildProcess }>} startN8nOn starts n8n on an address, ready and serving
 * @param {(child: import('node:child_process').ChildProcess) => Promise<void>} stopN8n
 * @param {number} port n8n's port on each address
 */
async function runRecreatedRound(context, startN8nOn, stopN8n, port) {
	const dns = await startDnsmasq(context.folder);
	context.stops.push(() => dns.stop());
	// nginx starts while the name does not resolve, as when the n8n container is down.
	const door = await startNginx(context.folder, {
		processors: [`${N8N_NAME}:${port}`],
		resolver: `${dns.address} ${RESOLVER_VALID}`,
		rateLimit: TESTED_RATE_LIMIT,
		name: 'nginx-named',
	});
	context.stops.push(() => door.stop());
	const unresolved = await rawPost(door.url, context.webhookPath);
	assert.equal(
		unresolved,
		503,
		'the door answered otherwise than 503 while the name did not resolve',
	);
	const workers = door.workerPids();

	await dns.set(N8N_NAME, ADDRESSES[0]);
	let n8n = (await startN8nOn(ADDRESSES[0])).child;
	context.stops.push(() => stopN8n(n8n));
	const url = `${door.url}${context.webhookPath}`;
	const round = await deliverRound(
		context,
		url,
		'recreated',
		REFUNDS_AROUND_MOVE * 2,
		async (send, events) => {
			const before = await send(events.slice(0, REFUNDS_AROUND_MOVE));
			// As `docker compose up -d` re-creates it: stopped, its name on the new address, started;
			// the rest of the refunds arrive meanwhile.
			await stopN8n(n8n);
			const rest = send(events.slice(REFUNDS_AROUND_MOVE));
			await dns.set(N8N_NAME, ADDRESSES[1]);
			n8n = (await startN8nOn(ADDRESSES[1])).child;
			return [before, await rest];
		},
	);
	const after = door.workerPids();
	const reloads = workers.join() === after.join() ? 0 : 1;
	const answered = door.answeredByAddress();
	const via = ADDRESSES.map((address) => answered.get(`${address}:${port}`) ?? 0);
	const { outcome } = round;
	console.log(
		`FRONT DOOR re-created: n8n moved ${ADDRESSES[0]} → ${ADDRESSES[1]} behind ${N8N_NAME} (dnsmasq) after ${REFUNDS_AROUND_MOVE} of ${outcome.genuine.length} refunds through the door (started while the name did not resolve: ${unresolved}); answered via ${ADDRESSES[0]} ${via[0]}, via ${ADDRESSES[1]} ${via[1]}; attempts answered during the move: ${failureSummary(round.failures)}; all 2xx: ${outcome.all2xx ? 'yes' : 'no'}, each applied exactly once: ${round.exactlyOnce ? 'yes' : 'no'}, ${outcome.withoutRun} answered without a run, nginx reloads ${reloads}`,
	);
	round.check();
	assert.equal(outcome.withoutRun, 0, 'deliveries answered without a run');
	assert.equal(reloads, 0, `nginx's workers changed: ${workers} → ${after}`);
	assert.ok(via[0] > 0 && via[1] > 0, `the door did not answer through both addresses: ${via}`);
	return { stop: () => stopN8n(n8n), detail: `nginx workers ${after.join(', ')}` };
}

module.exports = { runCaseRound, runHungRound, runRecreatedRound };
