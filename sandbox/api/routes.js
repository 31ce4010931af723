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

const AUTH_CODE_FAILED = 'Failed to create the authorization code';

/** @param {'get'|'links'|'statistics'|'balances'} view @param {RegExp} path @returns {Route} */
const promoterRead = (view, path) => ({
	name: `promoter.${view}`,
	cls: 'promoterRead',
	method: 'GET',
	path,
	v2Only: true,
	permission: 'promoter:read',
	permissionCode: CODE.other,
	serverError: 'Failed to retrieve promoter data',
	handler: ({ state, product, query, params }) =>
		readPromoter(state, product, params[0], view, query),
});

/** @type {Route[]} paths relative to PREFIX */
const ROUTES = [
	{
		name: 'authorize',
		cls: 'oauth',
		method: 'POST',
		path: /^\/oauth\/authorize$/,
		serverError: AUTH_CODE_FAILED,
		handler: ({ state, product, input }) =>
			issueAuthCode(state, product, input, 'product_key', false),
	},
	{
		name: 'authorizeAndRedirect',
		cls: 'oauth',
		method: 'GET',
		path: /^\/oauth\/authorizeAndRedirect$/,
		serverError: AUTH_CODE_FAILED,
		handler: ({ state, product, query }) => authorizeAndRedirect(state, product, query),
	},
	{
		name: 'exchangeCode',
		cls: 'oauth',
		method: 'POST',
		path: /^\/oauth\/getUserByAuthorizationCode$/,
		serverError: 'Failed to read the authorization code',
		handler: ({ state, product, input }) => exchangeCode(state, product, input),
	},
	{
		name: 'debugCode',
		cls: 'oauth',
		method: 'POST',
		path: /^\/oauth\/getDebugAuthCode$/,
		serverError: AUTH_CODE_FAILED,
		handler: ({ state, product, input }) =>
			issueAuthCode(state, product, input, 'source_product_key', true),
	},
	{
		name: 'trackConversion',
		cls: 'conversion',
		method: 'POST',
		path: /^\/track\/conversion$/,
		serverError: 'Failed to record the conversion',
		handler: ({ state, product, input }) => trackConversion(state, product, input),
	},
	{
		name: 'refund',
		cls: 'refund',
		method: 'POST',
		path: /^\/track\/refund$/,
		v2Only: true,
		permission: 'conversion:adjust',
		permissionCode: CODE.auth,
		serverError: 'Failed to apply the conversion adjustment',
		handler: ({ state, product, input }) => refund(state, product, input),
	},
	{
		name: 'promoterLogin',
		cls: 'promoterLogin',
		method: 'POST',
		path: /^\/promoter\/login$/,
		serverError: 'Failed to log the promoter in',
		handler: ({ state, product, input }) => promoterLogin(state, product, input),
	},
	promoterRead('get', /^\/promoters\/([^/]*)$/),
	promoterRead('links', /^\/promoters\/([^/]*)\/links$/),
	promoterRead('statistics', /^\/promoters\/([^/]*)\/statistics$/),
	promoterRead('balances', /^\/promoters\/([^/]*)\/balances$/),
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
