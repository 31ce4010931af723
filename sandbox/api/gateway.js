// @ts-check
'use strict';
/**
 * The gateway in front of every endpoint: the key and its state, the IP allowlist, the signature
 * version the route needs, the timestamp window, the signature (v1 or v2, from the raw request)
 * and the route's permission, in that order; then the query and the JSON body read for the handler.
 */
const net = require('node:net');

const { CODE, fail, isPlainObject } = require('./envelope');
const { expectedV1, expectedV2, sameSignature } = require('../verify');

const TIMESTAMP_TOLERANCE_S = 300;

/**
 * @typedef {{ apiKey: string|null, keyVersion: 'v1'|'v2'|null, signature: 'valid'|'invalid'|'not checked' }} Verification
 * @typedef {{ method: string, path: string, query: string, body: Buffer }} RawRequest
 * @typedef {import('./envelope').Envelope} Envelope
 */

/** @param {string} ip */
const normaliseIp = (ip) => (ip.startsWith('::ffff:') ? ip.slice(7) : ip);

/**
 * Whether a key's allowlist admits `ip` (normalised). @param {string} ip
 * @param {string[]} rules single addresses (IPv4 or IPv6) and IPv4 CIDRs
 */
function allowlisted(ip, rules) {
	const family = net.isIP(ip);
	if (family === 0) return false;
	const list = new net.BlockList();
	for (const rule of rules) {
		const [base, bits] = rule.split('/');
		if (bits !== undefined) {
			if (net.isIPv4(base)) list.addSubnet(base, Number(bits), 'ipv4');
		} else {
			const address = normaliseIp(rule);
			if (net.isIP(address)) list.addAddress(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
		}
	}
	return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Authentication in the order a gateway checks it: the key's product, or the envelope refusing the
 * request.
 * @param {import('node:http').IncomingMessage} req @param {import('./routes').Route} route
 * @param {RawRequest} raw @param {import('./state').SandboxState} state @param {number} nowMs
 * @param {Verification} verification filled in with the key and the signature check's result
 * @returns {{ product: string } | Envelope}
 */
function authenticate(req, route, raw, state, nowMs, verification) {
	/** A header's (first) value. @param {string} name */
	const header = (name) => [req.headers[name]].flat()[0];
	const apiKey = header('x-api-key');
	const signature = header('x-api-sign');
	verification.apiKey = apiKey ?? null;
	if (!apiKey || !signature) return fail(CODE.auth, 'The API key and signature are required');
	const key = state.keys.get(apiKey);
	verification.keyVersion = key?.version ?? null;
	if (!key || key.status === 'deleted') return fail(CODE.auth, 'The API key was not found');
	if (key.status === 'disabled') return fail(CODE.auth, 'The API key is disabled');
	if (key.status === 'expired') return fail(CODE.auth, 'The API key has expired');
	const ip = normaliseIp(req.socket.remoteAddress ?? '');
	if (key.allowlist && !allowlisted(ip, key.allowlist))
		return fail(CODE.auth, 'The client IP address is not allowlisted');
	if (route.v2Only && key.version !== 'v2')
		return fail(CODE.auth, 'This endpoint requires signature version 2');

	const nowSeconds = Math.floor(nowMs / 1000);
	let timestamp = header('x-api-timestamp');
	if (timestamp === undefined || timestamp === '') {
		if (key.version === 'v2') return fail(CODE.auth, 'The request timestamp is required');
		timestamp = String(nowSeconds);
	}
	const skewSeconds = Math.abs(Number(timestamp) - nowSeconds);
	if (!/^\d+$/.test(timestamp) || skewSeconds > TIMESTAMP_TOLERANCE_S)
		return fail(CODE.auth, 'The request timestamp is invalid or expired');
	const contentType = header('content-type') ?? '';
	const expected =
		key.version === 'v1'
			? expectedV1({ ...raw, contentType }, timestamp, key.secret)
			: expectedV2(raw, timestamp, key.secret);
	verification.signature = sameSignature(signature, expected) ? 'valid' : 'invalid';
	if (verification.signature === 'invalid') return fail(CODE.auth, 'Signature verification failed');
	const { permission } = route;
	if (permission && key.permissions && !key.permissions.includes(permission))
		return fail(route.permissionCode ?? CODE.auth, `Missing required permission: ${permission}`);
	return { product: key.product };
}

/**
 * Every value given for each name. URLSearchParams splits a pair at its first `=` only, so a value
 * that holds `=` (base64, say) is read whole, and decodes `+` and percent escapes as forms do.
 * @param {string} query @returns {Map<string, string[]>}
 */
function parseQuery(query) {
	/** @type {Map<string, string[]>} */
	const values = new Map();
	for (const [name, value] of new URLSearchParams(query))
		values.set(name, [...(values.get(name) ?? []), value]);
	return values;
}

/**
 * A POST body as the endpoints read it: a JSON object, or the envelope refusing it.
 * @param {Buffer} body @returns {{ input: Record<string, unknown> } | Envelope}
 */
function parseBody(body) {
	let input;
	try {
		input = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
	} catch {
		return fail(CODE.invalid, 'The request body is not valid JSON');
	}
	if (!isPlainObject(input)) return fail(CODE.invalid, 'The request body must be a JSON object');
	return { input };
}

module.exports = { authenticate, parseQuery, parseBody };
