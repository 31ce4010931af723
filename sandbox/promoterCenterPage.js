// @ts-check
'use strict';
/**
 * A stand-in for the hosted promoter center, so that the addresses Promoter Login builds open a
 * real page: `{url}/promoter-center?at=<token>` (full page) and `{url}/promoter-center/iframe/<token>`.
 * An unknown or expired token shows an expired login, as the spec describes.
 */
const { promoterForCenterToken } = require('./api/promoters');

const PROMOTER_CENTER_PATH = '/promoter-center';

/** @param {string} text */
function escapeHtml(text) {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * @param {import('./api/state').SandboxState} state @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
function servePromoterCenter(state, req, res) {
	const url = new URL(req.url ?? '/', 'http://sandbox');
	const iframe = /^\/promoter-center\/iframe\/([A-Za-z0-9_-]+)$/.exec(url.pathname);
	const token = iframe
		? iframe[1]
		: url.pathname === PROMOTER_CENTER_PATH
			? url.searchParams.get('at')
			: null;
	const found = token ? promoterForCenterToken(state, token) : undefined;
	const body = found
		? `<h1 id="promoter">${escapeHtml(found.promoter.username ?? found.promoter.userId)}</h1>` +
			`<p>Promoter center of ${escapeHtml(found.product.name)} (${iframe ? 'iframe' : 'full page'}).</p>` +
			`<p>Referral code: <code id="referral-code">${escapeHtml(found.promoter.referralCode ?? '')}</code></p>`
		: '<h1 id="expired">Your login has expired</h1><p>Open the promoter center again from the brand.</p>';
	res.writeHead(found ? 200 : 401, {
		'Content-Type': 'text/html; charset=utf-8',
		'Cache-Control': 'no-store',
	});
	res.end(
		`<!doctype html><html><head><title>Promoter center</title></head><body>${body}</body></html>`,
	);
}

module.exports = { PROMOTER_CENTER_PATH, servePromoterCenter };
