// `npm run scan`: n8n's verification scanner (@n8n/scan-community-package) on this package, as
// n8n's reviewers run it: its rule set over the source (package.json, nodes/, credentials/) and
// over the packed tarball (compiled .js and package.json). The scanner's command line downloads
// the package and its provenance from npm, which a package not yet published cannot give, so its
// exported analysis runs here on the same two trees. Then it plants one violation the scanner
// must catch (an import of node:http in a node file), so that a scan that checks nothing fails.
//
// The scanner 0.32.0 depends on TypeScript 7, which @typescript-eslint's parser cannot load. An
// npm "overrides" pin is not an option: the scanner itself refuses that field in package.json
// (no-overrides-field). Our own devDependency typescript 5.9.3 sits at the root of node_modules,
// where the parser resolves it, and the scanner's TypeScript 7 stays nested under the scanner;
// this script checks that before it scans, so that a changed install fails here, not in a rule.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createRequire } from 'node:module';

import {
	analyzePackage,
	buildScanConfig,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';
import { ESLint } from 'eslint';
import glob from 'fast-glob';

import pack from '../support/n8n/pack.js';
import processes from '../support/services/processes.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];
const PLANTED_RULE = '@n8n/community-nodes/no-restricted-imports';

let failures = 0;

/** Lints `dir` with the scanner and prints the outcome; returns the scanner's answer. */
async function scan(label, dir, patterns) {
	const files = glob.sync(patterns, {
		cwd: dir,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const result = await analyzePackage(dir, patterns);
	console.log(
		`${result.passed ? '✔' : '✘'} ${label}: ${files.length} files (${patterns.join(', ')})`,
	);
	if (!result.passed) console.log(result.details ?? result.message);
	return result;
}

/** The TypeScript that the scanner's parser loads: it must be below 7. */
function parserTypeScript() {
	const fromScanner = createRequire(
		createRequire(import.meta.url).resolve('@n8n/scan-community-package/package.json'),
	);
	const parser = createRequire(fromScanner.resolve('@typescript-eslint/parser'));
	return parser('typescript/package.json').version;
}

/** How many of the scanner's rules apply to a file (they differ by path). */
async function rulesFor(file) {
	const eslint = new ESLint({
		cwd: ROOT,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const config = await eslint.calculateConfigForFile(path.join(ROOT, file));
	return Object.values(config.rules ?? {}).filter((setting) => {
		const level = Array.isArray(setting) ? setting[0] : setting;
		return level !== 0 && level !== 'off';
	}).length;
}

const typescript = parserTypeScript();
if (Number(typescript.split('.')[0]) >= 7) {
	console.log(
		`✘ the scanner's parser loads TypeScript ${typescript}, which it cannot use: keep the root devDependency typescript at 5.x`,
	);
	process.exit(1);
}
console.log(
	`Scanner rules in force: ${await rulesFor('package.json')} on package.json, ${await rulesFor('nodes/AffiliateTracking/AffiliateTracking.node.ts')} on a node, ${await rulesFor('credentials/AffiliateTrackingApi.credentials.ts')} on a credential (parser on TypeScript ${typescript})`,
);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'affiliate-tracking-scan-'));
try {
	// 1. The source, as the scanner reads the provenance-attested checkout.
	if (!(await scan('source', ROOT, SOURCE_FILE_PATTERNS)).passed) failures++;

	// 2. The tarball npm would publish (dist must be built: `npm run scan` builds first).
	const tarball = pack.packPackage(work);
	const unpacked = path.join(work, 'package');
	processes.runCaptured('tar', ['-xzf', tarball, '-C', work], { cwd: work });
	if (!(await scan(`tarball ${path.basename(tarball)}`, unpacked, TARBALL_PATTERNS)).passed)
		failures++;

	// 3. The scan must be able to fail: a copy of the source with node:http imported in a node.
	const planted = path.join(work, 'planted');
	for (const entry of ['package.json', 'nodes', 'credentials']) {
		fs.cpSync(path.join(ROOT, entry), path.join(planted, entry), { recursive: true });
	}
	const nodeFile = path.join(planted, 'nodes/AffiliateTracking/AffiliateTracking.node.ts');
	fs.writeFileSync(
		nodeFile,
		`import { request } from 'node:http';\nvoid request;\n${fs.readFileSync(nodeFile, 'utf8')}`,
	);
	const caught = await analyzePackage(planted, SOURCE_FILE_PATTERNS);
	if (!caught.passed && String(caught.details).includes(PLANTED_RULE)) {
		console.log(`✔ a planted import of node:http in a node file fails the scan (${PLANTED_RULE})`);
	} else {
		failures++;
		console.log(
			`✘ a planted import of node:http was not caught: ${caught.details ?? caught.message ?? 'scan passed'}`,
		);
	}
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}

console.log(failures === 0 ? 'Scan: passed' : `Scan: ${failures} part(s) failed`);
process.exitCode = failures === 0 ? 0 : 1;
