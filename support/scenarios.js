// @ts-check
'use strict';
/**
 * The scenario table: every behaviour the tests prove, each proven in exactly one layer.
 * A test names its scenario through the `describe` or `it` that holds it:
 * `describe(scenario('transport.clockSkew'), …)`; an end-to-end check names it where it reports.
 * test/package/scenarios.unit.test.ts fails when an id is named in two places, in none, or in a
 * file of another layer than its row says. CONTRIBUTING.md's table is checked against this one.
 */

/** @typedef {'unit' | 'engine' | 'contract' | 'package' | 'e2e'} Layer */
/**
 * @typedef {object} Scenario
 * @property {string} id subject.what, as tests name it
 * @property {Layer} layer the one layer that proves it
 * @property {string} title what is proven, as the test's describe shows it
 * @property {string} [why] for e2e: what needs n8n's own servers
 */

/** @type {Scenario[]} */
const SCENARIOS = [
	// actions
	{ id: 'actions.requests', layer: 'unit', title: 'each operation builds its request' },
	{ id: 'actions.parameterReader', layer: 'unit', title: 'ParameterReader' },
	{ id: 'actions.outputs', layer: 'engine', title: "each operation's outputs through n8n-core" },
	{ id: 'actions.everyOperation', layer: 'engine', title: 'every-operation.json runs whole' },
	{ id: 'actions.validation', layer: 'engine', title: 'input refused before any request' },
	// itemLoop
	{ id: 'itemLoop.order', layer: 'unit', title: 'order and pairing' },
	{ id: 'itemLoop.continueOnFail', layer: 'unit', title: 'Continue On Fail' },
	{ id: 'itemLoop.stopped', layer: 'unit', title: 'a run stopped by an error' },
	{ id: 'itemLoop.ranges', layer: 'unit', title: 'formatRanges' },
	{ id: 'itemLoop.stopReport', layer: 'unit', title: 'describeStoppedRun' },
	{ id: 'itemLoop.runOptions', layer: 'unit', title: 'parseRunOptions' },
	{ id: 'itemLoop.pollBudget', layer: 'unit', title: 'pollBudgetMs on every n8n release' },
	{ id: 'itemLoop.n8nFloor', layer: 'unit', title: 'assertSupportedN8n below the floor' },
	{
		id: 'itemLoop.webhookResolvers',
		layer: 'unit',
		title: "webhookResolversKey: n8n's native resolvers",
	},
	{
		id: 'itemLoop.workflowExecute',
		layer: 'engine',
		title: "items through n8n-core's WorkflowExecute",
	},
	{ id: 'itemLoop.faults', layer: 'engine', title: 'faults over real HTTP' },
	{ id: 'itemLoop.stoppedBatch', layer: 'engine', title: 'a concurrent batch stopped by one item' },
	// transport
	{ id: 'transport.requestAsSent', layer: 'unit', title: 'a request as sent' },
	{ id: 'transport.retries', layer: 'unit', title: 'retries by operation safety (Max Retries 2)' },
	{ id: 'transport.waits', layer: 'unit', title: 'waits between attempts' },
	{ id: 'transport.clockSkew', layer: 'unit', title: 'clock-skew correction' },
	{ id: 'transport.clockSkewMemory', layer: 'unit', title: 'ClockSkew learns and forgets' },
	{ id: 'transport.envelopeErrors', layer: 'unit', title: 'envelope errors' },
	{ id: 'transport.notAnApiAnswer', layer: 'unit', title: 'answers that are not an API response' },
	{ id: 'transport.credentials', layer: 'unit', title: 'credentials' },
	{ id: 'transport.authErrors', layer: 'engine', title: 'authentication failures with remedies' },
	{ id: 'transport.wireRequest', layer: 'unit', title: 'toWireRequest' },
	{ id: 'transport.sameBytes', layer: 'unit', title: 'every way in comes to the same bytes' },
	{ id: 'transport.httpRequestAdapter', layer: 'unit', title: 'readWireRequest' },
	{ id: 'transport.signatureV1', layer: 'unit', title: 'signature v1' },
	{ id: 'transport.signatureV2', layer: 'unit', title: 'signature v2' },
	{ id: 'transport.naturalCompare', layer: 'unit', title: "naturalCompare matches the sandbox's" },
	{ id: 'transport.authenticate', layer: 'unit', title: 'authenticate() signs the request sent' },
	{
		id: 'transport.authenticateHttpRequestNode',
		layer: 'unit',
		title: 'authenticate() for the HTTP Request node',
	},
	// sendOnce
	{ id: 'sendOnce.decisions', layer: 'unit', title: 'Skip Transactions Already Tracked' },
	{ id: 'sendOnce.throughN8nCore', layer: 'engine', title: "the store through n8n-core's helpers" },
	{ id: 'sendOnce.storeHazards', layer: 'engine', title: "the harness store keeps n8n's hazards" },
	// pollingTrigger
	{ id: 'pollingTrigger.results', layer: 'unit', title: 'Promoter Results Changed' },
	{ id: 'pollingTrigger.balance', layer: 'unit', title: 'Promoter Balance Changed' },
	{ id: 'pollingTrigger.changeId', layer: 'unit', title: 'change_id: the same for a repeat only' },
	{ id: 'pollingTrigger.polls', layer: 'engine', title: "polls through n8n-core's PollContext" },
	{ id: 'pollingTrigger.description', layer: 'package', title: 'trigger description' },
	// paymentWebhook
	{ id: 'paymentWebhook.signatures', layer: 'unit', title: 'payment webhook signatures' },
	{
		id: 'paymentWebhook.unusableSecrets',
		layer: 'unit',
		title: 'signing secrets the node cannot use',
	},
	{ id: 'paymentWebhook.items', layer: 'unit', title: 'payment event items' },
	{ id: 'paymentWebhook.amounts', layer: 'unit', title: 'amounts in major units' },
	{
		id: 'paymentWebhook.eventsParameter',
		layer: 'unit',
		title: "each provider's Events parameter",
	},
	{ id: 'paymentWebhook.webhook', layer: 'unit', title: 'Payment Webhook Trigger: webhook()' },
	{ id: 'paymentWebhook.refusalLog', layer: 'unit', title: 'refusal log' },
	{
		id: 'paymentWebhook.credential',
		layer: 'unit',
		title: 'webhook lifecycle and credential test',
	},
	{
		id: 'paymentWebhook.webhookContext',
		layer: 'engine',
		title: "webhook() in n8n-core's WebhookContext",
	},
	{ id: 'paymentWebhook.description', layer: 'package', title: 'payment trigger description' },
	{
		id: 'paymentWebhook.registry',
		layer: 'unit',
		title:
			'every registered provider has its selector option, signer, samples, codex aliases and credential text',
	},
	{
		id: 'paymentWebhook.interface',
		layer: 'unit',
		title:
			"the trigger hands a provider module its credential fields and parameters, starts the workflow on the body it verified, and answers with the module's own answers; a refusal is 401 or 400, never a throw",
	},
	{
		id: 'paymentWebhook.polar',
		layer: 'unit',
		title: "Polar's deliveries, either secret format, as Polar's own SDK signs and verifies them",
	},
	{
		id: 'paymentWebhook.airwallexSigner',
		layer: 'unit',
		title: "Airwallex's test signer against its documented example",
	},
	{
		id: 'paymentWebhook.airwallex',
		layer: 'unit',
		title: 'Airwallex: x-signature over x-timestamp and the body, within the tolerance',
	},
	{
		id: 'paymentWebhook.majorUnitsIn',
		layer: 'unit',
		title: 'amounts sent in major units, read exactly',
	},
	{
		id: 'paymentWebhook.chargebacks',
		layer: 'unit',
		title: 'a lost dispute is a full refund item; a dispute opened or won is other',
	},
	// paymentWebhook: Apple App Store Server Notifications V2
	{
		id: 'paymentWebhook.appStore.pinnedRoot',
		layer: 'unit',
		title:
			"App Store: the pinned root is Apple Root CA - G3 by its fingerprint, and Apple's real signing chain passes the chain checks",
	},
	{
		id: 'paymentWebhook.appStore.derExtensions',
		layer: 'unit',
		title:
			"App Store: Apple's marker extensions are found by walking the certificate's DER extensions, not by a byte search",
	},
	{
		id: 'paymentWebhook.appStore.appleParity',
		layer: 'unit',
		title:
			"App Store: notifications from the test signer verify with Apple's SignedDataVerifier, and what it refuses is refused",
	},
	{
		id: 'paymentWebhook.appStore.notification',
		layer: 'unit',
		title:
			'App Store: 400 for a body that is no notification; the transaction and renewal info verified, decoded into the body and refused for another app or environment',
	},
	{
		id: 'paymentWebhook.appStore.events',
		layer: 'unit',
		title:
			'App Store: one-time charges, subscription starts and renewals are purchases, REFUND a refund (partial when prorated), sharing transactionId; price in milli-units',
	},
	{
		id: 'paymentWebhook.appStore.provider',
		layer: 'unit',
		title:
			"App Store: no secret (Apple's pinned root, or a test root), Bundle ID and Environment from the node, a set-up error naming a bad one",
	},
	{
		id: 'paymentWebhook.appStore.trigger',
		layer: 'unit',
		title:
			'App Store through the trigger: a signed purchase and its prorated refund become items sharing the transaction ID; a free trial is other; 400, 401 and a set-up error start nothing',
	},
	// paymentWebhook: WeChat Pay
	{
		id: 'paymentWebhook.wechatPay.sdkAccepts',
		layer: 'unit',
		title:
			"WeChat Pay's SDK (wechatpay-node-v3) verifies and decrypts the test signer's notifications",
	},
	{
		id: 'paymentWebhook.wechatPay.verify',
		layer: 'unit',
		title:
			'A WeChat Pay notification signed by the WeChat Pay public key, its resource sealed under the APIv3 key, is accepted with the resource decrypted',
	},
	{
		id: 'paymentWebhook.wechatPay.refusals',
		layer: 'unit',
		title:
			'A WeChat Pay notification with a wrong key, a tampered body, a replay past the tolerance, another key ID or merchant, a resource that does not decrypt or a missing header is refused with 401 or 400',
	},
	{
		id: 'paymentWebhook.wechatPay.items',
		layer: 'unit',
		title:
			'WeChat Pay TRANSACTION.SUCCESS is a purchase and REFUND.SUCCESS a refund, both keyed by out_trade_no, amounts in fen, the user in attach',
	},
	{
		id: 'paymentWebhook.wechatPay.answers',
		layer: 'unit',
		title:
			"The trigger accepts a WeChat Pay notification with n8n's answer and refuses one with a 4xx and WeChat Pay's JSON code FAIL",
	},
	{
		id: 'paymentWebhook.wechatPay.credential',
		layer: 'unit',
		title: "WeChat Pay's credential and Merchant ID problems are named and stop every delivery",
	},
	// paymentWebhook: Alipay
	{
		id: 'paymentWebhook.alipay.sdkAccepts',
		layer: 'unit',
		title: "Alipay's SDK (alipay-sdk, checkNotifySignV2) verifies the test signer's notifications",
	},
	{
		id: 'paymentWebhook.alipay.verify',
		layer: 'unit',
		title:
			"An Alipay notification signed with RSA2 over its sorted decoded fields is accepted from the exact bytes, whatever the fields' order or equivalent percent-encoding",
	},
	{
		id: 'paymentWebhook.alipay.refusals',
		layer: 'unit',
		title:
			'An Alipay notification with a wrong key, a tampered, added or removed field, another app, no RSA2 signature, another charset or a malformed form is refused with 401 or 400',
	},
	{
		id: 'paymentWebhook.alipay.items',
		layer: 'unit',
		title:
			'Alipay TRADE_SUCCESS and TRADE_FINISHED are purchases and a notification with refund_fee a refund, keyed by out_trade_no, amounts in yuan, the user in passback_params',
	},
	{
		id: 'paymentWebhook.alipay.answers',
		layer: 'unit',
		title:
			'The trigger answers an accepted or ignored Alipay notification with the plain text success and a refused one with fail and a 4xx',
	},
	{
		id: 'paymentWebhook.alipay.credential',
		layer: 'unit',
		title: "Alipay's credential and App ID problems are named and stop every delivery",
	},
	// sandbox
	{
		id: 'sandbox.signedRequests',
		layer: 'contract',
		title: 'every endpoint takes a signed request',
	},
	{ id: 'sandbox.tampering', layer: 'contract', title: 'tampering after signing' },
	{ id: 'sandbox.authFailures', layer: 'contract', title: 'authentication failures (1000004)' },
	{ id: 'sandbox.trackRefund', layer: 'contract', title: 'track/refund errors and states' },
	{ id: 'sandbox.relay', layer: 'contract', title: 'authorization codes and conversions' },
	{ id: 'sandbox.promoterReads', layer: 'contract', title: 'promoter resource errors' },
	{ id: 'sandbox.promoterLogin', layer: 'contract', title: 'promoter/login errors' },
	{ id: 'sandbox.promoterCenter', layer: 'contract', title: 'hosted promoter center stand-in' },
	{ id: 'sandbox.activityRoute', layer: 'contract', title: 'control route /__sandbox/activity' },
	{ id: 'sandbox.callsRoute', layer: 'contract', title: 'control route /__sandbox/calls' },
	{ id: 'sandbox.percentile', layer: 'contract', title: "the sandbox's percentile" },
	// package
	{ id: 'package.description', layer: 'package', title: 'node and credential descriptions' },
	{ id: 'package.layers', layer: 'unit', title: 'import layers' },
	{ id: 'package.tarball', layer: 'package', title: 'the tarball npm pack makes' },
	{ id: 'package.publicApi', layer: 'package', title: 'the package root required by name' },
	{ id: 'package.scenarios', layer: 'unit', title: 'each scenario named once, in its layer' },
	// tooling
	{ id: 'tooling.demoCommands', layer: 'unit', title: 'the demo commands' },
	{ id: 'tooling.docsNginx', layer: 'unit', title: "docs/queue-mode.md's nginx configuration" },
	{ id: 'tooling.heartbeat', layer: 'unit', title: 'the install heartbeat' },
	{ id: 'tooling.waitUntil', layer: 'unit', title: 'waitUntil' },
	{ id: 'tooling.sendWebhook', layer: 'package', title: 'npm run send:webhook' },
	{
		id: 'tooling.npmStartClaim',
		layer: 'package',
		title: 'npm start, a second time or on a busy port, changes nothing',
	},
	{
		id: 'tooling.promoterCenterToken',
		layer: 'unit',
		title: "the docs' node:crypto snippet mints example d's HS256 token",
	},
	// end to end, in real n8n (e2e/)
	{
		id: 'e2e.install',
		layer: 'e2e',
		title: 'the packed package installed and imported as n8n does it',
		why: "n8n's community-package install and CLI import",
	},
	{
		id: 'e2e.everyOperation',
		layer: 'e2e',
		title: 'the every-operation fixture run with n8n execute: each operation succeeds',
		why: "n8n's CLI runs the installed package",
	},
	{
		id: 'e2e.examples',
		layer: 'e2e',
		title: 'examples a, h and c run with n8n execute against the sandbox',
		why: "the examples' other nodes are n8n's",
	},
	{
		id: 'e2e.serving',
		layer: 'e2e',
		title: 'n8n started: both nodes and the credentials loaded, the published webhooks served',
		why: "n8n's server loads and registers",
	},
	{
		id: 'e2e.refundWebhook',
		layer: 'e2e',
		title: 'example a over signed Stripe webhooks: refund, repeat, not referred, voided, partial',
		why: "n8n's webhook server and Respond to Webhook",
	},
	{
		id: 'e2e.chargebacks',
		layer: 'e2e',
		title:
			'example a: a lost chargeback reverses (Stripe, Paddle, Airwallex); opened or won, nothing',
		why: "n8n's webhook server and example a's nodes",
	},
	{
		id: 'e2e.purchaseWebhook',
		layer: 'e2e',
		title: "example h: a purchase delivered twice is tracked once (n8n's deduplication store)",
		why: "n8n's deduplication store over webhook HTTP",
	},
	{
		id: 'e2e.landing',
		layer: 'e2e',
		title: 'example c over webhook HTTP: landing redirects, a used code falls back to sign-up',
		why: 'webhook HTTP and its redirect',
	},
	{
		id: 'e2e.rawBody',
		layer: 'e2e',
		title: "each provider's signed deliveries run, forged ones get 401 or 400 and run nothing",
		why: "the raw bytes n8n's webhook server keeps",
	},
	{
		id: 'e2e.emptySecret',
		layer: 'e2e',
		title: 'an empty signing secret: 500, a failed execution saying why, nothing sent',
		why: "n8n's executions list",
	},
	{
		id: 'e2e.report',
		layer: 'e2e',
		title: 'the daily report: data tables, the mail and its .xlsx (examples b and d)',
		why: 'data tables, Send Email, Convert to File',
	},
	{
		id: 'e2e.editor',
		layer: 'e2e',
		title: 'the editor in Chromium: nodes panel, credential dialog, canvas',
		why: "the editor is n8n's",
	},
	{
		id: 'e2e.httpRequestNode',
		layer: 'e2e',
		title: "n8n's HTTP Request node with the Affiliate Tracking API credential",
		why: "the HTTP Request node is n8n's",
	},
	{
		id: 'e2e.agent',
		layer: 'e2e',
		title: "example e's AI agent calls the node as a tool",
		why: "the agent and usableAsTool's tool are n8n's",
	},
	{
		id: 'e2e.mcp',
		layer: 'e2e',
		title: "example g's MCP Server Trigger answers a real MCP client",
		why: "the MCP server is n8n's",
	},
	{
		id: 'e2e.activeTrigger',
		layer: 'e2e',
		title: 'example f, active and polling every minute, emits a new paying customer',
		why: "n8n's poll scheduling",
	},
	{
		id: 'e2e.demo',
		layer: 'e2e',
		title: 'the commands npm start and the README print, run as printed',
		why: "they drive a real n8n's webhooks",
	},
	{
		id: 'e2e.secrets',
		layer: 'e2e',
		title: 'the API secrets appear in no output, answer, log or request',
		why: "n8n's logs and stored executions",
	},
	{
		id: 'e2e.queueFaults',
		layer: 'e2e',
		title: 'queue mode: refunds under main, Redis and PostgreSQL faults, each applied once',
		why: 'queue mode',
	},
	{
		id: 'e2e.queuePurchases',
		layer: 'e2e',
		title: "queue mode: purchases delivered twice, example i's claim tracks each once",
		why: 'queue mode and its PostgreSQL',
	},
	{
		id: 'e2e.queueTrigger',
		layer: 'e2e',
		title: 'queue mode: the trigger across main restarts emits each change',
		why: 'queue mode restarts',
	},
	{
		id: 'e2e.webhookProcessors',
		layer: 'e2e',
		title: "n8n's webhook processors behind nginx: a storm and a processor kill",
		why: 'webhook processors behind nginx',
	},
	{
		id: 'e2e.queueSecrets',
		layer: 'e2e',
		title: 'queue mode: the API secret in no log, answer or stored execution',
		why: "n8n's processes and PostgreSQL",
	},
	{
		id: 'e2e.interrupt',
		layer: 'e2e',
		title: 'Ctrl-C on test:queue leaves no process and no port behind',
		why: "the processes are n8n's",
	},
	{
		id: 'e2e.releases',
		layer: 'e2e',
		title: 'each supported n8n release loads and runs the package',
		why: 'the releases',
	},
	// doors
	{
		id: 'doors.strangers',
		layer: 'e2e',
		title: 'shut to a stranger: no API call, no model call, nothing for promoters only',
		why: "n8n's webhook, chat and MCP servers answer",
	},
	{
		id: 'doors.promoterCenter.link',
		layer: 'e2e',
		title: "example d's link: 302 into the promoter center of the token's sub only",
		why: "n8n's JWT node verifies the token",
	},
	{
		id: 'doors.promoterCenter.server',
		layer: 'e2e',
		title: "example d's server call: the addresses of the bearer token's sub only",
		why: "the Webhook node's JWT Auth verifies the token",
	},
	{
		id: 'doors.promoterCenter.refusals',
		layer: 'e2e',
		title: 'example d refuses bad tokens at both doors (401/403), no Promoter Login',
		why: "each release's Webhook JWT Auth and JWT node",
	},
	{
		id: 'doors.promoterCenter.embed',
		layer: 'e2e',
		title: 'example d in a brand page (Chromium): a fresh token opens it, a tampered one not',
		why: 'a real browser follows the iframe through n8n',
	},
	{
		id: 'doors.promoterCenter.nothingKept',
		layer: 'e2e',
		title: 'n8n keeps no promoter-center token: no saved execution, none in its database',
		why: "n8n's execution saving and its SQLite database",
	},
];
/**
 * The title of a scenario, for the describe or check that proves it.
 * @param {string} id
 * @returns {string}
 */
function scenario(id) {
	const found = SCENARIOS.find((row) => row.id === id);
	if (found === undefined) throw new Error(`No scenario "${id}" in support/scenarios.js`);
	return `${found.title} [${id}]`;
}

module.exports = { SCENARIOS, scenario };
