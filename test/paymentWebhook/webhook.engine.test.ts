/**
 * The built Payment Webhook Trigger through n8n-core's own WebhookContext, as n8n's webhook
 * server calls it: parameters resolved by n8n-workflow's Workflow, the signing credential through
 * the credentials helper, and the webhook description evaluated as n8n's webhook helpers do.
 */
import { WebhookContext } from 'n8n-core';
import {
	NodeHelpers,
	resolveWebhookDescriptionField,
	webhookDescriptionIsNativelyResolvable,
	Workflow,
	type INode,
	type INodeType,
	type IWebhookData,
	type IWebhookDescription,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { additionalData } from '../../support/n8n/core/additionalData';
import { TestCredentialsHelper } from '../../support/n8n/core/credentialsHelper';
import { loadPackage, PackageNodeTypes } from '../../support/n8n/core/packageLoader';
import {
	sampleEvent,
	signDelivery,
	TEST_SIGNING_SECRETS,
} from '../../support/payment/paymentSignatures';
import { scenario } from '../../support/scenarios';

const TYPE = 'n8n-nodes-affiliate-tracking.paymentWebhookTrigger';
const WEBHOOK_ID = '3f0c8a52-engine-payment-webhook';

type Provider = keyof typeof TEST_SIGNING_SECRETS;

async function workflowWith(parameters: INode['parameters'], typeVersion = 2) {
	const nodeTypes = new PackageNodeTypes(await loadPackage());
	const workflow = new Workflow({
		// One workflow per version: the refusal log keeps one line a minute per workflow.
		id: `payment-workflow-v${typeVersion}`,
		nodes: [
			{
				id: 'payment-trigger',
				name: 'Payment Webhook Trigger',
				type: TYPE,
				typeVersion,
				position: [0, 0],
				webhookId: WEBHOOK_ID,
				parameters,
				credentials: { paymentWebhookSigningApi: { id: 'signing', name: 'Signing secret' } },
			},
		],
		connections: {},
		nodeTypes,
		active: true,
	});
	const node = workflow.getNode('Payment Webhook Trigger') as INode;
	const nodeType = nodeTypes.getByNameAndVersion(TYPE, typeVersion) as INodeType;
	const description = (nodeType.description.webhooks as IWebhookDescription[])[0];
	return { workflow, node, nodeType, description };
}

/**
 * `body` delivered to the trigger set to `provider` through n8n-core's WebhookContext, signed now
 * with the provider's test secret, which the credentials helper hands the node.
 */
async function deliver(provider: Provider, body: Record<string, unknown>, typeVersion = 2) {
	const secret = TEST_SIGNING_SECRETS[provider];
	const rawBody = JSON.stringify(body);
	const headers = signDelivery(provider, rawBody, secret);
	const { workflow, node, nodeType, description } = await workflowWith({ provider }, typeVersion);
	const sent: Array<{ status: number; body: unknown }> = [];
	const request = { headers, rawBody: Buffer.from(rawBody, 'utf8'), body: {}, query: {} };
	const response = {
		status: (status: number) => ({ json: (body: unknown) => sent.push({ status, body }) }),
	};
	const helper = new TestCredentialsHelper(await loadPackage(), {
		signing: { signingSecret: secret },
	});
	const data = {
		...additionalData(helper, undefined as never),
		httpRequest: request,
		httpResponse: response,
	} as unknown as IWorkflowExecuteAdditionalData;
	const webhookData = {
		httpMethod: 'POST',
		node: node.name,
		path: `${WEBHOOK_ID}/webhook`,
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: data,
	} as IWebhookData;
	const context = new WebhookContext(workflow, node, data, 'webhook', webhookData, [], null);
	const warn = jest.spyOn(context.logger, 'warn').mockImplementation(() => undefined);
	try {
		const webhook = nodeType.webhook;
		if (webhook === undefined) throw new Error('the trigger has no webhook()');
		const result = await webhook.call(context);
		return { result, sent, warnings: warn.mock.calls.map((call) => JSON.stringify(call)) };
	} finally {
		warn.mockRestore();
	}
}

// A refused delivery's 401 and an event not selected are decided in webhook.unit.test.ts; what
// n8n-core adds is resolved here: parameters, versions and the webhook description.
/** The workflow data of one started execution: one item holding `fields`. */
const oneItem = (fields: Record<string, unknown>) => [[{ json: expect.objectContaining(fields) }]];

describe(scenario('paymentWebhook.webhookContext'), () => {
	it("resolves the chosen provider's events and their defaults: a Paddle refund", async () => {
		const body = sampleEvent('paddle', 'refund', { transactionId: 'txn_engine_1', partial: true });
		const { result, sent, warnings } = await deliver('paddle', body);
		expect(sent).toEqual([]);
		expect(warnings).toEqual([]);
		expect(result.workflowData).toEqual(
			oneItem({
				provider: 'paddle',
				eventType: 'adjustment.updated',
				kind: 'refund',
				refundType: 'partial',
				transactionId: 'txn_engine_1',
				amount: '40.00',
			}),
		);
	});

	// The node's versions: 2, the default, answers as 1 does.
	it.each([1, 2])(
		'version %s: a signed Stripe purchase gives one purchase item',
		async (typeVersion) => {
			const body = sampleEvent('stripe', 'purchase', { transactionId: 'pi_engine_v' });
			const { result, sent } = await deliver('stripe', body, typeVersion);
			expect(sent).toEqual([]);
			expect(result.workflowData).toEqual(
				oneItem({ provider: 'stripe', kind: 'purchase', transactionId: 'pi_engine_v' }),
			);
		},
	);

	it.each([
		['onReceived', undefined],
		['lastNode', 'firstEntryJson'],
		['responseNode', undefined],
	])(
		'evaluates the webhook description as n8n does, and as n8n 2.35+ does without its expression engine: %s → responseData %s',
		async (responseMode, responseData) => {
			const { workflow, node, description } = await workflowWith({
				provider: 'stripe',
				responseMode,
			});
			const evaluate = (value: unknown, fallback: string) =>
				workflow.expression.getComplexParameterValue(
					node,
					value as string,
					'webhook',
					{},
					undefined,
					fallback,
				);
			expect(
				workflow.expression.getSimpleParameterValue(
					node,
					description.responseMode as string,
					'webhook',
					{},
					undefined,
					'onReceived',
				),
			).toBe(responseMode);
			expect(evaluate(description.responseData, 'firstEntryJson')).toBe(responseData);
			expect(NodeHelpers.getNodeWebhookPath(workflow.id, node, description.path as string)).toBe(
				`${WEBHOOK_ID}/webhook`,
			);
			// n8n 2.35+ resolves it without its expression engine, to the expressions' values.
			expect(webhookDescriptionIsNativelyResolvable(description)).toBe(true);
			expect(resolveWebhookDescriptionField(node, description, 'responseMode')).toEqual({
				resolved: true,
				value: responseMode,
			});
			expect(resolveWebhookDescriptionField(node, description, 'responseData')).toEqual({
				resolved: true,
				value: responseData,
			});
		},
	);

	it('a parameter holding an expression sends the description to the engine, as before', async () => {
		const { node, description } = await workflowWith({
			provider: 'stripe',
			responseMode: '={{ "lastNode" }}',
		});
		expect(resolveWebhookDescriptionField(node, description, 'responseData')).toEqual({
			resolved: false,
		});
	});
});
