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
 * @typedef {{ key: 'trigger2' | 'trigger1' | 'stripe' | 'webhook', name: string, path: string, refusal: number, forged: () => Delivery, valid?: () => Delivery }} Receiver
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

/**
 * The four workflows, each a receiver and a NoOp node, with their receivers.
 * @returns {{ workflows: { workflow: object, id: string, publish: boolean }[], receivers: Receiver[], stripe: { workflowId: string, node: string, path: string } }}
 */
function benchWorkflows() {
	/** @param {string} id @param {string} name @param {Record<string, unknown>} receiver */
	const workflow = (id, name, receiver) => ({
		id,
		publish: true,
		workflow: {
			name,
			nodes: [
				{ position: [0, 0], ...receiver },
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
				[String(receiver.name)]: {
					main: [[{ node: 'No Operation, do nothing', type: 'main', index: 0 }]],
				},
			},
			settings: { executionOrder: 'v1' },
		},
	});
	/** @param {number} version @param {string} webhookId */
	const paymentTrigger = (version, webhookId) => ({
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
	});
	const ids = {
		trigger2: '6f1d0c3e-2a4b-4c5d-8e9f-f100d0000002',
		trigger1: '6f1d0c3e-2a4b-4c5d-8e9f-f100d0000001',
		stripe: '6f1d0c3e-2a4b-4c5d-8e9f-f100d000000b',
		webhook: '6f1d0c3e-2a4b-4c5d-8e9f-f100d000000c',
	};
	const webhookPath = 'flood-webhook-node';
	const workflows = [
		workflow(
			'floodTriggerV2',
			'Flood: Payment Webhook Trigger v2',
			paymentTrigger(2, ids.trigger2),
		),
		workflow(
			'floodTriggerV1',
			'Flood: Payment Webhook Trigger v1',
			paymentTrigger(1, ids.trigger1),
		),
		workflow('floodStripeTrig1', "Flood: n8n's Stripe Trigger", {
			id: 'flood-stripe-trigger',
			name: 'Stripe Trigger',
			type: 'n8n-nodes-base.stripeTrigger',
			typeVersion: 1,
			webhookId: ids.stripe,
			parameters: { events: ['*'] },
			credentials: { stripeApi: STRIPE_CREDENTIAL },
		}),
		workflow('floodWebhookNode', "Flood: n8n's Webhook node, Header Auth", {
			id: 'flood-webhook-node',
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: ids.webhook,
			parameters: {
				httpMethod: 'POST',
				path: webhookPath,
				authentication: 'headerAuth',
				responseMode: 'onReceived',
				options: {},
			},
			credentials: { httpHeaderAuth: HEADER_CREDENTIAL },
		}),
	];
	/** @param {string} body @param {string} token @returns {Delivery} */
	const withToken = (body, token) => ({ body, headers: { [HEADER_NAME]: token } });
	/** @type {Receiver[]} */
	const receivers = [
		{
			key: 'trigger2',
			name: 'Payment Webhook Trigger v2',
			path: n8nDemoData.paymentTriggerPath(ids.trigger2),
			refusal: 401,
			forged: forgedPurchase,
			valid: signedPurchase,
		},
		{
			key: 'trigger1',
			name: 'Payment Webhook Trigger v1',
			path: n8nDemoData.paymentTriggerPath(ids.trigger1),
			refusal: 401,
			forged: forgedPurchase,
		},
		{
			key: 'stripe',
			name: "n8n's Stripe Trigger",
			path: `${ids.stripe}/webhook`,
			refusal: 401,
			forged: forgedPurchase,
		},
		{
			key: 'webhook',
			name: "n8n's Webhook node (v2, Header Auth)",
			path: webhookPath,
			refusal: 403,
			forged: () => withToken(purchaseBody(), `${HEADER_TOKEN}-guessed`),
			valid: () => withToken(purchaseBody(), HEADER_TOKEN),
		},
	];
	return {
		workflows,
		receivers,
		stripe: {
			workflowId: 'floodStripeTrig1',
			node: 'Stripe Trigger',
			path: `${ids.stripe}/webhook`,
		},
	};
}

/**
 * Writes into the user folder's SQLite (n8n stopped) what n8n 2.41.1 keeps once it has created a
 * published Stripe Trigger's endpoint at Stripe: the published version (the active one) and the
 * registered webhook. Its publication service then finds nothing to activate at start
 * (workflow-publication-applier.js: an empty trigger diff and no unregistered webhook) and calls
 * no webhookMethods; the trigger checks deliveries with its credential's Signature Secret (no
 * secret in its static data). Run with the release's Node 24 (node:sqlite).
 * @param {string} userFolder @param {{ workflowId: string, node: string, path: string }} stripe
 */
function registeredStripeEndpoint(userFolder, { workflowId, node, path: webhookPath }) {
	const script = `
const { DatabaseSync } = require('node:sqlite');
const [database, workflowId, node, webhookPath] = process.argv.slice(1);
const db = new DatabaseSync(database);
const { activeVersionId } = db.prepare('SELECT activeVersionId FROM workflow_entity WHERE id = ?').get(workflowId);
if (!activeVersionId) throw new Error(workflowId + ' is not published');
db.prepare('INSERT OR REPLACE INTO workflow_published_version (workflowId, publishedVersionId) VALUES (?, ?)').run(workflowId, activeVersionId);
db.prepare('INSERT OR REPLACE INTO webhook_entity (workflowId, webhookPath, method, node) VALUES (?, ?, ?, ?)').run(workflowId, webhookPath, 'POST', node);
db.close();`;
	runOrThrow(
		defaultReleaseNode(),
		[
			'--no-warnings',
			'-e',
			script,
			path.join(userFolder, '.n8n', 'database.sqlite'),
			workflowId,
			node,
			webhookPath,
		],
		{ stdio: 'pipe' },
	);
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
