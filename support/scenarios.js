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
	// paymentWebhook: Apple App Store Server Notifications V2
	{
		id: 'paymentWebhook.appStore.pinnedRoot',
		layer: 'unit',
		title:
			"App Store: the pinned root is Apple Root CA - G3 by its fingerprint, and Apple's real signing chain passes the chain checks",
	},
	{
		id: 'paymentWebhook.appStore.derExtensions',
		layer: 'unit',
		title:
			"App Store: Apple's marker extensions are found by walking the certificate's DER extensions, not by a byte search",
	},
	{
		id: 'paymentWebhook.appStore.appleParity',
		layer: 'unit',
		title:
			"App Store: notifications from the test signer verify with Apple's SignedDataVerifier, and what it refuses is refused",
	},
	{
		id: 'paymentWebhook.appStore.notification',
		layer: 'unit',
		title:
			'App Store: 400 for a body that is no notification; the transaction and renewal info verified, decoded into the body and refused for another app or environment',
	},
	{
		id: 'paymentWebhook.appStore.events',
		layer: 'unit',
		title:
			'App Store: one-time charges, subscription starts and renewals are purchases, REFUND a refund (partial when prorated), sharing transactionId; price in milli-units',
	},
	{
		id: 'paymentWebhook.appStore.provider',
		layer: 'unit',
		title:
			"App Store: no secret (Apple's pinned root, or a test root), Bundle ID and Environment from the node, a set-up error naming a bad one",
	},
	{
		id: 'paymentWebhook.appStore.trigger',
		layer: 'unit',
		title:
			'App Store through the trigger: a signed purchase and its prorated refund become items sharing the transaction ID; a free trial is other; 400, 401 and a set-up error start nothing',
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
