/**
 * docs/queue-mode.md shows the nginx lines that `npm run test:queue` and `npm run bench:flood` run
 * in front of n8n's webhook processors (support/services/nginx.js), with a user's ports and the tested limit.
 */
import { DEFAULT_RATE_LIMIT, webhookProxyLines } from '../../support/services/nginx';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

/** The ports docs/queue-mode.md names: two processors after n8n's default port, nginx on 80. */
const USER_PORTS = { processors: [5679, 5680], listen: '80' };

describe(scenario('tooling.docsNginx'), () => {
	it('is the harness configuration, with the tested rate limit', () => {
		const lines = webhookProxyLines({ ...USER_PORTS, rateLimit: DEFAULT_RATE_LIMIT });
		expect(readRepoFile('docs/queue-mode.md')).toContain(
			`\`\`\`nginx\n${lines.join('\n')}\n\`\`\``,
		);
	});

	it('limits each client address and passes a request on only to a processor that did not get it', () => {
		const lines = webhookProxyLines({ ...USER_PORTS, rateLimit: DEFAULT_RATE_LIMIT });
		expect(lines).toContain(
			`limit_req_zone $binary_remote_addr zone=webhooks:10m rate=${DEFAULT_RATE_LIMIT.perSecond}r/s;`,
		);
		expect(lines).toContain('        proxy_next_upstream error timeout;');
		expect(webhookProxyLines(USER_PORTS).some((line) => line.includes('limit_req'))).toBe(false);
	});
});
