// @ts-check
'use strict';
/**
 * test:e2e, packing and install: the tarball installed as n8n installs community packages, then
 * every workflow the run needs imported with `n8n import:*`, and all 13 operations run with
 * `n8n execute`.
 */
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const {
	importCredentials,
	importDemo,
	importWorkflows,
	installAsCommunityPackage,
} = require('../../support/n8n/n8nInstance');
const { installedPackages, packPackage } = require('../../support/n8n/pack');
const { EXAMPLES } = require('../../support/n8n/n8nDemoData');
const {
	EVERY_OPERATION_SECRETS,
	assertEveryOperationRan,
	everyOperationWorkflow,
	photopalCredential,
} = require('../everyOperation');
const { webhookSecurityCredentials, webhookSecurityWorkflows } = require('../webhookSecurity');
const { providerExampleWorkflows } = require('../providerExampleChecks');
const { execute } = require('./context');
const { scenario } = require('../../support/scenarios');
const { doorsWorkflows } = require('./doors');
const { executableExampleH } = require('./examples');

const EVERY_OPERATION_ID = 'e2eEveryOperation';

/**
 * Throws when the package could not be installed: nothing else can run then.
 * @param {import('./context').Context} context
 */
async function installChecks(context) {
	const { check, sandbox, model, work, userFolder, env } = context;
	/** @type {{ directory: string, packageJson: Record<string, unknown> } | undefined} */
	let installed;
	await check(scenario('e2e.install'), () => {
		const tarball = packPackage(work);
		installed = installAsCommunityPackage(tarball, userFolder);
		const { packageJson, directory } = installed;
		for (const field of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
			assert.equal(packageJson[field], undefined, `${field} left in the installed package.json`);
		assert.equal(packageJson.dependencies, undefined, 'the package declares runtime dependencies');
		const modules = path.join(directory, 'node_modules');
		assert.deepEqual(installedPackages(modules), [], 'npm install brought runtime dependencies');
		const files = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
			.stdout.trim()
			.split('\n');
		assert.ok(files.includes('package/dist/nodes/AffiliateTracking/AffiliateTracking.node.js'));
		// dist/package.json and the build info come from the starter's tsconfig, as in other community packages.
		const expected =
			/^package\/(dist\/(index\.|nodes\/|credentials\/|icons\/|package\.json$|tsconfig\.tsbuildinfo$)|package\.json$|README\.md$|LICENSE\.md$|CHANGELOG\.md$)/;
		const strays = files.filter((file) => !expected.test(file));
		assert.deepEqual(strays, [], 'files other than dist/ and the docs in the tarball');
		return `${path.basename(tarball)}: ${files.length} files, 0 runtime dependencies`;
	});
	if (!installed) throw new Error('the package is not installed; nothing else can run');

	await check(
		`n8n import:credentials and import:workflow (${EXAMPLES.length} examples, ${EXAMPLES.filter((e) => e.published).length} to publish once n8n starts, and examples (i) and (j) for the doors, (h) without its ledger for n8n execute; the every-operation fixture)`,
		async () => {
			const doors = doorsWorkflows();
			const later = { publishLater: true };
			context.toPublish.push(
				...(await importDemo(env, sandbox.url, model.url, true, undefined, later)),
			);
			await importCredentials(env, [
				...webhookSecurityCredentials(),
				...doors.credentials,
				photopalCredential(sandbox.url),
			]);
			const workflows = [
				...webhookSecurityWorkflows(),
				...providerExampleWorkflows(),
				...doors.workflows,
				executableExampleH(),
				{
					workflow: everyOperationWorkflow(EVERY_OPERATION_ID),
					id: EVERY_OPERATION_ID,
					publish: false,
				},
			];
			context.toPublish.push(...(await importWorkflows(env, workflows, undefined, later)));
		},
	);

	await check(scenario('e2e.everyOperation'), async () => {
		const run = await execute(context, EVERY_OPERATION_ID);
		// secretChecks scans the VideoMax secrets; the PhotoPal one is this check's alone.
		const text = JSON.stringify(run);
		assert.ok(
			EVERY_OPERATION_SECRETS.every((secret) => !text.includes(secret)),
			'an API secret in the run',
		);
		return assertEveryOperationRan(run);
	});
}

module.exports = { installChecks };
