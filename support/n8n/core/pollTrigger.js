// @ts-check
'use strict';
/**
 * Polls the Affiliate Tracking Trigger through n8n-core's own PollContext, with this package
 * loaded as n8n loads it (packageLoader.js).
 */
/**
 * @import {
 *   ICredentialDataDecryptedObject, IDataObject, INode, INodeExecutionData
 * } from 'n8n-workflow'
 */
const { ExecutionLifecycleHooks, PollContext } = require('n8n-core');
const { Workflow } = require('n8n-workflow');
const { additionalData } = require('./additionalData');
const { assertNoSecrets } = require('./assertNoSecrets');
const { engineLog } = require('./engineLog');
const { TestCredentialsHelper } = require('./credentialsHelper');
const { loadPackage, PackageNodeTypes, TRIGGER_TYPE } = require('./packageLoader');
const { oneNodeWorkflow, packageNode } = require('./workflows');

/**
 * @typedef {object} PollOptions
 * @property {Record<string, ICredentialDataDecryptedObject>} credentials
 * @property {'trigger' | 'manual'} mode `trigger` for an active workflow's poll, `manual` for the
 *   editor's Fetch Test Event.
 * @property {IDataObject} [staticData] The workflow's static data as n8n stored it after the
 *   previous poll (JSON).
 * @property {string} [credentialId] The test credential the trigger uses (default videomax-v2).
 * @property {boolean} [withoutPollBudget] Poll as n8n before 2.38 does: its poll context has no
 *   `getPollBudgetMs`.
 */

/**
 * @typedef {object} PollResult
 * @property {INodeExecutionData[] | null} items What the poll returned: the items it emits, or
 *   null for "nothing new".
 * @property {Error[]} reportedErrors Errors the poll reported to n8n (saved as failed executions)
 *   while it went on.
 * @property {IDataObject} staticData The static data after the poll, as n8n would store it (JSON
 *   round trip).
 * @property {Error} [thrown] What the poll threw, if it stopped.
 */

/**
 * One poll of the trigger through n8n-core's own PollContext, as n8n runs it for an active
 * workflow (mode `trigger`) or for Fetch Test Event (mode `manual`). Each poll builds the workflow
 * anew from the stored static data, as after a restart.
 * @param {INode['parameters']} parameters @param {PollOptions} options
 * @returns {Promise<PollResult>}
 */
async function pollTrigger(parameters, options) {
	const log = engineLog();
	const logFrom = log.length;
	const loader = await loadPackage();
	const node = packageNode(
		TRIGGER_TYPE,
		'Affiliate Tracking Trigger',
		parameters,
		options.credentialId,
	);
	const workflowData = oneNodeWorkflow(node);
	const nodeTypes = new PackageNodeTypes(loader);
	const workflow = new Workflow({
		id: 'trigger-workflow',
		nodes: [node],
		connections: {},
		nodeTypes,
		active: options.mode === 'trigger',
		staticData: structuredClone(options.staticData ?? {}),
	});
	/** @type {Error[]} */
	const reportedErrors = [];
	const context = new PollContext(
		workflow,
		node,
		additionalData(
			new TestCredentialsHelper(loader, options.credentials),
			new ExecutionLifecycleHooks('trigger', 'poll-execution', workflowData),
		),
		options.mode,
		'activate',
		() => {
			throw new Error('the trigger returns its items; it does not emit them itself');
		},
		(error) => reportedErrors.push(error),
	);
	if (options.withoutPollBudget) Reflect.deleteProperty(context, 'getPollBudgetMs');
	const nodeType = nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 1);
	/** @type {INodeExecutionData[] | null} */
	let items = null;
	/** @type {Error | undefined} */
	let thrown;
	try {
		const result = await nodeType.poll?.call(context);
		items = result?.[0] ?? null;
	} catch (error) {
		thrown = /** @type {Error} */ (error);
	}
	/** @type {IDataObject} */
	const staticData = JSON.parse(JSON.stringify(workflow.staticData));
	const result = { items, reportedErrors, staticData, thrown };
	assertNoSecrets({ result, log: log.slice(logFrom) }, Object.values(options.credentials));
	return result;
}

module.exports = { pollTrigger };
