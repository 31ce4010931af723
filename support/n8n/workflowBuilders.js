// @ts-check
'use strict';
/**
 * Workflows the end-to-end runs build beside the examples: a signed Stripe purchase webhook into
 * Track Purchase, and the trigger watching one promoter. Used by the queue-mode rounds
 * (e2e/queue/faultRounds.js) and the version matrix (e2e/test-compat.js).
 */
const {
	CREDENTIAL_TYPE,
	DEMO_CREDENTIAL,
	NODE_TYPE,
	PAYMENT_TRIGGER_TYPE,
	SIGNING_CREDENTIAL_TYPE,
	SIGNING_CREDENTIALS,
	TRIGGER_TYPE,
} = require('./n8nDemoData');
const { nodeParametersOf, triggerCredentialsOf } = require('../payment/paymentSignatures');

/** The trigger node's name, under which an execution's data holds its items. */
const TRIGGER_NODE = 'Promoter results changed';

/**
 * A purchase workflow: a signed purchase event (Stripe's `checkout.session.completed` unless
 * `provider` and `events` say otherwise) on the Payment Webhook Trigger (`POST
 * /webhook/<webhookId>/webhook`, answering when the last node has run) → Track Purchase → the
 * answer. A failed Track Purchase fails the execution, so n8n answers 500 and the provider
 * delivers again.
 * @param {{ guarded: boolean, webhookId: string, provider?: import('../payment/paymentSignatures').Provider, events?: string[], signingCredential?: { id: string, name: string }, responseMode?: 'lastNode' | 'onReceived' }} options
 *   `guarded`: with Skip Transactions Already Tracked; `signingCredential`: instead of the
 *   provider's demo signing credential; `responseMode`: `onReceived` for a provider that reads
 *   its own answer (Alipay's `success`), which the last node's JSON is not
 */
function purchaseWorkflow({
	guarded,
	webhookId,
	provider = 'stripe',
	events = ['checkout.session.completed'],
	signingCredential = SIGNING_CREDENTIALS[provider],
	responseMode = 'lastNode',
}) {
	return {
		name: `Purchase webhook, ${provider} (${guarded ? 'Skip Transactions Already Tracked' : 'no guard'})`,
		nodes: [
			{
				id: 'trigger',
				name: 'Payment succeeded',
				type: PAYMENT_TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: {
					...nodeParametersOf(provider),
					provider,
					events,
					responseMode,
					options: {},
				},
				credentials: {
					...triggerCredentialsOf(provider),
					[SIGNING_CREDENTIAL_TYPE]: signingCredential,
				},
			},
			{
				id: 'track',
				name: 'Track Purchase',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [220, 0],
				parameters: {
					resource: 'conversion',
					operation: 'trackPurchase',
					invitedUserId: '={{ $json.userId }}',
					transactionId: '={{ $json.transactionId }}',
					conversionValue: '={{ $json.amount }}',
					additionalFields: { skipTrackedTransactions: guarded },
				},
				credentials: { [CREDENTIAL_TYPE]: DEMO_CREDENTIAL },
			},
		],
		connections: {
			'Payment succeeded': { main: [[{ node: 'Track Purchase', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * The trigger, active, watching one promoter's results every minute.
 * @param {{ name: string, userId: string }} options
 */
function triggerWorkflow({ name, userId }) {
	return {
		name,
		nodes: [
			{
				id: 'trigger',
				name: TRIGGER_NODE,
				type: TRIGGER_TYPE,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					event: 'promoterResultsChanged',
					userIds: userId,
				},
				credentials: { [CREDENTIAL_TYPE]: DEMO_CREDENTIAL },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

module.exports = { TRIGGER_NODE, purchaseWorkflow, triggerWorkflow };
