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
 *      (why: bench/RESULTS.md);
 *   b. n8n's Stripe Trigger with its credential's Signature Secret;
 *   c. n8n's Webhook node (version 2, static parameters) with Header Auth.
 * A forged delivery is a Stripe-style `Stripe-Signature` header signed with a wrong secret for
 * (a) and (b), a wrong header token for (c); each must be refused (401, the Webhook node 403),
 * or the run fails. Accepted deliveries are a Stripe `checkout.session.completed` event signed
 * with the stripe SDK to (a), the right token to (c); each must get 2xx.
 *
 * The Stripe Trigger's activation calls api.stripe.com, which this machine cannot reach: the rows
 * n8n keeps once it has created the endpoint there are written beforehand
 * (`registeredStripeEndpoint` in bench/floodWorkflows.js says how); n8n's files are untouched.
 *
 * Per engine: a warm-up; then BENCH_FLOOD_ROUNDS rounds, each a block of forged deliveries to
 * every receiver (in turn, the order reversed every other round, so that the machine's other load
 * falls on all alike) and a block of accepted deliveries to (a) version 2 and (c); n8n's CPU (its
 * process tree: main and task runner) read before each block and after n8n has gone quiet again.
 * Then the flood with valid deliveries: forged deliveries to (a) version 2 at full rate while
 * BENCH_FLOOD_VALID valid ones go to the same trigger (paced, BENCH_FLOOD_VALID_PER_SECOND, at
 * most 5 in flight), the flood lasting until the last valid one is answered.
 * Then what the front door's gate costs (support/services/nginx.js: `auth_request` on n8n's
 * `/healthz/readiness`, one subrequest per delivery): the same n8n behind two nginx at once, the
 * gated front door and the same configuration without the gate (`gate: false`); in each round a
 * block of forged and a block of accepted deliveries to (a) version 2 through each (the order
 * reversed every other round); per block the latency p50 and p99, deliveries per second (to the
 * last answer), n8n's CPU per delivery (until it is quiet again) and nginx's (master and worker,
 * to the nanosecond); the ratios gated / ungated taken round by round.
 * Last, the gated front door with `limit_req`, the forged deliveries from 127.0.0.3 and the valid
 * ones from 127.0.0.2, first the forged deliveries alone, then with the valid ones.
 *
 * Environment: BENCH_FLOOD_FORGED (default 300 forged deliveries per receiver and engine,
 * split over the rounds), BENCH_FLOOD_ROUNDS (3), BENCH_FLOOD_IN_FLIGHT (20), BENCH_FLOOD_ACCEPTED
 * (150 accepted deliveries per receiver and engine, split over the rounds), BENCH_FLOOD_VALID
 * (100), BENCH_FLOOD_VALID_PER_SECOND (10), BENCH_FLOOD_GATE (300 forged and 300 accepted
 * deliveries through each of the gated and ungated front doors per engine, split over the rounds),
 * BENCH_FLOOD_RATE_LIMIT (nginx's `perSecond,burst`, default 20,40), BENCH_FLOOD_ENGINES (default
 * "vm,lazy,legacy"). A small run for trying changes: BENCH_FLOOD_ENGINES=lazy
 * BENCH_FLOOD_FORGED=60 BENCH_FLOOD_ACCEPTED=30 BENCH_FLOOD_VALID=20 BENCH_FLOOD_GATE=60.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const {
	importCredentials,
	importWorkflows,
	installDefaultRelease,
	installPackedPackage,
	n8nEnvironment,
	startN8nServing,
} = require('../support/n8n/n8nInstance');
const { DEFAULT_RATE_LIMIT, startNginx } = require('../support/services/nginx');
const processes = require('../support/services/processes');
const statistics = require('../support/statistics');
const { expectStatuses, send, statusCounts } = require('./deliveries');
const floodWorkflows = require('./floodWorkflows');
const { DOOR_FIGURES, floodReport } = require('./floodReport');
const { benchSettings } = require('./settings');

const { freePort, processTreeCpuSeconds, processTreeRunSeconds, sleep, stopProcess } = processes;
const { fmt, percentile } = statistics;
const { benchCredentials, benchWorkflows, registeredStripeEndpoint } = floodWorkflows;
const { forgedPurchase, signedPurchase } = floodWorkflows;

const SETTINGS = benchSettings('BENCH_FLOOD_', {
	FORGED: 300,
	ROUNDS: 3,
	IN_FLIGHT: 20,
	ACCEPTED: 150,
	VALID: 100,
	VALID_PER_SECOND: 10,
	GATE: 300,
	RATE_LIMIT: [DEFAULT_RATE_LIMIT.perSecond, DEFAULT_RATE_LIMIT.burst],
	ENGINES: ['vm', 'lazy', 'legacy'],
});
const { FORGED, ROUNDS, IN_FLIGHT, ACCEPTED, VALID, VALID_PER_SECOND, GATE } = SETTINGS;
const VALID_IN_FLIGHT = 5;
const RATE_LIMIT = { perSecond: SETTINGS.RATE_LIMIT[0], burst: SETTINGS.RATE_LIMIT[1] };
/** Deliveries of each kind to each receiver before the measured rounds (first runs, JIT). */
const WARM_UP = 20;
/** The flood's source address and the provider's, for nginx's per-address limit. */
const ATTACKER_ADDRESS = '127.0.0.3';
const PROVIDER_ADDRESS = '127.0.0.2';
/** n8n is quiet again when its processes used at most one clock tick in this long. */
const QUIET_MS = 300;

/**
 * @typedef {import('./floodReport').Engine} Engine
 * @typedef {import('./deliveries').Delivery} Delivery
 * @typedef {import('./deliveries').Answer} Answer
 * @typedef {import('./floodWorkflows').Receiver} Receiver
 * @typedef {import('./floodReport').Flood} Flood
 * @typedef {import('./floodReport').DoorBlock} DoorBlock
 * @typedef {import('./floodReport').Door} Door
 * @typedef {import('./floodReport').GateCost} GateCost
 * @typedef {import('./floodReport').EngineResult} EngineResult
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
const ENGINES = ALL_ENGINES.filter((engine) => SETTINGS.ENGINES.includes(engine.key));

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

/**
 * What the gate costs (step 4 of an engine): nginx twice in front of n8n's `port`, the gated front
 * door and the same configuration without the gate; a warm-up through each, then ROUNDS rounds of a
 * block of each kind through each door, the doors' order reversed every other round.
 * @template {{ name: string }} K
 * @param {(kind: K, count: number, what: string, door: { url: string, pid: number }) => Promise<DoorBlock>} block
 * @param {K[]} kinds the forged deliveries and the accepted ones
 * @param {{ work: string, port: number, engine: Engine }} setup
 * @returns {Promise<GateCost>}
 */
async function gateCost(block, kinds, { work, port, engine }) {
	/** @type {Door[]} */
	const doors = ['gated', 'ungated'];
	/** @type {{ url: string, pid: number, stop: () => Promise<void> }[]} */
	const nginx = [];
	try {
		for (const door of doors)
			nginx.push(
				await startNginx(work, {
					processors: [port],
					gate: door === 'gated',
					name: `nginx-${door}-${engine.key}`,
				}),
			);
		for (const kind of kinds)
			for (const [i, door] of doors.entries())
				await block(kind, WARM_UP, `${door} front door, warm-up, ${kind.name}`, nginx[i]);
		/** @type {GateCost} */
		const cost = { gated: { forged: [], accepted: [] }, ungated: { forged: [], accepted: [] } };
		for (let round = 1; round <= ROUNDS; round++) {
			const order = round % 2 === 1 ? [0, 1] : [1, 0];
			for (const kind of kinds)
				for (const i of order)
					cost[doors[i]][/** @type {'forged' | 'accepted'} */ (kind.name)].push(
						await block(
							kind,
							Math.round(GATE / ROUNDS),
							`${doors[i]} front door, ${kind.name}`,
							nginx[i],
						),
					);
			const figures = kinds.map(({ name }) => {
				const [gated, ungated] = doors.map(
					(door) => cost[door][/** @type {'forged' | 'accepted'} */ (name)][round - 1],
				);
				const pair = DOOR_FIGURES.map(
					([label, key, digits]) =>
						`${label} ${fmt(gated[key], digits)}/${fmt(ungated[key], digits)}`,
				);
				return `${name}: ${pair.join(', ')}`;
			});
			console.log(
				`  ${engine.key}, gate round ${round}/${ROUNDS}, gated/ungated: ${figures.join('; ')}`,
			);
		}
		return cost;
	} finally {
		for (const door of nginx) await door.stop();
	}
}

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
	/** @param {number} maxSockets @param {string} [localAddress] */
	const newAgent = (maxSockets, localAddress) =>
		new http.Agent({ keepAlive: true, maxSockets, localAddress });
	const agent = newAgent(IN_FLIGHT);
	const url = (/** @type {Receiver} */ receiver, base = `http://127.0.0.1:${port}`) =>
		`${base}/webhook/${receiver.path}`;
	const trigger2 = /** @type {Receiver} */ (receivers.find((r) => r.key === 'trigger2'));
	/**
	 * `work`'s result, its seconds (to its last answer), and the CPU in ms that n8n, and nginx's
	 * `nginxPid` if given, used from its start until n8n is quiet again.
	 * @template T @param {() => Promise<T>} work @param {number} [nginxPid]
	 */
	const measured = async (work, nginxPid) => {
		const nginxCpu = () => (nginxPid ? processTreeRunSeconds(nginxPid) : 0);
		const [before, nginxBefore, started] = [
			processTreeCpuSeconds(pid),
			nginxCpu(),
			performance.now(),
		];
		const result = await work();
		const seconds = (performance.now() - started) / 1000;
		await quiet(pid);
		const cpuMs = (processTreeCpuSeconds(pid) - before) * 1000;
		return { result, seconds, cpuMs, nginxCpuMs: (nginxCpu() - nginxBefore) * 1000 };
	};
	/** The forged deliveries to every receiver, then the accepted ones to those that take them. */
	const kinds = [
		{
			name: 'forged',
			of: receivers,
			total: FORGED,
			make: (/** @type {Receiver} */ r) => r.forged,
			statuses: (/** @type {Receiver} */ r) => [r.refusal],
		},
		{
			name: 'accepted',
			of: receivers.filter((r) => r.valid),
			total: ACCEPTED,
			make: (/** @type {Receiver} */ r) => /** @type {() => Delivery} */ (r.valid),
			statuses: () => [200, 201, 202, 204],
		},
	];
	try {
		/**
		 * One measured block of `count` deliveries of `kind` to `receiver`, made before the clock
		 * starts, straight to n8n or through `door`: its figures, CPU in ms per delivery; every
		 * answer must have the kind's statuses.
		 * @param {typeof kinds[number]} kind @param {Receiver} receiver @param {number} count @param {string} what
		 * @param {{ url: string, pid: number }} [door]
		 * @returns {Promise<DoorBlock>}
		 */
		const block = async (kind, receiver, count, what, door) => {
			const deliveries = Array.from({ length: count }, kind.make(receiver));
			const to = url(receiver, door?.url);
			const { result: answers, ...figures } = await measured(
				() => send(agent, to, IN_FLIGHT, (i) => deliveries[i], count),
				door?.pid,
			);
			expectStatuses(answers, kind.statuses(receiver), `${engine.key}, ${receiver.name}, ${what}`);
			const latencies = answers.map((a) => a.ms);
			return {
				p50: /** @type {number} */ (percentile(latencies, 50)),
				p99: /** @type {number} */ (percentile(latencies, 99)),
				perSecond: count / figures.seconds,
				cpuMs: figures.cpuMs / count,
				nginxCpuMs: figures.nginxCpuMs / count,
			};
		};
		for (const kind of kinds)
			for (const receiver of kind.of) await block(kind, receiver, WARM_UP, `warm-up, ${kind.name}`);

		/** @type {Record<string, Record<string, number[]>>} by kind, then receiver key */
		const cpu = Object.fromEntries(
			kinds.map((k) => [k.name, Object.fromEntries(k.of.map((r) => [r.key, []]))]),
		);
		for (let round = 1; round <= ROUNDS; round++) {
			for (const kind of kinds) {
				// Reversed every other round, so that the machine's other load falls on all alike.
				for (const receiver of round % 2 === 1 ? kind.of : [...kind.of].reverse())
					cpu[kind.name][receiver.key].push(
						(await block(kind, receiver, Math.round(kind.total / ROUNDS), kind.name)).cpuMs,
					);
			}
			const [forged, accepted] = kinds.map((k) =>
				k.of.map((r) => `${r.key} ${fmt(cpu[k.name][r.key][round - 1], 2)}`).join(', '),
			);
			console.log(
				`  ${engine.key}, round ${round}/${ROUNDS}: CPU ms per forged delivery ${forged}; per accepted ${accepted}`,
			);
		}

		/**
		 * The flood: forged deliveries to (a) v2 at full rate, from `attacker`, until the provider's
		 * VALID deliveries (paced) are answered and at least FORGED forged ones were sent.
		 * @param {string} base @param {http.Agent} attacker @param {http.Agent} provider @param {string} what
		 */
		const flood = async (base, attacker, provider, what) => {
			let validDone = false;
			const to = url(trigger2, base);
			const more = (/** @type {number} */ sent) => sent < FORGED || !validDone;
			const { result, seconds, cpuMs } = await measured(() =>
				Promise.all([
					send(attacker, to, IN_FLIGHT, forgedPurchase, more),
					send(provider, to, VALID_IN_FLIGHT, signedPurchase, VALID, VALID_PER_SECOND).finally(
						() => (validDone = true),
					),
				]),
			);
			const [forgedAnswers, validAnswers] = result;
			const latencies = validAnswers.map((a) => a.ms);
			const limited = forgedAnswers.filter((a) => a.status === 429).length;
			/** @type {Flood} */
			const figures = {
				forged: forgedAnswers.length,
				limited,
				passed: forgedAnswers.length - limited,
				seconds,
				p50: /** @type {number} */ (percentile(latencies, 50)),
				p99: /** @type {number} */ (percentile(latencies, 99)),
				ok: validAnswers.filter((a) => a.status >= 200 && a.status < 300).length,
				valid: validAnswers.length,
				cpuMs,
			};
			console.log(
				`  ${engine.key}, ${what}: forged ${statusCounts(forgedAnswers)} in ${fmt(seconds, 1)} s; valid ${statusCounts(validAnswers)}, p50 ${fmt(figures.p50)} ms, p99 ${fmt(figures.p99)} ms; n8n CPU ${fmt(cpuMs / 1000, 1)} s`,
			);
			return { figures, forgedAnswers };
		};

		// 3. The flood and valid deliveries, straight to n8n.
		const direct = await flood(`http://127.0.0.1:${port}`, agent, agent, 'flood');
		expectStatuses(direct.forgedAnswers, [401], `${engine.key}, flood, forged`);

		// 4. What the gate costs: the same n8n behind the gated front door and the ungated one.
		const gate = await gateCost(
			(kind, count, what, door) => block(kind, trigger2, count, what, door),
			kinds,
			{ work, port, engine },
		);

		// 5. The gated front door with limit_req, the attacker and the provider from their own addresses.
		const nginx = await startNginx(work, {
			processors: [port],
			rateLimit: RATE_LIMIT,
			name: `nginx-${engine.key}`,
		});
		const attacker = newAgent(IN_FLIGHT, ATTACKER_ADDRESS);
		const provider = newAgent(VALID_IN_FLIGHT, PROVIDER_ADDRESS);
		try {
			const to = url(trigger2, nginx.url);
			const { result: alone, cpuMs: aloneCpuMs } = await measured(() =>
				send(attacker, to, IN_FLIGHT, forgedPurchase, FORGED),
			);
			expectStatuses(alone, [401, 429], `${engine.key}, nginx, forged alone`);
			const limited429 = alone.filter((a) => a.status === 429).length;
			const nginxAlone = { sent: alone.length, limited: limited429, cpuMs: aloneCpuMs };
			console.log(
				`  ${engine.key}, nginx, forged alone: ${statusCounts(alone)}; n8n CPU ${fmt(aloneCpuMs / alone.length, 2)} ms per forged delivery sent`,
			);
			// The limit's bucket fills again before the flood with valid deliveries.
			await sleep(((RATE_LIMIT.burst + 1) / RATE_LIMIT.perSecond) * 1000);
			const limited = await flood(nginx.url, attacker, provider, 'nginx, with valid deliveries');
			expectStatuses(limited.forgedAnswers, [401, 429], `${engine.key}, nginx flood, forged`);
			const { forged, accepted } = cpu;
			const nginxFlood = limited.figures;
			return { engine, forged, accepted, flood: direct.figures, gate, nginxAlone, nginxFlood };
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
		const { workflows, receivers } = benchWorkflows();
		await importCredentials(baseEnv, benchCredentials());
		await importWorkflows(baseEnv, workflows);
		registeredStripeEndpoint(userFolder);

		/** @type {EngineResult[]} */
		const results = [];
		for (const engine of ENGINES)
			results.push(await runEngine(engine, { work, baseEnv, port, receivers }));

		const lines = floodReport(results, receivers, {
			...SETTINGS,
			RATE_LIMIT,
			VALID_IN_FLIGHT,
			WARM_UP,
			ATTACKER_ADDRESS,
			PROVIDER_ADDRESS,
		});
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
