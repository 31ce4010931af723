// @ts-check
'use strict';
/**
 * `npm run bench:reconcile`: what a reconciliation pass costs. The Payment Provider Events node,
 * run through n8n-core's engine as example (k) runs it (Max Events 1,000 a run, each next run from
 * the last item's cursor, Overlap 10 minutes), reads a provider's emulated history
 * (sandbox/providerApis, in a process of its own: bench/providerApisProcess.js) of EVENTS_SMALL
 * and then EVENTS_LARGE events, one a second, until a run ends short of Max Events. Per provider and size: runs, items (the overlaps
 * read twice), provider calls, time, and the heap above the heap before the pass: the peak in a
 * run (sampled every 5 ms; the median over the pass's runs, a full GC between two, as between two
 * executions), and the most a run left behind after that GC. Ratio lines compare the two sizes round by round; memory is flat when its
 * ratios stay near 1 while time and calls grow with the events. Nothing is asserted: this machine
 * is shared.
 *
 * Environment: BENCH_EVENTS_SMALL (1000), BENCH_EVENTS_LARGE (10000), BENCH_ROUNDS (3),
 * BENCH_PROVIDERS (stripe,paddle,appStore).
 */
require('./engine');
const crypto = require('node:crypto');

const { runWorkflow } = require('../support/n8n/core/runWorkflow');
const { median, medianAndRange, ratioLine } = require('../support/statistics');
const { startProviderApis } = require('./providerApisProcess');
const { storedChains } = require('../support/payment/appStoreChain');
const appStoreSamples = require('../nodes/PaymentWebhookTrigger/providers/appStore/samples');
const { benchSettings } = require('./settings');

const { EVENTS_SMALL, EVENTS_LARGE, ROUNDS } = benchSettings('BENCH_', {
	EVENTS_SMALL: 1000,
	EVENTS_LARGE: 10000,
	ROUNDS: 3,
});
/** @typedef {'stripe' | 'paddle' | 'appStore'} Provider */
const PROVIDERS = /** @type {Provider[]} */ (
	(process.env.BENCH_PROVIDERS ?? 'stripe,paddle,appStore').split(',')
);
const MAX_EVENTS = 1000;
const NODE_TYPE = 'n8n-nodes-affiliate-tracking.paymentProviderEvents';

const apple = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const KEYS = {
	stripe: {
		provider: 'stripe',
		secretKey: `sk_test_bench_${crypto.randomBytes(8).toString('hex')}`,
	},
	paddle: {
		provider: 'paddle',
		apiKey: `pdl_sdbx_apikey_bench${crypto.randomBytes(8).toString('hex')}`,
		environment: 'sandbox',
	},
	appStore: {
		provider: 'appStore',
		issuerId: crypto.randomUUID(),
		keyId: 'BENCH00001',
		privateKey: String(apple.privateKey.export({ type: 'pkcs8', format: 'pem' })),
		bundleId: appStoreSamples.bundleId,
		rootCa: storedChains().trusted.rootPem,
	},
};

/** The emulations, in their own process (bench/providerApisProcess.js). @type {Awaited<ReturnType<typeof startProviderApis>>} */
let apis;

/**
 * Example (k)'s Provider events node alone, reading `provider` after `cursor`.
 * @param {Provider} provider @param {string} cursor
 * @returns {import('n8n-workflow').IWorkflowBase}
 */
function workflowOf(provider, cursor) {
	return /** @type {import('n8n-workflow').IWorkflowBase} */ (
		/** @type {unknown} */ ({
			name: 'bench: reconcile',
			nodes: [
				{
					id: 'events',
					name: 'Provider events',
					type: NODE_TYPE,
					typeVersion: 1,
					position: /** @type {[number, number]} */ ([0, 0]),
					parameters: {
						provider,
						cursor,
						firstRunDays: 3,
						overlapMinutes: 10,
						maxEvents: MAX_EVENTS,
						...(provider === 'appStore' ? { environment: appStoreSamples.environment } : {}),
						options: { apiBaseUrl: apis.baseUrls[provider] },
					},
					credentials: { paymentProviderApi: { id: provider, name: provider } },
				},
			],
			connections: {},
			settings: { executionOrder: 'v1' },
		})
	);
}

/** Runs from no cursor until one ends short of Max Events. @param {Provider} provider */
async function pass(provider) {
	const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);
	gc?.();
	const before = process.memoryUsage().heapUsed;
	/** The highest heap sampled in the run under way, and each run's. */
	let peak = before;
	/** @type {number[]} */
	const peaks = [];
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().heapUsed);
	}, 5);
	const callsBefore = await apis.calls(provider);
	const started = process.hrtime.bigint();
	let cursor = '';
	let runs = 0;
	let items = 0;
	let retained = before;
	for (let read = MAX_EVENTS; read === MAX_EVENTS; ) {
		const { output, error } = await runWorkflow(workflowOf(provider, cursor), {
			credentials: { [provider]: KEYS[provider] },
		});
		if (error) throw error;
		const page = output('Provider events');
		peaks.push(Math.max(peak, process.memoryUsage().heapUsed));
		// Between two runs, as between two executions of (k): what a run left behind, collected.
		gc?.();
		retained = Math.max(retained, process.memoryUsage().heapUsed);
		peak = retained;
		runs++;
		read = page.length;
		items += read;
		cursor = String(page.at(-1)?.json.cursor ?? cursor);
	}
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	clearInterval(sampler);
	const mb = (/** @type {number} */ bytes) => (bytes - before) / 1024 / 1024;
	return {
		runs,
		items,
		calls: (await apis.calls(provider)) - callsBefore,
		ms,
		peakMb: mb(median(peaks)),
		retainedMb: mb(retained),
	};
}

async function main() {
	apis = await startProviderApis({
		stripeSecretKey: KEYS.stripe.secretKey,
		paddleApiKey: KEYS.paddle.apiKey,
		appStore: {
			issuerId: KEYS.appStore.issuerId,
			keyId: KEYS.appStore.keyId,
			bundleId: KEYS.appStore.bundleId,
			publicKeyPem: String(apple.publicKey.export({ type: 'spki', format: 'pem' })),
		},
	});
	try {
		console.log(
			`bench:reconcile: Max Events ${MAX_EVENTS} a run, ${EVENTS_SMALL} and ${EVENTS_LARGE} events, ${ROUNDS} rounds, providers ${PROVIDERS.join(', ')}`,
		);
		for (const provider of PROVIDERS) {
			/** @type {Record<number, Awaited<ReturnType<typeof pass>>[]>} */
			const results = { [EVENTS_SMALL]: [], [EVENTS_LARGE]: [] };
			for (let round = 0; round < ROUNDS; round++)
				for (const size of [EVENTS_SMALL, EVENTS_LARGE]) {
					await apis.record(provider, size);
					results[size].push(await pass(provider));
				}
			for (const size of [EVENTS_SMALL, EVENTS_LARGE]) {
				const [first] = results[size];
				const of = (/** @type {'ms' | 'peakMb' | 'retainedMb'} */ key) =>
					medianAndRange(
						results[size].map((r) => r[key]),
						1,
					);
				console.log(
					`${provider} ${size} events: ${first.runs} runs, ${first.items} items, ${first.calls} provider calls; time ${of('ms')} ms; heap above the start: peak in a run ${of('peakMb')} MB, after a run ${of('retainedMb')} MB`,
				);
			}
			for (const [key, what] of /** @type {const} */ ([
				['ms', 'time'],
				['calls', 'provider calls'],
				['peakMb', 'peak heap in a run'],
				['retainedMb', 'heap after a run'],
			]))
				console.log(
					ratioLine(
						`${provider} ${what} ${EVENTS_LARGE}/${EVENTS_SMALL}`,
						results[EVENTS_LARGE].map((r) => r[key]),
						results[EVENTS_SMALL].map((r) => r[key]),
					),
				);
		}
	} finally {
		apis.stop();
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
