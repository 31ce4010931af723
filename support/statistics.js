// @ts-check
'use strict';
/**
 * The figures of interleaved benchmark rounds, printed the same way by `npm run bench`,
 * `bench:trigger` and `bench:queue`: a median with its range, and a ratio taken round by round
 * (`a/d median 0.97 (0.93–1.01), 7 rounds each`), and the percentile the benchmarks and the queue
 * test print, the sandbox's own (the one GET /__sandbox/stats reports), so there is one definition.
 */
const { percentile } = require('../sandbox');

/** A number with `digits` decimals and thousands separators. @param {number} n @param {number} [digits] */
const fmt = (n, digits = 0) =>
	n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** `7 rounds`, `1 round`. @param {number} n */
const rounds = (n) => `${n} round${n === 1 ? '' : 's'}`;

/** @param {number[]} values */
function median(values) {
	const sorted = [...values].sort((x, y) => x - y);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `0.97 (0.93–1.01)`: the median and the range. @param {number[]} values @param {number} digits */
function medianAndRange(values, digits) {
	return `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`;
}

/**
 * `0.97 (0.93–1.01)`: x_i / y_i for each round i, their median and range.
 * @param {number[]} xs @param {number[]} ys
 */
const roundRatios = (xs, ys) =>
	medianAndRange(
		xs.map((x, i) => x / ys[i]),
		2,
	);

/**
 * One line per ratio: x_i / y_i for each round i, then their median and range.
 * @param {string} name @param {number[]} xs @param {number[]} ys
 */
function ratioLine(name, xs, ys) {
	return `${name} median ${roundRatios(xs, ys)}, ${rounds(xs.length)} each`;
}

module.exports = { fmt, median, medianAndRange, percentile, ratioLine, roundRatios, rounds };
