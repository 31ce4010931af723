// @ts-check
'use strict';
/**
 * `node bench/profile.js <a.cpuprofile> <d.cpuprofile> <items>`: where the CPU time of two bench
 * rounds goes, side by side, in µs per item: by package or source area (self time of the sampled
 * functions), so that the gap between the node and the helper floor can be read line by line.
 */
const fs = require('node:fs');

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

const [aFile, dFile, items] = process.argv.slice(2);
if (!aFile || !dFile || !items) {
	console.error('usage: node bench/profile.js <a.cpuprofile> <d.cpuprofile> <items>');
	process.exit(2);
}
const a = selfTimeByArea(aFile);
const d = selfTimeByArea(dFile);
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
