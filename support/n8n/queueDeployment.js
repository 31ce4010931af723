// @ts-check
'use strict';
/**
 * n8n in queue mode, as production runs it: PostgreSQL, Redis, the main taking webhooks behind the
 * front door (nginx gating `/webhook/` on the main's readiness, support/services/nginx.js),
 * workers running them; the package published to a local registry and `npm install`ed on every
 * instance. `useWebhookProcessors()` then moves production webhooks to `n8n webhook` processors
 * behind the front door for processors. Shared by `npm run test:queue` and `npm run bench:queue`.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const {
	DEFAULT_N8N_MODULES,
	installDefaultRelease,
	importCredentials,
	importDemo,
	importWorkflows,
	n8nEnvironment,
	startN8n,
	waitForWebhooks,
} = require('./n8nInstance');
const { example, paymentTriggerOf, paymentTriggerWebhook, readExample } = require('./n8nDemoData');
const { requireNginx, startNginx } = require('../services/nginx');
const {
	freePort,
	processTreeCpuSeconds,
	signalProcess,
	stopProcess,
} = require('../services/processes');
const {
	ensureRegistry,
	installFromRegistry,
	publishAsReleased,
	startRegistry,
} = require('../services/registry');
const { requireServers, startPostgres, startRedis } = require('../services/services');

/** Example (a): the refund workflow a payment provider's webhooks drive. */
const REFUND_EXAMPLE = example('a');
/** Its Payment Webhook Trigger's production webhook. */
const REFUND_WEBHOOK = paymentTriggerWebhook(
	paymentTriggerOf(readExample(REFUND_EXAMPLE.file)).webhookId,
);
/** How long main and workers wait for Redis to come back before they exit (n8n's default: 10 s). */
const REDIS_TIMEOUT_THRESHOLD_MS = 60_000;
/** Executions a worker runs at once (n8n's default for `n8n worker`). */
const WORKER_CONCURRENCY = 10;
/**
 * The expression engine's setting on every instance, as docs/queue-mode.md recommends for payment
 * webhooks at volume: n8n's default `vm` engine, building an isolate only at the first expression
 * that needs one. With it, a Payment Webhook Trigger of version 2 with static parameters builds
 * none before its check (bench/RESULTS.md: a flood of forged deliveries). test:upgrade's n8n too.
 */
const EXPRESSION_ENGINE_ENVIRONMENT = { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' };

/**
 * The front doors' rate limit in the tests: docs/front-door.md's lines, `limit_req` included, with
 * the rate set above the storms' peak (one client address sends them all), as the page tells users
 * to set it above their provider's. bench:flood runs the documented default and its 429s.
 */
const TESTED_RATE_LIMIT = { perSecond: 500, burst: 1000 };

/**
 * Starts the whole deployment with example (a) published, and beside it `extraWorkflows`, each
 * published under its own webhook (the benchmark's variants of example (a),
 * bench/queueWorkflows.js), unless its `publish` is false. `extraEnvironment` is added to the main's and the workers' environment
 * (bench:queue's Code node needs NODE_FUNCTION_ALLOW_BUILTIN=crypto). `copyOfN8nWorkflowOnWorker`
 * (a worker's number) installs a copy of n8n-workflow beside the package on that worker.
 * `extraCredentials` gives credentials to import beside the demo ones, in `n8n import:credentials`
 * form, from the deployment's PostgreSQL (for workflows that use it too).
 * @param {{ folder: string, workers: number, sandboxUrl: string, log: (line: string) => void, extraWorkflows?: { workflow: object, id: string, webhook?: { method: string, path: string }, publish?: boolean }[], extraCredentials?: (postgres: Awaited<ReturnType<typeof startPostgres>>) => { id: string, name: string, type: string, data: Record<string, unknown> }[], extraEnvironment?: Record<string, string>, copyOfN8nWorkflowOnWorker?: number }} options
 */
async function startQueueDeployment({
	folder,
	workers,
	sandboxUrl,
	log,
	extraWorkflows = [],
	extraCredentials = () => [],
	extraEnvironment = {},
	copyOfN8nWorkflowOnWorker,
}) {
	requireServers();
	requireNginx();
	await installDefaultRelease(log);
	ensureRegistry(log);
	/** @type {(() => Promise<void>)[]} */
	const stops = [];
	const stopAll = async () => {
		for (const stop of stops.reverse()) await stop().catch(() => undefined);
	};
	try {
		const postgres = await startPostgres(folder);
		stops.push(() => postgres.stop());
		const redis = await startRedis(folder);
		stops.push(() => redis.stop());
		const registry = await startRegistry(folder);
		stops.push(() => registry.stop());
		const published = publishAsReleased(registry, folder);
		log(
			`Published to ${registry.url}: ${published.files} files, ${(published.unpackedSize / 1024).toFixed(0)} KiB unpacked`,
		);

		const shared = {
			...postgres.n8nEnvironment,
			...redis.n8nEnvironment,
			EXECUTIONS_MODE: 'queue',
			N8N_ENCRYPTION_KEY: crypto.randomBytes(24).toString('hex'),
			// Executions left running by a worker that died are marked crashed at the main's next
			// recovery check: every minute here (n8n's default is 180).
			N8N_EXECUTIONS_QUEUE_RECOVERY_INTERVAL: '1',
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			// n8n exits when Redis has been unreachable for this long (its default: 10 s); the
			// fault rounds stop Redis for 10 s, as a restart does.
			QUEUE_BULL_REDIS_TIMEOUT_THRESHOLD: String(REDIS_TIMEOUT_THRESHOLD_MS),
			...EXPRESSION_ENGINE_ENVIRONMENT,
			...extraEnvironment,
		};
		/** @type {Record<string, { packages: string[], bytes: number }>} */
		const installs = {};
		/** @param {string} name @param {string[]} [alsoInstall] */
		const userFolderFor = (name, alsoInstall) => {
			const userFolder = path.join(folder, name);
			installs[name] = installFromRegistry(registry, userFolder, alsoInstall);
			return userFolder;
		};

		/** @param {string} name @param {number} port @param {string[]} [alsoInstall] */
		const instanceEnvironment = async (name, port, alsoInstall) => ({
			...n8nEnvironment({
				userFolder: userFolderFor(name, alsoInstall),
				port,
				brokerPort: await freePort(),
			}),
			...shared,
		});

		const mainPort = await freePort();
		/** @type {NodeJS.ProcessEnv} */
		let mainEnv = await instanceEnvironment('main', mainPort);
		// The demo credentials include the AI example's model credential; no model runs here.
		await importDemo(mainEnv, sandboxUrl, 'http://127.0.0.1:9/v1', false);
		const credentials = extraCredentials(postgres);
		if (credentials.length > 0) await importCredentials(mainEnv, credentials);
		const workflows = [
			{ workflow: readExample(REFUND_EXAMPLE.file), id: REFUND_EXAMPLE.id, publish: true },
			...extraWorkflows.map(({ workflow, id, publish = true }) => ({ workflow, id, publish })),
		];
		await importWorkflows(mainEnv, workflows);
		/** `n8n <args>` (start) with its output appended to `log`. @param {NodeJS.ProcessEnv} env @param {number} port @param {string} log @param {string[]} [args] */
		const startLogged = (env, port, log, args) =>
			startN8n(env, { port, onOutput: appendTo(log), args });
		const mainLog = path.join(folder, 'main.log');
		const startMain = () => startLogged(mainEnv, mainPort, mainLog);
		let main = await startMain();
		stops.push(() => stopGroup(main));
		const publishedWebhooks = [REFUND_WEBHOOK, ...extraWorkflows.flatMap((w) => w.webhook ?? [])];
		await waitForWebhooks(mainPort, publishedWebhooks);
		const mainDoor = await startNginx(folder, {
			processors: [mainPort],
			name: 'nginx-main',
			rateLimit: TESTED_RATE_LIMIT,
		});
		stops.push(() => mainDoor.stop());
		/** Where production webhooks are sent: the main's front door, or the processors' once they take them. */
		let webhookBase = mainDoor.url;
		/** @type {Awaited<ReturnType<typeof startNginx>> | undefined} */
		let nginx;

		/**
		 * @typedef {{ name: string, port: number, env: NodeJS.ProcessEnv, log: string, child: import('node:child_process').ChildProcess | null }} Processor
		 * @type {Processor[]}
		 */
		const processors = [];
		/** @param {Processor} processor */
		const startProcessor = async (processor) => {
			processor.child = await startLogged(processor.env, processor.port, processor.log, [
				'webhook',
			]);
			await waitForWebhooks(processor.port, publishedWebhooks);
		};

		/** @type {{ name: string, child: import('node:child_process').ChildProcess, log: string }[]} */
		const running = [];
		let started = 0;
		const startWorker = async () => {
			started++;
			const name = `worker-${started}`;
			const healthPort = await freePort();
			const copy = started === copyOfN8nWorkflowOnWorker;
			const env = {
				...(await instanceEnvironment(
					name,
					healthPort,
					copy ? [`n8n-workflow@${n8nWorkflowVersion()}`] : [],
				)),
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			};
			const logFile = path.join(folder, `${name}.log`);
			const args = ['worker', `--concurrency=${WORKER_CONCURRENCY}`];
			const child = await startLogged(env, healthPort, logFile, args);
			const worker = { name, child, log: logFile };
			running.push(worker);
			stops.push(() => stopWorker(worker));
			return worker;
		};
		/** @param {{ child: import('node:child_process').ChildProcess }} worker */
		const stopWorker = async (worker) => {
			await stopGroup(worker.child);
			running.splice(running.indexOf(/** @type {(typeof running)[number]} */ (worker)), 1);
		};
		for (let i = 0; i < workers; i++) await startWorker();

		return {
			/** Example (a)'s production webhook, where it is served now. */
			get webhookUrl() {
				return `${webhookBase}/webhook/${REFUND_WEBHOOK.path}`;
			},
			/** The webhook URL of each of `extraWorkflows`, in their order. */
			get extraWebhookUrls() {
				return extraWorkflows.flatMap((w) =>
					w.webhook ? [`${webhookBase}/webhook/${w.webhook.path}`] : [],
				);
			},
			/** The origin production webhooks are sent to: the front door of the main, or of the processors. */
			get webhookBase() {
				return webhookBase;
			},
			/** Example (a)'s production webhook on one n8n process itself, past the front door. @param {number} port */
			directWebhookUrl: (port) => `http://127.0.0.1:${port}/webhook/${REFUND_WEBHOOK.path}`,
			mainPort,
			mainLog,
			/** SIGKILL the main and its task runner, as a lost node or the OOM killer would. */
			killMain() {
				killGroup(main);
			},
			/** A main again (after killMain), ready, and serving the published webhooks unless processors do. */
			async restartMain() {
				main = await startMain();
				if (processors.length === 0) await waitForWebhooks(mainPort, publishedWebhooks);
			},
			/**
			 * n8n's scaling set-up for webhooks: the main stopped and started again with
			 * N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true, `count` webhook processors (`n8n webhook`, the
			 * package installed on each from the registry) serving the published webhooks, and nginx
			 * balancing them round-robin through one gate each (`processors`, `nginx`); production
			 * webhooks are sent to that front door from then on.
			 * @param {number} count
			 */
			async useWebhookProcessors(count) {
				await stopGroup(main);
				mainEnv = { ...mainEnv, N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true' };
				main = await startMain();
				for (let i = 1; i <= count; i++) {
					const name = `webhook-${i}`;
					const port = await freePort();
					const env = await instanceEnvironment(name, port);
					/** @type {Processor} */
					const processor = { name, port, env, log: path.join(folder, `${name}.log`), child: null };
					processors.push(processor);
					stops.push(async () => {
						if (processor.child) await stopGroup(processor.child);
					});
				}
				await Promise.all(processors.map(startProcessor));
				const balancer = await startNginx(folder, {
					processors: processors.map((processor) => processor.port),
					editor: mainPort,
					rateLimit: TESTED_RATE_LIMIT,
				});
				nginx = balancer;
				stops.push(() => balancer.stop());
				webhookBase = balancer.url;
			},
			/** SIGKILL a webhook processor, as a lost node would. @param {Processor} processor */
			killProcessor(processor) {
				if (processor.child) killGroup(processor.child);
			},
			/** A killed processor started again on its port and user folder, serving the webhooks. @param {Processor} processor */
			restartProcessor: startProcessor,
			postgres,
			redis,
			installs,
			workers: running,
			/** The webhook processors, once useWebhookProcessors has started them. */
			processors,
			/** nginx in front of them, once started. */
			get nginx() {
				return nginx;
			},
			startWorker,
			/** A graceful stop (SIGTERM: the worker finishes its jobs first). */
			stopWorker,
			/** SIGKILL a worker and its task runner, as the kernel's OOM killer or a lost node would. @param {{ child: import('node:child_process').ChildProcess }} worker */
			killWorker(worker) {
				killGroup(worker.child);
			},
			/** CPU seconds so far of the main, each worker, PostgreSQL and Redis. */
			cpuSeconds() {
				return {
					main: processTreeCpuSeconds(/** @type {number} */ (main.pid)),
					workers: running.map((worker) =>
						processTreeCpuSeconds(/** @type {number} */ (worker.child.pid)),
					),
					postgres: processTreeCpuSeconds(postgres.pid),
					redis: processTreeCpuSeconds(redis.pid),
				};
			},
			/** Every process's log, for the secret check. */
			logs: () => [
				mainLog,
				...running.map((worker) => worker.log),
				...processors.map((processor) => processor.log),
			],
			stop: stopAll,
		};
	} catch (error) {
		await stopAll();
		throw error;
	}
}

/** The n8n-workflow version the installed n8n uses. */
function n8nWorkflowVersion() {
	return JSON.parse(
		fs.readFileSync(path.join(DEFAULT_N8N_MODULES, 'n8n-workflow', 'package.json'), 'utf8'),
	).version;
}

/** SIGKILL a process's group. @param {import('node:child_process').ChildProcess} child */
const killGroup = (child) => signalProcess(child, true, 'SIGKILL');

/**
 * A graceful stop, then SIGKILL for what its group left (its task runner, if still there).
 * @param {import('node:child_process').ChildProcess} child
 */
async function stopGroup(child) {
	await stopProcess(child);
	killGroup(child);
}

/** A line writer appending to a log file. @param {string} file */
function appendTo(file) {
	const stream = fs.createWriteStream(file, { flags: 'a' });
	return (/** @type {string} */ line) => stream.write(`${line}\n`);
}

module.exports = {
	EXPRESSION_ENGINE_ENVIRONMENT,
	TESTED_RATE_LIMIT,
	WORKER_CONCURRENCY,
	startQueueDeployment,
};
