// @ts-check
'use strict';
/**
 * test:e2e in headless Chromium, the editor (support/n8n/editor.js): the nodes panel, the
 * credential dialog's test, example (a)'s canvas and the HTTP Request node with the credential. `npm run screenshots` keeps the pictures.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const {
	DEMO_CREDENTIAL,
	DEMO_KEY,
	DEMO_OWNER,
	readExample,
} = require('../../support/n8n/n8nDemoData');
/** The editor's pages, driven through Chromium. */
const editor = require('../../support/n8n/editor');
const { NODES: HTTP_NODES } = require('../../support/n8n/httpRequestWorkflow');
const { WRONG_SECRET } = require('../../sandbox');
const { API_SECRET, CHROMIUM, HTTP_WORKFLOW_ID, example } = require('./context');
const { scenario } = require('../../support/scenarios');

/** `npm run screenshots` (--screenshots) keeps the editor's pictures in docs/images for the README. */
const SCREENSHOTS_DIR = process.argv.includes('--screenshots')
	? path.join(__dirname, '..', '..', 'docs', 'images')
	: undefined;
/**
 * What the editor must show, read from the built package (test:e2e builds it first), typed from
 * its source so that the typecheck needs no build.
 */
const DIST = path.join(__dirname, '..', '..', 'dist');
const { AffiliateTracking } = /** @type {typeof import('../../index')} */ (
	require(path.join(DIST, 'index.js'))
);
const { authenticationHint, SERVER_MESSAGES } =
	/** @type {typeof import('../../nodes/shared/transport/errors')} */ (
		require(path.join(DIST, 'nodes', 'shared', 'transport', 'errors.js'))
	);
/** @type {string[]} */
const ACTION_LABELS = new AffiliateTracking().description.properties
	.filter((property) => property.name === 'operation')
	.flatMap((property) =>
		/** @type {{ action?: string }[]} */ (property.options ?? []).map((option) =>
			String(option.action),
		),
	);
/** n8n lists a polling trigger's events as "On <event>", lower-cased. */
const TRIGGER_EVENTS = ['On promoter balance changed', 'On promoter results changed'];
const SIGNATURE_REMEDY = authenticationHint(SERVER_MESSAGES.signatureFailed);

/** Each of `expected` among the texts a node view `shown`. @param {string[]} shown @param {string[]} expected */
function assertShown(shown, expected) {
	for (const text of expected)
		assert.ok(shown.includes(text), `"${text}" not in the node view: ${shown.join(' | ')}`);
}

/** @param {import('./context').Started} context */
async function browserChecks(context) {
	const { check, sandbox, work, base, seenOutput } = context;
	const browser = await editor.launchChromium(CHROMIUM);
	const page = await browser.newPage({ viewport: { width: 1400, height: 1150 } });
	const pictures = SCREENSHOTS_DIR ?? path.join(work, 'screenshots');
	fs.mkdirSync(pictures, { recursive: true });
	/** @type {import('../../support/n8n/editor').Screenshot} */
	const screenshot = async (shown, name, element) => {
		seenOutput.push(await shown.content());
		await (element ?? shown).screenshot({ path: path.join(pictures, `${name}.png`) });
	};
	try {
		await check(
			`${scenario('e2e.editor')}: signed in, "Affiliate" in the nodes panel lists the trigger's events and the 13 actions`,
			async () => {
				await editor.signIn(page, base, DEMO_OWNER);
				const panel = await editor.nodesPanel(page, base, screenshot);
				assert.deepEqual(panel.searchResults, ['Affiliate Tracking']);
				assert.deepEqual(panel.headers, { triggers: 'Triggers (2)', actions: 'Actions (13)' });
				const missing = [...ACTION_LABELS, ...TRIGGER_EVENTS].filter(
					(label) => !panel.listed.includes(label),
				);
				assert.deepEqual(missing, [], 'not listed in the nodes panel');
				return `nodes panel: ${panel.headers.triggers}, ${panel.headers.actions}: ${panel.listed.filter((label) => !/ACTIONS$/.test(label)).join(', ')}`;
			},
		);
		await check(
			"the editor: the credential dialog's test passes with the sandbox's key, and shows the service's message and remedy with a wrong secret",
			async () => {
				const credential = { baseUrl: sandbox.url, apiKey: DEMO_KEY, apiSecret: API_SECRET };
				const good = await editor.credentialTest(
					page,
					credential,
					screenshot,
					'credential-test-success',
				);
				assert.ok(
					good.passed && good.shown.includes('Connection tested successfully'),
					good.shown.join(' | '),
				);
				const bad = await editor.credentialTest(
					page,
					{ ...credential, apiSecret: WRONG_SECRET },
					screenshot,
					'credential-test-wrong-secret',
				);
				const expected = `Signature verification failed. ${SIGNATURE_REMEDY}`;
				assert.ok(!bad.passed && bad.shown.includes(expected), bad.shown.join(' | '));
				await editor.closeDialogs(page);
				return `Test: "Connection tested successfully"; wrong secret: "Couldn’t connect with these settings" + "${expected}"`;
			},
		);
		await check(
			"the editor: example (a)'s canvas, and its Refund node's parameters as the README describes",
			async () => {
				const opened = await editor.openExampleNode(
					page,
					base,
					example('a').id,
					'Refund',
					screenshot,
				);
				assert.ok(opened.names.includes('Refund') && opened.names.includes('Payment refunded'));
				// The expression as the example holds it, without its leading `=`.
				const transactionId = String(
					readExample(example('a').file).nodes.find((node) => node.name === 'Refund')?.parameters
						.transactionId,
				).slice(1);
				assertShown(opened.shown, [
					'Transaction ID',
					'Reason',
					transactionId,
					'Full refunds only: cancels the unpaid rewards of the purchase (paid ones are kept and counted). Repeating a refund is safe: it answers ALREADY_PROCESSED and changes nothing.',
				]);
				return `${opened.names.length} nodes on the canvas; Refund shows Transaction ID ${transactionId}, Reason, the full-refund notice; screenshots in ${pictures}`;
			},
		);
		await check(
			'the editor: the HTTP Request node set up with Predefined Credential Type → Affiliate Tracking API',
			async () => {
				const shown = await editor.openNode(
					page,
					base,
					HTTP_WORKFLOW_ID,
					HTTP_NODES.postJson,
					screenshot,
					'http-request-credential',
				);
				assertShown(shown, [
					'Predefined Credential Type',
					'Affiliate Tracking API',
					DEMO_CREDENTIAL.name,
				]);
				return `the HTTP Request node shows Authentication "Predefined Credential Type", Credential Type "Affiliate Tracking API", credential "${DEMO_CREDENTIAL.name}"`;
			},
		);
	} finally {
		await browser.close();
	}
}

module.exports = { browserChecks };
