// @ts-check
'use strict';
/**
 * What the sandbox serves in place of payment providers' own hosts, for the Payment Webhook
 * Trigger's providers that fetch for their check or complete an item from their API (a
 * certificate, published keys, a developer API): each emulation answers the paths under its own
 * prefix, `/__providers/<name>/…`. A new emulation: its module here (`{ name, handle }`) and its
 * line in EMULATIONS.
 */

const PAYMENT_PROVIDERS_PREFIX = '/__providers/';

/**
 * @typedef {object} ProviderEmulation
 * @property {string} name the path segment after the prefix
 * @property {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, path: string, body: Buffer) => void | Promise<void>} handle
 *   answers a request; `path` is what follows `/__providers/<name>` (query string included)
 */

/** @type {ProviderEmulation[]} */
const EMULATIONS = [require('./googlePlay'), require('./paypal')];

/**
 * Answers a request under the prefix with its emulation, or 404.
 * @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res
 */
async function handlePaymentProvider(req, res) {
	const rest = (req.url ?? '/').slice(PAYMENT_PROVIDERS_PREFIX.length);
	const slash = rest.search(/[/?]/);
	const name = slash === -1 ? rest : rest.slice(0, slash);
	const emulation = EMULATIONS.find((candidate) => candidate.name === name);
	const body = Buffer.concat(await req.toArray());
	if (emulation === undefined) {
		res.writeHead(404, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify({ error: `no provider emulation ${name}` }));
		return;
	}
	await emulation.handle(req, res, slash === -1 ? '/' : rest.slice(slash), body);
}

module.exports = { EMULATIONS, PAYMENT_PROVIDERS_PREFIX, handlePaymentProvider };
