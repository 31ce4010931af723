// @ts-check
'use strict';
/**
 * The spec's answer envelope ({ code, message, data }), its codes, and the wire formats its data
 * uses (money, UTC+8 dates). Every endpoint answers an envelope or, for authorizeAndRedirect, a
 * redirect; none of them throws for a business failure.
 */
const crypto = require('node:crypto');

const CODE = { ok: 0, notFound: 1000001, auth: 1000004, invalid: 1000005, other: 6000000 };
const UTC8 = 8 * 3600 * 1000;

/** @typedef {{ code: number, message: string, data: unknown }} Envelope */
/** @typedef {{ redirect: string }} Redirect */

/** @param {number} code @param {string} message @returns {Envelope} */
const fail = (code, message) => ({ code, message, data: null });
/** @param {unknown} data @param {string} [message] @returns {Envelope} */
const ok = (data, message = 'success') => ({ code: CODE.ok, message, data });
/** @param {number} cents */
const money = (cents) => (cents / 100).toFixed(2);
/** @param {number} ms ISO 8601 in UTC+8 with its offset */
const isoUtc8 = (ms) => new Date(ms + UTC8).toISOString().replace(/\.\d{3}Z$/, '+08:00');
/** @param {number} ms "Y-m-d H:i:s" in UTC+8 */
const ymdHisUtc8 = (ms) => new Date(ms + UTC8).toISOString().slice(0, 19).replace('T', ' ');
/** @param {string} text */
const shortHash = (text) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
/** @param {unknown} v */
const isNonEmptyString = (v) => typeof v === 'string' && v.trim() !== '';
/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A date of the Y-m-d form that names a real calendar day, as PHP's date_format:Y-m-d. */
function parseYmd(/** @type {unknown} */ value) {
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
	const ms = Date.parse(`${value}T00:00:00Z`);
	if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return null;
	return ms - UTC8;
}

module.exports = {
	CODE,
	fail,
	ok,
	money,
	isoUtc8,
	ymdHisUtc8,
	shortHash,
	isNonEmptyString,
	isPlainObject,
	parseYmd,
};
