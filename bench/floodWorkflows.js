// @ts-check
'use strict';
/**
 * bench:flood's n8n set-up: the four published workflows (each a receiver and a NoOp node), their
 * credentials, the Stripe Trigger's endpoint rows, and the Stripe purchase deliveries (signed with
 * the endpoint's secret, or forged with a guessed one). The measurement is bench/flood.js.
 */
const path = require('node:path');

const { defaultReleaseNode } = require('../support/n8n/n8nInstance');
const n8nDemoData = require('../support/n8n/n8nDemoData');
const payment = require('../support/payment/paymentSignatures');
const { runOrThrow } = require('../support/services/processes');

/**
 * @typedef {import('./deliveries').Delivery} Delivery
 * @typedef {{ key: string, name: string, path: string, refusal: number, forged: () => Delivery, valid?: () => Delivery }} Receiver
 */

const STRIPE_SECRET = payment.TEST_SIGNING_SECRETS.stripe;
const STRIPE_CREDENTIAL = { id: 'floodStripeApi01', name: 'Stripe (flood bench)' };
const HEADER_CREDENTIAL = { id: 'floodHeaderAuth1', name: 'Webhook header token (flood bench)' };
const HEADER_NAME = 'X-Webhook-Token';
const HEADER_TOKEN = 'flood-bench-token-for-the-local-n8n-only';

let sequence = 0;
/** A Stripe `checkout.session.completed` event, as text, with a new transaction ID. */
function purchaseBody() {
	sequence++;
	return JSON.stringify(
		payment.sampleEvent('stripe', 'purchase', {
			transactionId: `pi_flood_${sequence}`,
			userId: `buyer_${sequence}`,
			amountMinor: 4990,
			eventId: `evt_flood_${sequence}`,
			checkout: true,
		}),
	);
}
/** Signed with the endpoint's secret by the stripe SDK, now. @returns {Delivery} */
function signedPurchase() {
	const body = purchaseBody();
	return { body, headers: payment.signDelivery('stripe', body, STRIPE_SECRET) };
}
/** A well-formed Stripe-Signature header made with a guessed secret. @returns {Delivery} */
function forgedPurchase() {
	const body = purchaseBody();
	return { body, headers: payment.signDelivery('stripe', body, `${STRIPE_SECRET}_guessed`) };
}

/** @param {string} body @param {string} token @returns {Delivery} */
const withToken = (body, token) => ({ body, headers: { [HEADER_NAME]: token } });
/**
 * The Payment Webhook Trigger at `version`, its forged deliveries, and valid ones at version 2.
 * @param {number} version @returns {ReceiverWithWorkflow}
 */
function paymentTrigger(version) {
	const webhookId = `6f1d0c3e-2a4b-4c5d-8e9f-f100d000000${version}`;
	return {
		key: `trigger${version}`,
		name: `Payment Webhook Trigger v${version}`,
		workflowId: `floodTriggerV${version}`,
		workflowName: `Flood: Payment Webhook Trigger v${version}`,
		node: {
			id: `flood-payment-trigger-v${version}`,
			name: 'Payment Webhook Trigger',
			type: n8nDemoData.PAYMENT_TRIGGER_TYPE,
			typeVersion: version,
			webhookId,
			parameters: {
				provider: 'stripe',
				events: ['checkout.session.completed'],
				responseMode: 'onReceived',
				options: {},
			},
			credentials: { paymentWebhookSigningApi: n8nDemoData.SIGNING_CREDENTIALS.stripe },
		},
		path: n8nDemoData.paymentTriggerPath(webhookId),
		refusal: 401,
		forged: forgedPurchase,
		valid: version === 2 ? signedPurchase : undefined,
	};
}
const STRIPE_WEBHOOK_ID = '6f1d0c3e-2a4b-4c5d-8e9f-f100d000000b';
const STRIPE_PATH = `${STRIPE_WEBHOOK_ID}/webhook`;
const WEBHOOK_PATH = 'flood-webhook-node';

/**
 * The receivers, each with its workflow's id and name and its receiving node.
 * @typedef {Receiver & { workflowId: string, workflowName: string, node: { name: string } & Record<string, unknown> }} ReceiverWithWorkflow
 * @type {ReceiverWithWorkflow[]}
 */
const RECEIVERS = [
	paymentTrigger(2),
	paymentTrigger(1),
	{
		key: 'stripe',
		name: "n8n's Stripe Trigger",
		workflowId: 'floodStripeTrig1',
		workflowName: "Flood: n8n's Stripe Trigger",
		node: {
			id: 'flood-stripe-trigger',
			name: 'Stripe Trigger',
			type: 'n8n-nodes-base.stripeTrigger',
			typeVersion: 1,
			webhookId: STRIPE_WEBHOOK_ID,
			parameters: { events: ['*'] },
			credentials: { stripeApi: STRIPE_CREDENTIAL },
		},
		path: STRIPE_PATH,
		refusal: 401,
		forged: forgedPurchase,
	},
	{
		key: 'webhook',
		name: "n8n's Webhook node (v2, Header Auth)",
		workflowId: 'floodWebhookNode',
		workflowName: "Flood: n8n's Webhook node, Header Auth",
		node: {
			id: 'flood-webhook-node',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: '6f1d0c3e-2a4b-4c5d-8e9f-f100d000000c',
			parameters: {
				httpMethod: 'POST',
				path: WEBHOOK_PATH,
				authentication: 'headerAuth',
				responseMode: 'onReceived',
				options: {},
			},
			credentials: { httpHeaderAuth: HEADER_CREDENTIAL },
		},
		path: WEBHOOK_PATH,
		refusal: 403,
		forged: () => withToken(purchaseBody(), `${HEADER_TOKEN}-guessed`),
		valid: () => withToken(purchaseBody(), HEADER_TOKEN),
	},
];

/**
 * The four workflows, each a receiver and a NoOp node, with their receivers.
 * @returns {{ workflows: { workflow: object, id: string, publish: boolean }[], receivers: Receiver[] }}
 */
function benchWorkflows() {
	const workflows = RECEIVERS.map(({ workflowId: id, workflowName: name, node }) => ({
		id,
		publish: true,
		workflow: {
			name,
			nodes: [
				{ position: [0, 0], ...node },
				{
					id: `${id}-noop`,
					name: 'No Operation, do nothing',
					type: 'n8n-nodes-base.noOp',
					typeVersion: 1,
					position: [220, 0],
					parameters: {},
				},
			],
			connections: {
				[String(node.name)]: {
					main: [[{ node: 'No Operation, do nothing', type: 'main', index: 0 }]],
				},
			},
			settings: { executionOrder: 'v1' },
		},
	}));
	return { workflows, receivers: RECEIVERS };
}

/**
 * The Stripe Trigger's activation (`webhookMethods.checkExists`/`create`) calls api.stripe.com.
 * Writes into the user folder's SQLite (n8n stopped) what n8n 2.41.1 keeps once it has created a
 * published Stripe Trigger's endpoint at Stripe: the published version (the active one) and the
 * registered webhook. Its publication service (on by default) then finds nothing to activate at
 * start (workflow-publication-applier.js: an empty trigger diff and no unregistered webhook) and
 * calls no webhookMethods; the trigger checks deliveries with its credential's Signature Secret (no
 * secret in its static data). Run with the release's Node 24 (node:sqlite).
 * @param {string} userFolder
 */
function registeredStripeEndpoint(userFolder) {
	const script = `
const { DatabaseSync } = require('node:sqlite');
const [database, workflowId, node, webhookPath] = process.argv.slice(1);
const db = new DatabaseSync(database);
const { activeVersionId } = db.prepare('SELECT activeVersionId FROM workflow_entity WHERE id = ?').get(workflowId);
if (!activeVersionId) throw new Error(workflowId + ' is not published');
db.prepare('INSERT OR REPLACE INTO workflow_published_version (workflowId, publishedVersionId) VALUES (?, ?)').run(workflowId, activeVersionId);
db.prepare('INSERT OR REPLACE INTO webhook_entity (workflowId, webhookPath, method, node) VALUES (?, ?, ?, ?)').run(workflowId, webhookPath, 'POST', node);
db.close();`;
	const database = path.join(userFolder, '.n8n', 'database.sqlite');
	const args = [script, database, 'floodStripeTrig1', 'Stripe Trigger', STRIPE_PATH];
	runOrThrow(defaultReleaseNode(), ['--no-warnings', '-e', ...args], { stdio: 'pipe' });
}

/** The credentials the workflows use: the trigger's signing secret, Stripe's, the header token. */
function benchCredentials() {
	return [
		n8nDemoData.signingCredential('stripe'),
		{
			...STRIPE_CREDENTIAL,
			type: 'stripeApi',
			// The secret key is only sent to api.stripe.com, which nothing here calls.
			data: { secretKey: 'sk_test_flood_bench_unused', signatureSecret: STRIPE_SECRET },
		},
		{
			...HEADER_CREDENTIAL,
			type: 'httpHeaderAuth',
			data: { name: HEADER_NAME, value: HEADER_TOKEN },
		},
	];
}

module.exports = {
	benchCredentials,
	benchWorkflows,
	forgedPurchase,
	registeredStripeEndpoint,
	signedPurchase,
};
