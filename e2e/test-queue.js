#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run test:queue`: the package in n8n's queue mode, installed as n8n documents it, under
 * platform faults, then behind n8n's webhook processors through a storm of refund webhooks.
 *
 * PostgreSQL, Redis and Verdaccio on free loopback ports; the package published as the release
 * workflow publishes it and `npm install`ed on the main and each worker (worker 2 with a copy of
 * n8n-workflow beside it); example (a) published. The main takes the webhooks behind its front door
 * (nginx gating them on its readiness) through the fault rounds (e2e/queue/: `FAULT`, `DUPLICATE
 * PURCHASES`, `REFUNDS ADD UP` (example (j)'s ledger), `TRIGGER`, and `STARTUP WINDOW` for each
 * restart, probed straight and through the door); then the main hands production webhooks to two
 * `n8n webhook` processors behind nginx, which take a storm of signed and forged refunds while
 * worker 1 is SIGKILLed and replaced, checked against the sandbox's records and n8n's database;
 * then a round with webhook-1 SIGKILLed (purchases to example (i) beside its refunds: no worker
 * kill is combined with purchases, as an execution killed holding the claim keeps it for its
 * 10-minute lease). Last, no process logged the secret.
 *
 * Needs PostgreSQL, Redis and nginx from scripts/setup-system.sh (the run stops at once, naming
 * it, when they are missing). Prints one line per check, the storms' counts and `QUEUE: N passed,
 * N failed`.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { DEMO_KEY, PACKAGE, paymentTriggerWebhook } = require('../support/n8n/n8nDemoData');
const { createChecks } = require('./checks');
const { deliverAll, planStorm } = require('../support/payment/paymentProvider');
const { postJson, sleep } = require('../support/services/processes');
const {
	FAULTS,
	REFUND_WORKFLOW_ID,
	TRIGGER_WORKFLOW_ID,
	processorKill,
	refundWorkflowAnswered,
	assertAllDelivered,
	assertForgeriesRefused,
	creditProvenFallbacks,
	fallbackSummary,
	stormOutcome,
	runFaultRound,
	runTriggerRestartRounds,
	settledExecutionsSince,
} = require('./queue/faultRounds');
const {
	PURCHASE_ROUNDS,
	PURCHASE_WORKFLOWS,
	claimCredentials,
	deliverClaimedPurchases,
	runDuplicatePurchaseRounds,
} = require('./queue/purchaseRounds');
const { LEDGER_WORKFLOW, runRefundsAddUpRounds } = require('./queue/refundLedgerRounds');
const { lastNodeCopy, runFinalSaveRound } = require('./queue/finalSaveRound');
const { runReversalCrashRound } = require('./queue/reversalCrashRound');
const {
	reconcileCredentials,
	reconcileKeys,
	reconcileWorkflows,
	runReconcileRound,
} = require('./queue/reconcileRound');
const { triggerWorkflow } = require('../support/n8n/workflowBuilders');
const { WORKER_CONCURRENCY, startQueueDeployment } = require('../support/n8n/queueDeployment');
const { ProviderApis, Sandbox, KEYS } = require('../sandbox');
const { percentile } = require('../support/statistics');
const { scenario } = require('../support/scenarios');

/** The storm: 2,000 deliveries, and 100 forged ones. */
const STORM = { refunds: 1500, repeats: 300, notReferred: 100, partial: 100, forged: 100 };
/** Workers from the start (a killed one is replaced). */
const WORKERS = 2;
/** n8n's webhook processors behind nginx for the storm and the processor fault round. */
const WEBHOOK_PROCESSORS = 2;
/** Where the storm's deliveries go, for its line. */
const STORM_TOPOLOGY = `nginx → ${WEBHOOK_PROCESSORS} webhook processors → ${WORKERS} workers`;
/** Purchases to example (i)'s claim sent beside the processor fault round's refunds (each twice). */
const PURCHASES_BESIDE_PROCESSOR_KILL = 60;
/** The provider's deliveries; the forged ones come on top. */
const DELIVERIES = STORM.refunds + STORM.repeats + STORM.notReferred + STORM.partial;
const KILL_AFTER = Math.round(DELIVERIES / 3);
const REPLACEMENT_AFTER_MS = 10_000;
/** The service's code for "not found": example (a) answers 200 (nothing to reverse). */
const NOT_FOUND_CODE = 1000001;
const API_SECRET = KEYS[DEMO_KEY].secret;
/** n8n's error for a job whose worker stopped renewing its lock (MaxStalledCountError). */
const STALLED_JOB_MESSAGE = 'This execution failed to be processed too many times';
/** How long after a worker's SIGKILL Redis may still hand it a job (its blocked pop, not yet dropped). */
const KILL_HANDOVER_MS = 1000;

/**
 * The workflows the rounds need, published beside example (a) (example (k)'s copies unpublished:
 * the reconciliation round publishes them). @param {string} watchedUserId
 * @param {Parameters<typeof reconcileWorkflows>[0]} providerApiUrls
 */
function faultRoundWorkflows(watchedUserId, providerApiUrls) {
	return [
		...reconcileWorkflows(providerApiUrls),
		...[...PURCHASE_WORKFLOWS, LEDGER_WORKFLOW].map(({ workflow, id, webhookId }) => ({
			workflow,
			id,
			webhook: paymentTriggerWebhook(webhookId),
		})),
		lastNodeCopy(),
		{
			workflow: triggerWorkflow({
				name: 'Queue test: trigger across main restarts',
				userId: watchedUserId,
			}),
			id: TRIGGER_WORKFLOW_ID,
		},
	];
}

const { check, counts, abort, finish } = createChecks('QUEUE');

async function main() {
	const startedAt = Date.now();
	console.log(`QUEUE: ${PACKAGE.name}@${PACKAGE.version} in n8n's queue mode (main + 2 workers)`);
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-queue-'));
	// Its log holds every call of the run: the trigger rounds count polls in it.
	const sandbox = new Sandbox({ port: 0, logLimit: 1_000_000 });
	await sandbox.start();
	const product = KEYS[DEMO_KEY].product;
	// The payment providers' own records, which example (k) reads.
	const keys = reconcileKeys();
	const providerApis = new ProviderApis({
		stripeSecretKey: keys.stripeSecretKey,
		paddleApiKey: keys.paddleApiKey,
		appStore: keys.appStore,
	});
	await providerApis.start();
	const [watchedPromoter] = sandbox.instrumentation.addPromoters(product, 1, 'queue_watched');
	const storm = planStorm(sandbox.instrumentation, product, {
		...STORM,
		prefix: `storm${Date.now().toString(36)}`,
	});
	/** @type {Awaited<ReturnType<typeof startQueueDeployment>> | undefined} */
	let deployment;
	try {
		await check(
			'PostgreSQL, Redis and Verdaccio started; published as released; npm install on main and workers; n8n main + 2 workers ready',
			async () => {
				deployment = await startQueueDeployment({
					folder,
					workers: WORKERS,
					sandboxUrl: sandbox.url,
					log: (line) => console.log(`      ${line}`),
					copyOfN8nWorkflowOnWorker: 2,
					extraWorkflows: faultRoundWorkflows(watchedPromoter, providerApis.baseUrls),
					extraCredentials: (postgres) => [
						...claimCredentials(postgres),
						...reconcileCredentials(keys),
					],
				});
				const { installs } = deployment;
				assert.deepEqual(
					installs.main.packages,
					[PACKAGE.name],
					"a user's install brought more than the package",
				);
				assert.deepEqual(installs['worker-1'].packages, [PACKAGE.name]);
				assert.ok(
					installs['worker-2'].packages.includes('n8n-workflow'),
					'worker 2 has no copy of n8n-workflow beside the package',
				);
				const nodeModules = path.join(folder, 'main', '.n8n', 'nodes', 'node_modules');
				const installed = JSON.parse(
					fs.readFileSync(path.join(nodeModules, PACKAGE.name, 'package.json'), 'utf8'),
				);
				assert.equal(
					installed.optionalDependencies,
					undefined,
					'the published package.json keeps the development Node',
				);
				return `a user's install: ${installs.main.packages.length} package, ${(installs.main.bytes / 1024).toFixed(0)} KiB (worker 2, with n8n-workflow beside it: ${installs['worker-2'].packages.length} packages, ${(installs['worker-2'].bytes / 1024 / 1024).toFixed(0)} MiB)`;
			},
		);
		if (!deployment) throw new Error('the deployment did not start; nothing else can run');
		const queue = deployment;

		// Faults of the rest of the platform, one per round, the main taking the webhooks.
		/** Every transaction the rounds mean to refund: nothing else may be refunded. */
		const refundIds = new Set(storm.refundIds);
		for (const fault of FAULTS)
			await check(
				`${scenario('e2e.queueFaults')}: ${fault.name}, landing mid-round; through the front door, every delivery 2xx from a run of the workflow`,
				() => runFaultRound(queue, sandbox, product, fault, refundIds),
			);
		await check(
			`${scenario('e2e.queueFinalSave')}: the worker's final save refused by PostgreSQL; When Last Node Finishes answers failed runs 200, example (a) as shipped 500`,
			() => runFinalSaveRound(queue, sandbox, product, refundIds),
		);
		await check(
			`${scenario('e2e.queuePurchases')}: ${PURCHASE_ROUNDS} rounds with the main killed, one with both deliveries at once`,
			() => runDuplicatePurchaseRounds(queue, sandbox, product),
		);
		await check(
			`${scenario('e2e.queueRefundsAddUp')}: purchases through example (i), each one's two halves at once to example (j) on ${WORKERS} workers`,
			() => runRefundsAddUpRounds(queue, sandbox, product, refundIds),
		);
		await check(
			`${scenario('e2e.queueReversalCrash')}: example (j)'s reversal claimed, its worker SIGKILLed while Refund is on its way; taken over after the bound`,
			() => runReversalCrashRound(queue, sandbox, product, refundIds),
		);
		await check(
			`${scenario('e2e.queueTrigger')}: killed between polls and during a poll; repeats share a change_id`,
			() => runTriggerRestartRounds(queue, sandbox, product, watchedPromoter),
		);

		await check(
			`${scenario('e2e.webhookProcessors')}: the main restarted with N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true, 2 webhook processors (\`n8n webhook\`, the package installed on each) behind nginx, round-robin`,
			async () => {
				await queue.useWebhookProcessors(WEBHOOK_PROCESSORS);
				const { nginx, processors } = queue;
				for (const processor of processors)
					assert.deepEqual(
						queue.installs[processor.name].packages,
						[PACKAGE.name],
						`${processor.name}: a user's install brought more than the package`,
					);
				const toMain = await postJson(queue.directWebhookUrl(queue.mainPort), {});
				await toMain.arrayBuffer();
				assert.equal(toMain.status, 404, 'the main still serves production webhooks');
				return `the main answers a production webhook ${toMain.status}; ${processors.map((p) => `${p.name} on port ${p.port}`).join(', ')} serve the published webhooks; nginx on ${nginx?.url}`;
			},
		);

		/** @type {Awaited<ReturnType<typeof deliverAll>> | undefined} */
		let delivered;
		let killedAt = 0;
		let stormStartedAt = 0;
		await check(
			`storm through nginx and the webhook processors: ${DELIVERIES} signed refund webhooks and ${STORM.forged} forged ones, 20 in flight, up to 8 attempts; worker 1 SIGKILLed after ${KILL_AFTER}, replaced ${REPLACEMENT_AFTER_MS / 1000} s later`,
			async () => {
				stormStartedAt = Date.now();
				/** @type {Promise<unknown> | undefined} */
				let replacement;
				delivered = await deliverAll(queue.webhookUrl, storm.events, {
					ranWorkflow: refundWorkflowAnswered,
					progress: (line) => console.log(`    ${line}`),
					onDelivered: (done) => {
						if (done !== KILL_AFTER) return;
						killedAt = Date.now();
						queue.killWorker(queue.workers[0]);
						console.log(`      worker-1 SIGKILLed after ${done} deliveries`);
						replacement = sleep(REPLACEMENT_AFTER_MS)
							.then(() => queue.startWorker())
							.then((worker) => console.log(`      ${worker.name} started as the replacement`));
					},
				});
				await replacement;
				const genuine = delivered.deliveries.filter((d) => d.forgery === undefined);
				creditProvenFallbacks(queue.postgres, [REFUND_WORKFLOW_ID], genuine);
				assertAllDelivered(genuine, 'deliveries');
				const byId = new Map(genuine.map((d) => [d.id, d]));
				assert.equal(byId.size + STORM.repeats, DELIVERIES);
				/** @type {[string, string[], (answer: any) => boolean][]} */
				const answers = [
					['refund', storm.refundIds, (a) => ['APPLIED', 'ALREADY_PROCESSED'].includes(a?.status)],
					[
						'not-referred',
						storm.notReferredIds,
						(a) => a?.reversed === false && a.code === NOT_FOUND_CODE,
					],
					['partial', storm.partialIds, (a) => /Partial refund/.test(String(a?.ignored))],
				];
				for (const [kind, ids, expected] of answers)
					for (const id of ids) {
						const delivery = byId.get(`evt_${id}`);
						// n8n's own empty 200 after a run its saved execution proves succeeded: the
						// sandbox's records below show what that run did.
						if (delivery?.fallbackAfterSuccess) continue;
						const answer = delivery?.answer;
						assert.ok(expected(answer), `${kind} ${id} answered ${JSON.stringify(answer)}`);
					}
				const latencies = genuine.map((d) => d.latencyMs);
				const retried = genuine.filter((d) => d.attempts > 1);
				const failures = retried
					.flatMap((d) => d.failures.slice(0, 1))
					.map((f) => f.replace(/\d+/g, 'N').slice(0, 60));
				const kinds = [...new Set(failures)].slice(0, 3).join(' | ');
				return `${genuine.length} deliveries in ${(delivered.elapsedMs / 1000).toFixed(1)} s, ${delivered.attempts} attempts (${retried.length} deliveries retried${kinds ? `: ${kinds}` : ''}); latency p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${Math.max(...latencies)} ms`;
			},
		);

		await check(
			`the sandbox's records: each of the storm's ${STORM.refunds} refunded exactly once, nothing outside the rounds' refunds`,
			() => {
				const ledger = sandbox.instrumentation.refundLedger;
				assert.ok(delivered, 'the storm was not delivered');
				// The fault rounds before the storm refunded their own transactions (refundIds).
				const outcome = stormOutcome(sandbox, storm, delivered, refundIds, queue.postgres);
				const { genuine, forged, applied, repeats, notOnce, strays, withoutRun, fallbacks } =
					outcome;
				assert.deepEqual(
					notOnce.slice(0, 10),
					[],
					`${notOnce.length} transactions not refunded exactly once`,
				);
				assert.deepEqual(strays, [], 'refunds applied to transactions no round refunds');
				const touchedPartials = storm.partialIds.filter((id) => ledger.has(id));
				assert.deepEqual(touchedPartials, [], 'partial refunds reached the service');
				const stormRefunds = new Set(storm.refundIds);
				const adjusted = sandbox.state.conversions.filter(
					(c) => c.adjustments > 0 && c.transactionId !== null && stormRefunds.has(c.transactionId),
				);
				assert.deepEqual(
					adjusted.map((c) => c.transactionId).sort(),
					[...stormRefunds].sort(),
					"the conversions the sandbox adjusted are not exactly the storm's refunds",
				);
				/** @param {string[]} ids */
				const refusedOf = (ids) => ids.reduce((sum, id) => sum + (ledger.get(id)?.refused ?? 0), 0);
				const refused = refusedOf([...storm.refundIds, ...storm.notReferredIds]);
				const notReferred = refusedOf(storm.notReferredIds);
				assert.equal(
					refused,
					notReferred,
					'the service refused refunds other than the not-referred ones',
				);
				const attempts = delivered.attempts - forged.sent;
				const all2xx = genuine.length === DELIVERIES && outcome.all2xx;
				console.log(
					`Storm (${STORM_TOPOLOGY}): ${DELIVERIES} deliveries, ${attempts} attempts, all 2xx: ${all2xx ? 'yes' : 'no'}, ${withoutRun} answered without a run, ${fallbackSummary(fallbacks)}; the sandbox's records: ${applied} refunds applied to ${adjusted.length} transactions, each exactly once: ${notOnce.length === 0 && strays.length === 0 ? 'yes' : 'no'}, ${repeats} repeats answered "already refunded", ${refused} refused as not found (${STORM.notReferred} not-referred deliveries), ${STORM.partial} partial refunds never sent; ${outcome.forgedLine}`,
				);
				assert.ok(all2xx, 'a genuine delivery never got a 2xx');
				assertForgeriesRefused(forged, STORM.forged);
				return `applied ${applied}, repeats ${repeats}, refused ${refused}`;
			},
		);

		await check(
			"n8n's executions: none left running or queued; every one that did not succeed ended with the killed worker",
			async () => {
				// The storm's executions: example (a)'s, created since it began (the rounds before it
				// left their own).
				const { where: ofStorm } = await settledExecutionsSince(
					queue,
					REFUND_WORKFLOW_ID,
					stormStartedAt,
					'the storm',
				);
				const statuses = Object.fromEntries(
					queue.postgres
						.query(`SELECT status, count(*) FROM execution_entity WHERE ${ofStorm} GROUP BY status`)
						.map((row) => {
							const [status, count] = row.split('\t');
							return [status, Number(count)];
						}),
				);
				const { success = 0, ...others } = statuses;
				// A job whose worker died stalls; n8n gives it up (maxStalledCount 0) with this error, or
				// its recovery check marks the execution crashed.
				// "Before the kill" allows KILL_HANDOVER_MS after it for executions the worker never
				// started: Redis can still hand the dead worker's pending blocking pop a job just queued
				// (seen: 5 created within 200 ms after the SIGKILL, never started, failed as stalled).
				const notSucceeded = queue.postgres.query(
					`SELECT e.id, e.status, e."createdAt" <= to_timestamp(${killedAt / 1000}) OR (e."startedAt" IS NULL AND e."createdAt" <= to_timestamp(${(killedAt + KILL_HANDOVER_MS) / 1000})), d.data LIKE '%${STALLED_JOB_MESSAGE}%'
				FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e.${ofStorm.replace('AND "createdAt"', 'AND e."createdAt"')} AND e.status <> 'success'`,
				);
				const unexplained = notSucceeded
					.map((row) => row.split('\t'))
					.filter(
						([, status, beforeKill, stalled]) =>
							beforeKill !== 't' ||
							!(status === 'crashed' || (status === 'error' && stalled === 't')),
					);
				assert.deepEqual(
					unexplained,
					[],
					`executions that failed for another reason than the killed worker (id, status, created before the kill, stalled): ${JSON.stringify(unexplained.slice(0, 5))}`,
				);
				assert.ok(
					notSucceeded.length <= WORKER_CONCURRENCY,
					`${notSucceeded.length} executions failed; the killed worker ran at most ${WORKER_CONCURRENCY}`,
				);
				// Each delivery's 2xx came from an execution (one killed after its Respond node answered
				// counts among the failed); no execution started without an attempt.
				const attempts = delivered?.attempts ?? 0;
				const executions = success + notSucceeded.length;
				assert.ok(
					executions >= DELIVERIES && executions <= attempts,
					`${success} successful and ${notSucceeded.length} failed executions for ${DELIVERIES} deliveries in ${attempts} attempts`,
				);
				return `${success} successful; ${notSucceeded.length} ended with the killed worker (${JSON.stringify(others)}), all created before the kill`;
			},
		);

		await check(
			`fault round webhook-processor-kill: refunds and purchases to example (i) through nginx, webhook-1 SIGKILLed mid-round and started again; every delivery 2xx, every refund exactly once, every purchase tracked once`,
			async () => {
				const [processor] = queue.processors;
				const line = await runFaultRound(
					queue,
					sandbox,
					product,
					processorKill(processor),
					refundIds,
					() =>
						deliverClaimedPurchases(queue, sandbox, product, {
							purchases: PURCHASES_BESIDE_PROCESSOR_KILL,
							prefix: `processor_kill${Date.now().toString(36)}`,
						}),
				);
				const served = queue.nginx?.answeredByUpstream() ?? new Map();
				const passed = `nginx passed ${[...served].map(([port, n]) => `${n} to port ${port}`).join(', ')}`;
				const idle = queue.processors.filter((p) => !served.get(p.port));
				assert.deepEqual(
					idle.map((p) => p.name),
					[],
					`processors nginx passed no webhook to (${passed})`,
				);
				return `${line}; ${passed}`;
			},
		);

		/** Every answer example (k)'s round got from n8n, for the secret check. @type {string[]} */
		const reconcileAnswers = [];
		await check(scenario('e2e.queueReconcile'), () =>
			runReconcileRound(queue, sandbox, providerApis, product, reconcileAnswers),
		);

		await check(scenario('e2e.queueSecrets'), () => {
			const texts = queue.logs().map((file) => fs.readFileSync(file, 'utf8'));
			texts.push(JSON.stringify(delivered?.deliveries ?? []), ...reconcileAnswers);
			const leaks = texts.filter((text) => text.includes(API_SECRET)).length;
			assert.equal(leaks, 0, `${leaks} of ${texts.length} logs or answers hold the API secret`);
			const stored = Number(
				queue.postgres.query(
					`SELECT count(*) FROM execution_data WHERE data LIKE '%${API_SECRET}%'`,
				)[0],
			);
			assert.equal(stored, 0, `${stored} stored executions hold the API secret`);
			return `${queue.logs().length} process logs, ${delivered?.deliveries.length} answers and the executions table scanned`;
		});
	} finally {
		await deployment?.stop();
		await sandbox.stop();
		await providerApis.stop();
		if (counts.failed === 0) fs.rmSync(folder, { recursive: true, force: true });
		else console.log(`Kept ${folder} for inspection (process logs).`);
	}
	console.log(`QUEUE took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}

main().catch(abort).finally(finish);
