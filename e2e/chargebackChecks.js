// @ts-check
'use strict';
/**
 * test:e2e, chargebacks through example (a) in a real n8n: for each provider whose samples hold
 * disputes, a lost dispute (a chargeback) reaches Refund on the full-refund branch and the sandbox
 * records the reversal with a reason that names the chargeback; a dispute opened or won makes no
 * Refund call. Stripe's deliveries go to example (a) as shipped; the other providers' to a copy of
 * example (a) with their provider, refund events and demo credential picked
 * (`chargebackExampleWorkflows`, imported and published beside the examples).
 */
const assert = require('node:assert/strict');
const path = require('node:path');

const {
	EXAMPLES,
	PAYMENT_TRIGGER_TYPE,
	paymentTriggerPath,
	readExample,
} = require('../support/n8n/n8nDemoData');
const {
	DEMO_SIGNING_CREDENTIALS,
	DISPUTING_PROVIDERS,
	disputeEvent,
	signWithTestSecret,
} = require('../support/payment/paymentSignatures');
const { scenario } = require('../support/scenarios');
const { PRODUCTS } = require('../sandbox');

/** @typedef {import('../support/payment/paymentSignatures').Provider} Provider */
/** @typedef {{ nodes: Record<string, any>[] } & Record<string, unknown>} ExampleJson */

/** The provider example (a) is shipped with; the others get a copy. */
const SHIPPED_PROVIDER = 'stripe';

/** Example (a)'s JSON. @returns {ExampleJson} */
function exampleA() {
	const found = EXAMPLES.find((example) => example.letter === 'a');
	if (!found) throw new Error('no example (a)');
	return readExample(found.file);
}

/** @param {ExampleJson} workflow */
const triggerOf = (workflow) => {
	const trigger = workflow.nodes.find((node) => node.type === PAYMENT_TRIGGER_TYPE);
	if (!trigger?.webhookId) throw new Error('example (a) has no Payment Webhook Trigger');
	return trigger;
};

/** The providers of example (a)'s copies. */
const copiedProviders = () => DISPUTING_PROVIDERS.filter((id) => id !== SHIPPED_PROVIDER);

/** @param {Provider} provider */
const copyWebhookId = (provider) => `chargeback-a-${provider.toLowerCase()}`;

/**
 * The provider's refund events, as the built node lists them (test:e2e builds first).
 * @param {Provider} provider @returns {string[]}
 */
function refundEvents(provider) {
	const { providerOf } = /** @type {typeof import('../nodes/PaymentWebhookTrigger/providers')} */ (
		require(
			path.join(__dirname, '..', 'dist', 'nodes', 'PaymentWebhookTrigger', 'providers', 'index.js'),
		)
	);
	return Object.entries(providerOf(provider).events)
		.filter(([, reader]) => reader.kind === 'refund')
		.map(([value]) => value);
}

/** Example (a) with each other disputing provider picked, to import published. */
function chargebackExampleWorkflows() {
	return copiedProviders().map((provider) => {
		const workflow = exampleA();
		const trigger = triggerOf(workflow);
		trigger.webhookId = copyWebhookId(provider);
		trigger.parameters = { ...trigger.parameters, provider, events: refundEvents(provider) };
		trigger.credentials = { paymentWebhookSigningApi: DEMO_SIGNING_CREDENTIALS[provider] };
		workflow.name = `${workflow.name} (${provider})`;
		return { workflow, id: `e2eRefundA${provider.slice(0, 6)}01`, publish: true };
	});
}

/** Their production webhooks, for waitForWebhooks. */
function chargebackExampleWebhooks() {
	return copiedProviders().map((provider) => ({
		method: 'POST',
		path: paymentTriggerPath(copyWebhookId(provider)),
	}));
}

/** Example (a)'s production path for `provider`: the shipped example's or its copy's. @param {Provider} provider */
const refundPath = (provider) =>
	paymentTriggerPath(
		provider === SHIPPED_PROVIDER ? triggerOf(exampleA()).webhookId : copyWebhookId(provider),
	);

/**
 * A dispute event posted, signed with the provider's test secret; the answer's text goes into `seen`.
 * @param {string} url @param {Provider} provider @param {Record<string, unknown>} event
 * @param {string[]} seen
 */
async function postSigned(url, provider, event, seen) {
	const body = JSON.stringify(event);
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', ...signWithTestSecret(provider, body) },
		body,
		signal: AbortSignal.timeout(30_000),
	});
	const text = await answer.text();
	seen.push(text);
	return { status: answer.status, json: JSON.parse(text) };
}

/**
 * For each disputing provider: three referred purchases, one's dispute lost, one's won, one's
 * opened.
 * @param {{ check: ReturnType<typeof import('./checks').createChecks>['check'], base: string, sandbox: import('../sandbox').Sandbox, seen: string[] }} n8n
 */
async function checkChargebacks({ check, base, sandbox, seen }) {
	await check(scenario('e2e.chargebacks'), async () => {
		const refundCalls = () =>
			sandbox.calls.filter((call) => call.path.endsWith('/track/refund')).length;
		/** @param {string} id */
		const conversion = (id) => sandbox.state.conversions.find((c) => c.transactionId === id);
		const lines = [];
		for (const provider of DISPUTING_PROVIDERS) {
			const url = `${base}/webhook/${refundPath(provider)}`;
			// A promoter no polling trigger watches, so that no check sees its change between polls.
			const [promoter] = sandbox.instrumentation.addPromoters(PRODUCTS.videomax, 1, 'chargeback');
			const [lost, won, opened] = sandbox.instrumentation.addPurchases(
				PRODUCTS.videomax,
				3,
				`chargeback_${provider}`,
				promoter,
			);
			const callsBefore = refundCalls();
			/** @param {string} transactionId @param {'opened' | 'won' | 'lost'} outcome */
			const post = (transactionId, outcome) =>
				postSigned(url, provider, disputeEvent(provider, outcome, { transactionId }), seen);
			const reversed = await post(lost, 'lost');
			assert.deepEqual(
				[reversed.status, reversed.json.status, reversed.json.transaction_id],
				[200, 'APPLIED', lost],
				`${provider} lost: ${JSON.stringify(reversed)}`,
			);
			for (const [id, outcome] of /** @type {const} */ ([
				[won, 'won'],
				[opened, 'opened'],
			])) {
				const answer = await post(id, outcome);
				assert.equal(answer.status, 200, `${provider} ${outcome}: ${JSON.stringify(answer)}`);
				assert.equal(answer.json.status, undefined, `${provider} ${outcome} reached Refund`);
			}
			assert.equal(conversion(lost)?.adjustments, 1, `${provider}: ${lost} not reversed once`);
			assert.match(String(conversion(lost)?.reason), /chargeback/);
			for (const id of [won, opened])
				assert.equal(conversion(id)?.adjustments, 0, `${provider}: ${id} was reversed`);
			const calls = refundCalls() - callsBefore;
			assert.equal(calls, 1, `${provider}: ${calls} refund calls for one lost dispute`);
			lines.push(
				`${provider}: lost → 200 APPLIED (reason "${conversion(lost)?.reason}"), won and opened → 200, ${calls} Refund call`,
			);
		}
		return lines.join('; ');
	});
}

module.exports = { chargebackExampleWebhooks, chargebackExampleWorkflows, checkChargebacks };
