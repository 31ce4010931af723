// @ts-check
'use strict';
/**
 * Issue 20: n8n's own HTTP Request node with Authentication → Predefined Credential Type →
 * Affiliate Tracking API, the way users reach endpoints the node does not cover. One workflow,
 * a Manual Trigger fanned out to one HTTP Request node per case, each with On Error → Continue,
 * so that every case shows its own output (or error) in a single `n8n execute`.
 */

/** The HTTP Request node versions n8n 2.41.1 ships: 4.5 is the one the editor adds. */
const CURRENT_VERSION = 4.5;

/** The cases by node name, for the test to read their outputs. */
const NODES = {
	postJson: 'v2 POST JSON body (track/refund)',
	getQuery: 'v2 GET query parameters (statistics)',
	postV1: 'v1 POST (promoter/login)',
	queryInUrlAndParameters: 'query in the URL and in Query Parameters (4.2)',
	rawJsonString: 'JSON body as a raw string (track/conversion)',
	version3: 'HTTP Request v3 GET with expand',
	pagination: 'pagination: two pages of statistics',
	multipart: 'multipart body (refused)',
};

/**
 * @typedef {{ id: string, name: string }} CredentialRef
 * @typedef {{ sandboxUrl: string, v2: CredentialRef, v1: CredentialRef, transactionId: string,
 *   rawJsonBody: string, range: { from: string, to: string } }} Setup
 */

/**
 * @param {Setup} setup
 * @returns {{ name: string, nodes: Record<string, unknown>[], connections: Record<string, unknown>, settings: Record<string, unknown> }}
 */
function httpRequestWorkflow(setup) {
	const api = `${setup.sandboxUrl}/api/open/v1`;
	/** @param {{ name: string, method: 'GET' | 'POST', url: string, version?: number, credential?: CredentialRef } & Record<string, unknown>} node */
	const httpRequest = ({ name, method, url, version = CURRENT_VERSION, credential, ...rest }) => ({
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: version,
		onError: 'continueRegularOutput',
		parameters: {
			method,
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'affiliateTrackingApi',
			...rest,
			options: rest.options ?? {},
		},
		credentials: { affiliateTrackingApi: credential ?? setup.v2 },
	});
	/** @param {Record<string, string>} fields */
	const pairs = (fields) => ({
		parameters: Object.entries(fields).map(([name, value]) => ({ name, value })),
	});
	/** @param {Record<string, string>} fields */
	const jsonBody = (fields) => ({
		sendBody: true,
		contentType: 'json',
		specifyBody: 'keypair',
		bodyParameters: pairs(fields),
	});
	/** @param {Record<string, string>} fields */
	const query = (fields) => ({
		sendQuery: true,
		specifyQuery: 'keypair',
		queryParameters: pairs(fields),
	});
	const cases = [
		httpRequest({
			name: NODES.postJson,
			method: 'POST',
			url: `${api}/track/refund`,
			...jsonBody({
				transaction_id: setup.transactionId,
				reason: 'Refunded through the HTTP Request node',
			}),
		}),
		httpRequest({
			name: NODES.getQuery,
			method: 'GET',
			url: `${api}/promoters/user_1001/statistics`,
			...query({ start_date: setup.range.from, end_date: setup.range.to }),
		}),
		httpRequest({
			name: NODES.postV1,
			method: 'POST',
			url: `${api}/promoter/login`,
			credential: setup.v1,
			...jsonBody({ user_id: 'http_request_v1', username: 'Signed with v1' }),
		}),
		httpRequest({
			name: NODES.queryInUrlAndParameters,
			method: 'GET',
			version: 4.2,
			url: `${api}/promoters/user_1002/statistics?start_date=${setup.range.from}`,
			...query({ end_date: setup.range.to }),
		}),
		httpRequest({
			name: NODES.rawJsonString,
			method: 'POST',
			url: `${api}/track/conversion`,
			sendBody: true,
			contentType: 'raw',
			rawContentType: 'application/json',
			body: setup.rawJsonBody,
		}),
		httpRequest({
			name: NODES.version3,
			method: 'GET',
			version: 3,
			url: `${api}/promoters/user_1001`,
			...query({ expand: 'links,statistics' }),
		}),
		httpRequest({
			name: NODES.pagination,
			method: 'GET',
			url: `${api}/promoters/user_1001/statistics`,
			options: {
				pagination: {
					pagination: {
						paginationMode: 'updateAParameterInEachRequest',
						parameters: {
							parameters: [
								{
									type: 'qs',
									name: 'start_date',
									value: `={{ $pageCount === 0 ? '2020-01-01' : '${setup.range.from}' }}`,
								},
							],
						},
						paginationCompleteWhen: 'other',
						completeExpression: '={{ $pageCount >= 2 }}',
					},
				},
			},
		}),
		httpRequest({
			name: NODES.multipart,
			method: 'POST',
			url: `${api}/track/conversion`,
			sendBody: true,
			contentType: 'multipart-form-data',
			bodyParameters: {
				parameters: [{ parameterType: 'formData', name: 'event_name', value: 'signup' }],
			},
		}),
	];
	const trigger = {
		name: 'Run the cases',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		parameters: {},
	};
	const nodes = [trigger, ...cases].map((node, index) => ({
		id: `6f1e2d3c-4b5a-4978-8a6b-${String(index).padStart(12, '0')}`,
		position: index === 0 ? [0, 0] : [320, (index - 1) * 160],
		...node,
	}));
	return {
		name: 'HTTP Request node with the Affiliate Tracking API credential (e2e)',
		nodes,
		connections: {
			[trigger.name]: {
				main: [cases.map((node) => ({ node: node.name, type: 'main', index: 0 }))],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

module.exports = { NODES, httpRequestWorkflow };
