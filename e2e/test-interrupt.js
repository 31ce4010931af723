#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run test:interrupt`: Ctrl-C leaves nothing running. Starts `node e2e/test-queue.js`
 * with a marker in its environment, waits until its deployment (PostgreSQL, Redis, Verdaccio, n8n
 * main + 2 workers) is ready, notes the run's processes (its process tree, and whatever carries the
 * marker) and the ports they listen on, sends it SIGINT, and checks that it exits with 130, that
 * none of those processes remains and that every one of those ports is free.
 *
 * Needs what test:queue needs: a built dist/, and PostgreSQL and Redis from
 * scripts/setup-system.sh (the run stops at once, naming it, when they are missing). Prints one
 * line per check and `INTERRUPT: N passed, N failed`.
 */
const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { createChecks } = require('./checks');
const {
	forEachOutputLine,
	stopProcess,
	track,
	waitUntil,
} = require('../support/services/processes');
const { requireServers } = require('../support/services/services');
const { scenario } = require('../support/scenarios');

const MARKER = 'N8N_NODES_INTERRUPT_TEST_RUN';
/** test:queue's first check: the whole deployment is up. */
const READY_LINE = /^\s*([✔✘]) PostgreSQL, Redis and Verdaccio started/;
const READY_TIMEOUT_MS = 10 * 60_000;
const EXIT_TIMEOUT_MS = 60_000;
/** SIGKILLed processes may take a moment to disappear after the script exits. */
const SETTLE_MS = 5000;

const { check, counts, abort, finish } = createChecks('INTERRUPT');

/** @param {number | string} pid @param {string} file */
function readProc(pid, file) {
	try {
		return fs.readFileSync(`/proc/${pid}/${file}`, 'utf8');
	} catch {
		return undefined; // exited meanwhile, or not ours to read
	}
}

/**
 * Every live process (zombies have exited: they hold no port and wait only to be reaped), with its
 * start time, which tells a reused pid apart.
 * @returns {Map<number, { ppid: number, start: string, command: string, environment: string[] }>}
 */
function processTable() {
	const table = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = readProc(entry, 'stat');
		if (!stat) continue;
		// Fields after the command name, which may hold spaces: state(3) ppid(4) … starttime(22).
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		if (fields[0] === 'Z') continue;
		table.set(Number(entry), {
			ppid: Number(fields[1]),
			start: fields[19],
			command: (readProc(entry, 'cmdline') ?? '').split('\0').join(' ').trim(),
			environment: (readProc(entry, 'environ') ?? '').split('\0'),
		});
	}
	return table;
}

/**
 * The run's processes: `root` and its descendants (n8n's task runners get an environment of n8n's
 * choosing, without the marker), and every process carrying the marker.
 * @param {number} root @param {string} marker
 */
function runProcesses(root, marker) {
	const table = processTable();
	const found = new Set(
		[...table].filter(([, p]) => p.environment.includes(marker)).map(([pid]) => pid),
	);
	if (table.has(root)) found.add(root);
	for (let grown = true; grown; ) {
		grown = false;
		for (const [pid, p] of table)
			if (!found.has(pid) && found.has(p.ppid)) {
				found.add(pid);
				grown = true;
			}
	}
	return [...found].map((pid) => ({
		pid,
		.../** @type {NonNullable<ReturnType<typeof table.get>>} */ (table.get(pid)),
	}));
}

/** Listening TCP sockets: port and socket inode, from /proc/net/tcp and tcp6 (state 0A). */
function listeningSockets() {
	return ['tcp', 'tcp6'].flatMap((file) =>
		fs
			.readFileSync(`/proc/net/${file}`, 'utf8')
			.split('\n')
			.slice(1)
			.map((line) => line.trim().split(/\s+/))
			.filter((columns) => columns[3] === '0A')
			.map((columns) => ({ port: parseInt(columns[1].split(':')[1], 16), inode: columns[9] })),
	);
}

/** The ports `pids` listen on. @param {number[]} pids */
function listeningPorts(pids) {
	const inodes = new Set();
	for (const pid of pids) {
		let fds;
		try {
			fds = fs.readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue;
		}
		for (const fd of fds) {
			try {
				const socket = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
				if (socket) inodes.add(socket[1]);
			} catch {
				// closed meanwhile
			}
		}
	}
	const ports = listeningSockets()
		.filter((socket) => inodes.has(socket.inode))
		.map((socket) => socket.port);
	return [...new Set(ports)].sort((a, b) => a - b);
}

/** An n8n main (`n8n start`) or worker, not its task runner. @param {string} command */
function isN8n(command) {
	return /\/bin\/n8n (start|worker)\b/.test(command);
}

/** Counts by kind, e.g. `n8n ×3, postgres ×7`. @param {{ command: string }[]} processes */
function describe(processes) {
	/** @type {Record<string, number>} */
	const kinds = {};
	for (const { command } of processes) {
		const kind = isN8n(command)
			? 'n8n'
			: command.includes('@n8n/task-runner')
				? 'task runner'
				: command.includes('verdaccio')
					? 'verdaccio'
					: // PostgreSQL's server processes name themselves `postgres: <role>`.
						path.basename(command.split(' ')[0]).replace(/:$/, '');
		kinds[kind] = (kinds[kind] ?? 0) + 1;
	}
	return Object.entries(kinds)
		.map(([kind, count]) => `${kind} ×${count}`)
		.join(', ');
}

async function main() {
	const startedAt = Date.now();
	console.log(
		'INTERRUPT: test:queue sent SIGINT once its deployment is ready; nothing of it may remain',
	);
	requireServers();
	const marker = `${MARKER}=${crypto.randomBytes(8).toString('hex')}`;
	const [name, value] = marker.split('=');
	const child = track(
		spawn(process.execPath, [path.join(__dirname, 'test-queue.js')], {
			env: { ...process.env, [name]: value },
			stdio: ['ignore', 'pipe', 'pipe'],
		}),
	);
	const exited = new Promise((resolve) =>
		child.once('exit', (code, signal) => resolve(code ?? signal)),
	);
	const ready = new Promise((resolve, reject) => {
		forEachOutputLine(child, (line) => {
			console.log(`    test:queue | ${line}`);
			const readiness = READY_LINE.exec(line);
			if (readiness?.[1] === '✔') resolve(undefined);
			if (readiness?.[1] === '✘') reject(new Error("test:queue's deployment did not start"));
		});
		void exited.then((code) =>
			reject(new Error(`test:queue exited with ${code} before its deployment was ready`)),
		);
		setTimeout(
			() => reject(new Error(`no ready deployment within ${READY_TIMEOUT_MS / 60_000} min`)),
			READY_TIMEOUT_MS,
		).unref();
	});
	/** @type {ReturnType<typeof runProcesses>} */
	let before = [];
	/** @type {number[]} */
	let ports = [];
	let runFolder = '';
	try {
		await check(
			"test:queue's deployment is ready: PostgreSQL, Redis, Verdaccio, n8n main + 2 workers",
			async () => {
				await ready;
				before = runProcesses(/** @type {number} */ (child.pid), marker);
				ports = listeningPorts(before.map((p) => p.pid));
				const commands = before.map((p) => p.command);
				const n8n = commands.filter(isN8n);
				for (const [server, pattern] of /** @type {[string, RegExp][]} */ ([
					['PostgreSQL', /postgres -D /],
					['redis-server', /redis-server/],
					['Verdaccio', /verdaccio/],
				]))
					assert.ok(
						commands.some((command) => pattern.test(command)),
						`no ${server} among the run's processes`,
					);
				assert.equal(
					n8n.length,
					3,
					`n8n processes found: ${n8n.length} (main + 2 workers expected)`,
				);
				const data = / -D (\S+)\/postgres\/data /.exec(
					commands.find((command) => / -D /.test(command)) ?? '',
				);
				runFolder = data?.[1] ?? '';
				return `${before.length} processes (${describe(before)}), listening on ${ports.length} ports: ${ports.join(', ')}`;
			},
		);
		if (before.length === 0) throw new Error('the deployment did not start; nothing to interrupt');

		await check(`${scenario('e2e.interrupt')}: SIGINT, test:queue exits with 130`, async () => {
			const sent = Date.now();
			child.kill('SIGINT');
			const timeout = new Promise((resolve) =>
				setTimeout(resolve, EXIT_TIMEOUT_MS, 'no exit').unref(),
			);
			const exitCode = await Promise.race([exited, timeout]);
			assert.equal(
				exitCode,
				130,
				exitCode === 'no exit'
					? `test:queue still runs ${EXIT_TIMEOUT_MS / 1000} s after SIGINT`
					: `test:queue ended with ${exitCode}`,
			);
			return `after ${((Date.now() - sent) / 1000).toFixed(1)} s`;
		});

		/** The processes of `before` still running, by the same pid and start time, and any carrying the marker. */
		const remaining = () => {
			const now = processTable();
			const same = before.filter((p) => now.get(p.pid)?.start === p.start);
			const marked = [...now].filter(
				([pid, p]) => p.environment.includes(marker) && !same.some((s) => s.pid === pid),
			);
			return [...same, ...marked.map(([pid, p]) => ({ pid, ...p }))];
		};
		/** The run's ports something still listens on. */
		const taken = () => {
			const listening = new Set(listeningSockets().map((socket) => socket.port));
			return ports.filter((port) => listening.has(port));
		};
		// Up to SETTLE_MS for them to go; a timeout is no failure here, the checks below say what is left.
		await waitUntil(() => remaining().length === 0 && taken().length === 0, {
			timeoutMs: SETTLE_MS,
			intervalMs: 200,
			what: 'no process or port of the run left',
		}).catch(() => undefined);

		await check('no process of the run remains', () => {
			const left = remaining();
			assert.deepEqual(
				left.map((p) => `${p.pid} ${p.command.slice(0, 120)}`),
				[],
				`${left.length} processes still running ${SETTLE_MS / 1000} s after test:queue exited`,
			);
			return `none of the ${before.length} processes, none carrying the run's environment marker`;
		});
		await check('every port the run listened on is free', () => {
			assert.deepEqual(taken(), [], 'ports still listened on');
			return `${ports.length} ports free`;
		});
		// A leak must not hold ports for the steps after this test.
		for (const { pid } of remaining()) {
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// exited meanwhile
			}
		}
	} finally {
		// A failure before the SIGINT: test:queue still has to clean up.
		await stopProcess(child, EXIT_TIMEOUT_MS, 'SIGINT');
		// An interrupted test:queue keeps its folder (as a failed one does); this run needs it no more.
		if (counts.failed === 0 && path.dirname(runFolder) === os.tmpdir())
			fs.rmSync(runFolder, { recursive: true, force: true });
	}
	console.log(`INTERRUPT took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}

main().catch(abort).finally(finish);
