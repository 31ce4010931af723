/**
 * docs/front-door.md shows the nginx lines that `npm run test:queue` and `npm run bench:flood` run in
 * front of n8n (support/services/nginx.js), with a user's ports and the tested rate limit: one
 * block for one n8n, one for webhook processors. The blocks are read back as nginx blocks and
 * checked for what the page promises: each delivery passes only to a process whose own readiness
 * answered, 503 with Retry-After otherwise, and only a 503 is sent on to another process.
 */
import {
	DEFAULT_RATE_LIMIT,
	RETRY_AFTER_SECONDS,
	webhookProxyLines,
} from '../../support/services/nginx';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

/** The ports docs/front-door.md names: n8n's default port, two processors after it, nginx on 80. */
const ONE_N8N = { processors: [5678], listen: '80' };
const PROCESSORS = { processors: [5679, 5680], gates: [8081, 8082], listen: '80' };

/** One nginx block: its head (`server`, `location /webhook/`, …), directives and inner blocks. */
interface Block {
	head: string;
	directives: string[];
	blocks: Block[];
}

/** Reads lines as nginx writes them here: one directive, `… {` or `}` per line. */
function parseNginx(lines: string[]): Block {
	const root: Block = { head: '', directives: [], blocks: [] };
	const open = [root];
	for (const raw of lines) {
		const line = raw.trim();
		const current = open[open.length - 1];
		if (line.endsWith('{')) {
			const block: Block = { head: line.slice(0, -1).trim(), directives: [], blocks: [] };
			current.blocks.push(block);
			open.push(block);
		} else if (line === '}') {
			open.pop();
		} else if (line) {
			expect(line.endsWith(';')).toBe(true);
			current.directives.push(line.slice(0, -1));
		}
	}
	expect(open).toHaveLength(1);
	return root;
}

const only = (blocks: Block[], head: string): Block => {
	const found = blocks.filter((block) => block.head === head);
	expect(found.map((block) => block.head)).toEqual([head]);
	return found[0];
};
/** The one directive of `block` named `name` (its arguments), or undefined. */
const directive = (block: Block, name: string): string | undefined => {
	const found = block.directives.filter((line) => line.split(' ')[0] === name);
	expect(found.length).toBeLessThanOrEqual(1);
	return found[0]?.slice(name.length + 1);
};
const servers = (config: Block) => config.blocks.filter((block) => block.head === 'server');
/** The ports an upstream block sends to. */
const upstreamPorts = (config: Block, name: string) =>
	only(config.blocks, `upstream ${name}`)
		.directives.filter((line) => line.startsWith('server '))
		.map((line) => Number(/^server 127\.0\.0\.1:(\d+)\b/.exec(line)?.[1]));
/** The upstream a `proxy_pass http://<name>[path]` names. */
const passedTo = (location: Block) =>
	/^http:\/\/([\w]+)/.exec(directive(location, 'proxy_pass') ?? '')?.[1];

/**
 * A gated server: `/webhook/` passes to `upstream` only after that same upstream's readiness
 * answered, never twice, and answers 503 with Retry-After otherwise.
 */
function expectGate(server: Block, upstream: string) {
	const webhook = only(server.blocks, 'location /webhook/');
	const check = directive(webhook, 'auth_request');
	expect(check).toBeDefined();
	expect(passedTo(webhook)).toBe(upstream);
	expect(directive(webhook, 'proxy_next_upstream')).toBe('off');

	const readiness = only(server.blocks, `location = ${check}`);
	expect(readiness.directives).toContain('internal');
	expect(directive(readiness, 'proxy_pass')).toBe(`http://${upstream}/healthz/readiness`);
	expect(directive(readiness, 'proxy_method')).toBe('GET');

	// auth_request answers 500 when the readiness check says no, or its process does not answer.
	const [, named] = /^500 = (@\w+)$/.exec(directive(webhook, 'error_page') ?? '') ?? [];
	expect(named).toBeDefined();
	const notReady = only(server.blocks, `location ${named}`);
	expect(directive(notReady, 'add_header')).toBe(`Retry-After ${RETRY_AFTER_SECONDS} always`);
	expect(directive(notReady, 'return')).toMatch(/^503 /);
}

/** The rate limit on the public server's `/webhook/` only, with its zone. */
function expectRateLimit(config: Block, publicServer: Block) {
	expect(config.directives).toContain(
		`limit_req_zone $binary_remote_addr zone=webhooks:10m rate=${DEFAULT_RATE_LIMIT.perSecond}r/s`,
	);
	expect(config.directives).toContain('limit_req_status 429');
	const webhook = only(publicServer.blocks, 'location /webhook/');
	expect(directive(webhook, 'limit_req')).toBe(
		`zone=webhooks burst=${DEFAULT_RATE_LIMIT.burst} nodelay`,
	);
	expect(directive(publicServer, 'client_max_body_size')).toBe('16m');
}

/** One n8n: a single gated server on the public port. */
function expectOneN8n(lines: string[]) {
	const config = parseNginx(lines);
	const [server] = servers(config);
	expect(servers(config)).toHaveLength(1);
	expect(directive(server, 'listen')).toBe(ONE_N8N.listen);
	const webhook = only(server.blocks, 'location /webhook/');
	const upstream = passedTo(webhook) ?? '';
	expect(upstreamPorts(config, upstream)).toEqual(ONE_N8N.processors);
	expectGate(server, upstream);
	expectRateLimit(config, server);
}

/**
 * Webhook processors: the public server balances over the gates and sends a delivery on only when
 * a gate answered 503; each gate, on loopback, asks its own processor and passes only to it.
 */
function expectProcessors(lines: string[]) {
	const config = parseNginx(lines);
	const [publicServer, ...gates] = servers(config);
	expect(directive(publicServer, 'listen')).toBe(PROCESSORS.listen);
	const webhook = only(publicServer.blocks, 'location /webhook/');
	expect(directive(webhook, 'auth_request')).toBeUndefined();
	expect(directive(webhook, 'proxy_next_upstream')).toBe('http_503 non_idempotent');
	const balanced = passedTo(webhook) ?? '';
	expect(upstreamPorts(config, balanced)).toEqual(PROCESSORS.gates);
	// A gate that answered 503 is asked again at the next delivery, not set aside.
	expect(
		only(config.blocks, `upstream ${balanced}`).directives.filter((line) =>
			line.startsWith('server '),
		),
	).toEqual(PROCESSORS.gates.map((port) => `server 127.0.0.1:${port} max_fails=0`));
	expectRateLimit(config, publicServer);

	expect(gates).toHaveLength(PROCESSORS.processors.length);
	PROCESSORS.processors.forEach((processor, i) => {
		const gate = gates.find(
			(server) => directive(server, 'listen') === `127.0.0.1:${PROCESSORS.gates[i]}`,
		);
		expect(gate).toBeDefined();
		const upstream = passedTo(only(gate!.blocks, 'location /webhook/')) ?? '';
		expect(upstreamPorts(config, upstream)).toEqual([processor]);
		expectGate(gate!, upstream);
		expect(directive(only(gate!.blocks, 'location /webhook/'), 'limit_req')).toBeUndefined();
	});
}

/** The page's ```nginx blocks, in order. */
const docsBlocks = () =>
	[...readRepoFile('docs/front-door.md').matchAll(/```nginx\n([\s\S]*?)\n```/g)].map(
		(match) => match[1],
	);

describe(scenario('tooling.docsNginx'), () => {
	const one = webhookProxyLines({ ...ONE_N8N, rateLimit: DEFAULT_RATE_LIMIT });
	const many = webhookProxyLines({ ...PROCESSORS, rateLimit: DEFAULT_RATE_LIMIT });

	it('docs/front-door.md shows the harness lines, one n8n then webhook processors, with the tested rate limit', () => {
		expect(docsBlocks()).toEqual([one.join('\n'), many.join('\n')]);
	});

	it('one n8n: a delivery passes only once its readiness answered, 503 with Retry-After otherwise, never twice', () => {
		expectOneN8n(docsBlocks()[0].split('\n'));
	});

	it('webhook processors: each gate asks and passes to its own processor; only a 503 goes to the next gate', () => {
		expectProcessors(docsBlocks()[1].split('\n'));
	});

	it('the checks refuse a gate that asks one processor and passes to another, or a retry on any answer', () => {
		const crossed = many.map((line) =>
			line.includes('/healthz/readiness')
				? line.replace(/n8n_webhook_(\d)/, (_, n) => `n8n_webhook_${3 - Number(n)}`)
				: line,
		);
		expect(() => expectProcessors(crossed)).toThrow();
		const retriesAll = many.map((line) =>
			line.includes('http_503 non_idempotent')
				? line.replace('http_503 non_idempotent', 'error timeout http_503 http_502 non_idempotent')
				: line,
		);
		expect(() => expectProcessors(retriesAll)).toThrow();
		const ungated = webhookProxyLines({ ...ONE_N8N, rateLimit: DEFAULT_RATE_LIMIT, gate: false });
		expect(() => expectOneN8n(ungated)).toThrow();
		expect(() => expectOneN8n(one.filter((line) => !line.includes('Retry-After')))).toThrow();
	});

	it('rate-limits only when asked, and needs one gate port per processor', () => {
		expect(webhookProxyLines(PROCESSORS).some((line) => line.includes('limit_req'))).toBe(false);
		expect(webhookProxyLines(ONE_N8N).some((line) => line.includes('limit_req'))).toBe(false);
		expect(() => webhookProxyLines({ ...PROCESSORS, gates: [8081] })).toThrow(
			/2 webhook processors need as many gate ports/,
		);
	});

	it("docs/queue-mode.md links the processors' lines instead of its own copy", () => {
		const queueMode = readRepoFile('docs/queue-mode.md');
		expect(queueMode).not.toContain('```nginx');
		expect(queueMode).toContain('(front-door.md#webhook-processors)');
	});
});
