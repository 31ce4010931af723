// @ts-check
'use strict';
/**
 * A payment provider delivering refund and purchase webhooks, as providers do: a fixed number of deliveries in
 * flight, each retried with exponential backoff after any answer but a 2xx or after a timeout, up
 * to a number of attempts. Used by the queue-mode test and benchmark.
 */

const { mulberry32 } = require('../sandbox/server');

/**
 * @typedef {{ id: string, body: object, url?: string }} WebhookEvent an event, sent to its own `url` when it has one
 * @typedef {{ id: string, attempts: number, status: number | null, answer: unknown, latencyMs: number, failures: string[] }} Delivery
 */

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
 * A refund event in the shape example (a) maps (Stripe-like: a full refund refunds the whole amount).
 * @param {string} transactionId @param {{ partial?: boolean }} [options]
 */
function refundEvent(transactionId, { partial = false } = {}) {
	return {
		event: 'payment.refunded',
		payment: {
			transaction_id: transactionId,
			refund_reason: 'requested_by_customer',
			amount: '100.00',
			amount_refunded: partial ? '40.00' : '100.00',
			currency: 'USD',
		},
	};
}

/**
 * A storm's events: a full refund of each of `refunds` purchases seeded in the sandbox for the
 * run, `repeats` of them delivered again, `notReferred` refunds of payments no promoter referred
 * (unknown to the service) and `partial` partial refunds of other seeded purchases (to be
 * ignored), in a seeded random order.
 * @param {import('../sandbox/state').SandboxState} state @param {string} product
 * @param {{ refunds: number, repeats: number, notReferred: number, partial: number, prefix: string, seed?: number }} mix
 */
function planStorm(state, product, { refunds, repeats, notReferred, partial, prefix, seed = 10 }) {
	const random = mulberry32(seed);
	const refundIds = state.addPurchases(product, refunds, `${prefix}_refund`);
	const partialIds = state.addPurchases(product, partial, `${prefix}_partial`);
	const notReferredIds = Array.from(
		{ length: notReferred },
		(_, i) => `${prefix}_not_referred_${i}`,
	);
	/** @type {WebhookEvent[]} */
	const events = [
		...refundIds.map((id) => ({ id: `evt_${id}`, body: refundEvent(id) })),
		...shuffle(refundIds, random)
			.slice(0, repeats)
			.map((id) => ({ id: `evt_${id}`, body: refundEvent(id) })),
		...notReferredIds.map((id) => ({ id: `evt_${id}`, body: refundEvent(id) })),
		...partialIds.map((id) => ({ id: `evt_${id}`, body: refundEvent(id, { partial: true }) })),
	];
	return { events: shuffle(events, random), refundIds, partialIds, notReferredIds };
}

/**
 * A purchase event (Stripe-like: a payment that succeeded), for a user signed up in the sandbox.
 * @param {string} transactionId @param {string} customerId
 */
function purchaseEvent(transactionId, customerId) {
	return {
		event: 'payment.succeeded',
		payment: {
			transaction_id: transactionId,
			customer_id: customerId,
			amount: 49.9,
			currency: 'USD',
		},
	};
}

/**
 * A storm of purchase webhooks, each delivered twice, as at-least-once providers redeliver: for
 * each target (a webhook URL), `purchases` new users signed up in the sandbox, each paying once.
 * The first deliveries come in a seeded random order, then the second ones in the same order, so
 * that the two deliveries of one purchase are `purchases × targets` deliveries apart (never in
 * flight together unless a retry brings them together).
 * @param {import('../sandbox/state').SandboxState} state @param {string} product
 * @param {{ urls: string[], purchases: number, prefix: string, seed?: number }} plan
 */
function planDuplicatedPurchases(state, product, { urls, purchases, prefix, seed = 22 }) {
	const random = mulberry32(seed);
	const targets = urls.map((url, target) => {
		const users = state.addSignups(product, purchases, `${prefix}_${target}`);
		const transactionIds = users.map((_, i) => `${prefix}_${target}_txn_${i}`);
		/** @type {WebhookEvent[]} */
		const events = users.map((user, i) => ({
			id: `evt_${transactionIds[i]}`,
			url,
			body: purchaseEvent(transactionIds[i], user),
		}));
		return { url, transactionIds, events };
	});
	const firsts = shuffle(
		targets.flatMap((target) => target.events),
		random,
	);
	return { events: [...firsts, ...firsts], targets };
}

/**
 * Delivers every event to `url` and resolves with each delivery's outcome.
 * @param {string} url @param {WebhookEvent[]} events
 * @param {{ inFlight?: number, maxAttempts?: number, timeoutMs?: number, firstRetryMs?: number, maxRetryMs?: number,
 *   onDelivered?: (done: number) => void, onAttempt?: (attempt: { startedAt: number, endedAt: number, ok: boolean }) => void,
 *   progress?: (line: string) => void }} [options]
 * @returns {Promise<{ deliveries: Delivery[], attempts: number, elapsedMs: number }>}
 */
async function deliverAll(url, events, options = {}) {
	const {
		inFlight = 20,
		maxAttempts = 8,
		timeoutMs = 30_000,
		firstRetryMs = 1_000,
		maxRetryMs = 30_000,
		onDelivered,
		onAttempt,
		progress,
	} = options;
	const started = Date.now();
	/** @type {Delivery[]} */
	const deliveries = [];
	let attempts = 0;
	let next = 0;
	let active = 0;
	const timer = progress
		? setInterval(
				() =>
					progress(
						`  … ${Math.round((Date.now() - started) / 1000)} s: ${deliveries.length} of ${events.length} delivered, ${attempts} attempts, ${active} in flight`,
					),
				10_000,
			)
		: undefined;

	/** @param {WebhookEvent} event @returns {Promise<Delivery>} */
	const deliver = async (event) => {
		const first = Date.now();
		/** @type {string[]} */
		const failures = [];
		for (let attempt = 1; ; attempt++) {
			attempts++;
			const startedAt = Date.now();
			try {
				const response = await fetch(event.url ?? url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json', 'Idempotency-Key': event.id },
					body: JSON.stringify(event.body),
					signal: AbortSignal.timeout(timeoutMs),
				});
				const text = await response.text();
				onAttempt?.({ startedAt, endedAt: Date.now(), ok: response.ok });
				if (response.ok) {
					return {
						id: event.id,
						attempts: attempt,
						status: response.status,
						answer: parseJson(text),
						latencyMs: Date.now() - first,
						failures,
					};
				}
				failures.push(`HTTP ${response.status}: ${text.slice(0, 200)}`);
			} catch (error) {
				onAttempt?.({ startedAt, endedAt: Date.now(), ok: false });
				failures.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
			}
			if (attempt === maxAttempts)
				return {
					id: event.id,
					attempts: attempt,
					status: null,
					answer: null,
					latencyMs: Date.now() - first,
					failures,
				};
			const backoff = Math.min(maxRetryMs, firstRetryMs * 2 ** (attempt - 1));
			await new Promise((resolve) => setTimeout(resolve, backoff * (0.5 + Math.random() / 2)));
		}
	};

	await new Promise((resolve) => {
		const startNext = () => {
			while (active < inFlight && next < events.length) {
				const event = events[next++];
				active++;
				void deliver(event).then((delivery) => {
					active--;
					deliveries.push(delivery);
					onDelivered?.(deliveries.length);
					if (deliveries.length === events.length) resolve(undefined);
					else startNext();
				});
			}
		};
		if (events.length === 0) resolve(undefined);
		else startNext();
	});
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

/** The p-th percentile (0–100) of a list of numbers. @param {number[]} values @param {number} p */
function percentile(values, p) {
	if (values.length === 0) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

module.exports = { deliverAll, percentile, planDuplicatedPurchases, planStorm };
