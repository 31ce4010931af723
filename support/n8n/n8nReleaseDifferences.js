// @ts-check
'use strict';
/**
 * What n8n's CLI and REST API do differently from one release to another, for the imports of
 * support/n8n/n8nInstance.js and the version matrix (e2e/test-compat.js): one function per
 * difference, each saying which releases need it.
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { DEMO_OWNER } = require('./n8nDemoData');
const { postJson } = require('../services/processes');

/**
 * Activating a workflow from the CLI. n8n 2.x has `publish:workflow`; 1.x has only
 * `update:workflow --active=true` (2.x keeps it, deprecated). Detected by the command's file.
 * @param {import('./n8nInstall').N8nRelease} release @param {string} id
 */
function activateArgs(release, id) {
	const publish = path.join(release.modules, 'n8n', 'dist', 'commands', 'publish', 'workflow.js');
	return fs.existsSync(publish)
		? ['publish:workflow', `--id=${id}`]
		: ['update:workflow', `--id=${id}`, '--active=true'];
}

/**
 * The login body. n8n 2.x (and late 1.x) take `emailOrLdapLoginId`; older 1.x releases take
 * `email`. Detected in the release's controller or request DTO.
 * @param {import('./n8nInstall').N8nRelease} release
 */
function loginBody(release) {
	const candidates = [
		path.join(release.modules, 'n8n', 'dist', 'controllers', 'auth.controller.js'),
		path.join(release.modules, '@n8n', 'api-types', 'dist', 'dto', 'auth', 'login-request.dto.js'),
	];
	const usesLoginId = candidates.some(
		(file) => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('emailOrLdapLoginId'),
	);
	const { email, password } = DEMO_OWNER;
	return usesLoginId ? { emailOrLdapLoginId: email, password } : { email, password };
}

/**
 * The owner account. `POST /rest/owner/setup` sets up the instance's owner on a fresh database in
 * every release here (1.x has no `N8N_INSTANCE_OWNER_MANAGED_BY_ENV`, 2.x keeps the route), so
 * all releases use it.
 * @param {string} base
 */
async function setUpOwner(base) {
	const owner = { ...DEMO_OWNER, firstName: 'Compat', lastName: 'Owner' };
	const answer = await postJson(`${base}/rest/owner/setup`, owner);
	assert.equal(answer.status, 200, `owner setup: ${answer.status} ${await answer.text()}`);
}

/**
 * Example workflows use the typeVersions of n8n 2.41's own nodes (Webhook 2.1, If 2.2, Respond to
 * Webhook 1.5…). An older release that lacks a version gets the newest one it has (read from its
 * n8n-nodes-base `dist/types/nodes.json`); the returned list names each change. Needed by 1.x
 * releases that predate those versions.
 * @param {import('./n8nInstall').N8nRelease} release
 * @param {{ nodes: Record<string, any>[] }} workflow
 */
function fitTypeVersions(release, workflow) {
	/** @type {Map<string, number[]>} */
	const known = new Map();
	for (const [prefix, directory] of [
		['n8n-nodes-base', 'n8n-nodes-base'],
		['@n8n/n8n-nodes-langchain', path.join('@n8n', 'n8n-nodes-langchain')],
	]) {
		const file = path.join(release.modules, directory, 'dist', 'types', 'nodes.json');
		if (fs.existsSync(file)) addVersions(known, prefix, file);
	}
	const changes = [];
	for (const node of workflow.nodes) {
		const versions = known.get(node.type);
		if (!versions || versions.includes(node.typeVersion)) continue;
		const fallback = Math.max(...versions.filter((v) => v <= node.typeVersion));
		assert.ok(Number.isFinite(fallback), `${node.type} ${node.typeVersion}: n8n has ${versions}`);
		changes.push(`${node.name} ${node.typeVersion}→${fallback}`);
		node.typeVersion = fallback;
	}
	return changes;
}

/**
 * Adds the versions of each node type in a package's `dist/types/nodes.json` to `known`.
 * @param {Map<string, number[]>} known @param {string} prefix @param {string} file
 */
function addVersions(known, prefix, file) {
	for (const node of /** @type {{ name: string, version: number | number[] }[]} */ (
		JSON.parse(fs.readFileSync(file, 'utf8'))
	)) {
		// A versioned node has one entry per group of versions.
		// Its names are `set` in 2.x, `n8n-nodes-base.set` in older releases.
		const type = node.name.includes('.') ? node.name : `${prefix}.${node.name}`;
		known.set(type, [...(known.get(type) ?? []), ...[node.version].flat()]);
	}
}

/**
 * What examples (b) and (d) can do with n8n's Data table node on a release. Both use data tables;
 * they create theirs on first run with the node's table operations, which n8n 2.3.6 and later
 * have (2.1.4 does not; of the published releases, checked with `npm pack --dry-run` of each
 * one's n8n-nodes-base). n8n 1.113 to 2.1 have row operations only: the tables must be created
 * by hand and the examples' create nodes deleted. 1.85 has no data tables. Detected by the node's
 * files in the release's n8n-nodes-base.
 * @param {import('./n8nInstall').N8nRelease} release
 * @returns {'tables and rows' | 'rows only' | 'none'}
 */
function dataTableSupport(release) {
	const nodesBase = path.join(release.modules, 'n8n-nodes-base');
	assert.ok(fs.existsSync(nodesBase), `no n8n-nodes-base in ${release.modules}`);
	const actions = path.join(nodesBase, 'dist', 'nodes', 'DataTable', 'actions');
	if (fs.existsSync(path.join(actions, 'table', 'create.operation.js'))) return 'tables and rows';
	if (fs.existsSync(path.join(actions, 'row', 'upsert.operation.js'))) return 'rows only';
	return 'none';
}

/**
 * An example on a release without the Data table node's table operations (see dataTableSupport):
 * its data-table nodes spliced out, as the matrix's line tells users to do (or to create the
 * tables by hand), so that the rest runs there: (d)'s doors, (h)'s purchases and (a)'s full
 * refunds (without (a)'s refund ledger, which then adds nothing up). Changes `workflow` in place;
 * returns the removed nodes' names (none on n8n 2.3.6 and later).
 * @param {import('./n8nInstall').N8nRelease} release
 * @param {{ nodes: Record<string, any>[], connections: Record<string, any> }} workflow
 */
function withoutDataTables(release, workflow) {
	if (dataTableSupport(release) === 'tables and rows') return [];
	return withoutDataTableNodes(workflow);
}

/**
 * `workflow` with its Data table nodes spliced out: whatever led into one leads on to what its
 * first output led to (nothing, for the last node of a branch). Changes `workflow` in place;
 * returns the removed nodes' names. `n8n execute` starts no data tables, so test:e2e runs example
 * (h)'s sample so.
 * @param {{ nodes: Record<string, any>[], connections: Record<string, any> }} workflow
 */
function withoutDataTableNodes(workflow) {
	/** @typedef {{ node: string, type: string, index: number }} Target */
	const removed = workflow.nodes
		.filter((node) => node.type === 'n8n-nodes-base.dataTable')
		.map((node) => node.name);
	for (const name of removed) {
		/** @type {Target[]} */
		const next = workflow.connections[name]?.main?.[0] ?? [];
		delete workflow.connections[name];
		for (const outputs of Object.values(workflow.connections))
			for (const [type, branches] of Object.entries(outputs))
				outputs[type] = branches.map((/** @type {Target[]} */ branch) =>
					branch.flatMap((target) => (target.node === name ? next : [target])),
				);
	}
	workflow.nodes = workflow.nodes.filter((node) => !removed.includes(node.name));
	return removed;
}

/**
 * A workflow as `n8n import:workflow` takes it. n8n 1.x stores `active` in a NOT NULL column and
 * fails the import without it ("NOT NULL constraint failed: workflow_entity.active"); 2.x
 * activates by publishing, and the examples carry no `active`.
 * @param {import('./n8nInstall').N8nRelease} release @param {Record<string, unknown>} workflow
 */
function forImport(release, workflow) {
	return release.n8nVersion.startsWith('1.') ? { active: false, ...workflow } : workflow;
}

module.exports = {
	activateArgs,
	dataTableSupport,
	fitTypeVersions,
	forImport,
	loginBody,
	setUpOwner,
	withoutDataTableNodes,
	withoutDataTables,
};
