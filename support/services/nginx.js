// @ts-check
'use strict';
/**
 * nginx (Debian's, installed by scripts/setup-system.sh, never by a test) on a free loopback port,
 * in front of n8n's webhook processors as n8n's queue-mode docs show: `/webhook/` balanced
 * round-robin over the processors. Optionally a request-rate limit
 * per client address (`limit_req`), the lines docs/queue-mode.md gives users. Its configuration,
 * logs and temp files live in a folder of the run, which the run removes (or keeps to inspect).
 *
 * Used by `npm run test:queue` (the storm and the processor fault round through two processors)
 * and `npm run bench:flood` (a forged flood with and without the limit).
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { missing } = require('./services');
const { freePort, signalProcess, stopProcess, track, waitUntil } = require('./processes');

const NGINX = process.env.NGINX_BINARY ?? '/usr/sbin/nginx';

/**
 * The rate limit users put in front of their webhook processors: each client address gets
 * `perSecond` requests a second, `burst` more at once; past that nginx answers 429 without
 * passing the request on. Both are set per deployment; these are the tested defaults.
 */
const DEFAULT_RATE_LIMIT = { perSecond: 20, burst: 40 };

/**
 * The `http` block's directives for the webhook processors: an upstream, and the limit when one
 * is given (the editor's own `location /`, to the main, is not part of the tests). Apart from the
 * process set-up so that docs/queue-mode.md shows the lines the tests ran
 * (test/tooling/docsNginx.unit.test.ts checks the page against them).
 * @param {{ processors: number[], listen: string, rateLimit?: { perSecond: number, burst: number } }} options
 */
function webhookProxyLines({ processors, listen, rateLimit }) {
	const limit = rateLimit
		? [
				`limit_req_zone $binary_remote_addr zone=webhooks:10m rate=${rateLimit.perSecond}r/s;`,
				'limit_req_status 429;',
			]
		: [];
	return [
		...limit,
		'upstream n8n_webhook_processors {',
		...processors.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=5s;`),
		'    keepalive 32;',
		'}',
		'server {',
		`    listen ${listen};`,
		'    client_max_body_size 16m;',
		'    location /webhook/ {',
		...(rateLimit ? [`        limit_req zone=webhooks burst=${rateLimit.burst} nodelay;`] : []),
		'        proxy_pass http://n8n_webhook_processors;',
		'        proxy_http_version 1.1;',
		'        proxy_set_header Connection "";',
		'        proxy_set_header Host $host;',
		'        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
		// A processor that refuses the connection or dies before answering: the next one gets the
		// request (nginx passes a POST on only while no byte of it reached the failed one).
		'        proxy_next_upstream error timeout;',
		'    }',
		'}',
	];
}

/** Fails at once, naming the setup script, when nginx is missing. */
function requireNginx() {
	if (!fs.existsSync(NGINX)) throw missing(`nginx is missing at ${NGINX}`);
}

/**
 * Starts nginx balancing `processors` (their ports on 127.0.0.1). Fails at once, naming the setup
 * script, when nginx is missing.
 * @param {string} folder the run's folder; nginx's own is `<folder>/nginx[-suffix]`
 * @param {{ processors: number[], rateLimit?: { perSecond: number, burst: number }, name?: string }} options
 */
async function startNginx(folder, { processors, rateLimit, name = 'nginx' }) {
	requireNginx();
	const home = path.join(folder, name);
	fs.mkdirSync(home, { recursive: true });
	const port = await freePort();
	const conf = path.join(home, 'nginx.conf');
	const inHome = (/** @type {string} */ file) => path.join(home, file);
	fs.writeFileSync(
		conf,
		[
			// As root, nginx's workers would switch to a user that cannot write this folder.
			...(process.getuid?.() === 0 ? ['user root root;'] : []),
			'worker_processes 1;',
			'daemon off;',
			`pid ${inHome('nginx.pid')};`,
			`error_log ${inHome('error.log')} warn;`,
			'events { worker_connections 1024; }',
			'http {',
			// Which processor answered each request: `$upstream_addr` lists every one tried.
			'    log_format upstreams \'$remote_addr $status "$request" $upstream_addr\';',
			`    access_log ${inHome('access.log')} upstreams;`,
			`    client_body_temp_path ${inHome('client_body')};`,
			`    proxy_temp_path ${inHome('proxy')};`,
			`    fastcgi_temp_path ${inHome('fastcgi')};`,
			`    uwsgi_temp_path ${inHome('uwsgi')};`,
			`    scgi_temp_path ${inHome('scgi')};`,
			...webhookProxyLines({ processors, listen: `127.0.0.1:${port}`, rateLimit }).map(
				(line) => `    ${line}`,
			),
			'}',
			'',
		].join('\n'),
	);
	const args = ['-p', home, '-c', conf, '-e', inHome('error.log')];
	const test = spawnSync(NGINX, [...args, '-t'], { encoding: 'utf8' });
	if (test.status !== 0)
		throw new Error(`nginx refused its configuration ${conf}:\n${test.stderr || test.stdout}`);
	const child = track(
		spawn(NGINX, args, { cwd: home, stdio: ['ignore', 'ignore', 'pipe'], detached: true }),
		{ group: true, signal: 'SIGQUIT' },
	);
	/** @type {string[]} */
	const stderr = [];
	child.stderr?.on('data', (chunk) => stderr.push(String(chunk)));
	await waitUntil(
		() =>
			fetch(`http://127.0.0.1:${port}/nginx-ready-probe`).then(
				(answer) => answer.arrayBuffer().then(() => true),
				() => false,
			),
		{
			timeoutMs: 15_000,
			intervalMs: 100,
			child,
			what: `nginx listening on 127.0.0.1:${port}`,
			detail: () => stderr.join('').trim(),
		},
	);
	return {
		url: `http://127.0.0.1:${port}`,
		/**
		 * How many requests each upstream port answered, from the access log (the last address a
		 * request was passed to answered it).
		 * @returns {Map<number, number>}
		 */
		answeredByUpstream() {
			/** @type {Map<number, number>} */
			const counts = new Map();
			const log = path.join(home, 'access.log');
			if (!fs.existsSync(log)) return counts;
			for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
				const port = Number(/:(\d+)$/.exec(line.trim())?.[1]);
				if (port) counts.set(port, (counts.get(port) ?? 0) + 1);
			}
			return counts;
		},
		async stop() {
			await stopProcess(child, 10_000, 'SIGQUIT');
			signalProcess(child, true, 'SIGKILL'); // a worker left behind
		},
	};
}

module.exports = { DEFAULT_RATE_LIMIT, requireNginx, startNginx, webhookProxyLines };
