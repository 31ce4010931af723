/**
 * docs/front-door.md shows the nginx lines that `npm run test:queue` and `npm run bench:flood` run in
 * front of n8n (support/services/nginx.js), with a user's ports and the tested rate limit: one
 * block for one n8n, one for webhook processors. The blocks are read back as nginx blocks and
 * checked for what the page promises: each delivery passes only to a process whose own readiness
 * answered, 503 with Retry-After otherwise, and only a 503 is sent on to another process.
 */
import {
	DEFAULT_RATE_LIMIT,
	READINESS_TIMEOUT_SECONDS,
	RETRY_AFTER_SECONDS,
	WEBHOOK_LOCATION,
	webhookProxyLines,
} from '../../support/services/nginx';
import { DEPLOY_ONE_N8N, DEPLOY_QUEUE } from '../../support/services/deployConfig';
import { caddyfileLines } from '../../support/services/caddy';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

/** The ports docs/front-door.md names: n8n's default port, two processors after it, nginx on 80. */
const ONE_N8N = { processors: [5678], listen: '80' };
const PROCESSORS = { processors: [5679, 5680], gates: [8081, 8082], listen: '80', editor: 5678 };
/** The gated location's head, as a block's head reads. */
const WEBHOOK = WEBHOOK_LOCATION.replace(/^location /, 'location ');

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
/**
 * Where `pass` (`proxy_pass http://<pass>`) sends: the ports of its upstream block, or the one
 * `name:port` its server sets the variable to (re-resolved per request).
 */
function addresses(config: Block, server: Block, pass: string): (number | string)[] {
	if (pass.startsWith('$'))
		return server.directives
			.filter((line) => line.startsWith(`set ${pass} `))
			.map((line) => line.split(' ')[2]);
	return only(config.blocks, `upstream ${pass}`)
		.directives.filter((line) => line.startsWith('server '))
		.map((line) => Number(/^server 127\.0\.0\.1:(\d+)\b/.exec(line)?.[1]));
}
/** The upstream or variable a `proxy_pass http://<name>[path]` names. */
const passedTo = (location: Block) =>
	/^http:\/\/([\w$]+)/.exec(directive(location, 'proxy_pass') ?? '')?.[1];

/**
 * A gated server: `/webhook/` passes to `upstream` only after that same upstream's readiness
 * answered, never twice, and answers 503 with Retry-After otherwise.
 */
function expectGate(server: Block, upstream: string) {
	const webhook = only(server.blocks, WEBHOOK);
	const check = directive(webhook, 'auth_request');
	expect(check).toBeDefined();
	expect(passedTo(webhook)).toBe(upstream);
	expect(directive(webhook, 'proxy_next_upstream')).toBe('off');

	const readiness = only(server.blocks, `location = ${check}`);
	expect(readiness.directives).toContain('internal');
	expect(directive(readiness, 'proxy_pass')).toBe(`http://${upstream}/healthz/readiness`);
	expect(directive(readiness, 'proxy_method')).toBe('GET');
	// A hung process accepts connections: the check gives up after seconds, not nginx's 60.
	for (const timeout of ['proxy_connect_timeout', 'proxy_send_timeout', 'proxy_read_timeout'])
		expect(directive(readiness, timeout)).toBe(`${READINESS_TIMEOUT_SECONDS}s`);
	expect(READINESS_TIMEOUT_SECONDS).toBeLessThanOrEqual(3);

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
	const webhook = only(publicServer.blocks, WEBHOOK);
	expect(directive(webhook, 'limit_req')).toBe(
		`zone=webhooks burst=${DEFAULT_RATE_LIMIT.burst} nodelay`,
	);
	expect(directive(publicServer, 'client_max_body_size')).toBe('16m');
}

/** The public server's catch-all goes to `editor`; only the gated location matches `/webhook/`. */
function expectCatchAll(config: Block, server: Block, editor: number | string) {
	const catchAll = only(server.blocks, 'location /');
	expect(addresses(config, server, passedTo(catchAll) ?? '')).toEqual([editor]);
	const locations = server.blocks.filter((block) => block.head.startsWith('location '));
	const webhookLike = locations.filter((block) => /webhook/i.test(block.head));
	expect(webhookLike.map((block) => block.head)).toEqual([WEBHOOK]);
	// Case-insensitive, anchored at the start: every spelling nginx normalises to /webhook/.
	const pattern = new RegExp(WEBHOOK.replace(/^location ~\* /, ''), 'i');
	for (const uri of ['/webhook/x', '/WEBHOOK/x', '/Webhook/x'])
		expect(pattern.test(uri)).toBe(true);
	expect(pattern.test('/x/webhook/')).toBe(false);
}

/** One n8n: a single gated server on the public port. */
function expectOneN8n(
	lines: string[],
	expected: { processors: (number | string)[]; listen: string } = ONE_N8N,
) {
	const config = parseNginx(lines);
	const [server] = servers(config);
	expect(servers(config)).toHaveLength(1);
	expect(directive(server, 'listen')).toBe(expected.listen);
	const webhook = only(server.blocks, WEBHOOK);
	const upstream = passedTo(webhook) ?? '';
	expect(addresses(config, server, upstream)).toEqual(expected.processors);
	expectGate(server, upstream);
	expectRateLimit(config, server);
	expectCatchAll(config, server, expected.processors[0]);
}

/**
 * Webhook processors: the public server balances over the gates and sends a delivery on only when
 * a gate answered 503; each gate, on loopback, asks its own processor and passes only to it.
 */
function expectProcessors(
	lines: string[],
	expected: {
		processors: (number | string)[];
		gates: number[];
		listen: string;
		editor: number | string;
	} = PROCESSORS,
) {
	const config = parseNginx(lines);
	const [publicServer, ...gates] = servers(config);
	expect(directive(publicServer, 'listen')).toBe(expected.listen);
	const webhook = only(publicServer.blocks, WEBHOOK);
	expect(directive(webhook, 'auth_request')).toBeUndefined();
	expect(directive(webhook, 'proxy_next_upstream')).toBe('http_503 non_idempotent');
	const balanced = passedTo(webhook) ?? '';
	expect(addresses(config, publicServer, balanced)).toEqual(expected.gates);
	// A gate that answered 503 is asked again at the next delivery, not set aside.
	expect(
		only(config.blocks, `upstream ${balanced}`).directives.filter((line) =>
			line.startsWith('server '),
		),
	).toEqual(expected.gates.map((port) => `server 127.0.0.1:${port} max_fails=0`));
	expectRateLimit(config, publicServer);
	expectCatchAll(config, publicServer, expected.editor);

	expect(gates).toHaveLength(expected.processors.length);
	expected.processors.forEach((processor, i) => {
		const gate = gates.find(
			(server) => directive(server, 'listen') === `127.0.0.1:${expected.gates[i]}`,
		);
		expect(gate).toBeDefined();
		const upstream = passedTo(only(gate!.blocks, WEBHOOK)) ?? '';
		// Exactly one address per gate: the check and the delivery reach the same process.
		expect(addresses(config, gate!, upstream)).toEqual([processor]);
		expectGate(gate!, upstream);
		expect(directive(only(gate!.blocks, WEBHOOK), 'limit_req')).toBeUndefined();
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

	it("deploy/nginx/ holds the harness lines with the Compose services' names, re-resolved through Docker's DNS", () => {
		const one = webhookProxyLines({ ...DEPLOY_ONE_N8N, rateLimit: DEFAULT_RATE_LIMIT });
		const queue = webhookProxyLines({ ...DEPLOY_QUEUE, rateLimit: DEFAULT_RATE_LIMIT });
		expect(readRepoFile(DEPLOY_ONE_N8N.file)).toBe(`${one.join('\n')}\n`);
		expect(readRepoFile(DEPLOY_QUEUE.file)).toBe(`${queue.join('\n')}\n`);
		expectOneN8n(one, DEPLOY_ONE_N8N);
		expectProcessors(queue, DEPLOY_QUEUE);
		for (const lines of [one, queue]) {
			const config = parseNginx(lines);
			expect(directive(config, 'resolver')).toBe('127.0.0.11 valid=10s');
			// No upstream block names a container: nginx 1.22 would resolve it once, at start.
			const upstreams = config.blocks.filter((block) => block.head.startsWith('upstream '));
			for (const upstream of upstreams)
				for (const line of upstream.directives.filter((l) => l.startsWith('server ')))
					expect(line).toMatch(/^server 127\.0\.0\.1:/);
		}
		expect(() => webhookProxyLines({ processors: ['n8n:5678'], listen: '80' })).toThrow(/resolver/);
	});

	it('docs/front-door.md shows the Caddy lines test:upgrade runs, for one n8n on 127.0.0.1:5678', () => {
		const blocks = [...readRepoFile('docs/front-door.md').matchAll(/```caddy\n([\s\S]*?)\n```/g)];
		const lines = caddyfileLines({ n8n: '127.0.0.1:5678', listen: ':80' });
		expect(blocks.map((match) => match[1])).toEqual([lines.join('\n')]);
		// Every /webhook/ delivery is checked first; the editor's catch-all comes after.
		expect(lines).toContain('\t@webhook path /webhook/*');
		expect(lines.indexOf('\thandle @webhook {')).toBeLessThan(lines.indexOf('\thandle {'));
	});

	it("docs/queue-mode.md links the processors' lines instead of its own copy", () => {
		const queueMode = readRepoFile('docs/queue-mode.md');
		expect(queueMode).not.toContain('```nginx');
		expect(queueMode).toContain('(front-door.md#webhook-processors)');
	});
});
