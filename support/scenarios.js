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

/** The layers a row may name. */
const LAYERS = ['unit', 'engine', 'contract', 'package', 'e2e'];

/**
 * The rows, one a line as `id | layer | title`, and `| why` after an e2e row's title.
 * @type {Scenario[]}
 */
const SCENARIOS = [
	// actions
	'actions.requests | unit | each operation builds its request',
	'actions.parameterReader | unit | ParameterReader',
	"actions.outputs | engine | each operation's outputs through n8n-core",
	'actions.everyOperation | engine | every-operation.json runs whole',
	'actions.validation | engine | input refused before any request',
	// itemLoop
	'itemLoop.order | unit | order and pairing',
	'itemLoop.continueOnFail | unit | Continue On Fail',
	'itemLoop.stopped | unit | a run stopped by an error',
	'itemLoop.ranges | unit | formatRanges',
	'itemLoop.stopReport | unit | describeStoppedRun',
	'itemLoop.runOptions | unit | parseRunOptions',
	'itemLoop.pollBudget | unit | pollBudgetMs on every n8n release',
	'itemLoop.n8nFloor | unit | assertSupportedN8n below the floor',
	"itemLoop.webhookResolvers | unit | webhookResolversKey: n8n's native resolvers",
	"itemLoop.workflowExecute | engine | items through n8n-core's WorkflowExecute",
	'itemLoop.faults | engine | faults over real HTTP',
	'itemLoop.stoppedBatch | engine | a concurrent batch stopped by one item',
	// transport
	'transport.requestAsSent | unit | a request as sent',
	'transport.retries | unit | retries by operation safety (Max Retries 2)',
	'transport.waits | unit | waits between attempts',
	'transport.clockSkew | unit | clock-skew correction',
	'transport.clockSkewMemory | unit | ClockSkew learns and forgets',
	'transport.envelopeErrors | unit | envelope errors',
	'transport.notAnApiAnswer | unit | answers that are not an API response',
	'transport.credentials | unit | credentials',
	'transport.authErrors | engine | authentication failures with remedies',
	'transport.wireRequest | unit | toWireRequest',
	'transport.sameBytes | unit | every way in comes to the same bytes',
	'transport.httpRequestAdapter | unit | readWireRequest',
	'transport.signatureV1 | unit | signature v1',
	'transport.signatureV2 | unit | signature v2',
	"transport.naturalCompare | unit | naturalCompare matches the sandbox's",
	'transport.authenticate | unit | authenticate() signs the request sent',
	'transport.authenticateHttpRequestNode | unit | authenticate() for the HTTP Request node',
	// sendOnce
	'sendOnce.decisions | unit | Skip Transactions Already Tracked',
	"sendOnce.throughN8nCore | engine | the store through n8n-core's helpers",
	"sendOnce.storeHazards | engine | the harness store keeps n8n's hazards",
	// pollingTrigger
	'pollingTrigger.results | unit | Promoter Results Changed',
	'pollingTrigger.balance | unit | Promoter Balance Changed',
	'pollingTrigger.changeId | unit | change_id: the same for a repeat only',
	"pollingTrigger.polls | engine | polls through n8n-core's PollContext",
	'pollingTrigger.description | package | trigger description',
	// paymentWebhook
	'paymentWebhook.signatures | unit | payment webhook signatures',
	'paymentWebhook.unusableSecrets | unit | signing secrets the node cannot use',
	'paymentWebhook.items | unit | payment event items',
	'paymentWebhook.amounts | unit | amounts in major units',
	'paymentWebhook.refundFields | unit | a refund item names its refund, the refunded total and what was paid, or says it cannot',
	"paymentWebhook.eventsParameter | unit | each provider's Events parameter",
	'paymentWebhook.webhook | unit | Payment Webhook Trigger: webhook()',
	'paymentWebhook.refusalLog | unit | refusal log',
	"paymentEvents.appStore | unit | Payment Provider Events on the App Store: the notification history paged by token, each entry verified as the trigger verifies it, each item the trigger's; a forged entry stops the run, named; a replaced root refused in Production",
	"paymentEvents.credentials | unit | Payment Provider Events credentials: the App Store Server API token (ES256, 20 minutes, signed per request) and the credential's offline test; Stripe's and Paddle's Bearer keys",
	'paymentEvents.cursor | unit | Payment Provider Events cursors: <timeMs>:<id>, each item the newest emitted event at least Overlap older, Max Events per run, and a run that always progresses',
	"paymentEvents.errors | unit | Payment Provider Events failures: 401 and 403 name the credential, other statuses keep the provider's message and status, Continue On Fail gives each input item its error item",
	"paymentEvents.paddle | unit | Payment Provider Events on Paddle Billing: the events list read by ID from a cursor or a first run, the trigger's event types only, each item the trigger's",
	'paymentEvents.parameters | unit | Payment Provider Events parameters: the names and defaults of the contract, and each bad value refused before any request, naming the parameter',
	"paymentEvents.rateLimit | unit | Payment Provider Events under a provider's rate limit: each 429 waits its Retry-After (1 s when absent, at most 60 s), 5 times at most, then an error that names 429 and what to do",
	"paymentEvents.stripe | unit | Payment Provider Events on Stripe: the Events API read forward from a cursor or a first run, the trigger's event types only, each item the trigger's",
	'paymentWebhook.credential | unit | webhook lifecycle and credential test',
	"paymentWebhook.webhookContext | engine | webhook() in n8n-core's WebhookContext",
	'paymentWebhook.description | package | payment trigger description',
	'paymentWebhook.refundStatus | unit | only money that went back counts: a refund still pending is kind other, one that failed or was canceled kind refundFailed with its own fields (Stripe refund.created, refund.updated, refund.failed; Creem)',
	'paymentWebhook.registry | unit | every registered provider has its selector option, signer, samples, codex aliases and credential text',
	"paymentWebhook.interface | unit | the trigger hands a provider module its credential fields and parameters, starts the workflow on the body it verified, and answers with the module's own answers; a refusal is 401 or 400, never a throw",
	'paymentWebhook.online | unit | a provider that fetches for its check (a certificate, its keys) or completes the item from its API: what it fetched reaches its check, and when it does not answer the delivery gets 503 with Retry-After, so that it is retried, and nothing starts',
	"paymentWebhook.polar | unit | Polar's deliveries, either secret format, as Polar's own SDK signs and verifies them",
	"paymentWebhook.airwallexSigner | unit | Airwallex's test signer against its documented example",
	'paymentWebhook.airwallex | unit | Airwallex: x-signature over x-timestamp and the body, within the tolerance',
	'paymentWebhook.majorUnitsIn | unit | amounts sent in major units, read exactly',
	'paymentWebhook.chargebacks | unit | a lost dispute is a full refund item; a dispute opened or won is other',
	// paymentWebhook: Apple App Store Server Notifications V2
	"paymentWebhook.appStore.pinnedRoot | unit | App Store: the pinned root is Apple Root CA - G3 by its fingerprint, and Apple's real signing chain passes the chain checks",
	"paymentWebhook.appStore.derExtensions | unit | App Store: Apple's marker extensions are found by walking the certificate's DER extensions, not by a byte search",
	"paymentWebhook.appStore.appleParity | unit | App Store: notifications from the test signer verify with Apple's SignedDataVerifier, and what it refuses is refused",
	'paymentWebhook.appStore.notification | unit | App Store: 400 for a body that is no notification; the transaction and renewal info verified, decoded into the body and refused for another app or environment',
	'paymentWebhook.appStore.events | unit | App Store: one-time charges, subscription starts and renewals are purchases, REFUND a refund (partial when prorated), sharing transactionId; price in milli-units',
	"paymentWebhook.appStore.provider | unit | App Store: no secret (Apple's pinned root, or a test root), Bundle ID and Environment from the node, a set-up error naming a bad one",
	'paymentWebhook.appStore.trigger | unit | App Store through the trigger: a signed purchase and its prorated refund become items sharing the transaction ID; a free trial is other; 400, 401 and a set-up error start nothing',
	'paymentWebhook.appStore.refusedRoots | unit | App Store roots a credential may not trust: the test roots this repository published with their keys (by fingerprint, always), any replaced root for Production notifications',
	"paymentWebhook.appStore.replacedRoot | unit | a credential Root Certificate that replaces Apple's: the credential test names its subject and SHA-256 fingerprint, activation warns once in the log, each item carries pinnedRootReplaced; Apple's own or none replaces nothing",
	"paymentWebhook.googlePlay.trigger | unit | Google Play through the trigger against the emulated Google: a purchase's order, amount and user ID from the Play Developer API; keys and access token cached; full and partial refunds from orders.get, a chargeback; a test notification emits nothing; each bad push 401/400 asking the API nothing; the API failing answers 503",
	"paymentWebhook.googlePlay.endpoints | unit | Google Play: Google's hosts pinned; the credential's test override only on the loopback, named by replacedRoot; an override elsewhere is a set-up error that fetches nothing",
	"paymentWebhook.googlePlay.keys | unit | Google Play: Google's keys cached for their max-age, refetched for an unknown kid at most once a minute, kept when Google fails while fresh, a 503 when none is cached",
	'paymentWebhook.googlePlay.credential | unit | Google Play Developer API credential: tested offline (the key parses and signs), each unusable key or off-loopback override named, never the key; the test override warned of at activation',
	// paymentWebhook: PayPal REST webhooks
	"paymentWebhook.paypal | unit | PayPal: a transmission signed under the fetched certificate chain verifies; another root, webhook ID, body or leaf name, an old time, a URL off PayPal's hosts are 401 with nothing started or fetched; the certificate fetched once, 503 when PayPal does not answer",
	"paymentWebhook.paypal.testRoot | unit | PayPal: the credential's Root Certificate replaces the pinned DigiCert roots only with Environment Sandbox, never a published test root; activation and each item say so",
	'paymentWebhook.paypal.events | unit | PayPal: captures and subscription sales are purchases (custom_id the user), their refunds refunds on the capture or sale with the running total, a reversal or a dispute lost a chargeback',
	// paymentWebhook: WeChat Pay
	"paymentWebhook.wechatPay.sdkAccepts | unit | WeChat Pay's SDK (wechatpay-node-v3) verifies and decrypts the test signer's notifications",
	'paymentWebhook.wechatPay.verify | unit | A WeChat Pay notification signed by the WeChat Pay public key, its resource sealed under the APIv3 key, is accepted with the resource decrypted',
	'paymentWebhook.wechatPay.refusals | unit | A WeChat Pay notification with a wrong key, a tampered body, a replay past the tolerance, another key ID or merchant, a resource that does not decrypt or a missing header is refused with 401 or 400',
	'paymentWebhook.wechatPay.items | unit | WeChat Pay TRANSACTION.SUCCESS is a purchase and REFUND.SUCCESS a refund, both keyed by out_trade_no, amounts in fen, the user in attach',
	"paymentWebhook.wechatPay.answers | unit | The trigger accepts a WeChat Pay notification with n8n's answer and refuses one with a 4xx and WeChat Pay's JSON code FAIL",
	"paymentWebhook.wechatPay.credential | unit | WeChat Pay's credential and Merchant ID problems are named and stop every delivery",
	// paymentWebhook: Alipay
	"paymentWebhook.alipay.sdkAccepts | unit | Alipay's SDK (alipay-sdk, checkNotifySignV2) verifies the test signer's notifications",
	"paymentWebhook.alipay.verify | unit | An Alipay notification signed with RSA2 over its sorted decoded fields is accepted from the exact bytes, whatever the fields' order or equivalent percent-encoding",
	'paymentWebhook.alipay.refusals | unit | An Alipay notification with a wrong key, a tampered, added or removed field, another app, no RSA2 signature, another charset or a malformed form is refused with 401 or 400',
	'paymentWebhook.alipay.items | unit | Alipay TRADE_SUCCESS and TRADE_FINISHED are purchases and a notification with refund_fee a refund, keyed by out_trade_no, amounts in yuan, the user in passback_params',
	'paymentWebhook.alipay.answers | unit | The trigger answers an accepted or ignored Alipay notification with the plain text success and a refused one with fail and a 4xx',
	"paymentWebhook.alipay.credential | unit | Alipay's credential and App ID problems are named and stop every delivery",
	// paymentWebhook: Dodo Payments
	"paymentWebhook.dodo | unit | Dodo Payments: Standard Webhooks deliveries under Dodo's whsec_ secret; payment.succeeded a purchase and refund.succeeded a refund (is_partial) keyed by payment_id, refund.failed kind refundFailed, dispute.lost a chargeback whatever its amount's type",
	// sandbox
	'sandbox.signedRequests | contract | every endpoint takes a signed request',
	'sandbox.tampering | contract | tampering after signing',
	'sandbox.authFailures | contract | authentication failures (1000004)',
	'sandbox.trackRefund | contract | track/refund errors and states',
	'sandbox.relay | contract | authorization codes and conversions',
	'sandbox.promoterReads | contract | promoter resource errors',
	'sandbox.promoterLogin | contract | promoter/login errors',
	'sandbox.promoterCenter | contract | hosted promoter center stand-in',
	'sandbox.activityRoute | contract | control route /__sandbox/activity',
	'sandbox.callsRoute | contract | control route /__sandbox/calls',
	"sandbox.percentile | contract | the sandbox's percentile",
	"sandbox.providerApis | contract | the provider APIs emulator: Stripe's and Paddle's event histories paged, filtered and refused as the real APIs do; each provider throttled with 429s and counted",
	"sandbox.providerApis.appStore | contract | the providers' emulator, App Store: the notification history paged by token, its date range and filters, and the App Store Connect token's checks",
	"sandbox.googlePlay | contract | the sandbox's emulated Google over HTTP: push keys with a max-age, the token endpoint checking the service account's assertion, the Play Developer API answering only its access tokens, registered purchases, a purchase registered to fail",
	// package
	'package.description | package | node and credential descriptions',
	'package.layers | unit | import layers',
	'package.exampleSettings | unit | what the examples pin against a careless instance: (d) saves no execution nor progress, (b) writes raw values to Google Sheets',
	'package.tarball | package | the tarball npm pack makes',
	'package.publicApi | package | the package root required by name',
	'package.scenarios | unit | each scenario named once, in its layer',
	// tooling
	'tooling.demoCommands | unit | the demo commands',
	"tooling.docsNginx | unit | docs/front-door.md's nginx configuration",
	"tooling.composeDeploy | unit | deploy/'s Compose files: the Compose specification, only nginx published, WEBHOOK_URL the door, one container per gate",
	'tooling.heartbeat | unit | the install heartbeat',
	'tooling.waitUntil | unit | waitUntil',
	'tooling.sendWebhook | package | npm run send:webhook',
	'tooling.npmStartClaim | package | npm start, a second time or on a busy port, changes nothing',
	"tooling.promoterCenterToken | unit | the docs' node:crypto snippet mints example d's ES256 token (sub, aud, iat, exp 300 s later), verified by the public key alone",
	// end to end, in real n8n (e2e/)
	"e2e.install | e2e | the packed package installed and imported as n8n does it | n8n's community-package install and CLI import",
	"e2e.everyOperation | e2e | the every-operation fixture run with n8n execute: each operation succeeds | n8n's CLI runs the installed package",
	"e2e.examples | e2e | examples a, h and c run with n8n execute against the sandbox | the examples' other nodes are n8n's",
	"e2e.serving | e2e | n8n started: both nodes and the credentials loaded, the published webhooks served | n8n's server loads and registers",
	"e2e.refundWebhook | e2e | example a over signed Stripe webhooks: refund, repeat, not referred, voided, partial | n8n's webhook server and Respond to Webhook",
	"e2e.chargebacks | e2e | example a: a lost chargeback reverses (Stripe, Paddle, Airwallex, Dodo Payments, PayPal); opened or won, nothing | n8n's webhook server and example a's nodes",
	"e2e.providerExamples | e2e | each provider's purchases tracked through example h; through a, a full refund reversed, and two halves reversed once, never the first alone (Airwallex's and PayPal's through the refund ledger) | n8n's webhook server and examples a and h",
	"e2e.refundLedger | e2e | example a's refund ledger: halves in reverse order, a half redelivered, a refund before its purchase (reversed by h), a refund over the payment, another currency; Stripe: a full refund before its purchase, pending then succeeded, pending then failed, a half that failed | n8n's data tables and examples a and h",
	"e2e.refundLedgerAtOnce | e2e | example a's refund ledger in one process: two halves of a purchase at the same moment reverse it | n8n's data tables and examples a and h",
	"e2e.purchaseWebhook | e2e | example h: a purchase delivered twice is tracked once (n8n's deduplication store) | n8n's deduplication store over webhook HTTP",
	'e2e.landing | e2e | example c over webhook HTTP: landing redirects, a used code falls back to sign-up | webhook HTTP and its redirect',
	"e2e.rawBody | e2e | each provider's signed deliveries run, forged ones get 401 or 400 and run nothing | the raw bytes n8n's webhook server keeps",
	"e2e.emptySecret | e2e | an empty signing secret: 500, a failed execution saying why, nothing sent | n8n's executions list",
	'e2e.report | e2e | the daily report: data tables, the mail and its .xlsx (examples b and d) | data tables, Send Email, Convert to File',
	"e2e.editor | e2e | the editor in Chromium: nodes panel, credential dialog, canvas | the editor is n8n's",
	"e2e.httpRequestNode | e2e | n8n's HTTP Request node with the Affiliate Tracking API credential | the HTTP Request node is n8n's",
	"e2e.agent | e2e | example e's AI agent calls the node as a tool | the agent and usableAsTool's tool are n8n's",
	"e2e.mcp | e2e | example g's MCP Server Trigger answers a real MCP client | the MCP server is n8n's",
	"e2e.activeTrigger | e2e | example f, active and polling every minute, emits a new paying customer | n8n's poll scheduling",
	"e2e.demo | e2e | the commands npm start and the README print, run as printed | they drive a real n8n's webhooks",
	"e2e.secrets | e2e | the API secrets appear in no output, answer, log or request | n8n's logs and stored executions",
	'e2e.queueFaults | e2e | queue mode: refunds under main, Redis and PostgreSQL faults, each applied once | queue mode',
	"e2e.queueFinalSave | e2e | queue mode: a worker's final save refused, example a answers a failed run 500, never 2xx | queue mode and its PostgreSQL",
	"e2e.queuePurchases | e2e | queue mode: purchases delivered twice, example i's claim tracks each once | queue mode and its PostgreSQL",
	"e2e.queueReconcile | e2e | queue mode: example k reads Stripe's events, Paddle's event stream and Apple's notification history (emulated, throttled) and makes good what the webhooks lost, none twice; its next pass changes nothing | queue mode, its PostgreSQL and the providers' emulations",
	'e2e.queueRefundsAddUp | e2e | queue mode: two halves of a purchase at once on two workers, example j reverses it once | queue mode and its PostgreSQL',
	'e2e.queueReversalCrash | e2e | queue mode: example j takes over a reversal whose worker died after the claim, once the bound has passed | queue mode restarts and its PostgreSQL',
	'e2e.queueTrigger | e2e | queue mode: the trigger across main restarts emits each change | queue mode restarts',
	"e2e.webhookProcessors | e2e | n8n's webhook processors behind nginx: a storm and a processor kill | webhook processors behind nginx",
	"e2e.queueSecrets | e2e | queue mode: the API secret in no log, answer or stored execution | n8n's processes and PostgreSQL",
	"e2e.interrupt | e2e | Ctrl-C on test:queue leaves no process and no port behind | the processes are n8n's",
	"e2e.upgrade | e2e | n8n 2.35.7's PostgreSQL database upgraded by 2.41.1 while refunds arrive through the front door: none lost | n8n's migrations and its start-up answers",
	"e2e.frontDoorCase | e2e | every spelling of /webhook/ (case, %2F, dot segments) passes the front door's gate; none reaches n8n ungated | n8n's Express routes and nginx's normalisation",
	'e2e.frontDoorHung | e2e | n8n SIGSTOPped behind its gate: deliveries answered within seconds, each applied once after SIGCONT | a hung n8n process',
	'e2e.frontDoorRecreated | e2e | n8n re-created at a new address behind a name: the door re-resolves it, each delivery applied once, no reload | n8n restarted behind nginx and a name server',
	'e2e.releases | e2e | each supported n8n release loads and runs the package | the releases',
	// doors
	"doors.strangers | e2e | shut to a stranger: no API call, no model call, nothing for promoters only | n8n's webhook, chat and MCP servers answer",
	"doors.promoterCenter.link | e2e | example d's link: 302 into the promoter center of the token's sub only | n8n's JWT node verifies the token",
	"doors.promoterCenter.server | e2e | example d's server call: the addresses of the bearer token's sub only | the Webhook node's JWT Auth verifies the token",
	"doors.promoterCenter.refusals | e2e | example d (ES256, the public key in n8n) refuses every bad token at both doors (401/403): no exp or iat, exp a year ahead or over 300 s after iat, another aud or none, nbf ahead, sub a number or empty, token twice, used after exp, HS512/HS256 with the public key as secret, another key, alg none, tampered, malformed; no Promoter Login | each release's Webhook JWT Auth and JWT node",
	'doors.promoterCenter.embed | e2e | example d in a brand page (Chromium): a fresh token opens it, a tampered one not | a real browser follows the iframe through n8n',
	"doors.promoterCenter.nothingKept | e2e | n8n keeps no promoter-center token nor JWT after a successful embed, an embed whose Data Table write fails (still answered) and a manual Try it: no saved execution, none in its database | n8n's execution saving and its SQLite database",
].map((row) => {
	const [id, layer, title, why] = row.split(' | ');
	if (!LAYERS.includes(layer)) throw new Error(`Scenario "${id}": no layer "${layer}"`);
	return { id, layer: /** @type {Layer} */ (layer), title, ...(why === undefined ? {} : { why }) };
});
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
