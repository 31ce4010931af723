// @ts-check
'use strict';
/**
 * The sandbox's own reading of the spec's signatures, written apart from the node's signing
 * core so that each checks the other: it works only from the raw request as received.
 */
const crypto = require('node:crypto');

/** @param {string | Buffer} data */
const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');

/** @param {string} x @param {string} y */
const order = (x, y) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * PHP SORT_NATURAL as a chunk comparison: the name is cut into digit runs and other runs;
 * digit runs compare by value (by length, then digits), or left-aligned when either starts
 * with 0; other bytes compare as bytes. Leading zeros of the whole name are skipped.
 * @param {string} x @param {string} y
 */
function strnatcmp(x, y) {
	const a = Buffer.from(x, 'utf8');
	const b = Buffer.from(y, 'utf8');
	if (!a.length || !b.length) return Math.sign(a.length - b.length);
	const digit = (/** @type {number|undefined} */ c) => c !== undefined && c >= 48 && c <= 57;
	const skipZeros = (/** @type {Buffer} */ s) => {
		let i = 0;
		while (s[i] === 48 && digit(s[i + 1])) i++;
		return i;
	};
	let i = skipZeros(a);
	let j = skipZeros(b);
	while (i < a.length && j < b.length) {
		if (digit(a[i]) && digit(b[j])) {
			let ie = i;
			while (digit(a[ie])) ie++;
			let je = j;
			while (digit(b[je])) je++;
			const runA = a.subarray(i, ie).toString();
			const runB = b.subarray(j, je).toString();
			const byLength = Math.sign(runA.length - runB.length);
			const n = Math.min(runA.length, runB.length);
			const cmp =
				runA[0] === '0' || runB[0] === '0'
					? order(runA.slice(0, n), runB.slice(0, n)) || byLength
					: byLength || order(runA, runB);
			if (cmp !== 0) return cmp;
			i = ie;
			j = je;
			continue;
		}
		if (a[i] !== b[j]) return a[i] < b[j] ? -1 : 1;
		i++;
		j++;
	}
	return Math.sign(a.length - i - (b.length - j));
}

/** @param {string} query */
function queryNames(query) {
	if (!query) return [];
	return query
		.split('&')
		.filter(Boolean)
		.map((pair) => decodeURIComponent(pair.split('=')[0].replace(/\+/g, ' ')).replace(/\[.*$/, ''))
		.filter(Boolean);
}

/**
 * @param {{ query: string, body: Buffer, contentType: string }} raw
 * @returns {string[]}
 */
function topLevelFieldNames(raw) {
	const names = queryNames(raw.query);
	const text = raw.body.toString('utf8');
	if (/x-www-form-urlencoded/i.test(raw.contentType)) {
		names.push(...queryNames(text));
	} else if (text.trim()) {
		try {
			const parsed = JSON.parse(text);
			if (parsed && typeof parsed === 'object') names.push(...Object.keys(parsed));
		} catch {
			// not JSON: no names
		}
	}
	return names;
}

/**
 * @param {{ query: string, body: Buffer, contentType: string }} raw
 * @param {string} timestamp @param {string} secret
 */
function expectedV1(raw, timestamp, secret) {
	const names = [...new Set(topLevelFieldNames(raw))]
		.map((n) => n.replace(/[A-Z]/g, (c) => c.toLowerCase()))
		.sort(strnatcmp);
	return sha256(`${names.join('&')}${timestamp}${secret}`);
}

/**
 * @param {{ method: string, path: string, query: string, body: Buffer }} raw
 * @param {string} timestamp @param {string} secret
 */
function expectedV2(raw, timestamp, secret) {
	const message = `PS-HMAC-SHA256\n${raw.method.toUpperCase()}\n${raw.path}\n${raw.query}\n${timestamp}\n${sha256(raw.body)}`;
	return crypto.createHmac('sha256', secret).update(message).digest('hex');
}

/** @param {string} given @param {string} expected */
function sameSignature(given, expected) {
	const a = Buffer.from(given);
	const b = Buffer.from(expected);
	return a.length === b.length && crypto.timingSafeEqual(a, b);
}

module.exports = { strnatcmp, expectedV1, expectedV2, sameSignature, sha256 };
