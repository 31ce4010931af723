// @ts-check
'use strict';
/**
 * bench:flood's report (bench/flood.js measures): the figures of every engine setting as the
 * Markdown tables bench/RESULTS.md holds, with the run's settings in their headings.
 */
const os = require('node:os');

const { N8N_VERSION } = require('../support/n8n/n8nInstance');
const {
	fmt,
	median,
	medianAndRange,
	ratioLine,
	roundRatios,
	rounds,
} = require('../support/statistics');

/**
 * @typedef {{ key: 'vm' | 'lazy' | 'legacy', label: string, env: Record<string, string> }} Engine
 * @typedef {import('./floodWorkflows').Receiver} Receiver
 * @typedef {{ FORGED: number, ROUNDS: number, IN_FLIGHT: number, ACCEPTED: number, VALID: number, VALID_PER_SECOND: number, GATE: number, RATE_LIMIT: { perSecond: number, burst: number }, VALID_IN_FLIGHT: number, WARM_UP: number, ATTACKER_ADDRESS: string, PROVIDER_ADDRESS: string }} ReportSettings
 */

/**
 * A flood's figures: forged deliveries sent, answered 429 (by nginx) and passed on (answered by
 * n8n), its seconds, the valid deliveries' latency and 2xx count, n8n's CPU in ms.
 * @typedef {{ forged: number, limited: number, passed: number, seconds: number, p50: number, p99: number, ok: number, valid: number, cpuMs: number }} Flood
 */

/**
 * One block's figures through a front door: latency p50 and p99 in ms, deliveries answered per
 * second, n8n's and nginx's CPU ms per delivery.
 * @typedef {{ p50: number, p99: number, perSecond: number, cpuMs: number, nginxCpuMs: number }} DoorBlock
 * @typedef {'gated' | 'ungated'} Door
 * @typedef {Record<Door, Record<'forged' | 'accepted', DoorBlock[]>>} GateCost one block per round
 */

/**
 * @typedef {{ engine: Engine, forged: Record<string, number[]>, accepted: Record<string, number[]>, flood: Flood, gate: GateCost, nginxAlone: { sent: number, limited: number, cpuMs: number }, nginxFlood: Flood }} EngineResult
 *   forged and accepted: CPU ms per delivery, one value per round, by receiver key
 */

/** The figures of a DoorBlock, as printed: name, key, decimals. */
const DOOR_FIGURES = /** @type {const} */ ([
	['latency p50 ms', 'p50', 1],
	['latency p99 ms', 'p99', 1],
	['deliveries/s', 'perSecond', 0],
	['n8n CPU ms per delivery', 'cpuMs', 2],
	['nginx CPU ms per delivery', 'nginxCpuMs', 3],
]);

/**
 * The report's lines.
 * @param {EngineResult[]} results @param {Receiver[]} receivers @param {ReportSettings} settings
 * @returns {string[]}
 */
function floodReport(results, receivers, settings) {
	const { FORGED, ROUNDS, IN_FLIGHT, ACCEPTED, VALID, VALID_PER_SECOND, GATE, RATE_LIMIT } =
		settings;
	const { VALID_IN_FLIGHT, WARM_UP, ATTACKER_ADDRESS, PROVIDER_ADDRESS } = settings;
	const perRound = (/** @type {number[]} */ values) => medianAndRange(values, 2);
	const lines = [
		`\n## A flood of forged deliveries (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}; n8n ${N8N_VERSION}, regular mode, SQLite; ${FORGED} forged and ${ACCEPTED} accepted deliveries per receiver and engine in ${rounds(ROUNDS)}, ${IN_FLIGHT} in flight, after a ${WARM_UP}-delivery warm-up of each)\n`,
		'CPU ms of n8n (main + task runner) per refused delivery, median (range) of the rounds:\n',
		`| receiver | refusal | ${results.map((r) => r.engine.label).join(' | ')} |`,
		`|---|---:|${results.map(() => '---:').join('|')}|`,
		...receivers.map(
			(receiver) =>
				`| ${receiver.name} | ${receiver.refusal} | ${results.map((r) => perRound(r.forged[receiver.key])).join(' | ')} |`,
		),
		'\nCPU ms of n8n per accepted delivery (the same NoOp workflow behind each), median (range):\n',
		`| receiver | ${results.map((r) => r.engine.label).join(' | ')} |`,
		`|---|${results.map(() => '---:').join('|')}|`,
		...receivers
			.filter((receiver) => receiver.valid)
			.map(
				(receiver) =>
					`| ${receiver.name} | ${results.map((r) => perRound(r.accepted[receiver.key])).join(' | ')} |`,
			),
		'',
	];
	const lazy = results.find((r) => r.engine.key === 'lazy');
	if (lazy) {
		const ratios = lazy.forged.trigger2.map((x, i) => x / lazy.forged.webhook[i]);
		lines.push(
			`${ratioLine('Payment Webhook Trigger v2 refusal / Webhook node refusal, vm + lazy acquire:', lazy.forged.trigger2, lazy.forged.webhook)}; by round ${ratios.map((r) => fmt(r, 2)).join(', ')}`,
			`Payment Webhook Trigger v1 refusal / Webhook node refusal, vm + lazy acquire: median ${fmt(median(lazy.forged.trigger1.map((x, i) => x / lazy.forged.webhook[i])), 2)}`,
			'',
		);
	}
	lines.push(
		`The flood with valid deliveries: forged deliveries to the Payment Webhook Trigger v2 at ${IN_FLIGHT} in flight until the last of ${VALID} valid ones to the same trigger (sent at ${VALID_PER_SECOND}/s, at most ${VALID_IN_FLIGHT} in flight) is answered; n8n's CPU includes the valid deliveries' executions.\n`,
		'| engine | forged sent (all 401) | seconds | valid p50 ms | valid p99 ms | valid 2xx | n8n CPU s |',
		'|---|---:|---:|---:|---:|---:|---:|',
		...results.map(
			({ engine, flood }) =>
				`| ${engine.label} | ${flood.forged} | ${fmt(flood.seconds, 1)} | ${fmt(flood.p50)} | ${fmt(flood.p99)} | ${flood.ok} of ${flood.valid} | ${fmt(flood.cpuMs / 1000, 1)} |`,
		),
		'',
		`What the front door's gate costs (auth_request on n8n's /healthz/readiness, a subrequest per delivery): ${GATE} forged and ${GATE} accepted deliveries to the Payment Webhook Trigger v2 through the gated front door and as many through the same configuration without the gate, in front of the same n8n, in ${rounds(ROUNDS)}, ${IN_FLIGHT} in flight; median (range) of the rounds, and of the ratios gated / ungated taken round by round. Deliveries/s to the last answer; CPU per delivery until n8n is quiet again; nginx's from /proc/<pid>/task/*/schedstat.\n`,
		`| engine | deliveries | front door | ${DOOR_FIGURES.map(([label]) => label).join(' | ')} |`,
		`|---|---|---|${DOOR_FIGURES.map(() => '---:').join('|')}|`,
		...results.flatMap(({ engine, gate }) =>
			/** @type {const} */ (['accepted', 'forged']).flatMap((kind) => {
				const of = (/** @type {Door} */ door, /** @type {keyof DoorBlock} */ key) =>
					gate[door][kind].map((b) => b[key]);
				const row = (/** @type {string} */ door, /** @type {string[]} */ cells) =>
					`| ${engine.label} | ${kind} | ${door} | ${cells.join(' | ')} |`;
				return [
					.../** @type {Door[]} */ (['gated', 'ungated']).map((door) =>
						row(
							door,
							DOOR_FIGURES.map(([, key, digits]) => medianAndRange(of(door, key), digits)),
						),
					),
					row(
						'**gated / ungated**',
						DOOR_FIGURES.map(([, key]) => roundRatios(of('gated', key), of('ungated', key))),
					),
				];
			}),
		),
		'',
		`Through the gated front door with limit_req (${RATE_LIMIT.perSecond} r/s, burst ${RATE_LIMIT.burst}, per client address; a request answered 429 is not passed on and asks no readiness), the forged deliveries from ${ATTACKER_ADDRESS}, the valid ones from ${PROVIDER_ADDRESS}: first ${FORGED} forged deliveries alone, then the flood with valid deliveries as above. Forged deliveries nginx passed on were answered 401 by n8n.\n`,
		'| engine | alone: answered 429 by nginx | passed to n8n | n8n CPU ms per forged sent | with valid: forged sent | answered 429 | passed to n8n | valid p50 ms | valid p99 ms | valid 2xx | n8n CPU ms per forged sent |',
		'|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
		...results.map(
			({ engine, nginxAlone: alone, nginxFlood: flood }) =>
				`| ${engine.label} | ${alone.limited} | ${alone.sent - alone.limited} | ${fmt(alone.cpuMs / alone.sent, 2)} | ${flood.forged} | ${flood.limited} | ${flood.passed} | ${fmt(flood.p50)} | ${fmt(flood.p99)} | ${flood.ok} of ${flood.valid} | ${fmt(flood.cpuMs / flood.forged, 2)} |`,
		),
	);
	return lines;
}

module.exports = { DOOR_FIGURES, floodReport };
