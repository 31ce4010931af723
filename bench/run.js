// @ts-check
'use strict';
/**
 * `npm run bench`: throughput of four ways to call the API from n8n, side by side, against the
 * sandbox in its own process (so that this process's CPU time is the client's alone):
 *   a. this node in n8n-core's engine;
 *   b. the hand-built alternative: v2 signatures computed per item as a Code node would, then
 *      n8n's HTTP Request node (V4.2) in the same engine, which sends every item at once;
 *   c. a raw undici client at the same concurrency as (a): the ceiling of a client that may keep
 *      connections alive, which no node that must send through n8n's helper can;
 *   d. the helper floor: a minimal node sending the same signed requests through n8n's
 *      httpRequestWithAuthentication, with no validation and no retries: the best such a node does.
 * (a) also runs at Concurrency 50, its maximum (a50).
 *
 * Each client is measured BENCH_ROUNDS times, interleaved (round 1: a, d, a50, b, c; round 2: a,
 * d, …), every round in a fresh process after a warm-up, against a reset sandbox. A round is
 * enough executions of `size` items to reach BENCH_ROUND_ITEMS items (3 executions of 1,000 by
 * default; one of 10,000), so that it lasts seconds, not one. The table gives each client's
 * medians (items/s and CPU per item with their min–max); the ratio lines are computed per round
 * (a of round i against d of round i) and print the median and min–max of those ratios.
 *
 * Then the memory round: one execution of BENCH_MEMORY_ITEMS items (100,000) for (a) and for (d),
 * each in a fresh process, interleaved, BENCH_MEMORY_ROUNDS times, with the sandbox's latency
 * lowered to BENCH_MEMORY_LATENCY_MS (0: the figure is memory, and 100,000 items at 20 ms and
 * concurrency 20 would take 3–4 minutes per client). Peak RSS growth is the kernel's high-water mark
 * (VmHWM, reset through /proc/self/clear_refs before the measured work; the 20 ms sampling where
 * that is not available) minus the RSS before it.
 *
 * Prints markdown tables and ratio lines (progress goes to stderr). Targets are read from them,
 * never asserted: this machine is shared. On its 2 cores, quiet, `BENCH_SIZES=1000 npm run bench`
 * takes about 11 minutes (4 for the rounds, 7 for the memory round), the default sizes about 21.
 *
 * Environment: BENCH_SIZES (default "1000,10000"), BENCH_ROUNDS (default 7), BENCH_ROUND_ITEMS
 * (default 3000), BENCH_CONCURRENCY (default 20), BENCH_LATENCY_MS (default 20),
 * BENCH_MEMORY_ITEMS (default 100000; 0 skips the memory round), BENCH_MEMORY_ROUNDS (default 3),
 * BENCH_MEMORY_LATENCY_MS (default 0), BENCH_CPU_PROF (a folder for a CPU profile of each round,
 * named `<client>-<size>x<executions>-<round>.cpuprofile`; bench/profile.js reads them),
 * BENCH_ONLY (clients to run, for example "a,d"; also skips the 429 table, and the memory round
 * unless it names both a and d), BENCH_SNAPSHOT (0: the rounds load dist/ from the working tree
 * instead of a private copy made at the start).
 */
require('./engine');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { outputOf, track } = require('../support/services/processes');
const { control, startSandbox } = require('./sandboxProcess');
const { fmt, median, medianAndRange, ratioLine, rounds } = require('../support/statistics');
const { CONCURRENCY, NODES_BASE, VARIANTS } = require('./runClients');
const { benchSettings } = require('./settings');

const { SIZES, LATENCY_MS, ROUNDS, ROUND_ITEMS, MEMORY_ITEMS, MEMORY_ROUNDS, MEMORY_LATENCY_MS } =
	benchSettings('BENCH_', {
		SIZES: [1000, 10000],
		LATENCY_MS: 20,
		ROUNDS: 7,
		ROUND_ITEMS: 3000,
		MEMORY_ITEMS: 100_000,
		MEMORY_ROUNDS: 3,
		MEMORY_LATENCY_MS: 0,
	});
const LIMITED_CONCURRENCY = 20;
const LIMITED_SETTINGS = {
	latencyMs: LATENCY_MS,
	maxConcurrent: LIMITED_CONCURRENCY,
	retryAfterSeconds: 1,
};

/** The kernel's peak RSS of this process (VmHWM), in bytes, or undefined where /proc has none. */
function highWaterMark() {
	try {
		const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

/** Resets the kernel's peak RSS to the current RSS (Linux: "5" to /proc/self/clear_refs). */
function resetHighWaterMark() {
	try {
		fs.writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

/**
 * Runs `work` and measures wall time, this process's CPU time, its peak RSS growth (the kernel's
 * high-water mark where it can be reset, and a 20 ms sampler) and the heap retained after a GC.
 * @param {() => Promise<{ ok: number, errors: number, lost: number }>} work
 */
async function measure(work) {
	global.gc?.();
	const baseRss = process.memoryUsage().rss;
	const baseHeap = process.memoryUsage().heapUsed;
	const kernelPeak = resetHighWaterMark();
	let peakRss = baseRss;
	let peakHeap = baseHeap;
	const sampler = setInterval(() => {
		const usage = process.memoryUsage();
		peakRss = Math.max(peakRss, usage.rss);
		peakHeap = Math.max(peakHeap, usage.heapUsed);
	}, 20);
	const cpuStart = process.cpuUsage();
	const start = performance.now();
	const counts = await work();
	const elapsedMs = performance.now() - start;
	const cpu = process.cpuUsage(cpuStart);
	clearInterval(sampler);
	peakRss = Math.max(peakRss, process.memoryUsage().rss, (kernelPeak && highWaterMark()) || 0);
	global.gc?.();
	return {
		...counts,
		elapsedMs,
		cpuMs: (cpu.user + cpu.system) / 1000,
		baseRssMb: baseRss / 2 ** 20,
		rssGrowthMb: (peakRss - baseRss) / 2 ** 20,
		peakSource: kernelPeak ? 'VmHWM' : 'sampled',
		peakHeapGrowthMb: (peakHeap - baseHeap) / 2 ** 20,
		heapRetainedMb: (process.memoryUsage().heapUsed - baseHeap) / 2 ** 20,
	};
}

const WARM_UP_ITEMS = 200;
/** BENCH_ONLY=a,d: only these clients (for profiling), and no 429 table. */
const ONLY = process.env.BENCH_ONLY?.split(',');
/** The order of the clients within a round: a and d side by side, the pair the targets compare. */
const ORDER = ['a', 'd', 'a50', 'b', 'c'];

/**
 * Child mode (`--measure <variant> <size> <url> <executions>`): a warm-up, the sandbox's counters
 * reset, then one measured round of `executions` executions of `size` items, one after another;
 * prints the measurement as one JSON line.
 */
async function measureInChild() {
	const [, , , id, size, url, executions] = process.argv;
	const variant = VARIANTS[id];
	await variant.run(url, WARM_UP_ITEMS);
	await control(url, 'reset', {});
	const m = await measure(async () => {
		const total = { ok: 0, errors: 0, lost: 0 };
		for (let run = 0; run < Number(executions); run++) {
			const counts = await variant.run(url, Number(size));
			for (const key of /** @type {const} */ (['ok', 'errors', 'lost'])) total[key] += counts[key];
		}
		return total;
	});
	process.stdout.write(`RESULT ${JSON.stringify(m)}\n`);
}

/**
 * A private copy of what the rounds load (the built package, support/ with the n8n-core runner,
 * the benchmark), so that a build started elsewhere during the run (`npm test`, another `npm run
 * bench`) can neither break a round (n8n-node build empties dist/ first) nor change the code
 * between rounds. The runner loads the package from two folders up, so support/ is copied (its
 * git-ignored dot folders aside); node_modules, sandbox and scripts are only read and are linked.
 * BENCH_SNAPSHOT=0 runs from the working tree.
 * @returns {{ script: string, remove: () => void }}
 */
function snapshot() {
	const root = path.resolve(__dirname, '..');
	if (process.env.BENCH_SNAPSHOT === '0') return { script: __filename, remove: () => {} };
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'affiliate-tracking-bench-code-'));
	const notDotFolder = (/** @type {string} */ source) => !path.basename(source).startsWith('.');
	const options = { recursive: true, filter: notDotFolder };
	for (const entry of ['package.json', 'dist', 'support', 'bench'])
		fs.cpSync(path.join(root, entry), path.join(dir, entry), options);
	for (const entry of ['node_modules', 'sandbox', 'scripts'])
		fs.symlinkSync(path.join(root, entry), path.join(dir, entry));
	return {
		script: path.join(dir, 'bench', path.basename(__filename)),
		remove: () => fs.rmSync(dir, { recursive: true, force: true }),
	};
}

/**
 * Runs one measured round in a fresh process, from `script` (the snapshot's copy of this file).
 * @param {string} script @param {string} id @param {number} size @param {number} executions @param {string} url @param {string} [profileName]
 */
async function measureRound(script, id, size, executions, url, profileName) {
	// BENCH_CPU_PROF=<dir>: a CPU profile of every round (bench/profile.js summarises them).
	const profile =
		process.env.BENCH_CPU_PROF && profileName
			? [
					'--cpu-prof',
					`--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`,
					`--cpu-prof-name=${profileName}.cpuprofile`,
				]
			: [];
	const child = track(
		spawn(
			process.execPath,
			['--expose-gc', ...profile, script, '--measure', id, String(size), url, String(executions)],
			{ stdio: ['ignore', 'pipe', 'inherit'] },
		),
	);
	const { code, stdout } = await outputOf(child);
	const line = stdout.split('\n').find((text) => text.startsWith('RESULT '));
	if (code !== 0 || !line) throw new Error(`round ${id} × ${size} failed (exit ${code})`);
	return JSON.parse(line.slice('RESULT '.length));
}

async function main() {
	const began = performance.now();
	const code = snapshot();
	const sandbox = await startSandbox();
	const hasHttpRequestNode = fs.existsSync(NODES_BASE);
	const clients = (ONLY ?? ORDER).filter((id) => id !== 'b' || hasHttpRequestNode);
	/** @type {Record<string, Record<string, any[]>>} by size, then client: one measurement per round */
	const results = {};
	/**
	 * One round against a reset sandbox with `settings`.
	 * @param {string} id @param {number} size @param {number} executions @param {object} settings @param {string} [profileName]
	 */
	const round = async (id, size, executions, settings, profileName) => {
		await control(sandbox.url, 'reset', {});
		await control(sandbox.url, 'settings', { maxConcurrent: null, ...settings });
		const m = await measureRound(code.script, id, size, executions, sandbox.url, profileName);
		const stats = await control(sandbox.url, 'stats');
		const items = size * executions;
		return {
			...m,
			stats,
			itemsPerSecond: (items / m.elapsedMs) * 1000,
			cpuPerItemUs: (m.cpuMs / items) * 1000,
		};
	};
	/** A figure of each round (the sandbox's stats included). @param {any[]} ms @param {string} key @returns {number[]} */
	const of = (ms, key) => ms.map((m) => m[key] ?? m.stats[key]);
	/** @param {any[]} ms @param {string} key */
	const med = (ms, key) => fmt(median(of(ms, key)), 1);
	const sum = (/** @type {number[]} */ values) => values.reduce((total, x) => total + x, 0);
	/** The progress line of a round, with the time since the start. @param {string} what */
	const progress = (what) =>
		console.error(`[bench] ${what} (${fmt((performance.now() - began) / 1000)} s)`);
	try {
		for (const size of SIZES) {
			const executions = Math.max(1, Math.round(ROUND_ITEMS / size));
			results[size] = Object.fromEntries(clients.map((id) => [id, []]));
			for (let r = 1; r <= ROUNDS; r++) {
				const speeds = [];
				for (const id of clients) {
					const profileName = `${id}-${size}x${executions}-${r}`;
					const m = await round(id, size, executions, { latencyMs: LATENCY_MS }, profileName);
					results[size][id].push(m);
					speeds.push(`${id} ${fmt(m.itemsPerSecond)}/s`);
				}
				progress(`${fmt(size)} items × ${executions}, round ${r}/${ROUNDS}: ${speeds.join(', ')}`);
			}
		}

		const limited = [];
		const limitedClients = ['aDefault', 'b'].filter((id) => id !== 'b' || hasHttpRequestNode);
		for (const id of ONLY ? [] : limitedClients) {
			const m = await round(id, 1000, 1, LIMITED_SETTINGS);
			limited.push(
				`| ${id === 'b' ? 'b' : 'a'}. ${VARIANTS[id].label} | ${m.ok} | ${m.errors} | ${m.lost} | ${m.stats.byStatus['429'] ?? 0} | ${fmt(m.elapsedMs / 1000, 1)} s |`,
			);
		}

		/** @type {{ a: any, d: any }[]} */
		const memory = [];
		const memoryClients = ['a', 'd'].filter((id) => !ONLY || ONLY.includes(id));
		if (MEMORY_ITEMS > 0 && memoryClients.length === 2) {
			for (let r = 1; r <= MEMORY_ROUNDS; r++) {
				const a = await round('a', MEMORY_ITEMS, 1, { latencyMs: MEMORY_LATENCY_MS });
				const d = await round('d', MEMORY_ITEMS, 1, { latencyMs: MEMORY_LATENCY_MS });
				memory.push({ a, d });
				progress(
					`${fmt(MEMORY_ITEMS)} items in one execution, round ${r}/${MEMORY_ROUNDS}: peak RSS growth a ${fmt(a.rssGrowthMb)} MB, d ${fmt(d.rssGrowthMb)} MB`,
				);
			}
		}

		console.log(
			`\n## Benchmark (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, ${fmt(os.totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}; sandbox latency ${LATENCY_MS} ms, in its own process; ${rounds(ROUNDS)} per client, interleaved (${clients.join(', ')}), each in a fresh process after a ${WARM_UP_ITEMS}-item warm-up)\n`,
		);
		console.log(
			`Medians of ${rounds(ROUNDS)}, with min–max for items/s and CPU per item; errors and lost are totals over all rounds, peak in flight the highest. A round is ${SIZES.map((size) => `${Math.max(1, Math.round(ROUND_ITEMS / size))} × ${fmt(size)}`).join(' or ')} items (executions × items per execution).\n`,
		);
		console.log(
			'| items | client | items/s | server latency p50 / p99 (ms) | errors | lost | CPU per item | peak RSS growth | heap retained after GC | peak in flight |',
		);
		console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
		for (const size of SIZES) {
			for (const id of ONLY ?? ORDER) {
				const { label } = VARIANTS[id];
				const ms = results[size][id];
				if (!ms) {
					if (id !== 'b') continue;
					console.log(
						`| ${fmt(size)} | ${id}. ${label} | not run: n8n's HTTP Request node is not installed (run \`npm run setup:n8n\`) ||||||||`,
					);
					continue;
				}
				console.log(
					`| ${fmt(size)} | ${id}. ${label} | ${medianAndRange(of(ms, 'itemsPerSecond'), 0)} | ${med(ms, 'p50Ms')} / ${med(ms, 'p99Ms')} | ${sum(of(ms, 'errors'))} | ${sum(of(ms, 'lost'))} | ${medianAndRange(of(ms, 'cpuPerItemUs'), 0)} µs | ${med(ms, 'rssGrowthMb')} MB | ${med(ms, 'heapRetainedMb')} MB | ${Math.max(...of(ms, 'peakInFlight'))} |`,
				);
			}
		}
		for (const size of SIZES) {
			const byId = results[size];
			const { a, b, d } = byId;
			console.log(
				`\n${fmt(size)} items per execution (${Math.max(1, Math.round(ROUND_ITEMS / size))} per round); ratios of round i's figures, then their median and range:`,
			);
			if (a && d) {
				console.log(ratioLine('a/d', of(a, 'itemsPerSecond'), of(d, 'itemsPerSecond')));
				console.log(ratioLine('a/d CPU per item', of(a, 'cpuPerItemUs'), of(d, 'cpuPerItemUs')));
				console.log(
					`peak RSS growth, medians: a ${med(a, 'rssGrowthMb')} MB, d ${med(d, 'rssGrowthMb')} MB; heap retained after GC, medians: a ${med(a, 'heapRetainedMb')} MB, d ${med(d, 'heapRetainedMb')} MB${b ? `, b ${med(b, 'heapRetainedMb')} MB` : ''}`,
				);
			}
			for (const [x, y] of ['a/c', 'a/b', 'a50/b'].map((pair) => pair.split('/'))) {
				if (byId[x] && byId[y])
					console.log(
						ratioLine(`${x}/${y}`, of(byId[x], 'itemsPerSecond'), of(byId[y], 'itemsPerSecond')),
					);
			}
		}

		if (limited.length > 0) {
			console.log(
				`\n### Against a sandbox that answers 429 (Retry-After: 1) above ${LIMITED_CONCURRENCY} concurrent requests, 1,000 items (one round each)\n`,
			);
			console.log('| client | succeeded | errors | lost | 429 answers | time |');
			console.log('|---|---:|---:|---:|---:|---:|');
			for (const row of limited) console.log(row);
		}

		if (memory.length > 0) {
			console.log(
				`\n### ${fmt(MEMORY_ITEMS)} items in one execution (a and d at concurrency ${CONCURRENCY}, sandbox latency ${MEMORY_LATENCY_MS} ms, ${rounds(memory.length)} interleaved, each in a fresh process)\n`,
			);
			console.log(
				'| round | client | time | items/s | errors | lost | CPU per item | RSS before | peak RSS growth | peak heap used growth (sampled) | heap retained after GC |',
			);
			console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
			memory.forEach((pair, index) => {
				for (const id of /** @type {const} */ (['a', 'd'])) {
					const m = pair[id];
					console.log(
						`| ${index + 1} | ${id} | ${fmt(m.elapsedMs / 1000, 1)} s | ${fmt(m.itemsPerSecond)} | ${m.errors} | ${m.lost} | ${fmt(m.cpuPerItemUs)} µs | ${fmt(m.baseRssMb)} MB | ${fmt(m.rssGrowthMb)} MB (${m.peakSource}) | ${fmt(m.peakHeapGrowthMb)} MB | ${fmt(m.heapRetainedMb, 1)} MB |`,
					);
				}
			});
			const growthA = memory.map((pair) => pair.a.rssGrowthMb);
			const growthD = memory.map((pair) => pair.d.rssGrowthMb);
			const ratios = growthA.map((a, i) => a / growthD[i]);
			console.log(
				`\n${fmt(MEMORY_ITEMS)} items in one execution: peak RSS growth a ${fmt(median(growthA))} MB, d ${fmt(median(growthD))} MB, a/d ${fmt(median(ratios), 2)} (median of ${rounds(ratios.length)}, range ${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)}; sandbox latency ${MEMORY_LATENCY_MS} ms)`,
			);
		}
		if (!hasHttpRequestNode)
			console.log(
				'\n(b) needs n8n-nodes-base: `npm run setup:n8n` installs n8n 2.41.1 (support/n8n/n8nInstall.js).',
			);
		console.log(`\nBench time: ${fmt((performance.now() - began) / 60000, 1)} min.`);
	} finally {
		sandbox.stop();
		code.remove();
	}
}

(process.argv[2] === '--measure' ? measureInChild() : main()).catch((error) => {
	console.error(error);
	process.exit(1);
});
