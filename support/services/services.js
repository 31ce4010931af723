// @ts-check
'use strict';
/**
 * PostgreSQL and Redis for the queue-mode test and benchmark: Debian's servers (installed by
 * scripts/setup-system.sh, never by a test), started on free loopback ports with their data in a
 * folder of the run, stopped and removed by `stop()`; `restart(downMs)` is an outage of the fault
 * rounds (the server stopped, then started again on its port and data).
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const { freePort, runCaptured, sleep, stopProcess, track, waitUntil } = require('./processes');

const SETUP_SCRIPT = 'bash scripts/setup-system.sh';
const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
/** PostgreSQL's own programs (initdb, postgres, createdb); Debian keeps them off the PATH. */
const POSTGRES_BIN =
	process.env.POSTGRES_BIN ??
	(() => {
		const root = '/usr/lib/postgresql';
		const versions = fs.existsSync(root)
			? fs
					.readdirSync(root)
					.filter((entry) => fs.existsSync(path.join(root, entry, 'bin', 'initdb')))
					.sort((a, b) => Number(b) - Number(a))
			: [];
		return versions.length > 0 ? path.join(root, versions[0], 'bin') : '';
	})();
/** The database n8n uses, its role, and its password (loopback only, for the run). */
const DATABASE = { name: 'n8n', user: 'n8n', password: 'n8n-queue-test' };

/** A set-up error naming the setup script. @param {string} message */
function missing(message) {
	const error = new Error(
		`${message}: run \`${SETUP_SCRIPT}\` once (Debian/Ubuntu, as root or with sudo).`,
	);
	error.name = 'SetupError';
	return error;
}

/** Fails at once, naming the setup script, when a server program is missing. */
function requireServers() {
	if (!POSTGRES_BIN || !fs.existsSync(path.join(POSTGRES_BIN, 'postgres')))
		throw missing("PostgreSQL's server (initdb, postgres) is missing under /usr/lib/postgresql");
	if (!fs.existsSync(REDIS_SERVER)) throw missing(`redis-server is missing at ${REDIS_SERVER}`);
}

/**
 * initdb refuses to run as root: as root, PostgreSQL runs as Debian's `postgres` user, which
 * then owns its data folder.
 * @returns {{ uid?: number, gid?: number }}
 */
function postgresIdentity() {
	if (process.getuid?.() !== 0) return {};
	const id = (/** @type {string} */ flag) =>
		Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
	const uid = id('-u');
	if (!Number.isInteger(uid) || uid === 0)
		throw missing('running as root, PostgreSQL needs the `postgres` user, which is missing');
	return { uid, gid: id('-g') };
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port. @param {number} port @param {import('node:child_process').ChildProcess} child @param {string} name */
async function waitForPort(port, child, name, timeoutMs = 30_000) {
	await waitUntil(
		() =>
			new Promise((resolve) => {
				const socket = net.connect(port, '127.0.0.1');
				socket.once('connect', () => (socket.destroy(), resolve(true)));
				socket.once('error', () => resolve(false));
			}),
		{ timeoutMs, intervalMs: 100, child, what: `${name} listening on 127.0.0.1:${port}` },
	);
}

/**
 * Resolves once PostgreSQL accepts sessions. An open port is not enough: while it replays its
 * log, the server listens and refuses each session with "the database system is starting up".
 * @param {number} port @param {import('node:child_process').ChildProcess} child
 */
async function waitForPostgres(port, child, timeoutMs = 30_000) {
	await waitForPort(port, child, 'postgres', timeoutMs);
	/** @type {number | null} */
	let status = null;
	await waitUntil(
		() => {
			// pg_isready: 0 accepting, 1 rejecting (starting up), 2 no answer, 3 bad arguments.
			const check = spawnSync(
				path.join(POSTGRES_BIN, 'pg_isready'),
				['-q', '-h', '127.0.0.1', '-p', String(port), '-t', '2'],
				{ stdio: 'ignore' },
			);
			if (check.status === 3 || check.error)
				throw new Error(`pg_isready could not run: ${check.error ?? 'bad arguments'}`);
			status = check.status;
			return status === 0;
		},
		{
			timeoutMs,
			intervalMs: 100,
			child,
			what: `postgres accepting sessions on 127.0.0.1:${port}`,
			detail: () => `pg_isready ${status}`,
		},
	);
}

/**
 * A PostgreSQL server with an `n8n` database, data in `<folder>/postgres`.
 * @param {string} folder a folder of the run
 */
async function startPostgres(folder) {
	requireServers();
	const identity = postgresIdentity();
	const home = path.join(folder, 'postgres');
	const data = path.join(home, 'data');
	fs.mkdirSync(home, { recursive: true });
	const passwordFile = path.join(home, 'password');
	fs.writeFileSync(passwordFile, DATABASE.password);
	if (identity.uid !== undefined) {
		// The unprivileged user has to reach its folder through the run's folder.
		fs.chmodSync(folder, 0o755);
		for (const file of [home, passwordFile]) fs.chownSync(file, identity.uid, identity.gid ?? 0);
	}
	const asOwner = { ...identity, cwd: home };
	runCaptured(
		path.join(POSTGRES_BIN, 'initdb'),
		[
			'-D',
			data,
			'-U',
			DATABASE.user,
			`--pwfile=${passwordFile}`,
			'--auth=scram-sha-256',
			'-E',
			'UTF8',
			'--no-sync',
		],
		asOwner,
	);
	const port = await freePort();
	const settings = ['listen_addresses=127.0.0.1', 'fsync=off', 'max_connections=200'];
	const args = ['-D', data, '-p', String(port), '-k', home, ...settings.flatMap((s) => ['-c', s])];
	let log = '';
	const spawnServer = async () => {
		// In a group of its own with its server processes, so that a kill at the script's end
		// takes them all; its graceful stop is SIGINT, the fast shutdown.
		const child = track(
			spawn(path.join(POSTGRES_BIN, 'postgres'), args, {
				...asOwner,
				stdio: ['ignore', 'ignore', 'pipe'],
				detached: true,
			}),
			{ group: true, signal: 'SIGINT' },
		);
		child.stderr?.on('data', (chunk) => (log = (log + chunk).slice(-4000)));
		try {
			await waitForPostgres(port, child);
		} catch (error) {
			await stopProcess(child);
			throw new Error(`${error instanceof Error ? error.message : error}\n${log}`);
		}
		return child;
	};
	const session = ['-h', '127.0.0.1', '-p', String(port), '-U', DATABASE.user];
	const withPassword = { env: { ...process.env, PGPASSWORD: DATABASE.password } };
	const first = await spawnServer();
	try {
		runCaptured(path.join(POSTGRES_BIN, 'createdb'), [...session, DATABASE.name], {
			...asOwner,
			...withPassword,
		});
	} catch (error) {
		await stopProcess(first);
		throw new Error(`${error instanceof Error ? error.message : error}\n${log}`);
	}
	// SIGINT: PostgreSQL's fast shutdown (what a restart or a failover does to open connections).
	return restartable(first, spawnServer, home, 'SIGINT', {
		port,
		/** n8n's settings for this database. */
		n8nEnvironment: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: DATABASE.name,
			DB_POSTGRESDB_USER: DATABASE.user,
			DB_POSTGRESDB_PASSWORD: DATABASE.password,
		},
		/** Runs SQL with psql and returns its rows as tab-separated lines. @param {string} sql */
		query(sql) {
			const args = [...session, '-d', DATABASE.name, '-At', '-F', '\t', '-c', sql];
			return runCaptured('psql', args, withPassword)
				.split('\n')
				.filter((line) => line !== '');
		},
		/**
		 * Holds an ACCESS EXCLUSIVE lock on `table` in a psql session of its own, as a long
		 * migration does, until `release()`; resolves once the lock is held.
		 * @param {string} table
		 */
		async lockTable(table) {
			const args = [...session, '-d', DATABASE.name, '-At', '-v', 'ON_ERROR_STOP=1'];
			const psql = track(spawn('psql', args, { ...withPassword, stdio: ['pipe', 'pipe', 'pipe'] }));
			let output = '';
			psql.stdout?.on('data', (chunk) => (output += chunk));
			psql.stderr?.on('data', (chunk) => (output += chunk));
			psql.stdin?.write(`BEGIN; LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE; SELECT 'locked';\n`);
			await waitUntil(() => output.includes('locked'), {
				timeoutMs: 30_000,
				intervalMs: 20,
				child: psql,
				what: `a lock on ${table}`,
				detail: () => output,
			});
			return {
				async release() {
					psql.stdin?.end('COMMIT;\n');
					await waitUntil(() => psql.exitCode !== null || psql.signalCode !== null, {
						timeoutMs: 10_000,
						intervalMs: 20,
						what: `psql committing its lock on ${table}`,
						detail: () => output,
					});
				},
			};
		},
	});
}

/**
 * A started server (`server`, started again by `spawnServer`) with `extra`: its pid, an outage
 * (`restart(downMs)`: stopped with `signal`, then the same server, data and port again after
 * `downMs`) and `stop()`, which removes its folder `home` too.
 * @template {object} T @param {import('node:child_process').ChildProcess} server
 * @param {() => Promise<import('node:child_process').ChildProcess>} spawnServer
 * @param {string} home @param {NodeJS.Signals} signal @param {T} extra
 */
function restartable(server, spawnServer, home, signal, extra) {
	return {
		...extra,
		get pid() {
			return /** @type {number} */ (server.pid);
		},
		/** @param {number} downMs */
		async restart(downMs) {
			await stopProcess(server, 15_000, signal);
			await sleep(downMs);
			server = await spawnServer();
		},
		async stop() {
			await stopProcess(server, 15_000, signal);
			fs.rmSync(home, { recursive: true, force: true });
		},
	};
}

/**
 * A Redis server, its folder `<folder>/redis`. It keeps an append-only file, as a queue's Redis
 * should (Bull's jobs are in it), so that a restart finds the queued jobs again.
 * @param {string} folder
 */
async function startRedis(folder) {
	requireServers();
	const home = path.join(folder, 'redis');
	fs.mkdirSync(home, { recursive: true });
	const port = await freePort();
	const options = {
		port: String(port),
		bind: '127.0.0.1',
		dir: home,
		save: '',
		appendonly: 'yes',
		appendfsync: 'everysec',
		logfile: '',
	};
	const args = Object.entries(options).flatMap(([name, value]) => [`--${name}`, value]);
	const spawnServer = async () => {
		const child = track(spawn(REDIS_SERVER, args, { cwd: home, stdio: 'ignore' }));
		await waitForPort(port, child, 'redis-server');
		return child;
	};
	// SIGTERM: Redis flushes its append-only file.
	return restartable(await spawnServer(), spawnServer, home, 'SIGTERM', {
		port,
		n8nEnvironment: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
	});
}

module.exports = { missing, requireServers, startPostgres, startRedis };
