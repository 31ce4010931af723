// @ts-check
'use strict';
/**
 * nginx (Debian's, installed by scripts/setup-system.sh, never by a test) on a free loopback port as
 * the front door of n8n's `/webhook/`: a delivery reaches an n8n process only once that same
 * process answers `/healthz/readiness`, and gets 503 otherwise, never n8n's start-up 200. One n8n
 * or several webhook processors (one gate each, balanced round-robin); optionally a request-rate
 * limit per client address (`limit_req`). docs/front-door.md gives users these lines. Its
 * configuration, logs and temp files live in a folder of the run, which the run removes (or keeps
 * to inspect).
 *
 * Used by `npm run test:queue` (the main, then two webhook processors), `npm run test:upgrade` and
 * `npm run bench:flood` (the gate's cost, and a forged flood with and without the limit).
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

/** Where the front door asks n8n whether it is ready, and what it answers when n8n is not. */
const READINESS_LOCATION = '/n8n-ready';
const NOT_READY_LOCATION = '@n8n_not_ready';
/** How long the front door tells a provider to wait before it delivers again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The lines of one gated `server`: it passes `/webhook/` to `upstream` only after n8n's
 * `/healthz/readiness` answered 2xx on that same upstream (`auth_request`), and answers 503 with
 * Retry-After otherwise, n8n down or starting. While n8n starts, it answers every request `200 n8n
 * is starting up` without running anything (docs/n8n-startup-200.md): a provider never retries a
 * 2xx, so a delivery must not reach n8n before it is ready.
 * A gate behind the public server (`behindDoor`) passes on the client address that server set.
 * @param {{ listen: string, upstream: string, rateLimit?: { perSecond: number, burst: number }, behindDoor?: boolean }} options
 */
function gatedServerLines({ listen, upstream, rateLimit, behindDoor = false }) {
	return [
		'server {',
		`    listen ${listen};`,
		'    client_max_body_size 16m;',
		'    location /webhook/ {',
		...(rateLimit ? [`        limit_req zone=webhooks burst=${rateLimit.burst} nodelay;`] : []),
		`        auth_request ${READINESS_LOCATION};`,
		// auth_request turns the readiness check's 503 (or a refused connection) into a 500.
		`        error_page 500 = ${NOT_READY_LOCATION};`,
		...proxyLines(upstream, behindDoor ? '$http_x_forwarded_for' : undefined),
		// A request that reached n8n is never sent again: n8n may have run it.
		'        proxy_next_upstream off;',
		'    }',
		`    location = ${READINESS_LOCATION} {`,
		'        internal;',
		`        proxy_pass http://${upstream}/healthz/readiness;`,
		'        proxy_method GET;',
		'        proxy_pass_request_body off;',
		'        proxy_set_header Content-Length "";',
		'        proxy_http_version 1.1;',
		'        proxy_set_header Connection "";',
		'    }',
		`    location ${NOT_READY_LOCATION} {`,
		`        add_header Retry-After ${RETRY_AFTER_SECONDS} always;`,
		'        return 503 "n8n is not ready\\n";',
		'    }',
		'}',
	];
}

/**
 * How a location passes a request to `upstream`.
 * @param {string} upstream @param {string} [forwardedFor] the X-Forwarded-For it sends
 */
const proxyLines = (upstream, forwardedFor = '$proxy_add_x_forwarded_for') => [
	`        proxy_pass http://${upstream};`,
	'        proxy_http_version 1.1;',
	'        proxy_set_header Connection "";',
	'        proxy_set_header Host $host;',
	`        proxy_set_header X-Forwarded-For ${forwardedFor};`,
];

/** An upstream block. @param {string} name @param {number[]} ports @param {string} [serverOptions] */
const upstreamLines = (name, ports, serverOptions = '') => [
	`upstream ${name} {`,
	...ports.map((port) => `    server 127.0.0.1:${port}${serverOptions};`),
	'    keepalive 32;',
	'}',
];

/**
 * The `http` block's directives of the front door for n8n's `/webhook/` (the editor's own
 * `location /`, to the main, is not part of the tests), as docs/front-door.md shows them
 * (test/tooling/docsNginx.unit.test.ts checks the page against them):
 * - one n8n (`processors` has one port): a gated server passing to it;
 * - several webhook processors: the public server balances over one gate per processor (on
 *   `gates`, loopback ports), each asking its own processor's readiness and passing to that
 *   processor only, so that the check and the delivery reach the same process. A gate's 503
 *   passed nothing to n8n, so the public server hands the delivery to the next gate.
 * `gate: false` leaves the readiness check out (the benchmark's comparison, never a set-up to
 * use). `rateLimit` adds a request-rate limit per client address (`limit_req`).
 * @param {{ processors: number[], listen: string, gates?: number[], gate?: boolean, rateLimit?: { perSecond: number, burst: number } }} options
 */
function webhookProxyLines({ processors, listen, gates = [], gate = true, rateLimit }) {
	const limit = rateLimit
		? [
				`limit_req_zone $binary_remote_addr zone=webhooks:10m rate=${rateLimit.perSecond}r/s;`,
				'limit_req_status 429;',
			]
		: [];
	/** The public server, passing `/webhook/` to an upstream of several. @param {string} upstream @param {string} nextUpstream */
	const balancingServer = (upstream, nextUpstream) => [
		'server {',
		`    listen ${listen};`,
		'    client_max_body_size 16m;',
		'    location /webhook/ {',
		...(rateLimit ? [`        limit_req zone=webhooks burst=${rateLimit.burst} nodelay;`] : []),
		...proxyLines(upstream),
		`        proxy_next_upstream ${nextUpstream};`,
		'    }',
		'}',
	];
	if (!gate)
		return [
			...limit,
			...upstreamLines('n8n_webhooks', processors),
			...balancingServer('n8n_webhooks', 'error timeout'),
		];
	if (processors.length === 1)
		return [
			...limit,
			...upstreamLines('n8n', processors),
			...gatedServerLines({ listen, upstream: 'n8n', rateLimit }),
		];
	if (gates.length !== processors.length)
		throw new Error(
			`${processors.length} webhook processors need as many gate ports, not ${gates.length}`,
		);
	return [
		...limit,
		// max_fails=0: a gate that answered 503 is asked again at the next request, not set aside.
		...upstreamLines('n8n_webhook_gates', gates, ' max_fails=0'),
		// A 503 sends the delivery to the next gate: a gate's own (its processor down or starting)
		// passed nothing to n8n, and n8n's ("Database is not ready") ran nothing. Any other answer,
		// a refused connection or a processor dying mid-request included, goes back to the sender.
		...balancingServer('n8n_webhook_gates', 'http_503 non_idempotent'),
		...processors.flatMap((port, i) => [
			...upstreamLines(`n8n_webhook_${i + 1}`, [port]),
			...gatedServerLines({
				listen: `127.0.0.1:${gates[i]}`,
				upstream: `n8n_webhook_${i + 1}`,
				behindDoor: true,
			}),
		]),
	];
}

/** Fails at once, naming the setup script, when nginx is missing. */
function requireNginx() {
	if (!fs.existsSync(NGINX)) throw missing(`nginx is missing at ${NGINX}`);
}

/**
 * Starts nginx as the front door of `processors` (n8n's ports on 127.0.0.1: one n8n, or webhook
 * processors), gated on each one's readiness unless `gate` is false. Fails at once, naming the
 * setup script, when nginx is missing.
 * @param {string} folder the run's folder; nginx's own is `<folder>/nginx[-suffix]`
 * @param {{ processors: number[], rateLimit?: { perSecond: number, burst: number }, name?: string, gate?: boolean }} options
 */
async function startNginx(folder, { processors, rateLimit, name = 'nginx', gate = true }) {
	requireNginx();
	const home = path.join(folder, name);
	fs.mkdirSync(home, { recursive: true });
	const port = await freePort();
	const gates =
		gate && processors.length > 1 ? await Promise.all(processors.map(() => freePort())) : [];
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
			...webhookProxyLines({
				processors,
				listen: `127.0.0.1:${port}`,
				gates,
				gate,
				rateLimit,
			}).map((line) => `    ${line}`),
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
		/** nginx's master process, its workers' parent (bench:flood reads their CPU). */
		pid: /** @type {number} */ (child.pid),
		/**
		 * How many requests each of `processors` answered, from the access log (the last address a
		 * request was passed to answered it; the gates' own lines name the processor).
		 * @returns {Map<number, number>}
		 */
		answeredByUpstream() {
			/** @type {Map<number, number>} */
			const counts = new Map();
			const log = path.join(home, 'access.log');
			if (!fs.existsSync(log)) return counts;
			for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
				const port = Number(/:(\d+)$/.exec(line.trim())?.[1]);
				if (processors.includes(port)) counts.set(port, (counts.get(port) ?? 0) + 1);
			}
			return counts;
		},
		async stop() {
			await stopProcess(child, 10_000, 'SIGQUIT');
			signalProcess(child, true, 'SIGKILL'); // a worker left behind
		},
	};
}

module.exports = {
	DEFAULT_RATE_LIMIT,
	RETRY_AFTER_SECONDS,
	requireNginx,
	startNginx,
	webhookProxyLines,
};
