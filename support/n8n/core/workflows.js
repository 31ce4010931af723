// @ts-check
'use strict';
/**
 * Workflows built around this package's nodes, as the engine needs them: one node with its
 * parameters and a test credential.
 */
/** @import { INode, IWorkflowBase } from 'n8n-workflow' */
const { CREDENTIAL_TYPE, NODE_TYPE } = require('./packageLoader');

/**
 * A workflow of one node, as the engine needs it.
 * @param {INode} node @returns {IWorkflowBase}
 */
function oneNodeWorkflow(node) {
	return {
		id: node.id,
		name: node.name,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		connections: {},
		nodes: [node],
	};
}

/** The test credential a node uses unless a test names another. */
const DEFAULT_CREDENTIAL_ID = 'videomax-v2';

/**
 * One of this package's nodes with its parameters and a test credential.
 * @param {string} type @param {string} name @param {INode['parameters']} parameters
 * @returns {INode}
 */
function packageNode(type, name, parameters, credentialId = DEFAULT_CREDENTIAL_ID) {
	return {
		id: `${name.toLowerCase().replace(/\W+/g, '-')}-node`,
		name,
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: credentialId } },
	};
}

/**
 * A one-node workflow around the Affiliate Tracking node, for the parameter-driven tests.
 * @param {INode['parameters']} parameters
 * @param {Partial<Pick<INode, 'continueOnFail' | 'onError'>> & { credentialId?: string }} [settings]
 * @returns {IWorkflowBase}
 */
function singleNodeWorkflow(parameters, settings = {}) {
	const { credentialId, ...nodeSettings } = settings;
	return oneNodeWorkflow({
		...packageNode(NODE_TYPE, 'Affiliate Tracking', parameters, credentialId),
		...nodeSettings,
	});
}

/**
 * The same workflow with every node's credential set to another test credential.
 * @param {IWorkflowBase} workflowData @param {string} credentialId @returns {IWorkflowBase}
 */
function withCredential(workflowData, credentialId) {
	return {
		...workflowData,
		nodes: workflowData.nodes.map((node) => ({
			...node,
			credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: credentialId } },
		})),
	};
}

module.exports = { oneNodeWorkflow, packageNode, singleNodeWorkflow, withCredential };
