#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run test:upgrade`: n8n upgraded on its own database while payment deliveries arrive
 * (issue 44, part 3). While n8n starts, it listens before its migrations end and answers every
 * request `200 n8n is starting up. Please wait`, webhooks included: a provider counts that
 * delivery delivered and never sends it again. An upgrade's migrations make that window long.
 *
 * PostgreSQL in a folder of the run; the packed package installed into a user folder as n8n
 * installs community packages; n8n 2.35.7's CLI imports the demo credentials and publishes
 * example (a), which creates 2.35.7's schema, and 2.35.7 starts once, serves example (a)'s webhook
 * and stops. Then nginx, the front door (support/services/nginx.js), stands on n8n's port, a
 * payment provider starts delivering signed refunds through it (20 in flight, repeats, partial
 * and not-referred refunds among them), and n8n 2.41.1 starts on the same database, migrating it.
 * A prober posts unsigned bodies straight to n8n and through the door while it starts and prints
 * the `STARTUP WINDOW upgrade:` line (support/payment/startupProber.js). The round then checks the
 * sandbox's refund ledger: every delivery got a 2xx, each from the workflow (`answered without a
 * run` otherwise, naming the delivery), every refund applied exactly once. Prints
 * `FAULT upgrade: …`. Then, on the upgraded n8n, the front door's rounds (e2e/upgrade/frontDoorRounds.js):
 * spellings of /webhook/, n8n SIGSTOPped behind its gate, n8n re-created at a new address behind a
 * name (dnsmasq), each printing its `FRONT DOOR …:` line. Last, `UPGRADE: N passed, N failed`.
 *
 * Needs PostgreSQL, nginx and dnsmasq from scripts/setup-system.sh; installs n8n 2.35.7 and 2.41.1
 * into the cache when missing (support/n8n/n8nInstall.js), or waits for the install under way.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {
	DEFAULT_N8N,
	importDemo,
	importWorkflows,
	installPackedPackage,
	n8nEnvironment,
	startN8nServing,
} = require('../support/n8n/n8nInstance');
const { installRelease, n8nRelease } = require('../support/n8n/n8nInstall');
const { fitTypeVersions } = require('../support/n8n/n8nReleaseDifferences');
const {
	DEMO_KEY,
	PACKAGE,
	example,
	paymentTriggerOf,
	paymentTriggerWebhook,
	readExample,
} = require('../support/n8n/n8nDemoData');
const {
	EXPRESSION_ENGINE_ENVIRONMENT,
	TESTED_RATE_LIMIT,
} = require('../support/n8n/queueDeployment');
const { requireNginx, startNginx } = require('../support/services/nginx');
const { requireDnsmasq } = require('../support/services/dnsmasq');
const { requireCaddy, startCaddy } = require('../support/services/caddy');
const { startPostgres } = require('../support/services/services');
const { freePort, signalProcess, stopProcess } = require('../support/services/processes');
const { deliverAll, planStorm } = require('../support/payment/paymentProvider');
const { probeStartupWindow } = require('../support/payment/startupProber');
const {
	REFUND_WORKFLOW_ID,
	assertAllDelivered,
	fallbackSummary,
	refundWorkflowAnswered,
	settledExecutionsSince,
	stormOutcome,
} = require('./queue/faultRounds');
const { createChecks } = require('./checks');
const { runCaseRound, runHungRound, runRecreatedRound } = require('./upgrade/frontDoorRounds');
const { scenario } = require('../support/scenarios');
const { Sandbox, KEYS } = require('../sandbox');

/** The release whose database 2.41.1 (the default release) upgrades: one of the matrix's. */
const FROM = n8nRelease('2.35.7');
const TO = DEFAULT_N8N;
/** The refund deliveries sent while 2.41.1 starts; nothing forged (a forgery is sent once). */
const ROUND = { refunds: 240, repeats: 30, notReferred: 15, partial: 15 };
const IN_FLIGHT = 20;
/**
 * The provider's retries, squeezed into the test's time: providers retry for hours or days, this
 * one every few seconds (at most RETRY_MAX_MS apart) for a couple of minutes, enough for n8n's
 * start on a loaded machine. What it keeps of providers: a non-2xx is retried, a 2xx never.
 */
const RETRY = { maxAttempts: 40, firstRetryMs: 500, maxRetryMs: 4000 };
const REFUND_WEBHOOK = paymentTriggerWebhook(
	paymentTriggerOf(readExample(example('a').file)).webhookId,
);

const { check, counts, abort, finish } = createChecks('UPGRADE');

/** SIGTERM to n8n, then SIGKILL to what its group left (its task runner). @param {import('node:child_process').ChildProcess} child */
async function stopN8n(child) {
	await stopProcess(child);
	signalProcess(child, true, 'SIGKILL');
}

/** The migrations n8n recorded as run on the database. @param {{ query: (sql: string) => string[] }} postgres */
const migrationsRun = (postgres) => postgres.query('SELECT name FROM migrations ORDER BY id');

async function main() {
	const startedAt = Date.now();
	console.log(
		`UPGRADE: ${PACKAGE.name}@${PACKAGE.version}, n8n ${FROM.n8nVersion} → ${TO.n8nVersion} on PostgreSQL while refunds arrive through the front door`,
	);
	requireNginx();
	requireDnsmasq();
	requireCaddy();
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-upgrade-'));
	const userFolder = path.join(folder, 'user');
	const sandbox = new Sandbox({ port: 0 });
	/** @type {(() => Promise<void>)[]} */
	const stops = [];
	try {
		await check(`n8n ${FROM.n8nVersion} and ${TO.n8nVersion} installed`, async () => {
			const installed = [];
			for (const release of [FROM, TO]) {
				const result = await installRelease(release, (line) => console.log(`      ${line}`));
				installed.push(`${release.n8nVersion} ${result.installedNow ? 'installed now' : 'cached'}`);
			}
			return installed.join(', ');
		});
		await sandbox.start();
		stops.push(() => sandbox.stop());
		const postgres = await startPostgres(folder);
		stops.push(() => postgres.stop());
		const port = await freePort();
		const env = {
			...n8nEnvironment({ userFolder, port, brokerPort: await freePort() }),
			...postgres.n8nEnvironment,
			// As docs/queue-mode.md recommends for payment webhooks at volume.
			...EXPRESSION_ENGINE_ENVIRONMENT,
		};

		let fromMigrations = 0;
		await check(
			`the packed package installed into a user folder; n8n ${FROM.n8nVersion}'s CLI on PostgreSQL imports the demo credentials and publishes example (a)`,
			async () => {
				const { packageJson } = installPackedPackage(userFolder);
				await importDemo(env, sandbox.url, 'http://127.0.0.1:9/v1', false, FROM);
				const workflow = readExample(example('a').file);
				const fitted = fitTypeVersions(FROM, workflow);
				await importWorkflows(env, [{ workflow, id: REFUND_WORKFLOW_ID, publish: true }], FROM);
				fromMigrations = migrationsRun(postgres).length;
				assert.ok(fromMigrations > 0, `n8n ${FROM.n8nVersion} recorded no migration`);
				return `${PACKAGE.name}@${packageJson.version}; n8n ${FROM.n8nVersion}'s schema: ${fromMigrations} migrations${fitted.length > 0 ? `; typeVersions fitted: ${fitted.join(', ')}` : ''}`;
			},
		);
		if (counts.failed > 0) throw new Error(`no n8n ${FROM.n8nVersion} database to upgrade`);

		const logFile = path.join(folder, 'n8n.log');
		await check(
			`n8n ${FROM.n8nVersion} starts on it, serves example (a)'s webhook, and stops`,
			async () => {
				const started = await startN8nServing(env, {
					port,
					logFile,
					webhooks: [REFUND_WEBHOOK],
					release: FROM,
				});
				await stopN8n(started.child);
				return `ready after ${started.readySeconds.toFixed(1)} s, webhook after ${started.webhooksSeconds.toFixed(1)} s`;
			},
		);

		const door = await startNginx(folder, { processors: [port], rateLimit: TESTED_RATE_LIMIT });
		stops.push(() => door.stop());
		// docs/front-door.md's Caddy lines in front of the same n8n: its start probed through both.
		const caddy = await startCaddy(folder, { n8nPort: port });
		stops.push(() => caddy.stop());
		const webhookPath = `/webhook/${REFUND_WEBHOOK.path}`;
		const product = KEYS[DEMO_KEY].product;
		const storm = planStorm(sandbox.instrumentation, product, {
			...ROUND,
			prefix: `upgrade${Date.now().toString(36)}`,
		});
		/** Every refund the rounds send: nothing else may be refunded. */
		const refundIds = new Set(storm.refundIds);
		/** n8n 2.41.1, once started. @type {import('node:child_process').ChildProcess | undefined} */
		let upgraded;

		await check(
			`${scenario('e2e.upgrade')}: n8n ${TO.n8nVersion} starts on ${FROM.n8nVersion}'s database while ${storm.events.length} signed refunds arrive through the front door (${IN_FLIGHT} in flight); no 2xx without a run through it, each refund applied exactly once`,
			async () => {
				const roundStartedAt = Date.now();
				const delivering = deliverAll(`${door.url}${webhookPath}`, storm.events, {
					inFlight: IN_FLIGHT,
					...RETRY,
					ranWorkflow: refundWorkflowAnswered,
					progress: (line) => console.log(`    ${line}`),
				});
				const startup = await probeStartupWindow(
					'upgrade',
					{
						directUrl: `http://127.0.0.1:${port}${webhookPath}`,
						doorUrl: `${door.url}${webhookPath}`,
						otherDoors: [{ name: 'Caddy', url: `${caddy.url}${webhookPath}` }],
					},
					async () => {
						const started = await startN8nServing(
							{ ...env, N8N_LOG_LEVEL: 'info' },
							{ port, logFile, webhooks: [REFUND_WEBHOOK], release: TO },
						);
						stops.push(() => stopN8n(started.child));
						upgraded = started.child;
						return started;
					},
				).catch(async (/** @type {unknown} */ error) => {
					await delivering; // its retries give up; nothing else waits for them
					throw error;
				});
				const delivered = await delivering;
				const settled = await settledExecutionsSince(
					{ postgres },
					REFUND_WORKFLOW_ID,
					roundStartedAt,
					'the upgrade round',
				);
				const failed = settled.count("status <> 'success'");
				const toMigrations = migrationsRun(postgres);
				const outcome = stormOutcome(sandbox, storm, delivered, refundIds, postgres);
				const { genuine, all2xx, withoutRun, fallbacks, applied, repeats, notOnce, strays } =
					outcome;
				const exactlyOnce = notOnce.length === 0 && strays.length === 0;
				const retried = genuine.filter((d) => d.attempts > 1).length;
				const { readySeconds } = startup.result;
				console.log(
					`FAULT upgrade: ${genuine.length} deliveries, all 2xx: ${all2xx ? 'yes' : 'no'}, refunds applied ${applied} each exactly once: ${exactlyOnce ? 'yes' : 'no'}, ${withoutRun} answered without a run, ${fallbackSummary(fallbacks)}; repeats ${repeats}, executions failed ${failed}; n8n ${TO.n8nVersion} ran ${toMigrations.length - fromMigrations} migrations and was ready ${readySeconds.toFixed(1)} s after its start, n8n's start-up 200 straight for ${startup.direct.windowMs} ms; ${delivered.attempts} attempts, ${retried} deliveries retried`,
				);
				// Names a delivery that never got a 2xx, or got one without the workflow's answer.
				assertAllDelivered(genuine, 'deliveries');
				assert.deepEqual(
					notOnce.slice(0, 5),
					[],
					`${notOnce.length} refunds not applied exactly once`,
				);
				assert.deepEqual(
					strays.slice(0, 5),
					[],
					'refunds applied to transactions the round does not refund',
				);
				const ledger = sandbox.instrumentation.refundLedger;
				const touchedPartials = storm.partialIds.filter((id) => ledger.has(id));
				assert.deepEqual(touchedPartials, [], 'partial refunds reached the service');
				assert.ok(startup.otherDoors[0].probes > 0, 'no probe went through Caddy');
				assert.ok(
					startup.direct.twoXx > 0,
					`n8n ${TO.n8nVersion} answered no probe 200 while it migrated: the round saw no start-up window (did n8n stop answering "starting up"? then this round proves nothing and must change)`,
				);
				assert.ok(toMigrations.length > fromMigrations, `n8n ${TO.n8nVersion} ran no migration`);
				return `the new migrations: ${toMigrations.slice(fromMigrations).join(', ')}`;
			},
		);
		if (!upgraded || counts.failed > 0)
			throw new Error('no upgraded n8n for the front-door rounds');
		const running = upgraded;
		const context = {
			sandbox,
			postgres,
			folder,
			product,
			refundIds,
			webhookPath,
			retry: RETRY,
			stops,
		};
		await check(
			`${scenario('e2e.frontDoorCase')}: spellings of /webhook/ straight to n8n and through the door while n8n starts; none reaches n8n past the gate`,
			() => runCaseRound(context, port),
		);
		await check(
			`${scenario('e2e.frontDoorHung')}: n8n SIGSTOPped behind its gate while refunds arrive through the door`,
			() => runHungRound(context, door.url, running),
		);
		await check(
			`${scenario('e2e.frontDoorRecreated')}: n8n re-created at a new address behind a name while refunds arrive through a door that re-resolves it`,
			async () => {
				await stopN8n(running);
				const recreated = await runRecreatedRound(
					context,
					(host) =>
						startN8nServing(
							{ ...env, N8N_LISTEN_ADDRESS: host },
							{ port, logFile, webhooks: [REFUND_WEBHOOK], release: TO },
						),
					stopN8n,
					port,
				);
				return recreated.detail;
			},
		);
	} catch (error) {
		abort(error);
	} finally {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
		if (counts.failed === 0) fs.rmSync(folder, { recursive: true, force: true });
		else console.log(`Kept ${folder} for inspection (n8n.log, nginx's logs).`);
	}
	console.log(`UPGRADE took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}

main().catch(abort).finally(finish);
