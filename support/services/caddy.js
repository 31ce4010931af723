// @ts-check
'use strict';
/**
 * Caddy (Debian's, installed by scripts/setup-system.sh, never by a test) on a free loopback port
 * as the front door of one n8n: `forward_auth` asks n8n's `/healthz/readiness` before passing a
 * `/webhook/` delivery on, and answers with readiness's own 503 otherwise (a 502 while n8n does
 * not listen), never n8n's start-up 200. docs/front-door.md shows these lines
 * (test/tooling/docsNginx.unit.test.ts checks them). Used by test:upgrade, whose upgrade round
 * probes n8n's start through it beside nginx (its `STARTUP WINDOW upgrade (Caddy)` line).
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { missing } = require('./services');
const { READINESS_TIMEOUT_SECONDS } = require('./nginx');
const { freePort, stopProcess, track, waitUntil } = require('./processes');

const CADDY = process.env.CADDY_BINARY ?? '/usr/bin/caddy';

/**
 * The site block for one n8n at `n8n` (`host:port`), listening on `listen`. Caddy's `path`
 * matcher ignores case and matches the unescaped path, so every spelling of `/webhook/` is gated;
 * everything else (the editor, the API) goes to n8n unchecked. The check gives up after
 * READINESS_TIMEOUT_SECONDS on a hung n8n.
 * @param {{ n8n: string, listen: string }} options
 */
const caddyfileLines = ({ n8n, listen }) => [
	`${listen} {`,
	'\trequest_body {',
	'\t\tmax_size 16MB',
	'\t}',
	'\t@webhook path /webhook/*',
	'\thandle @webhook {',
	`\t\tforward_auth ${n8n} {`,
	'\t\t\turi /healthz/readiness',
	'\t\t\ttransport http {',
	`\t\t\t\tdial_timeout ${READINESS_TIMEOUT_SECONDS}s`,
	`\t\t\t\tresponse_header_timeout ${READINESS_TIMEOUT_SECONDS}s`,
	'\t\t\t}',
	'\t\t}',
	`\t\treverse_proxy ${n8n}`,
	'\t}',
	'\thandle {',
	`\t\treverse_proxy ${n8n}`,
	'\t}',
	'}',
];

/** Fails at once, naming the setup script, when Caddy is missing. */
function requireCaddy() {
	if (!fs.existsSync(CADDY)) throw missing(`caddy is missing at ${CADDY}`);
}

/**
 * Starts Caddy as the front door of n8n on 127.0.0.1:`n8nPort`, its files in `<folder>/caddy`
 * (no admin endpoint, no automatic HTTPS: nothing outside the folder and its port).
 * @param {string} folder @param {{ n8nPort: number }} options
 */
async function startCaddy(folder, { n8nPort }) {
	requireCaddy();
	const home = path.join(folder, 'caddy');
	fs.mkdirSync(home, { recursive: true });
	const port = await freePort();
	const config = path.join(home, 'Caddyfile');
	fs.writeFileSync(
		config,
		[
			'{',
			'\tadmin off',
			'\tauto_https off',
			'}',
			...caddyfileLines({ n8n: `127.0.0.1:${n8nPort}`, listen: `http://127.0.0.1:${port}` }),
			'',
		].join('\n'),
	);
	const env = { ...process.env, HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home };
	const args = ['--config', config, '--adapter', 'caddyfile'];
	const validated = spawnSync(CADDY, ['validate', ...args], { encoding: 'utf8', env });
	if (validated.status !== 0)
		throw new Error(`caddy refused its configuration ${config}:\n${validated.stderr}`);
	const log = fs.openSync(path.join(home, 'caddy.log'), 'a');
	const child = track(spawn(CADDY, ['run', ...args], { env, stdio: ['ignore', log, log] }));
	fs.closeSync(log);
	await waitUntil(
		() =>
			fetch(`http://127.0.0.1:${port}/caddy-ready-probe`).then(
				(answer) => answer.arrayBuffer().then(() => true),
				() => false,
			),
		{ timeoutMs: 15_000, intervalMs: 100, child, what: `caddy listening on 127.0.0.1:${port}` },
	);
	return {
		url: `http://127.0.0.1:${port}`,
		stop: () => stopProcess(child),
	};
}

module.exports = { caddyfileLines, requireCaddy, startCaddy };
