// @ts-check
'use strict';
/**
 * The providers' emulated APIs (sandbox/providerApis) in a process of their own for
 * bench:reconcile, so that the heap it measures is the node's: the events are made and listed
 * there. Run by bench/reconcile.js through `fork`; answers its messages.
 */
const { fork } = require('node:child_process');

const { ProviderApis } = require('../sandbox');
const { encodeEvent, sampleEvent } = require('../support/payment/paymentSignatures');

/**
 * @typedef {'stripe' | 'paddle' | 'appStore'} Provider
 * @typedef {{ stripeSecretKey: string, paddleApiKey: string, appStore: { issuerId: string, keyId: string, bundleId: string, publicKeyPem: string } }} Keys
 * @typedef {{ command: 'record', provider: Provider, count: number } | { command: 'calls', provider: Provider }} Command
 * @typedef {Command & { id: number }} Request
 */

/**
 * `count` purchases of `provider`, one a second up to a minute ago, as its API lists them.
 * @param {ProviderApis} apis @param {Provider} provider @param {number} count
 */
function record(apis, provider, count) {
	apis.reset();
	const startMs = Date.now() - 60_000 - count * 1000;
	for (let i = 0; i < count; i++) {
		const atMs = startMs + i * 1000;
		const sortable = `${atMs}${String(i).padStart(6, '0')}`;
		const fields = {
			transactionId: `bench_${i}`,
			userId: `user_${i}`,
			amountMinor: 4990,
			eventId: `evt_${sortable}`,
			checkout: true,
		};
		const event = sampleEvent(provider, 'purchase', fields);
		if (provider === 'stripe')
			Object.assign(event, { id: `evt_${sortable}`, created: Math.floor(atMs / 1000) });
		if (provider === 'paddle')
			Object.assign(event, {
				event_id: `evt_${sortable}`,
				occurred_at: new Date(atMs).toISOString(),
			});
		if (provider !== 'appStore') {
			apis.record(provider, event);
			continue;
		}
		event.signedDate = atMs;
		const { signedPayload } = JSON.parse(encodeEvent(provider, event).body);
		apis.record(provider, { signedPayload, signedDate: atMs });
	}
}

/** In the child: serves the keys given, answers record and calls. */
async function serve() {
	/** @type {Keys} */
	const keys = JSON.parse(String(process.env.PROVIDER_API_KEYS));
	const apis = new ProviderApis(keys);
	await apis.start();
	process.on('message', (/** @type {Request} */ message) => {
		if (message.command === 'record') record(apis, message.provider, message.count);
		const answer = message.command === 'calls' ? apis.calls(message.provider) : null;
		process.send?.({ id: message.id, answer });
	});
	process.on('disconnect', () => void apis.stop().then(() => process.exit(0)));
	process.send?.({ id: 0, answer: apis.baseUrls });
}

/**
 * The emulations in a child process: their base URLs, and `record`, `calls` and `stop`.
 * @param {Keys} keys
 */
async function startProviderApis(keys) {
	const child = fork(__filename, ['--serve'], {
		env: { ...process.env, PROVIDER_API_KEYS: JSON.stringify(keys) },
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	/** @type {Map<number, (answer: any) => void>} */
	const waiting = new Map();
	child.on('message', (/** @type {{ id: number, answer: any }} */ { id, answer }) => {
		waiting.get(id)?.(answer);
		waiting.delete(id);
	});
	let next = 0;
	/** @param {number} id @returns {Promise<any>} */
	const answerTo = (id) => new Promise((resolve) => waiting.set(id, resolve));
	/** @param {Command} request */
	const ask = (request) => {
		const id = ++next;
		const answered = answerTo(id);
		child.send({ ...request, id });
		return answered;
	};
	/** @type {Record<Provider, string>} */
	const baseUrls = await answerTo(0);
	return {
		baseUrls,
		/** @param {Provider} provider @param {number} count */
		record: (provider, count) => ask({ command: 'record', provider, count }),
		/** @param {Provider} provider @returns {Promise<number>} */
		calls: (provider) => ask({ command: 'calls', provider }),
		stop: () => child.disconnect(),
	};
}

if (process.argv.includes('--serve')) void serve();

module.exports = { startProviderApis };
