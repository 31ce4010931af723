// @ts-check
'use strict';
/**
 * The control routes for a sandbox in another process (`npm run sandbox`, benchmarks), outside
 * the API prefix: GET /__sandbox/stats, POST /__sandbox/reset, POST /__sandbox/settings
 * ({ latencyMs, maxConcurrent, retryAfterSeconds }), POST /__sandbox/activity
 * ({ product, userId, clicks?, payingCustomers?, credit?: { currency, cents } }: new figures
 * for a promoter, as the trigger's tests need between two polls), GET /__sandbox/calls (the
 * API calls received since the last reset, each with its key, key version and whether its
 * signature verified).
 */

const CONTROL_PREFIX = '/__sandbox/';

/**
 * @typedef {import('./server').Sandbox} Sandbox
 * @typedef {{ status: number, body: unknown }} ControlAnswer
 * @typedef {{ method: 'GET'|'POST', path: string, handler: (sandbox: Sandbox, body: Record<string, unknown>) => ControlAnswer }} ControlRoute
 */

/** @type {ControlRoute[]} */
const CONTROL_ROUTES = [
	{
		method: 'GET',
		path: '/__sandbox/stats',
		handler: (sandbox) => ({ status: 200, body: sandbox.stats() }),
	},
	{
		method: 'GET',
		path: '/__sandbox/calls',
		handler: (sandbox) => ({ status: 200, body: { calls: sandbox.calls } }),
	},
	{
		method: 'POST',
		path: '/__sandbox/reset',
		handler: (sandbox) => {
			sandbox.reset();
			return { status: 200, body: { reset: true } };
		},
	},
	{
		method: 'POST',
		path: '/__sandbox/settings',
		handler: (sandbox, settings) => {
			sandbox.throttle.update(settings);
			return { status: 200, body: sandbox.throttle.settings() };
		},
	},
	{
		method: 'POST',
		path: '/__sandbox/activity',
		handler: (sandbox, { product, userId, ...activity }) => {
			try {
				sandbox.instrumentation.addActivity(
					String(product),
					String(userId),
					/** @type {Parameters<Sandbox['instrumentation']['addActivity']>[2]} */ (activity),
				);
			} catch (error) {
				return {
					status: 400,
					body: { error: error instanceof Error ? error.message : String(error) },
				};
			}
			return { status: 200, body: { recorded: true } };
		},
	},
];

/**
 * Answers a control route (JSON), or 404 for an unknown one.
 * @param {Sandbox} sandbox @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function handleControl(sandbox, req, res) {
	/** @type {Buffer[]} */
	const chunks = [];
	for await (const chunk of req) chunks.push(chunk);
	const route = CONTROL_ROUTES.find((r) => r.method === req.method && r.path === req.url);
	const { status, body } = route
		? route.handler(
				sandbox,
				route.method === 'POST' ? JSON.parse(Buffer.concat(chunks).toString() || '{}') : {},
			)
		: { status: 404, body: { error: 'unknown control route' } };
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(body));
}

module.exports = { CONTROL_PREFIX, handleControl };
