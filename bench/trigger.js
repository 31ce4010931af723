// @ts-check
'use strict';
/**
 * `npm run bench:trigger`: how long the Affiliate Tracking Trigger takes to poll a long watch
 * list, through n8n-core's PollContext against the sandbox (in this process, with its own latency
 * per request), at Concurrency 5 (the default) and 20.
 *
 * After one untimed warm-up poll, BENCH_ROUNDS rounds run, each with both concurrencies in turn
 * (round 1: 5, 20; round 2: 5, 20; …), and each concurrency's round is three polls from a fresh
 * state: the first poll (records every promoter), a poll with no change, and a poll after
 * 10 promoters changed. The table gives each poll's medians over the rounds (time and CPU per
 * promoter with their min–max); the ratio lines compare 5 with 20 round by round (the time at 5
 * of round i over the time at 20 of round i) and print the median and min–max of those ratios:
 * `poll time 5/20 (no change) median 2.89 (2.61–3.04), 5 rounds each`. The CPU column includes
 * the sandbox's own work (same process). Nothing is asserted: this machine is shared.
 *
 * Environment: BENCH_PROMOTERS (default 1000), BENCH_LATENCY_MS (default 20), BENCH_ROUNDS
 * (default 5).
 */
require('./engine');

const { pollTrigger } = require('../support/n8n/core/pollTrigger');
const { fmt, median, medianAndRange, ratioLine, rounds } = require('../support/statistics');
const { Sandbox, KEYS, PRODUCTS } = require('../sandbox');
const { benchSettings } = require('./settings');

const { PROMOTERS, LATENCY_MS, ROUNDS } = benchSettings('BENCH_', {
	PROMOTERS: 1000,
	LATENCY_MS: 20,
	ROUNDS: 5,
});
const API_KEY = 'pk_test_videomax_v2';
const CHANGED = 10;
const CONCURRENCIES = [5, 20];
const POLLS = ['first poll (records)', 'no change', `${CHANGED} promoters changed`];

async function main() {
	const began = performance.now();
	const sandbox = new Sandbox({ latencyMs: LATENCY_MS });
	await sandbox.start();
	const userIds = sandbox.instrumentation.addPromoters(PRODUCTS.videomax, PROMOTERS, 'watched');
	const credentials = {
		'videomax-v2': {
			baseUrl: sandbox.url,
			apiKey: API_KEY,
			apiSecret: KEYS[API_KEY].secret,
			signatureVersion: 'v2',
		},
	};
	/** @param {number} concurrency @param {import('n8n-workflow').IDataObject | undefined} staticData */
	const poll = (concurrency, staticData) =>
		pollTrigger(
			{
				event: 'promoterResultsChanged',
				userIds,
				options: { concurrency, maxPromoters: PROMOTERS },
			},
			{ credentials, mode: 'trigger', staticData },
		);
	/** @type {Record<string, any[]>} by `${concurrency} ${poll}`: one measurement per round */
	const results = {};
	try {
		// Warm-up, not measured: the first poll pays for loading the package and for the JIT.
		const warmUp = await poll(20, undefined);
		if (warmUp.thrown) throw warmUp.thrown;
		for (let r = 1; r <= ROUNDS; r++) {
			const progress = [];
			for (const concurrency of CONCURRENCIES) {
				const times = [];
				/** @type {import('n8n-workflow').IDataObject | undefined} */
				let staticData;
				for (const name of POLLS) {
					for (const userId of name.endsWith('changed') ? userIds.slice(0, CHANGED) : [])
						sandbox.instrumentation.addActivity(PRODUCTS.videomax, userId, { clicks: 1 });
					const requestsBefore = sandbox.requestCount;
					const started = performance.now();
					const cpuStart = process.cpuUsage();
					const result = await poll(concurrency, staticData);
					const elapsedS = (performance.now() - started) / 1000;
					const cpu = process.cpuUsage(cpuStart);
					if (result.thrown) throw result.thrown;
					staticData = result.staticData;
					(results[`${concurrency} ${name}`] ??= []).push({
						elapsedS,
						requests: sandbox.requestCount - requestsBefore,
						items: result.items?.length ?? 0,
						errors: result.reportedErrors.length,
						cpuPerPromoterMs: (cpu.user + cpu.system) / 1000 / PROMOTERS,
						staticKiB: JSON.stringify(staticData).length / 1024,
					});
					times.push(elapsedS.toFixed(1));
				}
				progress.push(`concurrency ${concurrency}: ${times.join(' / ')} s`);
			}
			console.error(
				`[bench:trigger] round ${r}/${ROUNDS}: ${progress.join(', ')} (${fmt((performance.now() - began) / 1000)} s)`,
			);
		}
	} finally {
		await sandbox.stop();
	}
	console.log(
		`\n## Trigger: one poll of ${fmt(PROMOTERS)} watched promoters (Node ${process.version}; sandbox latency ${LATENCY_MS} ms, in this process; ${rounds(ROUNDS)}, concurrencies ${CONCURRENCIES.join(' and ')} interleaved, after a warm-up poll)\n`,
	);
	console.log(
		`Medians of ${rounds(ROUNDS)}, with min–max for time and CPU per promoter; requests and items are per poll (median), errors reported the total over all rounds.\n`,
	);
	console.log(
		'| promoters | concurrency | poll | time | requests | items | errors reported | CPU per promoter | static data |',
	);
	console.log('|---:|---:|---|---:|---:|---:|---:|---:|---:|');
	/** A figure of each round of a poll. @param {number} concurrency @param {string} name @param {string} key @returns {number[]} */
	const of = (concurrency, name, key) => results[`${concurrency} ${name}`].map((m) => m[key]);
	for (const concurrency of CONCURRENCIES) {
		for (const name of POLLS) {
			/** @param {string} key */
			const figure = (key) => of(concurrency, name, key);
			console.log(
				`| ${fmt(PROMOTERS)} | ${concurrency} | ${name} | ${medianAndRange(figure('elapsedS'), 1)} s | ${median(figure('requests'))} | ${median(figure('items'))} | ${figure('errors').reduce((total, n) => total + n, 0)} | ${medianAndRange(figure('cpuPerPromoterMs'), 2)} ms | ${fmt(median(figure('staticKiB')))} KiB |`,
			);
		}
	}
	console.log('\nConcurrency 5 against 20, round by round (time at 5 over time at 20):');
	const [low, high] = CONCURRENCIES;
	for (const name of POLLS) {
		const [lows, highs] = [low, high].map((concurrency) => of(concurrency, name, 'elapsedS'));
		console.log(ratioLine(`poll time ${low}/${high} (${name})`, lows, highs));
	}
	/** CPU per promoter of the three polls, round by round. @param {number} concurrency */
	const cpuOfRound = (concurrency) =>
		of(concurrency, POLLS[0], 'cpuPerPromoterMs').map((_, i) =>
			POLLS.reduce((total, name) => total + of(concurrency, name, 'cpuPerPromoterMs')[i], 0),
		);
	console.log(
		ratioLine(`CPU per promoter ${low}/${high} (three polls)`, cpuOfRound(low), cpuOfRound(high)),
	);
	console.log(`\nBench time: ${fmt((performance.now() - began) / 60000, 1)} min.`);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
