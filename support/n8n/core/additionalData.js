// @ts-check
'use strict';
/**
 * What n8n-core's execution contexts are handed besides the workflow (its "additional data"): the
 * credentials helper, the lifecycle hooks, n8n's URLs; sub-workflows and task runners refused.
 */
/**
 * @import { ExecutionLifecycleHooks } from 'n8n-core'
 * @import { ICredentialsHelper, IWorkflowExecuteAdditionalData } from 'n8n-workflow'
 */

/**
 * @param {ICredentialsHelper} credentialsHelper @param {ExecutionLifecycleHooks} hooks
 * @returns {IWorkflowExecuteAdditionalData}
 */
function additionalData(credentialsHelper, hooks) {
	const base = 'http://127.0.0.1:5678/';
	/** @type {Partial<IWorkflowExecuteAdditionalData>} */
	const data = {
		credentialsHelper,
		hooks,
		currentNodeExecutionIndex: 0,
		restApiUrl: `${base}rest`,
		instanceBaseUrl: base,
		formBaseUrl: `${base}form`,
		formWaitingBaseUrl: `${base}form-waiting`,
		formTestBaseUrl: `${base}form-test`,
		webhookBaseUrl: `${base}webhook`,
		webhookWaitingBaseUrl: `${base}webhook-waiting`,
		webhookTestBaseUrl: `${base}webhook-test`,
		mcpBaseUrl: `${base}mcp`,
		mcpTestBaseUrl: `${base}mcp-test`,
		variables: {},
		logAiEvent: () => {},
		executeWorkflow: async () => {
			throw new Error('sub-workflows are not used by these tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('task runners are not used by these tests');
		},
	};
	return /** @type {IWorkflowExecuteAdditionalData} */ (data);
}

module.exports = { additionalData };
