// @ts-check
'use strict';
/**
 * Runs workflows through n8n-core's real engine (WorkflowExecute) with this package loaded from
 * its built `dist/` by n8n's own PackageDirectoryLoader, as n8n loads a community package. Plain
 * JavaScript, like the rest of the harness, so that the engine tests and the benchmarks both load
 * it without a compile step. n8n-core needs `reflect-metadata` loaded first (jest's setupFiles,
 * the benchmarks' first line).
 */
/**
 * @import {
 *   ICredentialDataDecryptedObject, INode, INodeExecutionData, INodeType, IRun, IVersionedNodeType,
 *   IWorkflowBase
 * } from 'n8n-workflow'
 */
const { ExecutionLifecycleHooks, WorkflowExecute } = require('n8n-core');
const { createRunExecutionData, Workflow } = require('n8n-workflow');
const { additionalData } = require('./additionalData');
const { assertNoSecrets } = require('./assertNoSecrets');
const { engineLog } = require('./engineLog');
const { TestCredentialsHelper } = require('./credentialsHelper');
const { useHarnessDeduplicationStore } = require('./deduplicationStore');
const { loadPackage, PackageNodeTypes } = require('./packageLoader');

/**
 * @typedef {object} RunOptions
 * @property {Record<string, ICredentialDataDecryptedObject>} credentials Test credentials by the
 *   credential id the workflow's nodes name.
 * @property {INodeExecutionData[]} [input] Items fed to the first node.
 * @property {Record<string, INodeType | IVersionedNodeType>} [otherNodeTypes] Node types from
 *   other packages (for example n8n's HTTP Request node), by full type name.
 */

/**
 * @typedef {object} WorkflowRun
 * @property {IRun} run
 * @property {(nodeName: string, outputIndex?: number) => INodeExecutionData[]} output Output items
 *   of a node's first run, per output (0 = main, 1 = error output).
 * @property {IRun['data']['resultData']['error']} error The error that stopped the run, if any.
 */

/**
 * Runs a workflow from its first node (the one without incoming connections).
 * @param {IWorkflowBase} workflowData @param {RunOptions} options @returns {Promise<WorkflowRun>}
 */
async function runWorkflow(workflowData, options) {
	const log = engineLog();
	const logFrom = log.length;
	const loader = await loadPackage();
	await useHarnessDeduplicationStore();
	const nodeTypes = new PackageNodeTypes(loader, options.otherNodeTypes);
	const workflow = new Workflow({
		id: workflowData.id ?? 'test',
		name: workflowData.name,
		nodes: workflowData.nodes,
		connections: workflowData.connections,
		nodeTypes,
		settings: workflowData.settings,
		active: false,
	});
	const targets = new Set(
		Object.values(workflowData.connections).flatMap((byType) =>
			Object.values(byType).flatMap((outputs) =>
				outputs.flatMap((links) => (links ?? []).map((link) => link.node)),
			),
		),
	);
	const startNode = /** @type {INode} */ (
		workflowData.nodes.find((node) => !targets.has(node.name))
	);

	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', workflowData);
	/** @type {(run: IRun) => void} */
	let resolveRun = () => {};
	/** @type {Promise<IRun>} */
	const finished = new Promise((resolve) => {
		resolveRun = resolve;
	});
	hooks.addHandler('workflowExecuteAfter', (run) => resolveRun(run));

	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: [options.input ?? [{ json: {} }]] }, source: null },
			],
		},
	});

	const engine = new WorkflowExecute(
		additionalData(new TestCredentialsHelper(loader, options.credentials), hooks),
		'manual',
		runExecutionData,
	);
	await engine.processRunExecutionData(workflow);
	const run = await finished;
	assertNoSecrets({ run, log: log.slice(logFrom) }, Object.values(options.credentials));
	return {
		run,
		error: run.data.resultData.error,
		output(nodeName, outputIndex = 0) {
			const taskData = run.data.resultData.runData[nodeName]?.[0];
			if (!taskData) throw new Error(`Node "${nodeName}" did not run`);
			return taskData.data?.main?.[outputIndex] ?? [];
		},
	};
}

module.exports = { runWorkflow };
