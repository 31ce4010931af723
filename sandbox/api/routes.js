// @ts-check
'use strict';
/**
 * The API's route table: one row per endpoint, with what the gateway checks before it (v2 only, a
 * permission), the class faults are matched by, the message of its 6000000 server failure, and
 * the handler that answers it. A request no row matches gets the service's 404 page.
 */
const { CODE } = require('./envelope');
const { issueAuthCode, authorizeAndRedirect, exchangeCode } = require('./authorization');
const { trackConversion, refund } = require('./conversions');
const { promoterLogin, readPromoter } = require('./promoters');

const PREFIX = '/api/open/v1';

/**
 * @typedef {'oauth'|'conversion'|'refund'|'promoterLogin'|'promoterRead'} RequestClass
 * @typedef {{ state: import('./state').SandboxState, product: string, input: Record<string, unknown>,
 *   query: Map<string, string[]>, params: string[] }} Call the authenticated key's product, the body
 *   (POST) or the query (GET), and the path's parameters
 * @typedef {import('./envelope').Envelope | import('./envelope').Redirect} Outcome
 * @typedef {{ name: string, cls: RequestClass, method: 'GET'|'POST', path: RegExp, v2Only?: boolean,
 *   permission?: string, permissionCode?: number, serverError: string, handler: (call: Call) => Outcome }} Route
 */

/**
 * What a request class's routes share: the message of their 6000000 server failure and what the
 * gateway checks before them.
 * @type {Record<RequestClass, Pick<Route, 'serverError' | 'v2Only' | 'permission' | 'permissionCode'>>}
 */
const CLASSES = {
	oauth: { serverError: 'Failed to create the authorization code' },
	conversion: { serverError: 'Failed to record the conversion' },
	refund: {
		serverError: 'Failed to apply the conversion adjustment',
		v2Only: true,
		permission: 'conversion:adjust',
		permissionCode: CODE.auth,
	},
	promoterLogin: { serverError: 'Failed to log the promoter in' },
	promoterRead: {
		serverError: 'Failed to retrieve promoter data',
		v2Only: true,
		permission: 'promoter:read',
		permissionCode: CODE.other,
	},
};

/**
 * A row: `METHOD /path` (below PREFIX, `*` a path parameter), its name, its class, its handler,
 * and its own server failure's message where not its class's.
 * @param {string} endpoint @param {string} name @param {RequestClass} cls
 * @param {Route['handler']} handler @param {string} [serverError]
 * @returns {Route}
 */
function route(endpoint, name, cls, handler, serverError) {
	const [method, path] = endpoint.split(' ');
	return {
		name,
		cls,
		method: /** @type {Route['method']} */ (method),
		path: new RegExp(`^${path.replace('*', '([^/]*)')}$`),
		...CLASSES[cls],
		...(serverError && { serverError }),
		handler,
	};
}

/**
 * The handler of a route that answers from the request's body alone.
 * @param {(state: Call['state'], product: string, input: Call['input']) => Outcome} answer
 * @returns {Route['handler']}
 */
const ofBody = (answer) => (call) => answer(call.state, call.product, call.input);

/** @param {'get'|'links'|'statistics'|'balances'} view @param {string} [below] */
const promoterRead = (view, below = '') =>
	route(`GET /promoters/*${below}`, `promoter.${view}`, 'promoterRead', (call) =>
		readPromoter(call.state, call.product, call.params[0], view, call.query),
	);

/** @type {Route[]} */
const ROUTES = [
	route('POST /oauth/authorize', 'authorize', 'oauth', (call) =>
		issueAuthCode(call.state, call.product, call.input, 'product_key', false),
	),
	route('GET /oauth/authorizeAndRedirect', 'authorizeAndRedirect', 'oauth', (call) =>
		authorizeAndRedirect(call.state, call.product, call.query),
	),
	route(
		'POST /oauth/getUserByAuthorizationCode',
		'exchangeCode',
		'oauth',
		ofBody(exchangeCode),
		'Failed to read the authorization code',
	),
	route('POST /oauth/getDebugAuthCode', 'debugCode', 'oauth', (call) =>
		issueAuthCode(call.state, call.product, call.input, 'source_product_key', true),
	),
	route('POST /track/conversion', 'trackConversion', 'conversion', ofBody(trackConversion)),
	route('POST /track/refund', 'refund', 'refund', ofBody(refund)),
	route('POST /promoter/login', 'promoterLogin', 'promoterLogin', ofBody(promoterLogin)),
	promoterRead('get'),
	promoterRead('links', '/links'),
	promoterRead('statistics', '/statistics'),
	promoterRead('balances', '/balances'),
];

/**
 * The row for a request and its path parameters, or null.
 * @param {string} method @param {string} path @returns {{ route: Route, params: string[] } | null}
 */
function matchRoute(method, path) {
	if (!path.startsWith(`${PREFIX}/`)) return null;
	const rest = path.slice(PREFIX.length);
	for (const route of ROUTES) {
		const m = route.method === method ? route.path.exec(rest) : null;
		if (m) return { route, params: m.slice(1) };
	}
	return null;
}

module.exports = { PREFIX, matchRoute };
