// @ts-check
'use strict';
/**
 * Where the CPU time of the node (a) and of the helper floor (d) goes, side by side, in µs per
 * item: by package or source area (self time of the sampled functions), so that the gap between
 * the node and the helper floor can be read line by line.
 *
 *   node bench/profile.js <dir> [items per execution]
 *     every round's profile that `BENCH_CPU_PROF=<dir> npm run bench` wrote there
 *     (`a-<size>x<executions>-<round>.cpuprofile`, `d-…`): each side's self time summed over its
 *     rounds and divided by the items they measured (size × executions × rounds); only the given
 *     size when there are several.
 *   node bench/profile.js <a.cpuprofile> <d.cpuprofile> <items>
 *     one profile each, divided by `items`.
 *
 * A profile covers its whole process (loading, the 200-item warm-up, the measured round): the
 * per-item figures are a few percent high, equally on both sides.
 */
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const USAGE =
	'usage: node bench/profile.js <dir> [items per execution] | <a.cpuprofile> <d.cpuprofile> <items>';

/** The area a function's file belongs to. @param {string} url */
function areaOf(url) {
	if (url === '') return '(native, GC, idle)';
	const inDist = /\/dist\/(nodes|credentials)\/([^/]+)\/(?:([^/]+)\/)?/.exec(url);
	if (inDist && !url.includes('node_modules'))
		return `this package: ${inDist[2]}/${inDist[3] ?? ''}`;
	const modules = url.split('node_modules/');
	if (modules.length > 1) {
		const last = modules[modules.length - 1].split('/');
		return last[0].startsWith('@') ? `${last[0]}/${last[1]}` : last[0];
	}
	if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
	return url.replace(/^.*\/(bench|test|sandbox)\//, '$1/');
}

/** Self time per area, in µs, summed over the profiles. @param {string[]} files */
function selfTimeByArea(files) {
	/** @type {Map<string, number>} */
	const totals = new Map();
	for (const file of files) {
		const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
		/** @type {Map<number, string>} */
		const areaOfNode = new Map(
			profile.nodes.map((/** @type {any} */ node) => [
				node.id,
				node.callFrame.functionName === '(idle)' ? '(idle)' : areaOf(node.callFrame.url),
			]),
		);
		profile.samples.forEach((/** @type {number} */ id, /** @type {number} */ index) => {
			const area = areaOfNode.get(id) ?? '?';
			totals.set(area, (totals.get(area) ?? 0) + (profile.timeDeltas[index] ?? 0));
		});
	}
	return totals;
}

/** @param {string} message */
function fail(message) {
	console.error(message);
	process.exit(2);
}

/** @type {string[]} */
let args = [];
try {
	args = parseArgs({ allowPositionals: true }).positionals;
} catch (error) {
	// It takes no options: the parser's message names the one given.
	fail(`${error instanceof Error ? error.message : error}\n${USAGE}`);
}
/** @type {{ a: string[], d: string[] }} the profiles of each side */
const files = { a: [], d: [] };
let items = 0;
if (args[0] && fs.existsSync(args[0]) && fs.statSync(args[0]).isDirectory()) {
	const dir = args[0];
	const itemsOf = { a: 0, d: 0 };
	for (const name of fs.readdirSync(dir).sort()) {
		const match = /^(a|d)-(\d+)x(\d+)-\d+\.cpuprofile$/.exec(name);
		if (!match || (args[1] && match[2] !== args[1])) continue;
		const side = /** @type {'a' | 'd'} */ (match[1]);
		files[side].push(path.join(dir, name));
		itemsOf[side] += Number(match[2]) * Number(match[3]);
	}
	if (files.a.length === 0 || files.d.length === 0)
		fail(`no a-… and d-….cpuprofile files in ${dir}${args[1] ? ` for ${args[1]} items` : ''}`);
	if (itemsOf.a !== itemsOf.d)
		fail('a and d measured different numbers of items: pass the size as the second argument');
	items = itemsOf.a;
	console.log(
		`${files.a.length} profiles of a, ${files.d.length} of d, ${items.toLocaleString('en-US')} items each side\n`,
	);
} else {
	const [aFile, dFile, count] = args;
	if (!aFile || !dFile || !count) fail(USAGE);
	files.a.push(aFile);
	files.d.push(dFile);
	items = Number(count);
}
const [a, d] = [selfTimeByArea(files.a), selfTimeByArea(files.d)];
const perItem = (/** @type {number | undefined} */ us) => ((us ?? 0) / items).toFixed(0);
const gapOf = (/** @type {string} */ area) => ((a.get(area) ?? 0) - (d.get(area) ?? 0)) / items;
const areas = [...new Set([...a.keys(), ...d.keys()])]
	.filter((area) => area !== '(idle)')
	.sort((x, y) => gapOf(y) - gapOf(x));
console.log('| area | a (µs/item) | d (µs/item) | a − d |');
console.log('|---|---:|---:|---:|');
for (const area of areas) {
	if (Math.abs(gapOf(area)) < 1 && (a.get(area) ?? 0) / items < 5) continue;
	console.log(
		`| ${area} | ${perItem(a.get(area))} | ${perItem(d.get(area))} | ${gapOf(area).toFixed(0)} |`,
	);
}
const busy = (/** @type {Map<string, number>} */ m) =>
	[...m.entries()].filter(([k]) => k !== '(idle)').reduce((sum, [, v]) => sum + v, 0);
console.log(
	`| **all (busy)** | ${perItem(busy(a))} | ${perItem(busy(d))} | ${((busy(a) - busy(d)) / items).toFixed(0)} |`,
);
