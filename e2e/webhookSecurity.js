// @ts-check
'use strict';
/**
 * The Payment Webhook Trigger in a real n8n, per provider (every test signer in
 * support/payment/signers/, so a new provider needs no line here): signed deliveries start one
 * execution each and reach the sandbox; every bad kind gets 401 (or 400), leaves no execution and
 * makes no call at the sandbox. One published workflow per provider; `checkWebhookSecurity`
 * prints one `WEBHOOK` line each.
 */
const assert = require('node:assert/strict');
const path = require('node:path');

const {
	CONTENT_TYPES,
	OTHER_SIGNING_SECRETS,
	PROVIDERS,
	SIGNERS,
	SIGNS_NO_TIMESTAMP,
	TEST_SIGNING_SECRETS,
	encodeEvent,
	badDeliveriesOf,
	sampleEvent,
	signDelivery,
	signWithTestSecret,
} = require('../support/payment/paymentSignatures');
const {
	SIGNING_CREDENTIAL_TYPE,
	paymentTriggerPath,
	paymentTriggerUrl,
	paymentTriggerWebhook,
} = require('../support/n8n/n8nDemoData');
const { sleep, waitUntil } = require('../support/services/processes');
const { purchaseWorkflow } = require('../support/n8n/workflowBuilders');
const { scenario } = require('../support/scenarios');

/** @typedef {import('../support/payment/paymentSignatures').Provider} Provider */

/** Valid deliveries sent to each provider's workflow. */
const VALID_DELIVERIES = 3;
/** A buyer whose signup the sandbox's seed holds, so that Track Purchase is accepted. */
const BUYER = 'buyer_1';
/** How long after the last bad delivery an execution would have shown in n8n's list. */
const SETTLE_MS = 3000;
const TIMEOUT_MS = 60_000;

/**
 * A set-up error: a Stripe endpoint whose credential's signing secret is empty. Every delivery
 * gets 500 (the provider retries once the credential is fixed) and a failed execution that says
 * why; nothing reaches the service.
 */
const EMPTY_SECRET = {
	workflowId: 'e2ePayHookNoSecr1',
	webhookId: 'e2e-pay-empty-secret',
	credential: { id: 'paySigningEmpty01', name: 'Stripe webhook signing secret (left empty)' },
	reason: 'The Signing Secret is empty',
};

/** @param {Provider} provider */
const workflowId = (provider) => `e2ePayHook${provider.slice(0, 6)}01`;
/** @param {Provider} provider */
const webhookId = (provider) => `e2e-pay-${provider.toLowerCase()}`;

/** The built registry (test:e2e builds first). */
function registry() {
	return /** @type {typeof import('../nodes/PaymentWebhookTrigger/providers')} */ (
		require(
			path.join(__dirname, '..', 'dist', 'nodes', 'PaymentWebhookTrigger', 'providers', 'index.js'),
		)
	);
}

/**
 * The answer a refused delivery of `provider` gets with `status`, as the built module says: its
 * own, or the trigger's generic JSON error.
 * @param {Provider} provider @param {400 | 401} status
 */
function refusalAnswer(provider, status) {
	const refused = registry().providerOf(provider).answers?.refused;
	if (refused) return refused(status).body;
	return { error: status === 401 ? 'Invalid webhook signature' : 'Invalid webhook body' };
}

/**
 * The answer the provider reads to an accepted delivery (Alipay's `success`), if it reads one.
 * n8n's answer when the last node finishes is that node's JSON, never it: such a provider's
 * workflow answers at once, and its workflow runs after the answer.
 * @param {Provider} provider
 */
const acceptedAnswer = (provider) => registry().providerOf(provider).answers?.accepted;

/**
 * The provider's events of one kind (its purchases, or its refunds and lost disputes), as the
 * built node lists them.
 * @param {Provider} provider @param {'purchase' | 'refund'} kind @returns {string[]}
 */
function eventsOfKind(provider, kind) {
	return Object.entries(registry().providerOf(provider).events)
		.filter(([, reader]) => reader.kind === kind)
		.map(([value]) => value);
}

/**
 * How many calls at the sandbox's `route` name `id` in their body.
 * @param {{ calls: { path: string, body: string }[] }} sandbox @param {string} route
 * @param {string} id
 */
const callsNaming = (sandbox, route, id) =>
	sandbox.calls.filter((call) => call.path.endsWith(route) && call.body.includes(`"${id}"`)).length;

/**
 * n8n's list of a workflow's executions, the newest 100.
 * @param {{ base: string, cookie: string }} n8n @param {string} workflowId
 */
async function executionsOf({ base, cookie }, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const answer = await fetch(`${base}/rest/executions?filter=${filter}&limit=100`, {
		headers: { cookie },
	});
	assert.equal(answer.status, 200, `/rest/executions: ${answer.status}`);
	const { data } = /** @type {{ data: { results: { id: string, status: string }[] } }} */ (
		await answer.json()
	);
	return data.results;
}

/**
 * `body`, an event as the provider sends it (encodeEvent), posted to `url` with the headers the
 * provider sends, signed with its test secret now; the answer's text goes into `seen`.
 * @param {string} url @param {Provider} provider @param {string} body @param {string[]} seen
 */
function postSigned(url, provider, body, seen) {
	return post(url, CONTENT_TYPES[provider], signWithTestSecret(provider, body), body, seen);
}

/**
 * A delivery posted to `url`; the answer's text goes into `seen`.
 * @param {string} url @param {string} contentType @param {Record<string, string>} headers
 * @param {string} body @param {string[]} seen
 */
async function post(url, contentType, headers, body, seen) {
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'Content-Type': contentType, ...headers },
		body,
		signal: AbortSignal.timeout(30_000),
	});
	const text = await answer.text();
	seen.push(text);
	return { status: answer.status, ok: answer.ok, text };
}

/** The credential with the empty secret, in `n8n import:credentials` form. */
function webhookSecurityCredentials() {
	return [
		{ ...EMPTY_SECRET.credential, type: SIGNING_CREDENTIAL_TYPE, data: { signingSecret: '' } },
	];
}

/** One purchase workflow per provider, published (test:e2e and the version matrix). */
function providerWorkflows() {
	return PROVIDERS.map((provider) => ({
		workflow: purchaseWorkflow({
			guarded: false,
			webhookId: webhookId(provider),
			provider,
			events: eventsOfKind(provider, 'purchase'),
			responseMode: acceptedAnswer(provider) === undefined ? 'lastNode' : 'onReceived',
		}),
		id: workflowId(provider),
		publish: true,
	}));
}

/** Their production webhooks. */
function providerWebhooks() {
	return PROVIDERS.map((provider) => paymentTriggerWebhook(webhookId(provider)));
}

/** The workflows to import (published) before n8n starts. */
function webhookSecurityWorkflows() {
	return [
		...providerWorkflows(),
		{
			workflow: purchaseWorkflow({
				guarded: false,
				webhookId: EMPTY_SECRET.webhookId,
				signingCredential: EMPTY_SECRET.credential,
			}),
			id: EMPTY_SECRET.workflowId,
			publish: true,
		},
	];
}

/** Their production webhooks. */
function webhookSecurityWebhooks() {
	return [...providerWebhooks(), paymentTriggerWebhook(EMPTY_SECRET.webhookId)];
}

/**
 * Posts one signed purchase of `provider` to its workflow (providerWorkflows): its answer's status
 * and text, and how many calls reached the sandbox's track/conversion for it.
 * @param {{ base: string, provider: Provider, transactionId: string, sandbox: { calls: { path: string, body: string }[] }, seen: string[] }} options
 */
async function postSignedPurchase({ base, provider, transactionId, sandbox, seen }) {
	const url = paymentTriggerUrl(base, webhookId(provider));
	const answer = await postSigned(url, provider, purchaseBody(provider, transactionId), seen);
	const callsNow = () => callsNaming(sandbox, '/track/conversion', transactionId);
	// A workflow that answered at once calls the sandbox after its answer.
	if (answer.ok) {
		await waitUntil(async () => callsNow() > 0, {
			timeoutMs: TIMEOUT_MS,
			intervalMs: 100,
			what: `${provider}'s purchase ${transactionId} reaching the sandbox`,
		});
	}
	return { ...answer, calls: callsNow() };
}

/**
 * The version matrix's check: one signed purchase per provider reaches Track Purchase.
 * @param {{ check: (name: string, body: () => Promise<string | void>) => Promise<void>, base: string, sandbox: { calls: { path: string, body: string }[] }, seen: string[] }} options
 */
async function checkEachProviderOnce({ check, base, sandbox, seen }) {
	await check(
		`each payment provider's signed purchase reaches Track Purchase (${PROVIDERS.join(', ')})`,
		async () => {
			const stamp = Date.now().toString(36);
			for (const provider of PROVIDERS) {
				const transactionId = `compat_${provider}_${stamp}`;
				const answer = await postSignedPurchase({ base, provider, transactionId, sandbox, seen });
				assert.equal(answer.status, 200, `${provider}: ${answer.status} ${answer.text}`);
				assert.equal(answer.calls, 1, `${provider}: ${answer.calls} calls at the sandbox`);
			}
			return `${PROVIDERS.length} providers, one purchase each`;
		},
	);
}

/**
 * A Stripe event posted to a Payment Webhook Trigger's production path, signed with the demo
 * secret unless `signed` is false; the answer's text goes into `seen` (for the secret checks).
 * @param {{ base: string, webhookPath: string, kind: 'purchase' | 'refund', fields: import('../support/payment/paymentSignatures').SampleFields, signed?: boolean, seen: string[] }} delivery
 */
async function postStripeEvent({ base, webhookPath, kind, fields, signed = true, seen }) {
	const body = JSON.stringify(sampleEvent('stripe', kind, fields));
	const headers = signed ? signWithTestSecret('stripe', body) : {};
	const url = `${base}/webhook/${webhookPath}`;
	const { status, text } = await post(url, 'application/json', headers, body, seen);
	try {
		return { status, json: JSON.parse(text) };
	} catch {
		throw new Error(`${kind} ${JSON.stringify(fields)} answered ${status}, not JSON: "${text}"`);
	}
}

/** Seconds an hour ago: a replayed, stale delivery. */
const staleTimestamp = () => Math.floor(Date.now() / 1000) - 3600;

/**
 * A purchase of `provider` as it sends one, for `BUYER`.
 * @param {Provider} provider @param {string} transactionId
 */
function purchaseBody(provider, transactionId) {
	return encodeEvent(provider, sampleEvent(provider, 'purchase', { transactionId, userId: BUYER }))
		.body;
}

/**
 * The bad deliveries of a provider, each `{ name, body, headers }` for a purchase of its own
 * transaction ID, and every transaction ID they were made for (a sealed body does not show it):
 * those every provider gets (a provider that signs no timestamp has no stale case; one whose body
 * is not JSON no re-serialized one) unless its signer replaces them, then the signer's own.
 * @param {Provider} provider @param {string} prefix
 */
function badDeliveries(provider, prefix) {
	/** @type {string[]} */
	const transactionIds = [];
	/** @param {string} name */
	const bodyFor = (name) => {
		transactionIds.push(`${prefix}_${name}`);
		return purchaseBody(provider, `${prefix}_${name}`);
	};
	const cases = badDeliveriesOf(provider, bodyFor, () => genericBadDeliveries(provider, bodyFor));
	// A body that hides its transaction (a signed JWS) names it in the delivery instead.
	for (const { transactionId } of cases)
		if (transactionId !== undefined) transactionIds.push(transactionId);
	return { cases, transactionIds };
}

/**
 * The bad kinds every provider gets, unless its signer replaces them.
 * @param {Provider} provider @param {(name: string) => string} bodyFor
 */
function genericBadDeliveries(provider, bodyFor) {
	const secret = TEST_SIGNING_SECRETS[provider];
	/**
	 * A new purchase body for `name`, signed with `key`.
	 * @param {string} name @param {string} [key] @param {{ timestamp?: number }} [options]
	 */
	const signed = (name, key = secret, options) => {
		const body = bodyFor(name);
		return { body, headers: signDelivery(provider, body, key, options) };
	};
	// A signature made up by someone who does not hold the secret, in the provider's format.
	const forged = signed('forged');
	const forgedFrom = signed('other').headers;
	const forgedHeaders = { ...forged.headers };
	for (const name of Object.keys(forgedHeaders))
		if (/signature/.test(name)) forgedHeaders[name] = forgedFrom[name];
	const tampered = signed('tampered');
	tampered.body = tampered.body.replace(BUYER, 'attacker_1');
	/** @type {import('../support/payment/signer').BadDelivery[]} */
	const cases = [
		{ name: 'forged', body: forged.body, headers: forgedHeaders },
		{ name: 'tampered', ...tampered },
	];
	if (!SIGNS_NO_TIMESTAMP.includes(provider))
		cases.push({ name: 'stale', ...signed('stale', secret, { timestamp: staleTimestamp() }) });
	cases.push({ name: 'unsigned', body: bodyFor('unsigned'), headers: {} });
	cases.push({ name: 'wrong secret', ...signed('wrong_secret', OTHER_SIGNING_SECRETS[provider]) });
	if (CONTENT_TYPES[provider] === 'application/json') {
		const { body, headers } = signed('reserialized');
		const reserialized = JSON.stringify(JSON.parse(body), null, 2);
		cases.push({ name: 're-serialized body', body: reserialized, headers });
	}
	return cases;
}

/**
 * Runs the checks on a started n8n.
 * @param {{ check: (name: string, body: () => Promise<string | void>) => Promise<void>, base: string, cookie: string, sandbox: { calls: { path: string, body: string }[] }, seenOutput: string[] }} options
 */
async function checkWebhookSecurity({ check, base, cookie, sandbox, seenOutput: seen }) {
	/** @param {string} id */
	const executionCount = async (id) => (await executionsOf({ base, cookie }, id)).length;
	/** Calls at the sandbox's track/conversion that name `transactionId`. @param {string} transactionId */
	const callsFor = (transactionId) => callsNaming(sandbox, '/track/conversion', transactionId);

	for (const provider of PROVIDERS) {
		await check(`${scenario('e2e.rawBody')}: ${provider}`, async () => {
			const id = workflowId(provider);
			const url = paymentTriggerUrl(base, webhookId(provider));
			const prefix = `e2e_${provider}_${Date.now().toString(36)}`;
			const executionsBefore = await executionCount(id);
			const expectedAnswer = acceptedAnswer(provider);

			for (let i = 0; i < VALID_DELIVERIES; i++) {
				const transactionId = `${prefix}_valid_${i}`;
				const answer = await postSignedPurchase({ base, provider, transactionId, sandbox, seen });
				assert.equal(answer.status, 200, `valid delivery ${i}: ${answer.status} ${answer.text}`);
				if (expectedAnswer !== undefined)
					assert.equal(answer.text, expectedAnswer.body, `valid delivery ${i}'s answer`);
				assert.equal(answer.calls, 1, `valid delivery ${i} did not reach the sandbox once`);
			}
			let executions = 0;
			await waitUntil(
				async () => (executions = await executionCount(id)) - executionsBefore >= VALID_DELIVERIES,
				{
					timeoutMs: TIMEOUT_MS,
					intervalMs: 250,
					what: `${VALID_DELIVERIES} executions for ${VALID_DELIVERIES} valid deliveries`,
					detail: () => `${executions - executionsBefore} executions`,
				},
			);
			const accepted = executions - executionsBefore;
			assert.equal(
				accepted,
				VALID_DELIVERIES,
				`${accepted} executions for ${VALID_DELIVERIES} valid deliveries`,
			);

			const { cases: bad, transactionIds: badIds } = badDeliveries(provider, prefix);
			/** @type {Set<number>} */
			const statuses = new Set();
			for (const delivery of bad) {
				const { headers, body } = delivery;
				const answer = await post(url, CONTENT_TYPES[provider], headers, body, seen);
				assert.ok(
					answer.status === 401 || answer.status === 400,
					`${delivery.name}: ${answer.status} ${answer.text}`,
				);
				statuses.add(answer.status);
				const expected = refusalAnswer(provider, answer.status);
				assert.deepEqual(
					typeof expected === 'string' ? answer.text : JSON.parse(answer.text),
					expected,
					`${delivery.name}: the refusal's answer`,
				);
			}
			// A provider that completes the item from its API: that API failing answers 503.
			const failing = SIGNERS[provider].failingDelivery?.(`${prefix}_api_failing`);
			let apiFailure = '';
			if (failing) {
				badIds.push(`${prefix}_api_failing`);
				const answer = await post(
					url,
					CONTENT_TYPES[provider],
					failing.headers,
					failing.body,
					seen,
				);
				assert.equal(answer.status, 503, `${failing.name}: ${answer.status} ${answer.text}`);
				apiFailure = `; its API failing answered ${answer.status}`;
			}
			await sleep(SETTLE_MS);
			const badExecutions = (await executionCount(id)) - executionsBefore - accepted;
			const badCalls = badIds.reduce((sum, badId) => sum + callsFor(badId), 0);
			const answered = [...statuses].sort().reverse().join('/');
			const said =
				expectedAnswer === undefined ? '' : ` (answered ${JSON.stringify(expectedAnswer.body)})`;
			const line = `WEBHOOK ${provider}: valid ${VALID_DELIVERIES} accepted${said}, ${accepted} executions; bad ${bad.length} answered ${answered}${apiFailure}, ${badExecutions} executions, ${badCalls} calls`;
			console.log(line);
			assert.equal(badExecutions, 0, `${badExecutions} executions for bad deliveries`);
			assert.equal(badCalls, 0, `${badCalls} sandbox calls for bad deliveries`);
			return `${bad.map((delivery) => delivery.name).join(', ')} → ${answered}`;
		});
	}

	await check(scenario('e2e.emptySecret'), async () => {
		const transactionId = `e2e_empty_secret_${Date.now().toString(36)}`;
		const answer = await postStripeEvent({
			base,
			webhookPath: paymentTriggerPath(EMPTY_SECRET.webhookId),
			kind: 'purchase',
			fields: { transactionId, userId: BUYER },
			seen,
		});
		/** @type {Awaited<ReturnType<typeof executionsOf>>} */
		let listed = [];
		const executions = await waitUntil(
			async () => {
				listed = await executionsOf({ base, cookie }, EMPTY_SECRET.workflowId);
				return listed.length > 0 && listed.every((e) => e.status === 'error') ? listed : undefined;
			},
			{
				timeoutMs: TIMEOUT_MS,
				intervalMs: 250,
				what: 'only failed executions of the workflow with the empty secret',
				detail: () => `executions: ${JSON.stringify(listed)}`,
			},
		);
		const detail = await fetch(`${base}/rest/executions/${executions[0].id}`, {
			headers: { cookie },
		});
		const stored = await detail.text();
		const calls = callsFor(transactionId);
		console.log(
			`WEBHOOK stripe, empty secret: answered ${answer.status}, ${executions.length} execution(s) ${executions.map((e) => e.status).join(', ')}, ${calls} calls`,
		);
		assert.equal(answer.status, 500, JSON.stringify(answer.json));
		assert.equal(executions.length, 1, 'executions for one delivery');
		assert.ok(
			stored.includes(EMPTY_SECRET.reason),
			`the failed execution does not say "${EMPTY_SECRET.reason}"`,
		);
		assert.equal(calls, 0, 'sandbox calls');
		return `500 "${answer.json.message}"; execution ${executions[0].id} failed: ${EMPTY_SECRET.reason}`;
	});
}

module.exports = {
	acceptedAnswer,
	callsNaming,
	checkEachProviderOnce,
	eventsOfKind,
	executionsOf,
	postSigned,
	checkWebhookSecurity,
	providerWebhooks,
	providerWorkflows,
	postStripeEvent,
	webhookSecurityCredentials,
	webhookSecurityWebhooks,
	webhookSecurityWorkflows,
};
