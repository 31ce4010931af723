// @ts-check
'use strict';
/**
 * The scenario table: every behaviour the tests prove, each proven in exactly one layer.
 * A test names its scenario through the `describe` or `it` that holds it:
 * `describe(scenario('transport.clockSkew'), …)`; an end-to-end check names it where it reports.
 * test/package/scenarios.unit.test.ts fails when an id is named in two places, in none, or in a
 * file of another layer than its row says. CONTRIBUTING.md's table is checked against this one.
 */

/** @typedef {'unit' | 'engine' | 'contract' | 'package' | 'e2e'} Layer */
/**
 * @typedef {object} Scenario
 * @property {string} id subject.what, as tests name it
 * @property {Layer} layer the one layer that proves it
 * @property {string} title what is proven, as the test's describe shows it
 * @property {string} [why] for e2e: what needs n8n's own servers
 */

/** @type {Scenario[]} */
const SCENARIOS = [
	// paymentWebhook: the provider registry
	{
		id: 'paymentWebhook.registry.everyProviderNamed',
		layer: 'unit',
		title:
			'every registered provider has its selector option, signer, samples, codex aliases and credential text',
	},
	{
		id: 'paymentWebhook.interface.answers',
		layer: 'unit',
		title:
			"the trigger hands a provider module its credential fields and parameters, starts the workflow on the body it verified, and answers with the module's own answers; a refusal is 401 or 400, never a throw",
	},
	{
		id: 'paymentWebhook.polar.sdkVerifies',
		layer: 'unit',
		title: "Polar's deliveries, either secret format, as Polar's own SDK signs and verifies them",
	},
	// paymentWebhook: WeChat Pay
	{
		id: 'paymentWebhook.wechatPay.sdkAccepts',
		layer: 'unit',
		title:
			"WeChat Pay's SDK (wechatpay-node-v3) verifies and decrypts the test signer's notifications",
	},
	{
		id: 'paymentWebhook.wechatPay.verify',
		layer: 'unit',
		title:
			'A WeChat Pay notification signed by the WeChat Pay public key, its resource sealed under the APIv3 key, is accepted with the resource decrypted',
	},
	{
		id: 'paymentWebhook.wechatPay.refusals',
		layer: 'unit',
		title:
			'A WeChat Pay notification with a wrong key, a tampered body, a replay past the tolerance, another key ID or merchant, a resource that does not decrypt or a missing header is refused with 401 or 400',
	},
	{
		id: 'paymentWebhook.wechatPay.items',
		layer: 'unit',
		title:
			'WeChat Pay TRANSACTION.SUCCESS is a purchase and REFUND.SUCCESS a refund, both keyed by out_trade_no, amounts in fen, the user in attach',
	},
	{
		id: 'paymentWebhook.wechatPay.answers',
		layer: 'unit',
		title:
			"The trigger accepts a WeChat Pay notification with n8n's answer and refuses one with a 4xx and WeChat Pay's JSON code FAIL",
	},
	{
		id: 'paymentWebhook.wechatPay.credential',
		layer: 'unit',
		title: "WeChat Pay's credential and Merchant ID problems are named and stop every delivery",
	},
	// paymentWebhook: Alipay
	{
		id: 'paymentWebhook.alipay.sdkAccepts',
		layer: 'unit',
		title: "Alipay's SDK (alipay-sdk, checkNotifySignV2) verifies the test signer's notifications",
	},
	{
		id: 'paymentWebhook.alipay.verify',
		layer: 'unit',
		title:
			"An Alipay notification signed with RSA2 over its sorted decoded fields is accepted from the exact bytes, whatever the fields' order or equivalent percent-encoding",
	},
	{
		id: 'paymentWebhook.alipay.refusals',
		layer: 'unit',
		title:
			'An Alipay notification with a wrong key, a tampered, added or removed field, another app, no RSA2 signature, another charset or a malformed form is refused with 401 or 400',
	},
	{
		id: 'paymentWebhook.alipay.items',
		layer: 'unit',
		title:
			'Alipay TRADE_SUCCESS and TRADE_FINISHED are purchases and a notification with refund_fee a refund, keyed by out_trade_no, amounts in yuan, the user in passback_params',
	},
	{
		id: 'paymentWebhook.alipay.answers',
		layer: 'unit',
		title:
			'The trigger answers an accepted or ignored Alipay notification with the plain text success and a refused one with fail and a 4xx',
	},
	{
		id: 'paymentWebhook.alipay.credential',
		layer: 'unit',
		title: "Alipay's credential and App ID problems are named and stop every delivery",
	},
];

/**
 * The title of a scenario, for the describe or check that proves it.
 * @param {string} id
 * @returns {string}
 */
function scenario(id) {
	const found = SCENARIOS.find((row) => row.id === id);
	if (found === undefined) throw new Error(`No scenario "${id}" in support/scenarios.js`);
	return `${found.title} [${id}]`;
}

module.exports = { SCENARIOS, scenario };
