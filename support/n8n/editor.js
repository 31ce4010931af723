// @ts-check
'use strict';
/**
 * n8n's editor driven in headless Chromium, as a user meets the package: sign in, find the node
 * in the nodes panel, create and test a credential, open an example. Each step returns what it
 * saw for the test to assert, and can save a screenshot (docs/images with `npm run screenshots`).
 */
const path = require('node:path');

const { DEFAULT_N8N_MODULES } = require('./n8nInstance');

/** The flags Chromium needs as root on a machine without a network beyond loopback. */
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** n8n's editor marks its elements with data-test-id. */
const TEST_ID = 'data-test-id';

/** @param {string} executablePath */
async function launchChromium(executablePath) {
	const { chromium, selectors } = require(path.join(DEFAULT_N8N_MODULES, 'playwright-core'));
	selectors.setTestIdAttribute(TEST_ID);
	// Interrupts are support/services/processes.js's to handle; Playwright's own exit handler still kills the
	// browser when the script exits.
	return await chromium.launch({
		executablePath,
		args: CHROMIUM_ARGS,
		handleSIGINT: false,
		handleSIGTERM: false,
	});
}

/**
 * @typedef {import('playwright-core').Page} Page
 * @typedef {(page: Page, name: string, element?: import('playwright-core').Locator) => Promise<void>} Screenshot
 */

/** Signs in through the sign-in form. @param {Page} page @param {string} base @param {{ email: string, password: string }} owner */
async function signIn(page, base, owner) {
	await page.goto(`${base}/signin`);
	await page.locator('input[name=emailOrLdapLoginId]').fill(owner.email);
	await page.locator('input[name=password]').fill(owner.password);
	await page.getByTestId('form-submit-button').click();
	await page.waitForURL((url) => !url.pathname.includes('/signin'), { timeout: 30_000 });
}

/**
 * A new workflow, the nodes panel searched for "Affiliate", the package opened: its triggers and
 * actions as listed. @param {Page} page @param {string} base @param {Screenshot} screenshot
 */
async function nodesPanel(page, base, screenshot) {
	await page.goto(`${base}/workflow/new`);
	await page.getByTestId('node-creator-plus-button').click();
	await page.getByTestId('node-creator-search-bar').waitFor();
	await page.keyboard.type('Affiliate');
	const found = page
		.getByTestId('node-creator-item-name')
		.filter({ hasText: 'Affiliate Tracking' });
	await found.first().waitFor();
	const searchResults = await page.getByTestId('node-creator-item-name').allInnerTexts();
	await found.first().click();
	const actionsHeader = page.getByText(/^Actions \(\d+\)$/);
	await actionsHeader.click();
	const headers = {
		triggers: await page.getByText(/^Triggers \(\d+\)$/).innerText(),
		actions: await actionsHeader.innerText(),
	};
	const listed = await page.getByTestId('item-iterator-item').allInnerTexts();
	await screenshot(page, 'nodes-panel');
	return { searchResults, headers, listed: listed.map((text) => text.trim()) };
}

/**
 * Adds the Refund action, creates a credential in its dialog with the given secret and saves it,
 * which runs the credential test; then presses Retry (the dialog's test button) and reads the
 * outcome shown. @param {Page} page @param {{ baseUrl: string, apiKey: string, apiSecret: string }} credential
 * @param {Screenshot} screenshot @param {string} name the screenshot's name
 */
async function credentialTest(page, credential, screenshot, name) {
	const dialog = page.getByTestId('editCredential-modal');
	if (!(await dialog.isVisible())) {
		await page.getByTestId('item-iterator-item').getByText('Refund', { exact: true }).click();
		await page.getByTestId('node-credentials-select').click();
		await page.getByTestId('node-credentials-select-item-new').click();
	}
	await dialog.waitFor();
	await dialog.locator('[data-test-id=parameter-input-baseUrl] input').fill(credential.baseUrl);
	await dialog.locator('[data-test-id=parameter-input-apiKey] input').fill(credential.apiKey);
	await dialog.locator('[data-test-id=parameter-input-apiSecret] input').fill(credential.apiSecret);
	const saveButton = page.getByTestId('credential-save-button');
	await saveButton.click();
	// Saving (then testing) ends with the dialog closed, when a new credential passes its test, or
	// with its save button reading "Saved": wait until the dialog is neither open nor still saving.
	await dialog
		.filter({ hasNot: saveButton.getByText('Saved', { exact: true }) })
		.waitFor({ state: 'hidden' });
	// A new credential that passes its test closes the dialog; open it again to see the test.
	if (!(await dialog.isVisible())) await page.getByTestId('credential-edit-button').click();
	await dialog.waitFor();
	await dialog.getByRole('button', { name: 'Retry' }).click();
	const success = dialog.getByTestId('credentials-config-container-test-success');
	const failure = dialog.getByText('Couldn’t connect with these settings');
	await success.or(failure).first().waitFor({ timeout: 30_000 });
	const details = dialog.getByText('More details');
	if (await details.isVisible()) {
		await details.click();
		// The link gives way to the details themselves (the service's message and remedy).
		await details.waitFor({ state: 'hidden' });
	}
	const shown = (await dialog.innerText()).split('\n').map((line) => line.trim());
	await screenshot(page, name, dialog);
	return { passed: await success.isVisible(), shown };
}

/** Closes the credential dialog and the node view. @param {Page} page */
async function closeDialogs(page) {
	for (let i = 0; i < 3; i++) await page.keyboard.press('Escape');
}

/**
 * Opens an imported example, then its node `nodeName`: the canvas's nodes and the parameters
 * the node view shows. @param {Page} page @param {string} base @param {string} workflowId
 * @param {string} nodeName @param {Screenshot} screenshot
 */
async function openExampleNode(page, base, workflowId, nodeName, screenshot) {
	await page.goto(`${base}/workflow/${workflowId}`);
	const nodes = page.getByTestId('canvas-node');
	await nodes.first().waitFor();
	// n8n shows a production checklist over a published workflow's canvas.
	const checklist = page.getByText('Production Checklist');
	if (await checklist.isVisible()) {
		await page.keyboard.press('Escape');
		await checklist.waitFor({ state: 'hidden' });
	}
	await page.getByTestId('zoom-to-fit').click();
	// The node to open, visible, still (the canvas done moving) and not covered: the actionability
	// checks of the double-click below, made without clicking, so the screenshot shows the fitted canvas.
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
	await node.dblclick({ trial: true });
	const names = await nodes.evaluateAll((elements) =>
		elements.map((element) => element.getAttribute('data-node-name')),
	);
	await screenshot(page, 'example-a-canvas');
	await node.dblclick();
	const parameters = page.getByTestId('node-parameters');
	await parameters.waitFor();
	const shown = (await parameters.innerText()).split('\n').map((line) => line.trim());
	await screenshot(page, 'refund-parameters');
	return { names, shown };
}

/**
 * Opens a workflow and one of its nodes: what the node view shows (its text and the values of
 * its inputs), with a screenshot of the view as `name`. @param {Page} page @param {string} base
 * @param {string} workflowId @param {string} nodeName @param {Screenshot} screenshot @param {string} name
 */
async function openNode(page, base, workflowId, nodeName, screenshot, name) {
	await page.goto(`${base}/workflow/${workflowId}`);
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${nodeName}"]`);
	await node.waitFor();
	await node.dblclick();
	const parameters = page.getByTestId('node-parameters');
	await parameters.waitFor();
	await page.getByTestId('node-credentials-select').waitFor({ timeout: 15_000 });
	// The node's credential is selected: its edit button shows beside the select.
	await parameters.getByTestId('credential-edit-button').waitFor();
	const text = (await parameters.innerText()).split('\n').map((line) => line.trim());
	const values = await parameters
		.locator('input')
		.evaluateAll((inputs) =>
			inputs.map((input) => String(/** @type {{ value?: string }} */ (input).value ?? '')),
		);
	await screenshot(page, name);
	return [...text, ...values.map((value) => value.trim())].filter((line) => line !== '');
}

module.exports = {
	closeDialogs,
	credentialTest,
	launchChromium,
	nodesPanel,
	openExampleNode,
	openNode,
	signIn,
};
