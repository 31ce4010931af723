// @ts-check
'use strict';
/**
 * A payment provider delivering Stripe's refund and purchase webhooks as Stripe does: each attempt
 * signed anew with the demo secret, a fixed number in flight, each retried with exponential backoff
 * after a timeout or any answer but a 2xx, up to a number of attempts; forgeries sent once each.
 * Used by the queue-mode test and benchmark.
 */

const { sampleEvent, signDelivery, TEST_SIGNING_SECRETS } = require('./paymentSignatures');
const { mulberry32 } = require('../../sandbox');
const { sleep } = require('../services/processes');

/**
 * @typedef {'bad signature' | 'tampered' | 'stale' | 'unsigned'} Forgery how a forged delivery is made
 * @typedef {{ id: string, body: object, url?: string, forgery?: Forgery, transactionId?: string }} WebhookEvent an event, sent to its own `url` when it has one
 * @typedef {{ id: string, attempts: number, status: number | null, answer: unknown, latencyMs: number, failures: string[], forgery?: Forgery, withoutRun: boolean, lastAttempt: { startedAt: number, endedAt: number }, fallbackAfterSuccess?: boolean }} Delivery
 *   `withoutRun`: its 2xx carried no answer of the workflow's (n8n's start-up `200 n8n is starting
 *   up`): the provider counts it delivered, and nothing ran; `lastAttempt`: when the attempt that
 *   decided its outcome was sent and answered; `fallbackAfterSuccess`: its 2xx was n8n's own
 *   answer, and n8n's saved execution proves the run succeeded (e2e/queue/faultRounds.js,
 *   `creditProvenFallbacks`)
 */

/** The ways a forged delivery is made, in turn. @type {Forgery[]} */
const FORGERIES = ['bad signature', 'tampered', 'stale', 'unsigned'];

/**
 * What an attempt sends: the body as text, and Stripe's signature header made now with the
 * endpoint's secret; or, for a forged event, what an attacker without the secret sends.
 * @param {WebhookEvent} event @returns {{ body: string, headers: Record<string, string> }}
 */
function signedAttempt(event) {
	const body = JSON.stringify(event.body);
	const secret = TEST_SIGNING_SECRETS.stripe;
	/** @param {string} key @param {number} [timestamp] */
	const sign = (key, timestamp) => signDelivery('stripe', body, key, { timestamp });
	switch (event.forgery) {
		case undefined:
			return { body, headers: sign(secret) };
		case 'bad signature':
			return { body, headers: sign(`${secret}_guessed`) };
		case 'tampered': {
			// Signed once, then the amount changed on the way.
			const tampered = body.replace(/"amount":\d+/, '"amount":1');
			if (tampered === body) throw new Error(`event ${event.id} has no amount to tamper with`);
			return { body: tampered, headers: sign(secret) };
		}
		case 'stale':
			// A genuine delivery captured an hour ago and replayed.
			return { body, headers: sign(secret, Math.floor(Date.now() / 1000) - 3600) };
		case 'unsigned':
			return { body, headers: {} };
	}
}

/** Fisher–Yates with the seeded generator. @template T @param {T[]} items @param {() => number} random */
function shuffle(items, random) {
	const copy = [...items];
	for (let i = copy.length - 1; i > 0; i--) {
		const j = Math.floor(random() * (i + 1));
		[copy[i], copy[j]] = [copy[j], copy[i]];
	}
	return copy;
}

/**
 * A Stripe `charge.refunded` event for a purchase of 100.00: the whole amount refunded, or 40 %.
 * @param {string} transactionId @param {boolean} [partial]
 */
const refundEvent = (transactionId, partial = false) =>
	sampleEvent('stripe', 'refund', { transactionId, partial, eventId: `evt_${transactionId}` });

/**
 * A storm's events: a full refund of each of `refunds` purchases seeded in the sandbox for the
 * run, `repeats` of them delivered again, `notReferred` refunds of payments no promoter referred
 * (unknown to the service), `partial` partial refunds of other seeded purchases (to be ignored)
 * and `forged` forged refunds of purchases seeded for them (to be refused), in a seeded random
 * order.
 * @param {import('../../sandbox').Sandbox['instrumentation']} seeders @param {string} product
 * @param {{ refunds: number, repeats: number, notReferred: number, partial: number, forged?: number, prefix: string, seed?: number }} mix
 */
function planStorm(seeders, product, mix) {
	const { refunds, repeats, notReferred, partial, forged = 0, prefix, seed = 10 } = mix;
	const random = mulberry32(seed);
	const refundIds = seeders.addPurchases(product, refunds, `${prefix}_refund`);
	const partialIds = seeders.addPurchases(product, partial, `${prefix}_partial`);
	const notReferredIds = Array.from(
		{ length: notReferred },
		(_, i) => `${prefix}_not_referred_${i}`,
	);
	/** @param {string} id @param {boolean} [isPartial] @returns {WebhookEvent} */
	const refund = (id, isPartial) => ({ id: `evt_${id}`, body: refundEvent(id, isPartial) });
	const repeated = shuffle(refundIds, random).slice(0, repeats);
	const events = [...refundIds, ...repeated, ...notReferredIds].map((id) => refund(id));
	events.push(...partialIds.map((id) => refund(id, true)));
	// Each forgery would cancel commissions if it ran; each must get 401 and reach nothing.
	const forgedIds = seeders.addPurchases(product, forged, `${prefix}_forged`);
	/** @type {WebhookEvent[]} */
	const forgeries = forgedIds.map((id, i) => ({
		id: `evt_forged_${id}`,
		body: refundEvent(id),
		forgery: FORGERIES[i % FORGERIES.length],
		transactionId: id,
	}));
	const inOrder = shuffle([...events, ...forgeries], random);
	return { events: inOrder, refundIds, partialIds, notReferredIds, forgedIds };
}

/**
 * `count` refundable purchases seeded in the sandbox, each refunded in full once: a storm of
 * full refunds only.
 * @param {import('../../sandbox').Sandbox['instrumentation']} seeders @param {string} product
 * @param {number} count @param {string} prefix
 */
const planFullRefunds = (seeders, product, count, prefix) =>
	planStorm(seeders, product, { refunds: count, repeats: 0, notReferred: 0, partial: 0, prefix });

/** What each planned purchase pays (49.90), in the smallest unit. */
const PURCHASE_MINOR = 4990;

/**
 * A storm of purchase webhooks, each delivered twice, as at-least-once providers redeliver: for
 * each target (a webhook URL), `purchases` new users signed up in the sandbox, each paying once.
 * The first deliveries come in a seeded random order, then the second ones in the same order, so
 * that the two deliveries of one purchase are `purchases × targets` deliveries apart (never in
 * flight together unless a retry brings them together).
 * @param {import('../../sandbox').Sandbox['instrumentation']} seeders @param {string} product
 * @param {{ urls: string[], purchases: number, prefix: string, seed?: number }} plan
 */
function planDuplicatedPurchases(seeders, product, { urls, purchases, prefix, seed = 22 }) {
	const random = mulberry32(seed);
	const targets = urls.map((url, target) => {
		const users = seeders.addSignups(product, purchases, `${prefix}_${target}`);
		const transactionIds = users.map((_, i) => `${prefix}_${target}_txn_${i}`);
		// A Stripe checkout.session.completed of PURCHASE_MINOR, the user's ID in its metadata.
		/** @type {WebhookEvent[]} */
		const events = users.map((userId, i) => {
			const transactionId = transactionIds[i];
			const eventId = `evt_${transactionId}`;
			const fields = {
				transactionId,
				userId,
				amountMinor: PURCHASE_MINOR,
				eventId,
				checkout: true,
			};
			return { id: eventId, url, body: sampleEvent('stripe', 'purchase', fields) };
		});
		return { url, transactionIds, events };
	});
	const all = targets.flatMap((target) => target.events);
	const firsts = shuffle(all, random);
	return { events: [...firsts, ...firsts], targets };
}

/**
 * Whether a 2xx answer came from a workflow: the examples answer a JSON object (example (a) and
 * (h) with `received: true`, example (i) its claim's row). n8n's own answers are not: its start-up
 * answer is text, its fallbacks an empty body or an object holding only a `message` ("Workflow
 * executed successfully but the last node did not return any data").
 * @param {unknown} answer
 */
const isWorkflowAnswer = (answer) =>
	typeof answer === 'object' &&
	answer !== null &&
	!(Object.keys(answer).length === 1 && 'message' in answer);

/**
 * Delivers every event to `url` and resolves with each delivery's outcome. As a provider does, it
 * takes any 2xx as delivered and never sends that event again; `ranWorkflow` tells, from the
 * answer, whether the workflow ran (`withoutRun` otherwise).
 * @param {string} url @param {WebhookEvent[]} events
 * @param {{ inFlight?: number, maxAttempts?: number, timeoutMs?: number, firstRetryMs?: number, maxRetryMs?: number, ranWorkflow?: (answer: unknown) => boolean,
 *   onDelivered?: (done: number) => void, onAttempt?: (attempt: { startedAt: number, endedAt: number, ok: boolean }) => void,
 *   progress?: (line: string) => void }} [options]
 * @returns {Promise<{ deliveries: Delivery[], attempts: number, elapsedMs: number }>}
 */
async function deliverAll(url, events, options = {}) {
	const { inFlight = 20, maxAttempts = 8, timeoutMs = 30_000, onDelivered, onAttempt } = options;
	const { firstRetryMs = 1_000, maxRetryMs = 30_000, progress } = options;
	const { ranWorkflow = isWorkflowAnswer } = options;
	const started = Date.now();
	/** @type {Delivery[]} */
	const deliveries = [];
	let attempts = 0;
	let next = 0;
	let active = 0;
	const progressLine = () =>
		`  … ${Math.round((Date.now() - started) / 1000)} s: ${deliveries.length} of ${events.length} delivered, ${attempts} attempts, ${active} in flight`;
	const timer = progress && setInterval(() => progress(progressLine()), 10_000);

	/** @param {WebhookEvent} event @returns {Promise<Delivery>} */
	const deliver = async (event) => {
		const first = Date.now();
		/** @type {string[]} */
		const failures = [];
		/**
		 * @param {number} attempts @param {number | null} status @param {unknown} answer
		 * @param {number} startedAt when the last attempt was sent
		 * @returns {Delivery}
		 */
		const outcome = (attempts, status, answer, startedAt) => {
			const { id, forgery } = event;
			const endedAt = Date.now();
			const latencyMs = endedAt - first;
			const withoutRun = status !== null && status < 300 && !ranWorkflow(answer);
			const lastAttempt = { startedAt, endedAt };
			return {
				id,
				attempts,
				status,
				answer,
				latencyMs,
				failures,
				forgery,
				withoutRun,
				lastAttempt,
			};
		};
		for (let attempt = 1; ; attempt++) {
			attempts++;
			const startedAt = Date.now();
			try {
				const { body, headers } = signedAttempt(event);
				const response = await fetch(event.url ?? url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json', ...headers },
					body,
					signal: AbortSignal.timeout(timeoutMs),
				});
				const text = await response.text();
				onAttempt?.({ startedAt, endedAt: Date.now(), ok: response.ok });
				// An attacker sends a forgery once; whatever the answer, it is that delivery's outcome.
				if (response.ok || event.forgery)
					return outcome(attempt, response.status, parseJson(text), startedAt);
				failures.push(`HTTP ${response.status}: ${text.slice(0, 200)}`);
			} catch (error) {
				onAttempt?.({ startedAt, endedAt: Date.now(), ok: false });
				failures.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
			}
			if (attempt === maxAttempts || event.forgery) return outcome(attempt, null, null, startedAt);
			const backoff = Math.min(maxRetryMs, firstRetryMs * 2 ** (attempt - 1));
			await sleep(backoff * (0.5 + Math.random() / 2));
		}
	};

	// `inFlight` workers, each taking the next event once its last delivery is done.
	const worker = async () => {
		while (next < events.length) {
			active++;
			const delivery = await deliver(events[next++]);
			active--;
			deliveries.push(delivery);
			onDelivered?.(deliveries.length);
		}
	};
	await Promise.all(Array.from({ length: inFlight }, worker));
	if (timer) clearInterval(timer);
	return { deliveries, attempts, elapsedMs: Date.now() - started };
}

/** @param {string} text */
function parseJson(text) {
	try {
		return JSON.parse(text);
	} catch {
		return text;
	}
}

/**
 * The forged deliveries' outcomes: how many, how many got 401, and the forged refunds that reached
 * the sandbox (a refund call naming one, or a refund applied to one): must be none.
 * @param {Delivery[]} deliveries @param {string[]} forgedIds
 * @param {import('../../sandbox').Sandbox} sandbox
 */
function forgedOutcomes(deliveries, forgedIds, sandbox) {
	const forged = deliveries.filter((delivery) => delivery.forgery !== undefined);
	const refundCalls = sandbox.calls
		.filter((call) => call.path.endsWith('/track/refund'))
		.map((call) => call.body);
	const reached = forgedIds.filter(
		(id) =>
			refundCalls.some((body) => body.includes(`"${id}"`)) ||
			(sandbox.state.conversions.find((c) => c.transactionId === id)?.adjustments ?? 0) > 0,
	);
	const refused = forged.filter((delivery) => delivery.status === 401).length;
	return { sent: forged.length, refused, reached };
}

/**
 * `forged F answered 401, R reached the sandbox`; `forged F, A answered 401, …` when not all were.
 * @param {ReturnType<typeof forgedOutcomes>} forged
 */
function forgedSummary({ sent, refused, reached }) {
	const answered =
		refused === sent ? `forged ${sent} answered 401` : `forged ${sent}, ${refused} answered 401`;
	return `${answered}, ${reached.length} reached the sandbox`;
}

module.exports = {
	PURCHASE_MINOR,
	deliverAll,
	isWorkflowAnswer,
	forgedOutcomes,
	forgedSummary,
	planDuplicatedPurchases,
	planFullRefunds,
	planStorm,
};
