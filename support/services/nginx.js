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
 * How long the readiness check waits for n8n (connect, send, read). A hung process (stopped,
 * swapping, stuck in a loop) still accepts connections in the kernel's backlog: without a read
 * timeout nginx waits its default 60 s. Past this, the check fails and the delivery gets 503 (or
 * goes to the next processor's gate) instead.
 */
const READINESS_TIMEOUT_SECONDS = 3;
/** How long nginx keeps an idle connection to n8n: below Node's own 5 s (no 502 on a reused one). */
const UPSTREAM_KEEPALIVE_SECONDS = 4;
/**
 * The gated location. Express routes ignore case, so `/WEBHOOK/…` reaches n8n's webhook handler:
 * the location matches every spelling nginx normalises to `/webhook/` (`%2F`, `//`, `/./`, any case).
 */
const WEBHOOK_LOCATION = 'location ~* ^/webhook/';

/**
 * An n8n process as the front door reaches it: a port on 127.0.0.1 (an `upstream` block, resolved
 * once), or `name:port`, resolved per request through the `resolver` (a re-created container's
 * new address is found without a reload, and nginx starts while the name does not resolve).
 * @typedef {number | string} N8nAddress
 */

/**
 * How a server names an n8n process in `proxy_pass`: the upstream block `name` (a port), or the
 * server's variable `$<name>`, set to `name:port` (`set` lines, one per server).
 * @param {N8nAddress} address @param {string} name
 */
const target = (address, name) =>
	typeof address === 'number'
		? { pass: name, upstream: upstreamLines(name, [address]), set: [] }
		: { pass: `$${name}`, upstream: [], set: [`    set $${name} ${address};`] };

/**
 * The lines of one gated `server`: it passes `/webhook/` to `upstream` only after n8n's
 * `/healthz/readiness` answered 2xx on that same upstream (`auth_request`), and answers 503 with
 * Retry-After otherwise, n8n down, starting or hung. While n8n starts, it answers every request
 * `200 n8n is starting up` without running anything (docs/n8n-startup-200.md): a provider never
 * retries a 2xx, so a delivery must not reach n8n before it is ready.
 * A gate behind the public server (`behindDoor`) passes on the client address and scheme that
 * server set. `editor`: the public server's catch-all (`location /`, n8n's editor and API).
 * @param {{ listen: string, pass: string, set: string[], rateLimit?: { perSecond: number, burst: number }, behindDoor?: boolean, editor?: string }} options
 */
function gatedServerLines({ listen, pass, set, rateLimit, behindDoor = false, editor }) {
	return [
		'server {',
		`    listen ${listen};`,
		'    client_max_body_size 16m;',
		...set,
		`    ${WEBHOOK_LOCATION} {`,
		...(rateLimit ? [`        limit_req zone=webhooks burst=${rateLimit.burst} nodelay;`] : []),
		`        auth_request ${READINESS_LOCATION};`,
		// auth_request turns the readiness check's 503 (or a refused connection) into a 500.
		`        error_page 500 = ${NOT_READY_LOCATION};`,
		...proxyLines(pass, behindDoor),
		// A request that reached n8n is never sent again: n8n may have run it.
		'        proxy_next_upstream off;',
		'    }',
		`    location = ${READINESS_LOCATION} {`,
		'        internal;',
		`        proxy_pass http://${pass}/healthz/readiness;`,
		'        proxy_method GET;',
		'        proxy_pass_request_body off;',
		'        proxy_set_header Content-Length "";',
		'        proxy_http_version 1.1;',
		'        proxy_set_header Connection "";',
		`        proxy_connect_timeout ${READINESS_TIMEOUT_SECONDS}s;`,
		`        proxy_send_timeout ${READINESS_TIMEOUT_SECONDS}s;`,
		`        proxy_read_timeout ${READINESS_TIMEOUT_SECONDS}s;`,
		'    }',
		`    location ${NOT_READY_LOCATION} {`,
		`        add_header Retry-After ${RETRY_AFTER_SECONDS} always;`,
		'        return 503 "n8n is not ready\\n";',
		'    }',
		...(editor ? editorLines(editor) : []),
		'}',
	];
}

/**
 * The public server's catch-all: n8n's editor and API (`location /`), websockets included. Only
 * the gated location matches `/webhook/`, in any spelling, so this one never carries a delivery.
 * @param {string} pass
 */
const editorLines = (pass) => [
	'    location / {',
	`        proxy_pass http://${pass};`,
	'        proxy_http_version 1.1;',
	'        proxy_set_header Upgrade $http_upgrade;',
	'        proxy_set_header Connection $connection_upgrade;',
	'        proxy_set_header Host $host;',
	'        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
	'        proxy_set_header X-Forwarded-Proto $scheme;',
	'    }',
];

/**
 * How a location passes a request to `pass` (an upstream or a variable): the public server sets
 * the client's address and scheme, a gate behind it (`behindDoor`) passes them on.
 * @param {string} pass @param {boolean} [behindDoor]
 */
const proxyLines = (pass, behindDoor = false) => [
	`        proxy_pass http://${pass};`,
	'        proxy_http_version 1.1;',
	'        proxy_set_header Connection "";',
	'        proxy_set_header Host $host;',
	`        proxy_set_header X-Forwarded-For ${behindDoor ? '$http_x_forwarded_for' : '$proxy_add_x_forwarded_for'};`,
	`        proxy_set_header X-Forwarded-Proto ${behindDoor ? '$http_x_forwarded_proto' : '$scheme'};`,
];

/** An upstream block. @param {string} name @param {number[]} ports @param {string} [serverOptions] */
const upstreamLines = (name, ports, serverOptions = '') => [
	`upstream ${name} {`,
	...ports.map((port) => `    server 127.0.0.1:${port}${serverOptions};`),
	'    keepalive 32;',
	`    keepalive_timeout ${UPSTREAM_KEEPALIVE_SECONDS}s;`,
	'}',
];

/**
 * The `http` block's directives of the front door for n8n's `/webhook/`, as docs/front-door.md
 * and deploy/nginx/ show them (test/tooling/docsNginx.unit.test.ts checks both against them):
 * - one n8n (`processors` has one address): a gated server passing to it, its catch-all to the
 *   same n8n (the editor);
 * - several webhook processors: the public server balances over one gate per processor (on
 *   `gates`, loopback ports), each asking its own processor's readiness and passing to that
 *   processor only, so that the check and the delivery reach the same process (each gate needs
 *   exactly one address: a name that balances over replicas would not do). A gate's 503 passed
 *   nothing to n8n, so the public server hands the delivery to the next gate. Its catch-all goes
 *   to `editor` (the main).
 * Addresses are ports on 127.0.0.1, or `name:port` with a `resolver` (`address [valid=…]`).
 * `gate: false` leaves the readiness check out (the benchmark's comparison, never a set-up to
 * use). `rateLimit` adds a request-rate limit per client address (`limit_req`).
 * @param {{ processors: N8nAddress[], listen: string, gates?: number[], gate?: boolean, rateLimit?: { perSecond: number, burst: number }, resolver?: string, editor?: N8nAddress }} options
 */
function webhookProxyLines({
	processors,
	listen,
	gates = [],
	gate = true,
	rateLimit,
	resolver,
	editor,
}) {
	const named = processors.filter((address) => typeof address === 'string');
	if (named.length > 0 && !resolver)
		throw new Error(`names (${named.join(', ')}) need a resolver to re-resolve them`);
	const head = [
		...(rateLimit
			? [
					`limit_req_zone $binary_remote_addr zone=webhooks:10m rate=${rateLimit.perSecond}r/s;`,
					'limit_req_status 429;',
				]
			: []),
		...(resolver
			? [`resolver ${resolver};`, `resolver_timeout ${READINESS_TIMEOUT_SECONDS}s;`]
			: []),
		'map $http_upgrade $connection_upgrade {',
		'    default upgrade;',
		'    \'\' "";',
		'}',
	];
	/** The public server, passing `/webhook/` to an upstream of several. @param {string} upstream @param {string} nextUpstream @param {{ pass: string, set: string[] }} main */
	const balancingServer = (upstream, nextUpstream, main) => [
		'server {',
		`    listen ${listen};`,
		'    client_max_body_size 16m;',
		...main.set,
		`    ${WEBHOOK_LOCATION} {`,
		...(rateLimit ? [`        limit_req zone=webhooks burst=${rateLimit.burst} nodelay;`] : []),
		...proxyLines(upstream),
		`        proxy_next_upstream ${nextUpstream};`,
		'    }',
		...editorLines(main.pass),
		'}',
	];
	if (!gate)
		return [
			...head,
			...upstreamLines('n8n_webhooks', /** @type {number[]} */ (processors)),
			...balancingServer('n8n_webhooks', 'error timeout', { pass: 'n8n_webhooks', set: [] }),
		];
	if (processors.length === 1) {
		const n8n = target(processors[0], 'n8n');
		return [
			...head,
			...n8n.upstream,
			...gatedServerLines({ listen, ...n8n, rateLimit, editor: n8n.pass }),
		];
	}
	if (gates.length !== processors.length)
		throw new Error(
			`${processors.length} webhook processors need as many gate ports, not ${gates.length}`,
		);
	if (editor === undefined) throw new Error('webhook processors need the main as `editor`');
	const main = target(editor, 'n8n_main');
	return [
		...head,
		// max_fails=0: a gate that answered 503 is asked again at the next request, not set aside.
		...upstreamLines('n8n_webhook_gates', gates, ' max_fails=0'),
		...main.upstream,
		// A 503 sends the delivery to the next gate: a gate's own (its processor down, starting or
		// hung) passed nothing to n8n, and n8n's ("Database is not ready") ran nothing. Any other
		// answer, a refused connection or a processor dying mid-request included, goes back to the
		// sender.
		...balancingServer('n8n_webhook_gates', 'http_503 non_idempotent', main),
		...processors.flatMap((address, i) => {
			const processor = target(address, `n8n_webhook_${i + 1}`);
			return [
				...processor.upstream,
				...gatedServerLines({ listen: `127.0.0.1:${gates[i]}`, ...processor, behindDoor: true }),
			];
		}),
	];
}

/** Fails at once, naming the setup script, when nginx is missing. */
function requireNginx() {
	if (!fs.existsSync(NGINX)) throw missing(`nginx is missing at ${NGINX}`);
}

/**
 * Starts nginx as the front door of `processors` (n8n's ports on 127.0.0.1, or `name:port` with
 * `resolver`: one n8n, or webhook processors, then with the main as `editor`), gated on each one's
 * readiness unless `gate` is false. `edit` changes the lines before nginx reads them (a test's
 * control: what an older configuration let through). Fails at once, naming the setup script, when
 * nginx is missing.
 * @param {string} folder the run's folder; nginx's own is `<folder>/nginx[-suffix]`
 * @param {{ processors: N8nAddress[], rateLimit?: { perSecond: number, burst: number }, name?: string, gate?: boolean, resolver?: string, editor?: N8nAddress, edit?: (lines: string[]) => string[] }} options
 */
async function startNginx(
	folder,
	{ processors, rateLimit, name = 'nginx', gate = true, resolver, editor, edit = (lines) => lines },
) {
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
			...edit(
				webhookProxyLines({
					processors,
					listen: `127.0.0.1:${port}`,
					gates,
					gate,
					rateLimit,
					resolver,
					editor,
				}),
			).map((line) => `    ${line}`),
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
			for (const [address, n] of this.answeredByAddress()) {
				const port = Number(/:(\d+)$/.exec(address)?.[1]);
				if (processors.includes(port)) counts.set(port, (counts.get(port) ?? 0) + n);
			}
			return counts;
		},
		/**
		 * How many requests each upstream address (`ip:port`, the last one tried) answered, from
		 * the access log. @returns {Map<string, number>}
		 */
		answeredByAddress() {
			/** @type {Map<string, number>} */
			const counts = new Map();
			const log = path.join(home, 'access.log');
			if (!fs.existsSync(log)) return counts;
			for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
				const address = /(\S+:\d+)$/.exec(line.trim())?.[1];
				if (address) counts.set(address, (counts.get(address) ?? 0) + 1);
			}
			return counts;
		},
		/** nginx's worker processes now: a reload (or a crashed worker) replaces them. */
		workerPids: () =>
			fs
				.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8')
				.trim()
				.split(/\s+/)
				.filter(Boolean)
				.map(Number),
		async stop() {
			await stopProcess(child, 10_000, 'SIGQUIT');
			signalProcess(child, true, 'SIGKILL'); // a worker left behind
		},
	};
}

module.exports = {
	DEFAULT_RATE_LIMIT,
	READINESS_TIMEOUT_SECONDS,
	RETRY_AFTER_SECONDS,
	requireNginx,
	WEBHOOK_LOCATION,
	startNginx,
	webhookProxyLines,
};
