// @ts-check
'use strict';
/**
 * Process helpers of the end-to-end runs, the version matrix and the benchmarks, apart from
 * anything n8n-specific: commands, free ports, waiting, a JSON POST, and the processes a script
 * started, stopped when the script ends however it ends (`track`).
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

/** @param {string} message */
function fail(message) {
	const error = new Error(message);
	error.name = 'SetupError';
	return error;
}

/** @param {string} command @param {string[]} args @param {import('node:child_process').SpawnSyncOptions} options */
function runOrThrow(command, args, options) {
	const result = spawnSync(command, args, { stdio: 'inherit', ...options });
	if (result.status !== 0) {
		const output = result.stderr ? `:\n${result.stderr}` : '';
		throw fail(
			`${command} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}${output}`,
		);
	}
	return result;
}

/**
 * A command's standard output; throws with its standard error when it fails.
 * @param {string} command @param {string[]} args @param {import('node:child_process').SpawnSyncOptions} [options]
 */
function runCaptured(command, args, options = {}) {
	return String(runOrThrow(command, args, { encoding: 'utf8', stdio: 'pipe', ...options }).stdout);
}

/** npm's flags for an install that prints only errors. */
const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];

/** How often runWithProgress prints its line. */
const HEARTBEAT_MS = 20_000;

/**
 * The heartbeat's line: the time since the start, as minutes and seconds, and what moved.
 * @param {number} elapsedMs @param {string} detail
 */
function heartbeatLine(elapsedMs, detail) {
	const seconds = Math.round(elapsedMs / 1000);
	const minutes = Math.floor(seconds / 60);
	const time = minutes > 0 ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
	return `  … ${time}, ${detail}`;
}

/** @param {number} bytes @returns {string} such as `812 MB` or `1.42 GB` */
function formatBytes(bytes) {
	const megabytes = bytes / 1e6;
	return megabytes >= 1000 ? `${(megabytes / 1000).toFixed(2)} GB` : `${Math.round(megabytes)} MB`;
}

/**
 * A heartbeat's detail for bytes that grow: the total and the growth since the previous line.
 * @param {number} bytes @param {number} previousBytes
 */
function bytesProgress(bytes, previousBytes) {
	return `${formatBytes(bytes)} written (+${formatBytes(Math.max(0, bytes - previousBytes))} since the last line)`;
}

/**
 * The bytes in `dir` and below, as the disk holds them (`du -sk`, which walks it in C, in a
 * process of its own so that this one goes on). 0 when it does not exist.
 * @param {string} dir @returns {Promise<number>}
 */
function folderBytes(dir) {
	if (!fs.existsSync(dir)) return Promise.resolve(0);
	return new Promise((resolve, reject) => {
		const du = spawn('du', ['-sk', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
		let out = '';
		du.stdout.on('data', (chunk) => (out += chunk));
		du.once('error', reject);
		// Files npm removes while du walks make it exit 1 with a total all the same.
		du.once('close', () => resolve(Number(out.split('\t')[0]) * 1024 || 0));
	});
}

/**
 * Runs a long command with a progress line every 20 seconds (npm prints none when its output is
 * not a terminal): the time so far and `describeProgress()`. A line whose description is still
 * being computed when the next is due is skipped.
 * @param {string} command @param {string[]} args @param {import('node:child_process').SpawnOptions} options
 * @param {(line: string) => void} log @param {() => string | Promise<string>} describeProgress
 * @returns {Promise<void>}
 */
function runWithProgress(command, args, options, log, describeProgress) {
	const started = Date.now();
	let describing = false;
	const heartbeat = async () => {
		if (describing) return;
		describing = true;
		try {
			log(heartbeatLine(Date.now() - started, await describeProgress()));
		} finally {
			describing = false;
		}
	};
	return new Promise((resolve, reject) => {
		const child = track(spawn(command, args, { stdio: 'inherit', ...options }));
		const timer = setInterval(() => void heartbeat(), HEARTBEAT_MS);
		child.once('error', reject);
		child.once('exit', (code, signal) => {
			clearInterval(timer);
			if (code === 0) resolve();
			else reject(fail(`${command} ${args.join(' ')} failed with exit code ${code ?? signal}`));
		});
	});
}

/**
 * Whether a process with this PID runs (one of another user's too: signalling it is refused).
 * @param {number} pid
 */
function processIsAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return /** @type {NodeJS.ErrnoException} */ (error).code === 'EPERM';
	}
}

/** A free TCP port on 127.0.0.1. @returns {Promise<number>} */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

/**
 * A process and its descendants alive now, each with the fields of its /proc/<pid>/stat after
 * the command name (which may hold spaces): state(0) ppid(1) … utime(11) stime cutime cstime.
 * @param {number} rootPid @returns {{ pid: number, fields: string[] }[]}
 */
function processTree(rootPid) {
	/** @type {Map<number, number[]>} */
	const children = new Map();
	/** @type {Map<number, string[]>} */
	const statFields = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		let stat;
		try {
			stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			continue; // exited meanwhile
		}
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const pid = Number(entry);
		const ppid = Number(fields[1]);
		statFields.set(pid, fields);
		children.set(ppid, [...(children.get(ppid) ?? []), pid]);
	}
	/** @type {{ pid: number, fields: string[] }[]} */
	const tree = [];
	const pending = [rootPid];
	while (pending.length > 0) {
		const pid = /** @type {number} */ (pending.pop());
		const fields = statFields.get(pid);
		if (fields) tree.push({ pid, fields });
		pending.push(...(children.get(pid) ?? []));
	}
	return tree;
}

/**
 * CPU seconds (user + system) a process and its descendants have used, dead children included
 * (they count in their parent's cutime/cstime once reaped): from /proc, in clock ticks (10 ms).
 * @param {number} rootPid
 */
function processTreeCpuSeconds(rootPid) {
	const ticksPerSecond = 100; // USER_HZ on Linux
	const ticks = processTree(rootPid).reduce(
		(sum, { fields }) => sum + [11, 12, 13, 14].reduce((t, i) => t + Number(fields[i]), 0),
		0,
	);
	return ticks / ticksPerSecond;
}

/**
 * Seconds on a CPU of a process and its descendants alive now, every thread, to the nanosecond
 * (/proc/<pid>/task/<tid>/schedstat): for processes, like nginx's workers, that use less than a
 * clock tick per request. Dead children are not counted.
 * @param {number} rootPid
 */
function processTreeRunSeconds(rootPid) {
	let nanoseconds = 0;
	for (const { pid } of processTree(rootPid)) {
		let threads;
		try {
			threads = fs.readdirSync(`/proc/${pid}/task`);
		} catch {
			continue; // exited meanwhile
		}
		for (const tid of threads) {
			try {
				nanoseconds += Number(
					fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0],
				);
			} catch {
				// exited meanwhile
			}
		}
	}
	return nanoseconds / 1e9;
}

/**
 * `child`'s exit code or signal and all it wrote to its piped stdout and stderr, once it closed.
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string }>}
 */
function outputOf(child) {
	return new Promise((resolve, reject) => {
		let stdout = '';
		let stderr = '';
		child.stdout?.on('data', (chunk) => (stdout += chunk));
		child.stderr?.on('data', (chunk) => (stderr += chunk));
		child.once('error', reject);
		child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
	});
}

/**
 * `signal` (SIGTERM), then SIGKILL after `graceMs`, to the process or, with `group`, to its
 * process group; resolves when the process has exited.
 * @param {import('node:child_process').ChildProcess} child @param {number} [graceMs]
 * @param {NodeJS.Signals} [signal]
 */
function stopProcess(child, graceMs = 15_000, signal = 'SIGTERM', group = false) {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => {
		const kill = setTimeout(() => signalProcess(child, group, 'SIGKILL'), graceMs);
		child.once('exit', () => {
			clearTimeout(kill);
			resolve(undefined);
		});
		signalProcess(child, group, signal);
	});
}

/**
 * The processes a script started and that still run, each with whether it leads a process group
 * of its own (a detached child: the group is killed, so that what it started goes too) and the
 * signal that stops it gracefully. An exited process leaves the registry.
 * @type {Map<import('node:child_process').ChildProcess, { group: boolean, signal: NodeJS.Signals }>}
 */
const tracked = new Map();
/** How long a tracked process gets between the graceful signal and SIGKILL at the script's end. */
const STOP_GRACE_MS = 5000;
let stopping = false;

/**
 * Registers a child so that it is stopped when the script ends: normally, on an uncaught error,
 * or on SIGINT or SIGTERM (then the script exits with 130 or 143). `group` for a detached child;
 * `signal` its graceful stop (PostgreSQL's fast shutdown is SIGINT).
 * @template {import('node:child_process').ChildProcess} T
 * @param {T} child @param {{ group?: boolean, signal?: NodeJS.Signals }} [options] @returns {T}
 */
function track(child, { group = false, signal = 'SIGTERM' } = {}) {
	installHandlers();
	if (child.pid === undefined) return child; // it did not start; its 'error' event says why
	tracked.set(child, { group, signal });
	child.once('exit', () => tracked.delete(child));
	return child;
}

let handlersInstalled = false;
function installHandlers() {
	if (handlersInstalled) return;
	handlersInstalled = true;
	// Only synchronous calls run here: SIGKILL, the whole group of a detached child.
	process.on('exit', () => {
		for (const [child, { group }] of tracked) signalProcess(child, group, 'SIGKILL');
	});
	process.on('SIGINT', () => void stopAllAndExit(130, 'SIGINT'));
	process.on('SIGTERM', () => void stopAllAndExit(143, 'SIGTERM'));
	process.on('uncaughtException', (error) => {
		console.error(error);
		void stopAllAndExit(1);
	});
}

/** @param {import('node:child_process').ChildProcess} child @param {boolean} group @param {NodeJS.Signals} signal */
function signalProcess(child, group, signal) {
	try {
		if (child.pid !== undefined) process.kill(group ? -child.pid : child.pid, signal);
	} catch {
		// exited meanwhile
	}
}

/**
 * Stops every tracked process at once, then exits with `code`. A second call while they stop
 * (a second Ctrl-C) exits at once: the 'exit' handler SIGKILLs what is left.
 * @param {number} code @param {string} [reason] printed, with the count of processes to stop
 */
async function stopAllAndExit(code, reason) {
	if (stopping) process.exit(code);
	stopping = true;
	if (reason) console.log(`\n${reason}: stopping ${tracked.size} started processes…`);
	await Promise.all(
		[...tracked].map(async ([child, { group, signal }]) => {
			await stopProcess(child, STOP_GRACE_MS, signal, group);
			// What the group's leader left behind (n8n's task runner).
			if (group) signalProcess(child, true, 'SIGKILL');
		}),
	);
	process.exit(code);
}

/** Whether the tracked processes are being stopped because the script is ending. */
function isStoppingAll() {
	return stopping;
}

/**
 * Calls `onLine` with each whole line a child prints on its standard output and error.
 * @param {import('node:child_process').ChildProcess} child @param {(line: string) => void} onLine
 */
function forEachOutputLine(child, onLine) {
	for (const stream of [child.stdout, child.stderr]) {
		let pending = '';
		stream?.on('data', (chunk) => {
			pending += chunk;
			const lines = pending.split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) onLine(line);
		});
	}
}

/**
 * `use(folder)` with a new temporary folder named from `prefix`, removed once it has settled.
 * @template T @param {string} prefix @param {(folder: string) => Promise<T>} use
 */
async function inTempFolder(prefix, use) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	try {
		return await use(folder);
	} finally {
		fs.rmSync(folder, { recursive: true, force: true });
	}
}

/**
 * `body` posted as JSON to `url`, with `headers` added.
 * @param {string | URL} url @param {unknown} body @param {Record<string, string>} [headers]
 */
function postJson(url, body, headers = {}) {
	return fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});
}

/** Resolves after `ms`. @param {number} ms @returns {Promise<void>} */
function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Calls `probe` (sync or async) every `intervalMs` until it returns something other than
 * `undefined`, `false` or `null`, and returns that. Throws at once when `child` has exited before
 * a try, and after `timeoutMs` without success; both errors name `what` (what is awaited, such as
 * "n8n answering /healthz/readiness on port 5678") and end with `detail()` when given. An error
 * the probe throws is not caught: it ends the wait.
 * @template T
 * @param {() => T | Promise<T>} probe
 * @param {{ timeoutMs: number, intervalMs: number, what: string,
 *   child?: import('node:child_process').ChildProcess, detail?: () => string }} options
 * @returns {Promise<Exclude<T, undefined | false | null>>}
 */
async function waitUntil(probe, { timeoutMs, intervalMs, what, child, detail }) {
	const withDetail = (/** @type {string} */ message) => {
		const more = detail?.();
		return fail(more ? `${message}\n${more}` : message);
	};
	// The 'exit' event, not only exitCode: a process ended by a signal keeps exitCode null.
	/** @type {{ code: number | null, signal: NodeJS.Signals | null } | undefined} */
	let exit =
		child && (child.exitCode !== null || child.signalCode !== null)
			? { code: child.exitCode, signal: child.signalCode }
			: undefined;
	const onExit = (/** @type {number | null} */ code, /** @type {NodeJS.Signals | null} */ signal) =>
		(exit = { code, signal });
	child?.once('exit', onExit);
	try {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			if (exit)
				throw withDetail(
					`${what}: the process ${exit.code === null ? `was ended by ${exit.signal}` : `exited with code ${exit.code}`} first`,
				);
			const value = await probe();
			if (value !== undefined && value !== false && value !== null)
				return /** @type {Exclude<T, undefined | false | null>} */ (value);
			if (Date.now() >= deadline) throw withDetail(`${what}: not within ${timeoutMs / 1000} s`);
			await sleep(intervalMs);
		}
	} finally {
		child?.off('exit', onExit);
	}
}

module.exports = {
	NPM_QUIET,
	bytesProgress,
	fail,
	folderBytes,
	forEachOutputLine,
	formatBytes,
	freePort,
	heartbeatLine,
	inTempFolder,
	isStoppingAll,
	outputOf,
	postJson,
	processIsAlive,
	processTreeCpuSeconds,
	processTreeRunSeconds,
	runCaptured,
	runOrThrow,
	runWithProgress,
	signalProcess,
	sleep,
	stopAllAndExit,
	stopProcess,
	track,
	waitUntil,
};
