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
		id: 'paymentWebhook.polar.sdkVerifies',
		layer: 'unit',
		title: "Polar's deliveries, either secret format, as Polar's own SDK signs and verifies them",
	},
	// paymentWebhook: Airwallex and chargebacks
	{
		id: 'paymentWebhook.airwallex.documentedSigner',
		layer: 'unit',
		title: "Airwallex's test signer digests the documented example as OpenSSL does",
	},
	{
		id: 'paymentWebhook.airwallex.verify',
		layer: 'unit',
		title: 'Airwallex: x-signature over x-timestamp and the raw body, within the tolerance',
	},
	{
		id: 'paymentWebhook.airwallex.majorUnits',
		layer: 'unit',
		title: 'amounts sent in major units become the smallest unit without float error',
	},
	{
		id: 'paymentWebhook.chargeback.items',
		layer: 'unit',
		title: 'a lost dispute is a full refund item (refundReason chargeback); opened or won, other',
	},
	{
		id: 'paymentWebhook.chargeback.exampleA',
		layer: 'e2e',
		title:
			'example (a): a lost chargeback reverses the commission; a dispute opened or won changes nothing',
		why: "signed deliveries through n8n's webhook server reach Refund in the shipped example and the sandbox",
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
