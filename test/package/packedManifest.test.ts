/**
 * What `npm pack` makes is what users install: its manifest carries no development-only
 * dependency (the development Node 24 lives in the tools/node24 workspace, which `npm pack`
 * leaves out), so that installing the tarball adds this one package and nothing else.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

declare const PACKAGE_DIR: string;

function run(command: string, args: string[], cwd: string): string {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`);
	return result.stdout;
}

/** The packages directly under node_modules, scoped ones as @scope/name. */
function installedPackages(modules: string): string[] {
	return readdirSync(modules)
		.filter((entry) => !entry.startsWith('.'))
		.flatMap((entry) =>
			entry.startsWith('@')
				? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`)
				: [entry],
		);
}

describe('the tarball npm pack makes', () => {
	let folder: string;
	let tarball: string;
	let manifest: Record<string, unknown>;

	beforeAll(() => {
		folder = mkdtempSync(join(tmpdir(), 'affiliate-tracking-pack-'));
		const [packed] = JSON.parse(
			run('npm', ['pack', '--json', '--pack-destination', folder], PACKAGE_DIR),
		) as Array<{ filename: string }>;
		tarball = join(folder, packed.filename);
		const extracted = join(folder, 'extracted');
		run('mkdir', ['-p', extracted], folder);
		run('tar', ['-xzf', tarball, '-C', extracted, '--strip-components=1'], folder);
		manifest = JSON.parse(readFileSync(join(extracted, 'package.json'), 'utf8'));
	});

	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	it('has no dependencies a user would install: no dependencies, no optional ones', () => {
		expect(manifest.dependencies).toBeUndefined();
		expect(manifest.optionalDependencies).toBeUndefined();
		expect(manifest.bundleDependencies).toBeUndefined();
		// The peer n8n lends its own copy of; npm must not install it beside the package.
		expect(manifest.peerDependenciesMeta).toEqual({ 'n8n-workflow': { optional: true } });
	});

	it('installs as one package into an app', () => {
		const app = join(folder, 'app');
		run('mkdir', ['-p', app], folder);
		writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
		run(
			'npm',
			['install', tarball, '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'],
			app,
		);
		expect(installedPackages(join(app, 'node_modules'))).toEqual([manifest.name]);
	});
});
