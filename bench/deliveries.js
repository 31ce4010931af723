// @ts-check
'use strict';
/**
 * The benchmarks' webhook deliveries over HTTP: one POST, a series with a number in flight (paced
 * or not), and the checks on their answers' statuses.
 */
const http = require('node:http');

const { sleep } = require('../support/services/processes');

/**
 * @typedef {{ body: string, headers: Record<string, string> }} Delivery
 * @typedef {{ status: number, ms: number }} Answer
 */

/**
 * POSTs one delivery through `agent` and resolves with the status and the time to the answer's end.
 * A failed request resolves with status 0, but for one that met a kept-alive socket the server
 * had just closed as idle (n8n closes them after 5 s, while a block waits for n8n to go quiet):
 * the server read none of it, and it is sent again, as Node's http documentation advises
 * (`request.reusedSocket`).
 * @param {http.Agent} agent @param {string} url @param {Delivery} delivery @returns {Promise<Answer>}
 */
function post(agent, url, { body, headers }) {
	return new Promise((resolve) => {
		const started = performance.now();
		const answer = (/** @type {number} */ status) =>
			resolve({ status, ms: performance.now() - started });
		const headersSent = {
			'Content-Type': 'application/json',
			'Content-Length': String(Buffer.byteLength(body)),
			...headers,
		};
		const request = http.request(
			url,
			{ method: 'POST', agent, headers: headersSent },
			(response) => {
				response.resume();
				response.once('end', () => answer(response.statusCode ?? 0));
				response.once('error', () => answer(0));
			},
		);
		request.setTimeout(120_000, () => request.destroy(new Error('timeout')));
		request.once('error', (/** @type {NodeJS.ErrnoException} */ error) => {
			if (request.reusedSocket && error.code === 'ECONNRESET')
				post(agent, url, { body, headers }).then(resolve);
			else answer(0);
		});
		request.end(body);
	});
}

/**
 * Sends deliveries made by `make` (given how many were sent before), `inFlight` at once: `until`
 * of them, or while `until(sent)` says so; with `perSecond`, the i-th not before i / perSecond
 * seconds (the provider's pace). Resolves with every answer.
 * @param {http.Agent} agent @param {string} url @param {number} inFlight
 * @param {(sent: number) => Delivery} make @param {number | ((sent: number) => boolean)} until
 * @param {number} [perSecond]
 */
async function send(agent, url, inFlight, make, until, perSecond = Infinity) {
	const more = typeof until === 'number' ? (/** @type {number} */ sent) => sent < until : until;
	const started = performance.now();
	/** @type {Answer[]} */
	const answers = [];
	let sent = 0;
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (more(sent)) {
				const i = sent++;
				const wait = started + (i * 1000) / perSecond - performance.now();
				if (wait > 0) await sleep(wait);
				answers.push(await post(agent, url, make(i)));
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

module.exports = { expectStatuses, send, statusCounts };
