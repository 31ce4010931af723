// @ts-check
'use strict';
/**
 * Fails when a committed lock file holds an entry without a version. npm 11.13 wrote such
 * placeholders for optional packages of other platforms (unrs-resolver's and msgpackr-extract's
 * bindings); npm 11.19's `npm ci` with an empty cache then stops with "Invalid Version:", while a
 * machine whose cache already holds those packages installs fine. This check sees it on any
 * machine: `.ci/run` runs it (scripts/check-lock-files.js) before `npm ci`, and
 * support/n8n/n8nInstall.js before each release's install.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.dirname(__dirname);
const RELEASES_DIR = path.join(ROOT, 'support', 'n8n', 'n8n-releases');

/** The repository's lock files: the package's, the local registry's, each n8n release's. */
function committedLockFiles() {
	const releases = fs.existsSync(RELEASES_DIR) ? fs.readdirSync(RELEASES_DIR) : [];
	return [
		path.join(ROOT, 'package-lock.json'),
		path.join(ROOT, 'support', 'services', 'registry', 'package-lock.json'),
		...releases.map((release) => path.join(RELEASES_DIR, release, 'package-lock.json')),
	].filter((file) => fs.existsSync(file));
}

/**
 * The installed packages of a lock file that npm cannot install from: no version and not a link
 * (workspace folders such as `tools/node24` are entries without a version by design).
 * @param {string} lockFile
 * @returns {string[]}
 */
function entriesWithoutVersion(lockFile) {
	/** @type {{ packages?: Record<string, { version?: string, link?: boolean }> }} */
	const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
	return Object.entries(lock.packages ?? {})
		.filter(
			([location, entry]) =>
				location.split('/').includes('node_modules') && !entry.version && !entry.link,
		)
		.map(([location]) => location);
}

/**
 * Throws, naming each bad entry and the fix, when a lock file holds entries without a version.
 * @param {string[]} lockFiles
 */
function assertLockFilesComplete(lockFiles) {
	const problems = lockFiles.flatMap((file) =>
		entriesWithoutVersion(file).map((entry) => `${path.relative(ROOT, file)}: ${entry}`),
	);
	if (problems.length === 0) return;
	throw new Error(
		`${problems.length} lock file entries have no version, which npm ci cannot install with an empty cache:\n  ${problems.join('\n  ')}\n` +
			'Regenerate the lock with the system npm (CONTRIBUTING.md, "Lock file").',
	);
}

module.exports = { assertLockFilesComplete, committedLockFiles };
