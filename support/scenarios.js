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
