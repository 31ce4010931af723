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

/** Self time per area, in µs. @param {string} file */
function selfTimeByArea(file) {
	const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
	/** @type {Map<number, string>} */
	const areaOfNode = new Map();
	for (const node of profile.nodes) {
		areaOfNode.set(
			node.id,
			node.callFrame.functionName === '(idle)' ? '(idle)' : areaOf(node.callFrame.url),
		);
	}
	/** @type {Map<string, number>} */
	const totals = new Map();
	profile.samples.forEach((/** @type {number} */ id, /** @type {number} */ index) => {
		const area = areaOfNode.get(id) ?? '?';
		totals.set(area, (totals.get(area) ?? 0) + (profile.timeDeltas[index] ?? 0));
	});
	return totals;
}

/** Adds up the self time per area of several profiles. @param {string[]} files */
function sumOf(files) {
	/** @type {Map<string, number>} */
	const totals = new Map();
	for (const file of files) {
		for (const [area, us] of selfTimeByArea(file)) totals.set(area, (totals.get(area) ?? 0) + us);
	}
	return totals;
}

/** @type {Map<string, number>} */
let a;
/** @type {Map<string, number>} */
let d;
/** @type {number} */
let items;
/** @type {string[]} */
let args;
try {
	args = parseArgs({ allowPositionals: true }).positionals;
} catch (error) {
	// It takes no options: the parser's message names the one given.
	console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
	process.exit(2);
}
if (args[0] && fs.existsSync(args[0]) && fs.statSync(args[0]).isDirectory()) {
	const dir = args[0];
	/** @type {Record<string, { files: string[], items: number }>} */
	const sides = { a: { files: [], items: 0 }, d: { files: [], items: 0 } };
	for (const name of fs.readdirSync(dir).sort()) {
		const match = /^(a|d)-(\d+)x(\d+)-\d+\.cpuprofile$/.exec(name);
		if (!match || (args[1] && match[2] !== args[1])) continue;
		sides[match[1]].files.push(path.join(dir, name));
		sides[match[1]].items += Number(match[2]) * Number(match[3]);
	}
	if (sides.a.files.length === 0 || sides.d.files.length === 0) {
		console.error(
			`no a-… and d-….cpuprofile files in ${dir}${args[1] ? ` for ${args[1]} items` : ''}`,
		);
		process.exit(2);
	}
	if (sides.a.items !== sides.d.items) {
		console.error(
			'a and d measured different numbers of items: pass the size as the second argument',
		);
		process.exit(2);
	}
	a = sumOf(sides.a.files);
	d = sumOf(sides.d.files);
	items = sides.a.items;
	console.log(
		`${sides.a.files.length} profiles of a, ${sides.d.files.length} of d, ${items.toLocaleString('en-US')} items each side\n`,
	);
} else {
	const [aFile, dFile, count] = args;
	if (!aFile || !dFile || !count) {
		console.error(USAGE);
		process.exit(2);
	}
	a = selfTimeByArea(aFile);
	d = selfTimeByArea(dFile);
	items = Number(count);
}
const perItem = (/** @type {number | undefined} */ us) => ((us ?? 0) / Number(items)).toFixed(0);
const areas = [...new Set([...a.keys(), ...d.keys()])]
	.filter((area) => area !== '(idle)')
	.sort((x, y) => (a.get(y) ?? 0) - (d.get(y) ?? 0) - ((a.get(x) ?? 0) - (d.get(x) ?? 0)));
console.log('| area | a (µs/item) | d (µs/item) | a − d |');
console.log('|---|---:|---:|---:|');
for (const area of areas) {
	const gap = ((a.get(area) ?? 0) - (d.get(area) ?? 0)) / Number(items);
	if (Math.abs(gap) < 1 && (a.get(area) ?? 0) / Number(items) < 5) continue;
	console.log(
		`| ${area} | ${perItem(a.get(area))} | ${perItem(d.get(area))} | ${gap.toFixed(0)} |`,
	);
}
const busy = (/** @type {Map<string, number>} */ m) =>
	[...m.entries()].filter(([k]) => k !== '(idle)').reduce((sum, [, v]) => sum + v, 0);
console.log(
	`| **all (busy)** | ${perItem(busy(a))} | ${perItem(busy(d))} | ${((busy(a) - busy(d)) / Number(items)).toFixed(0)} |`,
);
