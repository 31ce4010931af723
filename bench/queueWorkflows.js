// @ts-check
'use strict';
/**
 * The workflows `npm run bench:queue` publishes beside example (a), each under its own webhook:
 * - the hand-built refund: example (a) with its Refund node replaced by what a user without this
 *   package builds: a Code node (n8n's task runner) computing the v2 signature, an HTTP Request
 *   node (V4.2) sending it, and an If node on the envelope's code, so that the webhook gets the
 *   same answers;
 * - the baseline: example (a) with its Refund node replaced by a Set node giving Refund's answer,
 *   which signs and sends nothing;
 * - the unverified door: example (a) with its Payment Webhook Trigger replaced by n8n's plain
 *   Webhook node and a Set node mapping Stripe's event to the trigger's fields, to measure what
 *   checking the signature costs the main.
 * Each is `{ workflow, id, webhook }`, the shape `startQueueDeployment`'s `extraWorkflows` takes.
 */
const {
	PAYMENT_TRIGGER_TYPE,
	example,
	paymentTriggerPath,
	readExample,
} = require('../support/n8n/n8nDemoData');
const { handBuiltHttpRequestParameters } = require('./handBuilt');

/** Example (a), the refund on a payment webhook. */
const REFUND_EXAMPLE = example('a');
const REFUND_PATH = '/api/open/v1/track/refund';

/**
 * @typedef {{ nodes: Record<string, any>[], connections: Record<string, any> } & Record<string, unknown>} Workflow
 * @typedef {{ workflow: Workflow, id: string, webhook: { method: string, path: string } }} ExtraWorkflow
 */

/**
 * Example (a) with its Refund node replaced by `replacement` (nodes, and connections from and to
 * them); its Payment Webhook Trigger moved to the webhook id `webhookId`.
 * @param {string} webhookId @param {string} name
 * @param {(refund: Record<string, any>) => { nodes: Record<string, any>[], first: string, connections: Record<string, any>, respondNodes?: Record<string, Record<string, any>> }} replacement
 * @returns {Workflow}
 */
function exampleWithRefundReplaced(webhookId, name, replacement) {
	const workflow = readExample(REFUND_EXAMPLE.file);
	const refund = workflow.nodes.find((node) => node.name === 'Refund');
	if (!refund) throw new Error('example (a) has no node named Refund');
	const { nodes: added, first, connections, respondNodes = {} } = replacement(refund);
	const nodes = workflow.nodes
		.filter((node) => node !== refund)
		.map((node) => {
			if (respondNodes[node.name])
				return { ...node, parameters: { ...node.parameters, ...respondNodes[node.name] } };
			return node.type === PAYMENT_TRIGGER_TYPE ? { ...node, webhookId } : node;
		});
	/** @type {Record<string, any>} */
	const rewired = {};
	for (const [source, outputs] of Object.entries(workflow.connections)) {
		if (source === 'Refund') continue;
		rewired[source] = {
			main: outputs.main.map((/** @type {{ node: string }[]} */ targets) =>
				targets.map((target) => (target.node === 'Refund' ? { ...target, node: first } : target)),
			),
		};
	}
	return {
		...workflow,
		name: `${workflow.name} (${name})`,
		nodes: [...nodes, ...added],
		connections: { ...rewired, ...connections },
	};
}

/**
 * A node the bench adds, of n8n-nodes-base, with a numbered ID.
 * @param {string} number @param {string} name @param {string} type @param {number} typeVersion
 * @param {number[]} position @param {Record<string, any>} parameters
 */
const benchNode = (number, name, type, typeVersion, position, parameters) => ({
	id: `c0de0000-0000-4000-8000-0000000000${number}`,
	name,
	type: `n8n-nodes-base.${type}`,
	typeVersion,
	position,
	parameters,
});

/** @param {string} node @param {number} [index] */
const to = (node, index = 0) => [{ node, type: 'main', index }];

/**
 * The baseline: Refund replaced by a Set node giving the answer Refund gives; no signing, no
 * request, no credential.
 * @returns {ExtraWorkflow}
 */
function baselineWorkflow() {
	const webhookId = 'payment-refunded-baseline';
	const webhook = { method: 'POST', path: paymentTriggerPath(webhookId) };
	const workflow = exampleWithRefundReplaced(webhookId, 'baseline: Set node', (refund) => ({
		first: 'Refund',
		nodes: [
			{
				...refund,
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				credentials: undefined,
				onError: undefined,
				parameters: {
					mode: 'raw',
					jsonOutput:
						'={{ JSON.stringify({ conversion_id: 1, transaction_id: $json.transactionId, adjustment_type: 1, status: "APPLIED", cancelled_reward_count: 1, preserved_paid_reward_count: 0, cancelled_sub_reward_count: 0, preserved_paid_sub_reward_count: 0, adjusted_at: "2026-01-01 00:00:00" }) }}',
					options: {},
				},
			},
		],
		connections: { Refund: { main: [to('Respond: refunded')] } },
	}));
	return { workflow, id: 'exRefundBaseline1', webhook };
}

/**
 * The hand-built refund, as a user without this package builds it: a Code node (JavaScript, run by
 * n8n's task runner; `require('crypto')` needs NODE_FUNCTION_ALLOW_BUILTIN=crypto) serializes
 * the JSON body and signs it (v2: method, path, empty query, timestamp, SHA-256 of the body);
 * an HTTP Request node V4.2 POSTs that exact string with the three headers; the service answers
 * business failures with HTTP 200 and a non-zero `code`, so an If node sends code 0 to
 * "Respond: refunded" and the rest, with the request's own failures, to "Respond: not reversed"
 * (both read the envelope instead of the node's output). The secret sits in the Code node: that
 * is how it is done without the credential; bench only.
 * @param {{ sandboxUrl: string, apiKey: string, secret: string }} setup
 * @returns {ExtraWorkflow}
 */
function handBuiltWorkflow({ sandboxUrl, apiKey, secret }) {
	const webhookId = 'payment-refunded-hand-built';
	const webhook = { method: 'POST', path: paymentTriggerPath(webhookId) };
	const jsCode = `const crypto = require('crypto');
const secret = ${JSON.stringify(secret)};
const url = ${JSON.stringify(sandboxUrl + REFUND_PATH)};
const path = ${JSON.stringify(REFUND_PATH)};
return $input.all().map((item) => {
  const body = JSON.stringify({ transaction_id: item.json.transactionId, reason: item.json.reason });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const bodyHash = crypto.createHash('sha256').update(body).digest('hex');
  const message = ['PS-HMAC-SHA256', 'POST', path, '', timestamp, bodyHash].join('\\n');
  const sign = crypto.createHmac('sha256', secret).update(message).digest('hex');
  return { json: { url, body, timestamp, sign } };
});`;
	const sendParameters = handBuiltHttpRequestParameters(apiKey, {
		rawJsonBody: '={{ $json.body }}',
	});
	const workflow = exampleWithRefundReplaced(
		webhookId,
		'hand-built: Code + HTTP Request',
		(refund) => {
			const [x, y] = refund.position;
			return {
				first: 'Sign refund request',
				nodes: [
					benchNode('01', 'Sign refund request', 'code', 2, [x, y], {
						mode: 'runOnceForAllItems',
						language: 'javaScript',
						jsCode,
					}),
					{
						...benchNode('02', 'Send refund', 'httpRequest', 4.2, [x + 220, y], sendParameters),
						onError: 'continueErrorOutput',
					},
					benchNode('03', 'Refund applied?', 'if', 2.2, [x + 440, y], {
						conditions: {
							options: {
								caseSensitive: true,
								leftValue: '',
								typeValidation: 'strict',
								version: 2,
							},
							conditions: [
								{
									id: 'c0de0000-0000-4000-8000-000000000004',
									leftValue: '={{ $json.code }}',
									rightValue: 0,
									operator: { type: 'number', operation: 'equals' },
								},
							],
							combinator: 'and',
						},
						options: {},
					}),
				],
				connections: {
					'Sign refund request': { main: [to('Send refund')] },
					'Send refund': { main: [to('Refund applied?'), to('Respond: not reversed')] },
					'Refund applied?': { main: [to('Respond: refunded'), to('Respond: not reversed')] },
				},
				respondNodes: {
					'Respond: refunded': {
						responseBody:
							'={{ { received: true, status: $json.data.status, transaction_id: $json.data.transaction_id, cancelled_reward_count: $json.data.cancelled_reward_count } }}',
					},
					'Respond: not reversed': {
						responseBody:
							'={{ { received: true, reversed: false, code: $json.code, error: $json.message ?? $json.error } }}',
						options: { responseCode: '={{ $json.code === 1000001 ? 200 : 500 }}' },
					},
				},
			};
		},
	);
	return { workflow, id: 'exRefundHandBuilt', webhook };
}

/**
 * Example (a) behind n8n's plain Webhook node (no signature check; bench only): the trigger
 * replaced by a Webhook node (answering through the Respond to Webhook nodes) and a Set node
 * giving the fields the trigger gives from Stripe's `charge.refunded`.
 * @returns {ExtraWorkflow}
 */
function unverifiedWorkflow() {
	const webhook = { method: 'POST', path: 'payment-refunded-unverified' };
	const workflow = readExample(REFUND_EXAMPLE.file);
	const trigger = workflow.nodes.find((node) => node.type === PAYMENT_TRIGGER_TYPE);
	if (!trigger) throw new Error('example (a) has no Payment Webhook Trigger');
	const [x, y] = trigger.position;
	const mapping = benchNode('11', 'Stripe fields', 'set', 3.4, [x + 120, y], {
		mode: 'raw',
		jsonOutput:
			"={{ { provider: 'stripe', eventType: $json.body.type, kind: 'refund', refundType: $json.body.data.object.refunded ? 'full' : 'partial', transactionId: $json.body.data.object.payment_intent, event: $json.body } }}",
		options: {},
	});
	const webhookNode = {
		...benchNode('12', trigger.name, 'webhook', 2.1, [x, y], {
			httpMethod: 'POST',
			path: webhook.path,
			responseMode: 'responseNode',
			options: {},
		}),
		id: trigger.id,
		webhookId: 'c0de0000-0000-4000-8000-000000000012',
	};
	const connections = {
		...workflow.connections,
		[trigger.name]: { main: [to(mapping.name)] },
		[mapping.name]: workflow.connections[trigger.name],
	};
	return {
		workflow: {
			...workflow,
			name: `${workflow.name} (unverified: plain Webhook node)`,
			nodes: [...workflow.nodes.filter((node) => node !== trigger), webhookNode, mapping],
			connections,
		},
		id: 'exRefundUnverify1',
		webhook,
	};
}

module.exports = { baselineWorkflow, handBuiltWorkflow, unverifiedWorkflow };
