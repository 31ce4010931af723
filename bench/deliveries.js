// @ts-check
'use strict';
/**
 * The benchmarks' webhook deliveries over HTTP: one POST, a batch with a number in flight, a paced
 * series, and the checks on their answers' statuses.
 */
const http = require('node:http');

const { sleep } = require('../support/services/processes');

/**
 * @typedef {{ body: string, headers: Record<string, string> }} Delivery
 * @typedef {{ status: number, ms: number }} Answer
 */

/**
 * POSTs one delivery through `agent` and resolves with the status and the time to the answer's end.
 * A failed request resolves with status 0.
 * @param {http.Agent} agent @param {string} url @param {Delivery} delivery @returns {Promise<Answer>}
 */
function post(agent, url, { body, headers }) {
	return new Promise((resolve) => {
		const started = performance.now();
		const request = http.request(
			url,
			{
				method: 'POST',
				agent,
				headers: {
					'Content-Type': 'application/json',
					'Content-Length': String(Buffer.byteLength(body)),
					...headers,
				},
			},
			(response) => {
				response.resume();
				response.once('end', () =>
					resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
				);
				response.once('error', () => resolve({ status: 0, ms: performance.now() - started }));
			},
		);
		request.setTimeout(120_000, () => request.destroy(new Error('timeout')));
		request.once('error', () => resolve({ status: 0, ms: performance.now() - started }));
		request.end(body);
	});
}

/**
 * Sends deliveries with `inFlight` at once: `deliveries` made beforehand, or, while `more()` says
 * so, deliveries made by `make`. Resolves with every answer.
 * @param {http.Agent} agent @param {string} url @param {number} inFlight
 * @param {{ deliveries: Delivery[] } | { make: () => Delivery, more: (sent: number) => boolean }} source
 */
async function send(agent, url, inFlight, source) {
	/** @type {Answer[]} */
	const answers = [];
	let sent = 0;
	const next = () => {
		if ('deliveries' in source)
			return sent < source.deliveries.length ? source.deliveries[sent++] : null;
		if (!source.more(sent)) return null;
		sent++;
		return source.make();
	};
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			for (let delivery = next(); delivery; delivery = next())
				answers.push(await post(agent, url, delivery));
		}),
	);
	return answers;
}

/**
 * The provider's deliveries: `count` made by `make`, the i-th sent at i / perSecond seconds (or
 * later, with `inFlight` at most at once). Resolves with every answer.
 * @param {http.Agent} agent @param {string} url @param {number} count @param {() => Delivery} make
 * @param {{ perSecond: number, inFlight: number }} pace
 */
async function sendPaced(agent, url, count, make, { perSecond, inFlight }) {
	const started = performance.now();
	/** @type {Answer[]} */
	const answers = [];
	let next = 0;
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (next < count) {
				const i = next++;
				const wait = started + (i * 1000) / perSecond - performance.now();
				if (wait > 0) await sleep(wait);
				answers.push(await post(agent, url, make()));
			}
		}),
	);
	return answers;
}

/** How many answers had each status: `401 ×100`, `429 ×250, 401 ×50`. @param {Answer[]} answers */
function statusCounts(answers) {
	/** @type {Map<number, number>} */
	const counts = new Map();
	for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
	return [...counts]
		.sort((a, b) => b[1] - a[1])
		.map(([status, count]) => `${status === 0 ? 'no answer' : status} ×${count}`)
		.join(', ');
}

/** @param {Answer[]} answers */
const is2xx = (answers) => answers.filter((a) => a.status >= 200 && a.status < 300).length;

/**
 * Fails the run unless every answer has one of `statuses`.
 * @param {Answer[]} answers @param {number[]} statuses @param {string} what
 */
function expectStatuses(answers, statuses, what) {
	const wrong = answers.filter((answer) => !statuses.includes(answer.status));
	if (wrong.length > 0)
		throw new Error(
			`${what}: ${wrong.length} of ${answers.length} answers not ${statuses.join(' or ')} (${statusCounts(answers)})`,
		);
}

module.exports = { expectStatuses, is2xx, send, sendPaced, statusCounts };
