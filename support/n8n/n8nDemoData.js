// @ts-check
'use strict';
/**
 * What the end-to-end runs give n8n, with no n8n process: the clone's folders, the package's name
 * and its installed type names, the demo credentials, and the examples with their webhooks. The
 * n8n instance and its CLI that use them are in support/n8n/n8nInstance.js.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const {
	DEMO_SIGNING_CREDENTIALS,
	apiCredentialsFor,
	credentialDataOf,
} = require('../payment/paymentSignatures');

const ROOT_DIR = path.join(__dirname, '..', '..');
const EXAMPLES_DIR = path.join(ROOT_DIR, 'examples');
const PACKAGE = /** @type {{ name: string, version: string }} */ (
	JSON.parse(fs.readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8'))
);
/** The installed type names (a contract: users' saved workflows use them). */
const NODE_TYPE = `${PACKAGE.name}.affiliateTracking`;
const TRIGGER_TYPE = `${PACKAGE.name}.affiliateTrackingTrigger`;
const PAYMENT_TRIGGER_TYPE = `${PACKAGE.name}.paymentWebhookTrigger`;
const CREDENTIAL_TYPE = 'affiliateTrackingApi';
const SIGNING_CREDENTIAL_TYPE = 'paymentWebhookSigningApi';
const PROVIDER_EVENTS_TYPE = `${PACKAGE.name}.paymentProviderEvents`;
/** The providers' API credential the Payment Provider Events node reads with. */
const PROVIDER_API_CREDENTIAL_TYPE = 'paymentProviderApi';

/** The demo credential's id and name; the examples refer to it by both. */
const DEMO_CREDENTIAL = { id: 'affTrackSandbox01', name: 'Affiliate Tracking sandbox' };
/** Example (e)'s model credential: an OpenAI credential whose Base URL is the scripted model. */
const MODEL_CREDENTIAL = { id: 'exampleOpenAi001', name: 'Scripted model (stand-in for OpenAI)' };
const DEMO_KEY = 'pk_test_videomax_v2';
/**
 * Example (g)'s MCP Server Trigger asks MCP clients for this bearer token (an n8n Bearer Auth
 * credential); a demo value for the local n8n only.
 */
const MCP_CREDENTIAL = { id: 'exampleMcpBearer1', name: 'MCP clients (bearer token)' };
const MCP_DEMO_TOKEN = 'mcp-demo-token-for-the-local-n8n-only';
/**
 * Example (b)'s mail credential (n8n's SMTP type); test:e2e points it at support/services/smtpServer.js.
 */
const SMTP_CREDENTIAL = { id: 'exampleSmtpMail01', name: 'Team mail (SMTP)' };
/**
 * Example (d)'s JWT credential (n8n's `jwtAuth`, ES256, the public key only): the brand's backend
 * signs its promoter-center tokens with the private key, which n8n never holds. `keyFile`, from the
 * clone's root, holds the demo's private key, made on first use (promoterCenterKeyPair).
 */
const PROMOTER_CENTER_JWT = {
	id: 'examplePromoterJwt',
	name: 'Promoter center sign-in (JWT)',
	algorithm: 'ES256',
	audience: 'promoter-center',
	keyFile: 'support/.demo-keys/promoter-center-es256.pem',
};
/** Example (e)'s chat asks for this Basic Auth login (n8n's `httpBasicAuth`); local n8n only. */
const CHAT_LOGIN = {
	id: 'exampleChatLogin1',
	name: 'Team chat login (Basic Auth)',
	user: 'team',
	password: 'chat-demo-password-for-the-local-n8n-only',
};
/** The owner account of every local n8n here (npm start, test:e2e, the matrix): loopback only. */
const DEMO_OWNER = { email: 'demo@example.com', password: 'Sandbox-demo-1' };
/**
 * The demo endpoint signing secrets, one credential per payment provider (test secrets from
 * support/payment/paymentSignatures.js); examples (a) and (h) refer to Stripe's by id and name.
 */
const SIGNING_CREDENTIALS = DEMO_SIGNING_CREDENTIALS;

/**
 * The examples with the workflow ids they get on import, so that `n8n execute --id` can find them;
 * `published` ones are activated on import (their webhooks answer, their trigger polls).
 */
const EXAMPLES = [
	// file, id on import, what it has: a production webhook, activated on import
	['a-refund-on-payment-webhook.json', 'exRefundWebhook01', 'webhook published'],
	['b-daily-promoter-statistics.json', 'exDailyStats00001', ''],
	['c-relay-landing-signup.json', 'exRelayLanding001', 'webhook published'],
	['d-promoter-center-embed.json', 'exPromoterCenter1', 'webhook published'],
	['e-ask-about-promoters-agent.json', 'exPromoterAgent01', 'published'],
	['f-team-news-paying-customers.json', 'exTeamNewsPaying1', 'published'],
	['g-ask-about-promoters-mcp.json', 'exPromoterMcp0001', 'published'],
	['h-purchase-on-payment-webhook.json', 'exPurchaseHook001', 'webhook published'],
].map(([file, id, has]) => ({
	letter: file[0],
	file,
	id,
	webhook: has.includes('webhook'),
	published: has.includes('published'),
}));

/** The example with this letter (`a` for the refund on a payment webhook). @param {string} letter */
function example(letter) {
	const found = EXAMPLES.find((e) => e.letter === letter);
	if (!found) throw new Error(`no example ${letter}`);
	return found;
}

/**
 * An Affiliate Tracking API credential for the sandbox at `sandboxUrl` with one of its keys, in
 * `n8n import:credentials` form (n8n encrypts `data` on import).
 * @param {string} sandboxUrl @param {string} apiKey @param {{ id: string, name: string }} credential
 */
function sandboxCredential(sandboxUrl, apiKey, credential) {
	const { KEYS } = require(path.join(ROOT_DIR, 'sandbox', 'seed.js'));
	return {
		...credential,
		type: CREDENTIAL_TYPE,
		data: {
			baseUrl: sandboxUrl,
			apiKey,
			apiSecret: KEYS[apiKey].secret,
			signatureVersion: 'v2',
			promoterCenterUrl: `${sandboxUrl}/promoter-center`,
		},
	};
}

/** The OpenAI credential of example (e), pointed at the scripted model's base URL. @param {string} modelUrl */
function modelCredential(modelUrl) {
	return {
		...MODEL_CREDENTIAL,
		type: 'openAiApi',
		// The scripted model checks no key; OpenAI's client insists on one.
		data: { apiKey: 'scripted-model-needs-no-key', url: modelUrl },
	};
}

/**
 * A provider's demo signing credential with its test secret.
 * @param {keyof typeof SIGNING_CREDENTIALS} provider
 */
function signingCredential(provider) {
	return {
		...SIGNING_CREDENTIALS[provider],
		type: SIGNING_CREDENTIAL_TYPE,
		data: credentialDataOf(provider),
	};
}

/**
 * Example (b)'s SMTP credential for a plain-SMTP server on 127.0.0.1:`port` (no TLS, no STARTTLS),
 * with a throwaway login that the test server accepts.
 * @param {number} port
 */
function smtpCredential(port) {
	return {
		...SMTP_CREDENTIAL,
		type: 'smtp',
		data: {
			host: '127.0.0.1',
			port,
			secure: false,
			disableStartTls: true,
			user: 'n8n-e2e',
			password: 'loopback-smtp-only',
		},
	};
}

/**
 * The demo's ES256 key pair for example (d), as PEM: the private key from PROMOTER_CENTER_JWT's
 * `keyFile`, made there (mode 0600, never overwritten) on first use; its public key.
 * @returns {{ privateKeyPem: string, publicKeyPem: string }}
 */
function promoterCenterKeyPair() {
	const file = path.join(ROOT_DIR, PROMOTER_CENTER_JWT.keyFile);
	if (!fs.existsSync(file)) {
		fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
		const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
		const made = `${file}.${process.pid}.new`;
		fs.writeFileSync(made, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
		// A link never replaces a file: two first runs at once keep the first key.
		try {
			fs.linkSync(made, file);
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
		} finally {
			fs.rmSync(made, { force: true });
		}
	}
	const privateKeyPem = fs.readFileSync(file, 'utf8');
	const publicKeyPem = String(
		crypto.createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }),
	);
	return { privateKeyPem, publicKeyPem };
}

/** Example (d)'s JWT credential, in `n8n import:credentials` form: the public key only. */
function promoterCenterJwtCredential() {
	const { id, name, algorithm } = PROMOTER_CENTER_JWT;
	const { publicKeyPem } = promoterCenterKeyPair();
	const data = { keyType: 'pemKey', publicKey: publicKeyPem, privateKey: '', algorithm };
	return { id, name, type: 'jwtAuth', data };
}

/** Example (e)'s chat login, in `n8n import:credentials` form. */
function chatLoginCredential() {
	const { id, name, user, password } = CHAT_LOGIN;
	return { id, name, type: 'httpBasicAuth', data: { user, password } };
}

/** The Authorization header of example (e)'s chat login. */
function chatLoginHeader() {
	const { user, password } = CHAT_LOGIN;
	return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/**
 * The demo credentials, in `n8n import:credentials` form, for the sandbox at `sandboxUrl` and the
 * scripted model at `modelUrl`.
 * @param {string} sandboxUrl @param {string} modelUrl
 */
function demoCredentials(sandboxUrl, modelUrl) {
	return [
		modelCredential(modelUrl),
		promoterCenterJwtCredential(),
		chatLoginCredential(),
		{ ...MCP_CREDENTIAL, type: 'httpBearerAuth', data: { token: MCP_DEMO_TOKEN } },
		...Object.keys(SIGNING_CREDENTIALS).map((provider) =>
			signingCredential(/** @type {keyof typeof SIGNING_CREDENTIALS} */ (provider)),
		),
		sandboxCredential(sandboxUrl, DEMO_KEY, DEMO_CREDENTIAL),
		...apiCredentialsFor(sandboxUrl),
	];
}

/** An example workflow's JSON. @param {string} file @returns {{ nodes: Record<string, any>[], connections: Record<string, any> } & Record<string, unknown>} */
function readExample(file) {
	return JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'));
}

/**
 * The SQL an example's note (its sticky note "About this workflow") tells users to run once: the
 * queue-mode tests run the same.
 * @param {ReturnType<typeof readExample>} workflow
 */
function setUpSqlOf(workflow) {
	const note = workflow.nodes.find((node) => node.name === 'About this workflow');
	const sql = /```sql\n([\s\S]*?)```/.exec(String(note?.parameters.content))?.[1];
	if (sql === undefined) throw new Error(`${String(workflow.name)}: its note holds no SQL block`);
	return sql;
}

/**
 * The production path of a Payment Webhook Trigger: its fixed webhook path under its webhookId.
 * @param {string} webhookId
 */
function paymentTriggerPath(webhookId) {
	return `${webhookId}/webhook`;
}

/**
 * The URL a provider posts to: that path under n8n's (or its front door's) `base`.
 * @param {string} base @param {string} webhookId
 */
const paymentTriggerUrl = (base, webhookId) => `${base}/webhook/${paymentTriggerPath(webhookId)}`;

/** That production webhook, as waitForWebhooks takes it. @param {string} webhookId */
const paymentTriggerWebhook = (webhookId) => ({
	method: 'POST',
	path: paymentTriggerPath(webhookId),
});

/** A workflow's Payment Webhook Trigger. @param {{ nodes: Record<string, any>[] }} workflow */
function paymentTriggerOf(workflow) {
	const trigger = workflow.nodes.find((node) => node.type === PAYMENT_TRIGGER_TYPE);
	if (!trigger?.webhookId) throw new Error('the example has no Payment Webhook Trigger');
	return trigger;
}

/**
 * An example on the Payment Webhook Trigger, to publish under workflow ID `id`: its workflow and
 * its trigger's webhook ID.
 * @param {string} file @param {string} id
 */
function publishableExample(file, id) {
	const workflow = readExample(file);
	return { id, workflow, webhookId: paymentTriggerOf(workflow).webhookId };
}

/**
 * @typedef {object} DemoCommand
 * @property {string} does what the command shows
 * @property {string} command the command, as `npm start` and the README print it
 * @property {string} answer the start of the line of its output that answers it
 * @property {number} exitCode
 * @property {string} [opensPromoterCenterOf] the answer is a link that opens this user's promoter
 *   center (test:e2e follows it)
 */

/**
 * The commands `npm start` prints to try the published examples, each with the answer it gets:
 * examples (h) and (a) behind signed Stripe deliveries, a forged delivery, a signed-in link to example
 * (d)'s promoter center, example (f)'s trigger.
 * The README prints them for `npm start`'s default ports and test:e2e runs them as printed.
 * `start` is the number of the `npm start` in its user folder: n8n keeps the transactions example
 * (h) sent across restarts while the sandbox starts empty, so each start needs a new one.
 * @param {{ n8nUrl: string, sandboxUrl: string, start?: number }} options @returns {DemoCommand[]}
 */
function demoCommands({ n8nUrl, sandboxUrl, start = 1 }) {
	const { PRODUCTS } = require(path.join(ROOT_DIR, 'sandbox', 'seed.js'));
	const activity = { product: PRODUCTS.videomax, userId: 'user_1002', payingCustomers: 1 };
	const transactionId = `pi_demo_${start}`;
	/** @param {string} webhookId @param {string} event */
	const send = (webhookId, event) =>
		`npm run send:webhook -- ${paymentTriggerUrl(n8nUrl, webhookId)} ${event}`;
	const purchase = send('payment-succeeded', `purchase ${transactionId} buyer_1`);
	// Each exits with 0 unless it says.
	/** @type {(Omit<DemoCommand, 'exitCode'> & { exitCode?: number })[]} */
	const commands = [
		{
			does: 'A purchase (example h)',
			command: purchase,
			answer: '200 {"received":true,"status":"TRACKED"',
		},
		{
			does: 'Its repeat, as Stripe retries',
			command: purchase,
			answer: '200 {"received":true,"status":"ALREADY_TRACKED"',
		},
		{
			does: 'Its refund (example a)',
			command: send('payment-refunded', `refund ${transactionId} buyer_1`),
			answer: '200 {"received":true,"status":"APPLIED"',
		},
		{
			does: 'A forged (unsigned) purchase',
			command: `${send('payment-succeeded', 'purchase pi_forged_1 buyer_1')} --unsigned`,
			answer: '401 ',
			exitCode: 1,
		},
		{
			does: 'Example (d), a link for user_1001',
			command: `JWT_PRIVATE_KEY_FILE=${PROMOTER_CENTER_JWT.keyFile} node scripts/promoter-center-link.js user_1001 ${n8nUrl}`,
			answer: `${n8nUrl}/webhook/promoter-center?token=`,
			opensPromoterCenterOf: 'user_1001',
		},
		{
			does: "A paying customer for user_1002 (example f's next poll)",
			command: [
				`curl -X POST ${sandboxUrl}/__sandbox/activity -H 'Content-Type: application/json' \\`,
				`  -d '${JSON.stringify(activity)}'`,
			].join('\n'),
			answer: '{"recorded":true}',
		},
	];
	return commands.map((command) => ({ exitCode: 0, ...command }));
}

/** The commands as the banner and the README print them. @param {DemoCommand[]} commands */
function demoCommandsText(commands) {
	return commands
		.map(({ does, command, answer }) => `# ${does} → ${answer}…\n${command}`)
		.join('\n');
}

/**
 * A workflow's production webhooks, read from its Webhook nodes and Payment Webhook Triggers.
 * @param {{ nodes: Record<string, any>[] }} workflow @returns {{ method: string, path: string }[]}
 */
function webhooksOf(workflow) {
	return workflow.nodes.flatMap((node) => {
		if (node.type === 'n8n-nodes-base.webhook')
			return [{ method: node.parameters.httpMethod ?? 'GET', path: node.parameters.path }];
		if (node.type === PAYMENT_TRIGGER_TYPE && node.webhookId)
			return [paymentTriggerWebhook(node.webhookId)];
		return [];
	});
}

/** The production webhooks of the published examples. */
function exampleWebhooks() {
	return EXAMPLES.filter((example) => example.webhook).flatMap((example) =>
		webhooksOf(readExample(example.file)),
	);
}

module.exports = {
	CHAT_LOGIN,
	CREDENTIAL_TYPE,
	DEMO_CREDENTIAL,
	DEMO_KEY,
	DEMO_OWNER,
	EXAMPLES,
	example,
	MCP_DEMO_TOKEN,
	NODE_TYPE,
	PACKAGE,
	PAYMENT_TRIGGER_TYPE,
	PROVIDER_API_CREDENTIAL_TYPE,
	PROVIDER_EVENTS_TYPE,
	PROMOTER_CENTER_JWT,
	ROOT_DIR,
	SIGNING_CREDENTIAL_TYPE,
	SIGNING_CREDENTIALS,
	TRIGGER_TYPE,
	chatLoginCredential,
	chatLoginHeader,
	demoCommands,
	demoCommandsText,
	demoCredentials,
	exampleWebhooks,
	modelCredential,
	paymentTriggerOf,
	paymentTriggerPath,
	paymentTriggerUrl,
	paymentTriggerWebhook,
	publishableExample,
	promoterCenterJwtCredential,
	promoterCenterKeyPair,
	readExample,
	setUpSqlOf,
	sandboxCredential,
	signingCredential,
	smtpCredential,
	webhooksOf,
};
