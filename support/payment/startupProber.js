// @ts-check
'use strict';
/**
 * Probes a webhook while an n8n process stops and starts again: unsigned POSTs, one after another.
 * A running trigger refuses an unsigned body (401), a webhook not yet registered answers 404, a
 * stopped process refuses the connection and the front door answers 503, so any 2xx is n8n's
 * start-up answer (`200 n8n is starting up. Please wait`): a delivery a provider would count as
 * delivered, with nothing run. Probing changes nothing. Used by test:queue's restart rounds and
 * test:upgrade, straight to the process and through the front door (support/services/nginx.js).
 */
const { sleep } = require('../services/processes');

/** What n8n answers, with a 200, to every request while it starts (dist/abstract-server.js). */
const STARTUP_ANSWER = 'n8n is starting up. Please wait';
/** Pause between one probe's answer and the next probe. */
const PROBE_INTERVAL_MS = 2;

/**
 * @typedef {{ probes: number, refused: number, statuses: Map<number, number>, twoXx: number, windowMs: number, bodies: string[] }} ProbeCounts
 *   `refused`: no answer (connection refused or reset); `twoXx`: 2xx answers, each with no run;
 *   `windowMs`: from the first such probe sent to the last one answered; `bodies`: their texts
 */

/**
 * Starts probing `url` until `stop()`, which resolves with the counts.
 * @param {string} url
 */
function startProber(url) {
	let stopped = false;
	/** @type {ProbeCounts} */
	const counts = { probes: 0, refused: 0, statuses: new Map(), twoXx: 0, windowMs: 0, bodies: [] };
	let firstSentAt = 0;
	const loop = (async () => {
		while (!stopped) {
			const sentAt = Date.now();
			counts.probes++;
			try {
				const answer = await fetch(url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json' },
					body: '{"probe":true}',
					signal: AbortSignal.timeout(10_000),
				});
				const text = await answer.text();
				counts.statuses.set(answer.status, (counts.statuses.get(answer.status) ?? 0) + 1);
				if (answer.ok) {
					counts.twoXx++;
					firstSentAt ||= sentAt;
					counts.windowMs = Date.now() - firstSentAt;
					if (!counts.bodies.includes(text)) counts.bodies.push(text);
				}
			} catch {
				counts.refused++;
			}
			await sleep(PROBE_INTERVAL_MS);
		}
	})();
	return {
		/** @returns {Promise<ProbeCounts>} */
		async stop() {
			stopped = true;
			await loop;
			return counts;
		},
	};
}

/** `401 ×12, 503 ×840, refused ×3`. @param {ProbeCounts} counts */
function statusSummary({ statuses, refused }) {
	const parts = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status} ×${n}`);
	if (refused > 0) parts.push(`refused ×${refused}`);
	return parts.join(', ');
}

/**
 * Probes `directUrl` (the process itself) and `doorUrl` (the front door), and each of `otherDoors`
 * (another proxy in front of the same process, such as Caddy), while `during` runs, then prints
 * the STARTUP WINDOW line for `processName` (and `<processName> (<door>)` for each other door) and
 * fails when a front door answered a 2xx. Returns the counts.
 * @template T @param {string} processName
 * @param {{ directUrl: string, doorUrl: string, otherDoors?: { name: string, url: string }[] }} urls
 * @param {() => Promise<T>} during
 */
async function probeStartupWindow(processName, { directUrl, doorUrl, otherDoors = [] }, during) {
	const doors = [{ name: '', url: doorUrl }, ...otherDoors];
	const direct = startProber(directUrl);
	const probers = doors.map((door) => startProber(door.url));
	const stopAll = () => Promise.all([direct.stop(), ...probers.map((prober) => prober.stop())]);
	const result = await during().catch(async (/** @type {unknown} */ error) => {
		await stopAll();
		throw error;
	});
	const [directCounts, ...doorCounts] = await stopAll();
	doors.forEach((door, i) => {
		const counts = doorCounts[i];
		const name = door.name ? `${processName} (${door.name})` : processName;
		console.log(
			`STARTUP WINDOW ${name}: direct ${directCounts.twoXx} 2xx answers with no run in ${directCounts.windowMs} ms; through the front door ${counts.twoXx} (probes: direct ${directCounts.probes}, ${statusSummary(directCounts)}; front door ${counts.probes}, ${statusSummary(counts)})`,
		);
	});
	doors.forEach((door, i) => {
		if (doorCounts[i].twoXx > 0)
			throw new Error(
				`the front door${door.name ? ` (${door.name})` : ''} answered ${doorCounts[i].twoXx} probes of ${processName}'s start with a 2xx and no run: ${JSON.stringify(doorCounts[i].bodies.slice(0, 3))}`,
			);
	});
	return { result, direct: directCounts, door: doorCounts[0], otherDoors: doorCounts.slice(1) };
}

module.exports = { STARTUP_ANSWER, probeStartupWindow, startProber };
