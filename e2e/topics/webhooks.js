// @ts-check
'use strict';
/**
 * test:e2e, the webhooks of the started n8n: examples (a) and (h) behind signed Stripe
 * deliveries, the Payment Webhook Trigger per provider (e2e/webhookSecurity.js, its `WEBHOOK`
 * lines; run here, between (h) and (c), to keep the checks' order), and example (c)'s landing.
 */
const assert = require('node:assert/strict');

const { paymentTriggerPath } = require('../../testing/n8nDemoData');
const { checkWebhookSecurity, postStripeEvent } = require('../webhookSecurity');
const { PRODUCTS } = require('../../sandbox/seed');
const { issueAuthCode } = require('../../sandbox/api/authorization');

/** @param {import('./context').Started} context */
async function webhookChecks(context) {
	const { check, sandbox, base, cookie, seenOutput } = context;
	/**
	 * A Stripe event delivered to an example's Payment Webhook Trigger, signed with the demo
	 * secret unless `signed` is false.
	 * @param {string} webhookId @param {'purchase' | 'refund'} kind
	 * @param {import('../../testing/n8nCore/paymentSignatures').SampleFields} fields @param {boolean} [signed]
	 */
	const deliverStripe = (webhookId, kind, fields, signed = true) =>
		postStripeEvent({
			base,
			webhookPath: paymentTriggerPath(webhookId),
			kind,
			fields,
			signed,
			seen: seenOutput,
		});

	await check(
		'example a (signed Stripe webhook): repeat, not referred, partial, forged',
		async () => {
			/** @param {string} transactionId @param {{ partial?: boolean, signed?: boolean }} [options] */
			const post = (transactionId, { partial = false, signed = true } = {}) =>
				deliverStripe('payment-refunded', 'refund', { transactionId, partial }, signed);
			const repeat = await post('txn_1001');
			assert.deepEqual([repeat.status, repeat.json.status], [200, 'ALREADY_PROCESSED']);
			const unknown = await post('order_never_referred');
			assert.deepEqual(
				[unknown.status, unknown.json.reversed, unknown.json.code],
				[200, false, 1000001],
			);
			const voided = await post('txn_voided');
			assert.deepEqual([voided.status, voided.json.code], [500, 6000000]);
			const partial = await post('txn_1002', { partial: true });
			assert.equal(partial.status, 200);
			assert.match(partial.json.ignored, /Partial refund/);
			const refundsBefore = sandbox.calls.filter((call) =>
				call.path.endsWith('/track/refund'),
			).length;
			const forged = await post('txn_1002', { signed: false });
			assert.equal(forged.status, 401);
			assert.equal(
				sandbox.calls.filter((call) => call.path.endsWith('/track/refund')).length,
				refundsBefore,
				'an unsigned refund reached the sandbox',
			);
			return 'repeat → 200 ALREADY_PROCESSED; not referred → 200 code 1000001; voided → 500 code 6000000; partial → 200 ignored; unsigned → 401, no refund call';
		},
	);

	await check(
		'example h (signed Stripe webhook): a purchase delivered twice is tracked once',
		async () => {
			const transactionId = `pi_e2e_h_${Date.now().toString(36)}`;
			const fields = { transactionId, userId: 'buyer_1', amountMinor: 4900, checkout: true };
			const first = await deliverStripe('payment-succeeded', 'purchase', fields);
			assert.deepEqual(
				[first.status, first.json.status],
				[200, 'TRACKED'],
				JSON.stringify(first.json),
			);
			const again = await deliverStripe('payment-succeeded', 'purchase', fields);
			assert.deepEqual(
				[again.status, again.json.status],
				[200, 'ALREADY_TRACKED'],
				JSON.stringify(again.json),
			);
			const forged = await deliverStripe(
				'payment-succeeded',
				'purchase',
				{ ...fields, transactionId: `${transactionId}_forged` },
				false,
			);
			assert.equal(forged.status, 401);
			const recorded = sandbox.state.conversions.filter((c) =>
				c.transactionId?.startsWith(transactionId),
			);
			assert.equal(
				recorded.length,
				1,
				`the sandbox holds ${recorded.length} purchases for ${transactionId}`,
			);
			assert.equal(recorded[0].valueCents, 4900);
			return `${transactionId}: 200 TRACKED, then 200 ALREADY_TRACKED; unsigned → 401; the sandbox holds 1 purchase of 49.00`;
		},
	);

	await checkWebhookSecurity({ check, base, cookie, sandbox, seenOutput });

	await check(
		'example c (webhook): landing redirects, a used code falls back to sign-up',
		async () => {
			const issued = issueAuthCode(
				sandbox.state,
				PRODUCTS.photopal,
				{
					source_product_key: PRODUCTS.photopal,
					target_product_key: PRODUCTS.videomax,
					user_id: 'pp_e2e',
					extra: { name: 'Eve' },
				},
				'source_product_key',
				true,
			);
			const landing = new URL(/** @type {{ redirect_url: string }} */ (issued.data).redirect_url);
			const address = `${base}/webhook/affiliate-landing${landing.search}`;
			const first = await fetch(address, { redirect: 'manual' });
			assert.equal(first.status, 302);
			assert.equal(first.headers.get('location'), 'https://videomax.example/welcome?name=Eve');
			const again = await fetch(address, { redirect: 'manual' });
			assert.equal(again.status, 302);
			assert.equal(again.headers.get('location'), 'https://videomax.example/signup');
			return `GET ${landing.search.replace(/x_auth_code=[^&]+/, 'x_auth_code=…')} → 302 ${first.headers.get('location')}; same code again → 302 ${again.headers.get('location')}`;
		},
	);
}

module.exports = { webhookChecks };
