// @ts-check
'use strict';
/**
 * The front door of deploy/ (Docker Compose): support/services/nginx.js's lines with the Compose
 * services' names on n8n's port, re-resolved through Docker's embedded DNS (127.0.0.11), so that a
 * re-created container is found at its new address without a reload and nginx starts while a
 * container is down. Each gate has exactly one address: one service of one container (never
 * `--scale`d or `replicas`). test/tooling/docsNginx.unit.test.ts checks deploy/nginx/ against
 * these lines; test:upgrade's re-created round runs them with dnsmasq in Docker's place.
 * `node support/services/deployConfig.js` writes the files.
 */
const fs = require('node:fs');
const path = require('node:path');

const { DEFAULT_RATE_LIMIT, webhookProxyLines } = require('./nginx');

/** Docker's embedded DNS; `valid`: how long nginx keeps an answer. */
const DOCKER_RESOLVER = '127.0.0.11 valid=10s';

/** deploy/compose.yaml: one n8n. */
const DEPLOY_ONE_N8N = {
	file: 'deploy/nginx/one-n8n.conf',
	processors: ['n8n:5678'],
	listen: '80',
	resolver: DOCKER_RESOLVER,
};
/** deploy/compose.queue.yaml: the main (the editor) and two webhook processors. */
const DEPLOY_QUEUE = {
	file: 'deploy/nginx/queue.conf',
	processors: ['n8n-webhook-1:5678', 'n8n-webhook-2:5678'],
	gates: [8081, 8082],
	listen: '80',
	editor: 'n8n:5678',
	resolver: DOCKER_RESOLVER,
};

/** Writes deploy/nginx/ from the lines. */
function writeDeployConfig() {
	for (const { file, ...options } of [DEPLOY_ONE_N8N, DEPLOY_QUEUE]) {
		const lines = webhookProxyLines({ ...options, rateLimit: DEFAULT_RATE_LIMIT });
		const target = path.join(__dirname, '..', '..', file);
		fs.mkdirSync(path.dirname(target), { recursive: true });
		fs.writeFileSync(target, `${lines.join('\n')}\n`);
	}
}

if (require.main === module) writeDeployConfig();

module.exports = { DEPLOY_ONE_N8N, DEPLOY_QUEUE, DOCKER_RESOLVER };
