// @ts-check
'use strict';
/**
 * The every-operation fixture (support/fixtures/workflows/every-operation.json) in a real n8n, for
 * test:e2e and the version matrix: imported with the credentials it names mapped to n8n's, run
 * with `n8n execute`, and each of its operations checked to have succeeded. What each operation
 * gives is asserted once, by the engine test that runs the same fixture
 * (test/actions/operations.engine.test.ts); here n8n only has to load and run them.
 */
const assert = require('node:assert/strict');

const {
	CREDENTIAL_TYPE,
	DEMO_CREDENTIAL,
	DEMO_KEY,
	NODE_TYPE,
	sandboxCredential,
} = require('../support/n8n/n8nDemoData');
const { readWorkflowFixture } = require('../support/fixtures/workflows');
const { KEYS } = require('../sandbox');

const PHOTOPAL_CREDENTIAL = { id: 'affTrackPhotopal1', name: 'Affiliate Tracking PhotoPal' };
const PHOTOPAL_KEY = 'pk_test_photopal_v2';
/** The fixture's credential ids (the engine tests' test credentials) → n8n's credentials. */
const CREDENTIALS_BY_FIXTURE_ID = /** @type {Record<string, { id: string, name: string }>} */ ({
	'photopal-v2': PHOTOPAL_CREDENTIAL,
	'videomax-v2': DEMO_CREDENTIAL,
});
/** The secrets of the credentials the workflow uses, for the runs' secret scans. */
const EVERY_OPERATION_SECRETS = [KEYS[DEMO_KEY].secret, KEYS[PHOTOPAL_KEY].secret];

/**
 * The fixture under `id`, each node's credential swapped for the n8n credential it stands for.
 * @param {string} id @returns {import('n8n-workflow').IWorkflowBase}
 */
function everyOperationWorkflow(id) {
	const workflow = readWorkflowFixture('every-operation');
	for (const node of workflow.nodes) {
		const fixtureId = node.credentials?.[CREDENTIAL_TYPE]?.id;
		if (fixtureId === undefined || fixtureId === null) continue;
		const credential = CREDENTIALS_BY_FIXTURE_ID[fixtureId];
		assert.ok(credential, `no n8n credential for the fixture's ${fixtureId}`);
		node.credentials = { [CREDENTIAL_TYPE]: credential };
	}
	return { ...workflow, id };
}

/**
 * The PhotoPal credential the workflow's relay operations need, in `n8n import:credentials` form
 * (the VideoMax one is the demo credential).
 * @param {string} sandboxUrl
 */
function photopalCredential(sandboxUrl) {
	return sandboxCredential(sandboxUrl, PHOTOPAL_KEY, PHOTOPAL_CREDENTIAL);
}

/**
 * `n8n execute`'s run of the workflow: it did not fail, and every operation node ran without an
 * error and gave items. Returns the check's line.
 * @param {NonNullable<Awaited<ReturnType<typeof import('../support/n8n/n8nInstance').executeWorkflow>>['run']>} run
 */
function assertEveryOperationRan(run) {
	const error = run.data.resultData.error;
	assert.equal(error, undefined, `the run failed: ${error?.message}`);
	const operations = readWorkflowFixture('every-operation').nodes.filter(
		(node) => node.type === NODE_TYPE,
	);
	const counts = operations.map(({ name, parameters }) => {
		const runs = run.data.resultData.runData[name];
		assert.ok(runs?.[0], `node "${name}" did not run`);
		assert.equal(runs[0].error, undefined, `node "${name}" failed: ${runs[0].error?.message}`);
		const items = runs[0].data?.main[0] ?? [];
		assert.ok(items.length > 0, `node "${name}" gave no items`);
		return `${parameters.operation} ${items.length}`;
	});
	return `${operations.length} operation nodes succeeded (items: ${counts.join(', ')})`;
}

module.exports = {
	EVERY_OPERATION_SECRETS,
	assertEveryOperationRan,
	everyOperationWorkflow,
	photopalCredential,
};
