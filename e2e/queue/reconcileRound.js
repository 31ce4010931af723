// @ts-check
'use strict';
/**
 * The reconciliation round of `npm run test:queue` (example (k)): for Stripe, Paddle and the App
 * Store, purchases and refunds of which the webhooks deliver some to examples (i) and (j) and lose
 * the others (never sent, as when a provider gave up after n8n's start-up 200), while the
 * provider's own records (sandbox/providerApis: Stripe's events, Paddle's event stream, Apple's
 * notification history, each throttled with 429 first) keep them all. Then example (k), published
 * with a schedule, passes over them: every purchase tracked once, every refunded one reversed once,
 * none twice; the next pass changes nothing. Prints `RECONCILE <provider>: …`.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');

const {
	paymentTriggerOf,
	paymentTriggerUrl,
	paymentTriggerWebhook,
	publishableExample,
	readExample,
	setUpSqlOf,
} = require('../../support/n8n/n8nDemoData');
const {
	DEMO_SIGNING_CREDENTIALS,
	encodeEvent,
	nodeParametersOf,
	sampleEvent,
} = require('../../support/payment/paymentSignatures');
const { storedChains } = require('../../support/payment/appStoreChain');
const appStoreSamples = require('../../nodes/PaymentWebhookTrigger/providers/appStore/samples');
const { publishOverRest } = require('../../support/n8n/publishOverRest');
const { setUpOwner, loginBody } = require('../../support/n8n/n8nReleaseDifferences');
const { DEFAULT_N8N, signInToRest } = require('../../support/n8n/n8nInstance');
const { waitUntil } = require('../../support/services/processes');
const { PURCHASE_WORKFLOWS } = require('./purchaseRounds');
const { LEDGER_WORKFLOW } = require('./refundLedgerRounds');
const { callsNaming, eventsOfKind, postSigned } = require('../webhookSecurity');

/** @typedef {'stripe' | 'paddle' | 'appStore'} Provider */
/** The providers whose records example (k) reads. @type {Provider[]} */
const PROVIDERS = ['stripe', 'paddle', 'appStore'];
/** Purchases per provider; the plan below says which the webhooks deliver. */
const PURCHASES = 8;
/** What each purchase pays (25.90). */
const AMOUNT_MINOR = 2590;
/** Each copy of (k) runs every this many seconds once published. */
const PASS_EVERY_SECONDS = 10;
/** Between two planned events: the overlap (10 minutes) then spans a few of them. */
const EVENT_SPACING_MS = 3 * 60 * 1000;
/** (k)'s Overlap: a pass re-reads this much before where the last one stopped. */
const OVERLAP_MS = 10 * 60 * 1000;
/** Answers of 429 (Retry-After 1 s) each provider gives the first pass before its events. */
const THROTTLED = 2;
const RECONCILE_EXAMPLE = 'k-reconcile-payments-queue-mode.json';
/** The (k) set-up SQL: (i)'s and (j)'s tables and the cursor table. */
const RECONCILE_TABLE_SQL = setUpSqlOf(readExample(RECONCILE_EXAMPLE));

/**
 * Which of purchase n (1-based) and its refund the webhooks deliver: purchases 1-4 delivered, 5-8
 * lost; the even ones refunded in full, the refund of 2 and 6 delivered (6's before its purchase
 * is known anywhere), of 4 and 8 lost.
 * @param {number} n
 */
const planOf = (n) => ({
	purchaseDelivered: n <= PURCHASES / 2,
	refunded: n % 2 === 0,
	refundDelivered: n % 4 === 2,
});

/** The keys the providers' emulations accept and the credentials give n8n, made for this run. */
function reconcileKeys() {
	const apple = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
	return {
		stripeSecretKey: `sk_test_reconcile_${crypto.randomBytes(12).toString('hex')}`,
		paddleApiKey: `pdl_sdbx_apikey_${crypto.randomBytes(12).toString('hex')}`,
		appStore: {
			issuerId: crypto.randomUUID(),
			keyId: 'RECONCILE1',
			bundleId: appStoreSamples.bundleId,
			privateKeyPem: String(apple.privateKey.export({ type: 'pkcs8', format: 'pem' })),
			publicKeyPem: String(apple.publicKey.export({ type: 'spki', format: 'pem' })),
		},
	};
}

/** @typedef {ReturnType<typeof reconcileKeys>} ReconcileKeys */

/** The Payment Provider API credential (k)'s copy for each provider names. */
const CREDENTIAL_TYPE = 'paymentProviderApi';
/** @param {Provider} provider */
const credentialOf = (provider) => ({
	id: `${provider.slice(0, 6)}Reconcile1`,
	name: `${provider} (reconciliation)`,
});

/** The providers' API credentials, in `n8n import:credentials` form. @param {ReconcileKeys} keys */
function reconcileCredentials(keys) {
	/** @type {Record<Provider, Record<string, string>>} */
	const data = {
		stripe: { secretKey: keys.stripeSecretKey },
		paddle: { apiKey: keys.paddleApiKey, environment: 'sandbox' },
		appStore: {
			issuerId: keys.appStore.issuerId,
			keyId: keys.appStore.keyId,
			privateKey: keys.appStore.privateKeyPem,
			bundleId: keys.appStore.bundleId,
			// The test chain's root, which the trigger's demo credential trusts too (Sandbox only).
			rootCa: storedChains().trusted.rootPem,
		},
	};
	return PROVIDERS.map((provider) => ({
		...credentialOf(provider),
		type: CREDENTIAL_TYPE,
		data: { provider, ...data[provider] },
	}));
}

/** (k)'s copy for `provider`: its ID. @param {Provider} provider */
const reconcileIdOf = (provider) => `reconcile${provider.slice(0, 6)}01`;

/**
 * Example (k) for `provider`, reading its emulation at `baseUrl`, on a schedule of every
 * PASS_EVERY_SECONDS, unpublished (the round publishes it).
 * @param {Provider} provider @param {string} baseUrl
 */
function reconcileCopy(provider, baseUrl) {
	const workflow = readExample(RECONCILE_EXAMPLE);
	/** @param {string} name */
	const node = (name) => {
		const found = workflow.nodes.find((n) => n.name === name);
		assert.ok(found, `(k) has no node ${name}`);
		return found;
	};
	node('Every 30 minutes').parameters.rule = {
		interval: [{ field: 'seconds', secondsInterval: PASS_EVERY_SECONDS }],
	};
	const events = node('Provider events');
	events.parameters = {
		...events.parameters,
		provider,
		...(provider === 'appStore' ? { environment: appStoreSamples.environment } : {}),
		options: { apiBaseUrl: baseUrl },
	};
	events.credentials = { [CREDENTIAL_TYPE]: credentialOf(provider) };
	for (const name of ['Where the last run stopped', 'Save the cursor']) {
		const { options } = node(name).parameters;
		options.queryReplacement = options.queryReplacement.replace("'stripe'", `'${provider}'`);
	}
	workflow.name = `${workflow.name} (${provider})`;
	return { workflow, id: reconcileIdOf(provider), publish: false };
}

/**
 * Examples (i) and (j) with `provider` picked (Stripe's are the shipped ones test:queue publishes).
 * @param {Provider} provider
 */
function webhookCopies(provider) {
	return /** @type {const} */ ([
		['i-purchase-claim-queue-mode.json', 'purchase', PURCHASE_WORKFLOWS[0].id],
		['j-refund-ledger-queue-mode.json', 'refund', LEDGER_WORKFLOW.id],
	]).map(([file, kind, shippedId]) => {
		const shipped = publishableExample(file, shippedId);
		if (provider === 'stripe') return shipped;
		const { workflow } = shipped;
		const trigger = paymentTriggerOf(workflow);
		trigger.webhookId = `reconcile-${kind}-${provider.toLowerCase()}`;
		trigger.parameters = {
			...trigger.parameters,
			...nodeParametersOf(provider),
			provider,
			events: eventsOfKind(provider, kind),
		};
		trigger.credentials = { paymentWebhookSigningApi: DEMO_SIGNING_CREDENTIALS[provider] };
		workflow.name = `${workflow.name} (${provider})`;
		return {
			workflow,
			id: `reconcile${kind.slice(0, 3)}${provider.slice(0, 5)}1`,
			webhookId: trigger.webhookId,
		};
	});
}

/**
 * Everything the round imports: (k) per provider (unpublished), and (i) and (j) for Paddle and the
 * App Store (published, their webhooks served).
 * @param {Record<Provider, string>} baseUrls
 */
function reconcileWorkflows(baseUrls) {
	return [
		...PROVIDERS.map((provider) => reconcileCopy(provider, baseUrls[provider])),
		...PROVIDERS.filter((provider) => provider !== 'stripe').flatMap((provider) =>
			webhookCopies(provider).map(({ workflow, id, webhookId }) => ({
				workflow,
				id,
				webhook: paymentTriggerWebhook(webhookId),
			})),
		),
	];
}

/**
 * One provider's purchases and refunds as its webhooks carry them and its API lists them, oldest
 * first, each at its own time in the last hour.
 * @param {Provider} provider @param {string[]} customers @param {string} stamp
 */
function planEvents(provider, customers, stamp) {
	const startMs = Date.now() - 2 * 60 * 60 * 1000;
	let sequence = 0;
	/** The next event's time and a position that sorts as Paddle's IDs do. */
	const nextTime = () => {
		sequence++;
		const atMs = startMs + sequence * EVENT_SPACING_MS;
		return { atMs, sortable: `${atMs}${String(sequence).padStart(4, '0')}` };
	};
	// Apple's transaction IDs are digits; the others' carry their provider's prefix.
	const transactionIdOf = (/** @type {number} */ n) =>
		provider === 'appStore'
			? `2000${String(Date.now()).slice(-9)}${String(n).padStart(2, '0')}`
			: `${provider === 'stripe' ? 'pi' : 'txn'}_recon_${stamp}_${n}`;
	/** @type {{ n: number, kind: 'purchase' | 'refund', transactionId: string, delivered: boolean, atMs: number, sortable: string, event: Record<string, any> }[]} */
	const events = [];
	for (const [index, customer] of customers.entries()) {
		const n = index + 1;
		const plan = planOf(n);
		const transactionId = transactionIdOf(n);
		/**
		 * This purchase's next event: its time, and whether the webhooks deliver it.
		 * @param {'purchase' | 'refund'} kind @param {boolean} delivered
		 */
		const next = (kind, delivered) => ({ ...nextTime(), n, kind, transactionId, delivered });
		const purchase = next('purchase', plan.purchaseDelivered);
		const fields = {
			transactionId,
			userId: customer,
			amountMinor: AMOUNT_MINOR,
			eventId: `evt_${purchase.sortable}`,
			checkout: true,
		};
		events.push({ ...purchase, event: sampleEvent(provider, 'purchase', fields) });
		if (!plan.refunded) continue;
		const refund = next('refund', plan.refundDelivered);
		const refundFields = {
			...fields,
			eventId: `evt_${refund.sortable}`,
			refundedMinor: AMOUNT_MINOR,
			refundedTotalMinor: AMOUNT_MINOR,
			refundKey: `${transactionId}_full`,
			// Stripe's (j) counts refunds one by one (refund.created), as its Events say.
			perRefund: true,
		};
		events.push({ ...refund, event: sampleEvent(provider, 'refund', refundFields) });
	}
	for (const planned of events) stampTime(provider, planned);
	return events;
}

/**
 * The event's own time and ID, as the provider's API sorts it.
 * @param {Provider} provider @param {{ atMs: number, sortable: string, event: Record<string, any> }} planned
 */
function stampTime(provider, { atMs, sortable, event }) {
	if (provider === 'stripe') {
		event.id = `evt_${sortable}`;
		event.created = Math.floor(atMs / 1000);
	} else if (provider === 'paddle') {
		event.event_id = `evt_${sortable}`;
		event.occurred_at = new Date(atMs).toISOString();
	} else event.signedDate = atMs;
}

/**
 * What the emulation lists for an event: the event itself; Apple's signed payload and its date.
 * @param {Provider} provider @param {Record<string, any>} event
 */
function recordOf(provider, event) {
	if (provider !== 'appStore') return event;
	const { signedPayload } = JSON.parse(encodeEvent(provider, event).body);
	return { signedPayload, signedDate: event.signedDate };
}

/**
 * The executions of (k)'s copy for `provider` in PostgreSQL: `[id, status, startedAt ms, stoppedAt ms]`.
 * @param {{ postgres: { query: (sql: string) => string[] } }} queue @param {Provider} provider
 */
function passesOf(queue, provider) {
	return queue.postgres
		.query(
			`SELECT id, status, (extract(epoch FROM "startedAt") * 1000)::bigint, coalesce((extract(epoch FROM "stoppedAt") * 1000)::bigint, 0)
			 FROM execution_entity WHERE "workflowId" = '${reconcileIdOf(provider)}' ORDER BY id`,
		)
		.map((row) => {
			const [id, status, started, stopped] = row.split('\t');
			return { id, status, startedAt: Number(started), stoppedAt: Number(stopped) };
		});
}

/**
 * The error a stored execution ended with: n8n stores the run flattened (each object's values are
 * indexes into one array), so its node, message and description are followed from the root.
 * @param {string} data
 */
function storedError(data) {
	/** @type {unknown[]} */
	const flat = JSON.parse(data);
	/** @param {unknown} ref @returns {any} */
	const at = (ref) => (typeof ref === 'string' ? flat[Number(ref)] : undefined);
	const error = at(at(/** @type {any} */ (flat[0])?.resultData)?.error);
	if (error === undefined) return 'no error stored';
	return [at(at(error.node)?.name), at(error.message), at(error.description)]
		.filter((part) => typeof part === 'string')
		.join(': ');
}

/**
 * Waits for a pass of (k)'s copy for `provider` that started after `afterMs` and ended; fails
 * on one that did not succeed.
 * @param {Parameters<typeof passesOf>[0]} queue @param {Provider} provider @param {number} afterMs
 */
async function nextPass(queue, provider, afterMs) {
	/** @type {ReturnType<typeof passesOf>} */
	let passes = [];
	await waitUntil(
		() => {
			passes = passesOf(queue, provider).filter((pass) => pass.startedAt > afterMs);
			return passes.some((pass) => pass.stoppedAt > 0 && pass.status !== 'running');
		},
		{
			timeoutMs: 120_000,
			intervalMs: 500,
			what: `a pass of example (k) for ${provider} after ${new Date(afterMs).toISOString()}`,
			detail: () => JSON.stringify(passes),
		},
	);
	const pass = /** @type {ReturnType<typeof passesOf>[number]} */ (
		passes.find((candidate) => candidate.stoppedAt > 0 && candidate.status !== 'running')
	);
	if (pass.status !== 'success') {
		const [data = '[]'] = queue.postgres.query(
			`SELECT data FROM execution_data WHERE "executionId" = '${pass.id}'`,
		);
		assert.fail(`example (k)'s pass for ${provider} ended ${pass.status}: ${storedError(data)}`);
	}
	return pass;
}

/** @typedef {Awaited<ReturnType<typeof import('../../support/n8n/queueDeployment').startQueueDeployment>>} Deployment */

/**
 * The round: each provider's events recorded in its emulation, those the plan delivers sent signed
 * to (i) and (j), then (k) published for a pass and the next one, then unpublished.
 * @param {Deployment} queue @param {import('../../sandbox').Sandbox} sandbox
 * @param {import('../../sandbox').ProviderApis} apis @param {string} product @param {string[]} seen
 */
async function runReconcileRound(queue, sandbox, apis, product, seen) {
	queue.postgres.query(RECONCILE_TABLE_SQL);
	const stamp = Date.now().toString(36);
	const plans = PROVIDERS.map((provider) => {
		const customers = sandbox.instrumentation.addSignups(
			product,
			PURCHASES,
			`recon_${provider}_${stamp}`,
		);
		const events = planEvents(provider, customers, stamp);
		for (const { event } of events) apis.record(provider, recordOf(provider, event));
		return { provider, events };
	});
	const conversionsOf = (/** @type {string} */ id) =>
		sandbox.state.conversions.filter((c) => c.transactionId === id && c.eventName === 'purchase');
	/** Per transaction: purchases the service recorded, reversals it applied, Track and Refund calls. @param {string} id */
	const stateOf = (id) => ({
		tracked: conversionsOf(id).length,
		reversed: conversionsOf(id).reduce((sum, c) => sum + c.adjustments, 0),
		trackCalls: callsNaming(sandbox, '/track/conversion', id),
		refundCalls: callsNaming(sandbox, '/track/refund', id),
	});

	// The webhooks: what the plan delivers, in order, each answered 2xx by (i) or (j).
	for (const { provider, events } of plans) {
		const [claim, ledger] = webhookCopies(provider);
		for (const planned of events.filter((e) => e.delivered)) {
			const url = paymentTriggerUrl(
				queue.webhookBase,
				(planned.kind === 'purchase' ? claim : ledger).webhookId,
			);
			const answer = await postSigned(
				url,
				provider,
				encodeEvent(provider, planned.event).body,
				seen,
			);
			assert.equal(
				answer.status,
				200,
				`${provider} ${planned.kind} ${planned.transactionId}: ${answer.status} ${answer.text}`,
			);
		}
	}
	const ids = plans.flatMap(({ events }) => [...new Set(events.map((e) => e.transactionId))]);
	const before = Object.fromEntries(ids.map((id) => [id, stateOf(id)]));

	// The passes: (k) published, its schedule firing every PASS_EVERY_SECONDS.
	const base = `http://127.0.0.1:${queue.mainPort}`;
	const cookie = await signIn(base);
	for (const provider of PROVIDERS)
		apis.throttle(provider, { count: THROTTLED, retryAfterSeconds: 1 });
	const callsBefore = Object.fromEntries(
		PROVIDERS.map((provider) => [provider, apis.calls(provider)]),
	);
	const publishedAt = Date.now();
	await publishOverRest({ base, cookie }, PROVIDERS.map(reconcileIdOf));
	const lines = [];
	try {
		const first = await Promise.all(
			PROVIDERS.map((provider) => nextPass(queue, provider, publishedAt)),
		);
		const after = Object.fromEntries(ids.map((id) => [id, stateOf(id)]));
		// The next pass of each, started once the first had ended: it must change nothing.
		await Promise.all(
			PROVIDERS.map((provider, i) => nextPass(queue, provider, first[i].stoppedAt)),
		);
		const again = Object.fromEntries(ids.map((id) => [id, stateOf(id)]));
		for (const [index, { provider, events }] of plans.entries()) {
			const mine = [...new Set(events.map((e) => e.transactionId))];
			const refundedIds = new Set(
				events.filter((e) => e.kind === 'refund').map((e) => e.transactionId),
			);
			const madeGood = {
				purchases: mine.filter((id) => before[id].tracked === 0 && after[id].tracked === 1).length,
				refunds: mine.filter(
					(id) => refundedIds.has(id) && before[id].reversed === 0 && after[id].reversed === 1,
				).length,
			};
			const twice = mine.filter((id) => after[id].tracked > 1 || after[id].reversed > 1).length;
			const missed = mine.filter(
				(id) => after[id].tracked !== 1 || after[id].reversed !== (refundedIds.has(id) ? 1 : 0),
			);
			const alreadyDone = events.filter((e) => e.delivered).length;
			const changed = mine.filter((id) => JSON.stringify(again[id]) !== JSON.stringify(after[id]));
			const [saved] = queue.postgres.query(
				`SELECT cursor FROM affiliate_tracking.reconcile_cursors WHERE provider = '${provider}'`,
			);
			// The anchor a pass saves: the newest event at least the overlap older than the last.
			const last = events[events.length - 1];
			const anchor = [...events].reverse().find((e) => e.atMs <= last.atMs - OVERLAP_MS);
			// Stripe's events carry whole seconds.
			const anchorMs =
				provider === 'stripe' ? Math.floor(Number(anchor?.atMs) / 1000) * 1000 : anchor?.atMs;
			const savedAtAnchor = String(saved).split(':')[0] === String(anchorMs);
			const calls = apis.calls(provider) - callsBefore[provider];
			lines.push(
				`RECONCILE ${provider}: ${events.length} events read, ${madeGood.purchases} purchases and ${madeGood.refunds} refunds the webhooks missed made good, ${alreadyDone} already done, ${twice} twice (first pass ${first[index].stoppedAt - first[index].startedAt} ms; ${THROTTLED} answered 429 and waited out; ${calls} provider calls over two passes; the next pass changed ${changed.length}; cursor saved 10 minutes (the overlap) behind the last event: ${savedAtAnchor ? 'yes' : 'no'})`,
			);
			assert.deepEqual(
				missed,
				[],
				`${provider}: transactions not tracked once or not reversed once`,
			);
			assert.equal(twice, 0, `${provider}: tracked or reversed twice`);
			assert.deepEqual(changed, [], `${provider}: the second pass changed something`);
			assert.ok(
				savedAtAnchor,
				`${provider}: the cursor saved, ${saved}, is not at ${anchor?.atMs}`,
			);
		}
	} finally {
		for (const line of lines) console.log(line);
		for (const provider of PROVIDERS)
			await fetch(`${base}/rest/workflows/${reconcileIdOf(provider)}/deactivate`, {
				method: 'POST',
				headers: { cookie, 'Content-Type': 'application/json' },
				body: '{}',
			});
	}
	return `${PROVIDERS.length} providers: ${PROVIDERS.length * PURCHASES} purchases, the lost ones made good by example (k), none twice; a second pass changed nothing`;
}

/** Signs in to n8n's REST API as its owner (set up first). @param {string} base */
async function signIn(base) {
	await setUpOwner(base);
	return signInToRest(base, loginBody(DEFAULT_N8N));
}

module.exports = {
	RECONCILE_TABLE_SQL,
	reconcileCredentials,
	reconcileKeys,
	reconcileWorkflows,
	runReconcileRound,
};
