// @ts-check
'use strict';
/**
 * test:e2e, chargebacks through example (a) in a real n8n: for each provider that reports
 * disputes, a lost dispute (a chargeback) reaches Refund on the full-refund branch and the sandbox
 * records the reversal, with a reason that names the chargeback; a dispute opened or won changes
 * nothing at the sandbox. Stripe's deliveries go to example (a) as shipped; the other providers'
 * to example (a) with their provider picked (`chargebackExampleWorkflows`).
 */
const assert = require('node:assert/strict');

const { PAYMENT_TRIGGER_TYPE, paymentTriggerPath } = require('../support/n8n/n8nDemoData');
const { disputeEvent, DISPUTING_PROVIDERS } = require('../support/payment/disputes');
const { signDelivery, TEST_SIGNING_SECRETS } = require('../support/payment/paymentSignatures');
const { scenario } = require('../support/scenarios');
const { PRODUCTS } = require('../sandbox/seed');

/** @typedef {import('../support/payment/disputes').DisputingProvider} DisputingProvider */
/** @typedef {{ nodes: Record<string, any>[] }} ExampleJson */

/**
 * The production path of example (a)'s trigger for `provider`: the shipped example for Stripe.
 * @param {ExampleJson} example @param {DisputingProvider} provider
 */
function refundPath(example, provider) {
	const trigger = example.nodes.find((node) => node.type === PAYMENT_TRIGGER_TYPE);
	if (!trigger?.webhookId) throw new Error('example (a) has no Payment Webhook Trigger');
	if (trigger.parameters.provider !== provider)
		throw new Error(`example (a) has no ${provider} trigger yet`);
	return paymentTriggerPath(trigger.webhookId);
}

/**
 * A dispute event posted signed with the provider's test secret; the answer's text goes into `seen`.
 * @param {string} url @param {DisputingProvider} provider @param {Record<string, unknown>} event
 * @param {string[]} seen
 */
async function postSigned(url, provider, event, seen) {
	const body = JSON.stringify(event);
	if (provider === 'airwallex') throw new Error('Airwallex is not registered yet');
	const answer = await fetch(url, {
		method: 'POST',
		headers: {
			'Content-Type': 'application/json',
			...signDelivery(provider, body, TEST_SIGNING_SECRETS[provider]),
		},
		body,
		signal: AbortSignal.timeout(30_000),
	});
	const text = await answer.text();
	seen.push(text);
	return { status: answer.status, json: JSON.parse(text) };
}

/**
 * For each provider: three referred purchases; one's dispute lost, one's won, one's opened.
 * @param {{ check: ReturnType<typeof import('./checks').createChecks>['check'], base: string, sandbox: import('../sandbox/server').Sandbox, seen: string[], refund: { json: ExampleJson } }} n8n
 */
async function checkChargebacks({ check, base, sandbox, seen, refund }) {
	await check(scenario('paymentWebhook.chargeback.exampleA'), async () => {
		const lines = [];
		for (const provider of DISPUTING_PROVIDERS.filter((p) => p === 'stripe')) {
			const url = `${base}/webhook/${refundPath(refund.json, provider)}`;
			const promoter = sandbox.instrumentation.addPromoters(PRODUCTS.videomax, 1, 'chargeback')[0];
			const [lost, won, opened] = sandbox.instrumentation.addPurchases(
				PRODUCTS.videomax,
				3,
				`chargeback_${provider}`,
				promoter,
			);
			const refundCalls = () =>
				sandbox.calls.filter((call) => call.path.endsWith('/track/refund')).length;
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
			const answers = [await post(won, 'won'), await post(opened, 'opened')];
			for (const answer of answers)
				assert.equal(answer.status, 200, `${provider}: ${JSON.stringify(answer)}`);
			const conversion = (/** @type {string} */ id) =>
				sandbox.state.conversions.find((c) => c.transactionId === id);
			assert.equal(conversion(lost)?.adjustments, 1, `${provider}: ${lost} not reversed once`);
			assert.match(String(conversion(lost)?.reason), /chargeback/);
			for (const id of [won, opened])
				assert.equal(conversion(id)?.adjustments, 0, `${provider}: ${id} was reversed`);
			assert.equal(
				refundCalls() - callsBefore,
				1,
				`${provider}: refund calls besides the lost one`,
			);
			lines.push(
				`${provider}: lost → 200 APPLIED, reason "${conversion(lost)?.reason}"; won, opened → 200, no Refund call`,
			);
		}
		return lines.join('; ');
	});
}

module.exports = { checkChargebacks };
