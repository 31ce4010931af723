// @ts-check
'use strict';
/**
 * test:e2e, the webhooks of the started n8n: examples (a) and (h) behind signed Stripe
 * deliveries (e2e/webhookExampleChecks.js, shared with the version matrix), then behind each
 * provider's (e2e/providerExampleChecks.js, its `EXAMPLES` lines), example (a)'s refund ledger at
 * its edges (e2e/refundLedgerChecks.js), the Payment Webhook Trigger per
 * provider (e2e/webhookSecurity.js, its `WEBHOOK` lines; run here, between (h) and (c), to keep
 * the checks' order), and example (c)'s landing.
 */
const assert = require('node:assert/strict');

const { readExample } = require('../../support/n8n/n8nDemoData');
const { checkProviderExamples } = require('../providerExampleChecks');
const { checkHalvesAtOnce, checkRefundLedger } = require('../refundLedgerChecks');
const { checkWebhookExamples } = require('../webhookExampleChecks');
const { checkWebhookSecurity } = require('../webhookSecurity');
const { PRODUCTS, issueAuthCode } = require('../../sandbox');
const { example } = require('./context');
const { scenario } = require('../../support/scenarios');

/** @param {import('./context').Started} context */
async function webhookChecks(context) {
	const { check, sandbox, base, cookie, seenOutput } = context;
	/** @param {string} letter */
	const held = (letter) => readExample(example(letter).file);
	await checkWebhookExamples({
		check,
		base,
		sandbox,
		seen: seenOutput,
		refund: held('a'),
		purchase: held('h'),
		cookie,
		refundWorkflowId: example('a').id,
	});
	await checkProviderExamples({ check, base, cookie, sandbox, seen: seenOutput });
	await checkRefundLedger({ check, base, cookie, sandbox, seen: seenOutput });
	await checkHalvesAtOnce({ check, base, cookie, sandbox, seen: seenOutput });

	await checkWebhookSecurity({ check, base, cookie, sandbox, seenOutput });

	await check(scenario('e2e.landing'), async () => {
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
	});
}

module.exports = { webhookChecks };
