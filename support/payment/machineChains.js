// @ts-check
'use strict';
/**
 * Test certificate chains kept on this machine, never in the repository (a leaf key signs for
 * whoever holds it): one JSON file per provider in the temporary folder, per user, made once by
 * the provider's chain module run as a child process, so that signing needs no await.
 */
const { execFileSync } = require('node:child_process');
const { existsSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/** The file of a provider's chains on this machine. @param {string} name */
const machineFile = (name) =>
	path.join(
		os.tmpdir(),
		`n8n-nodes-affiliate-tracking-${name}-test-chains-${os.userInfo().uid}.json`,
	);

/**
 * What `file` holds, made first by running `script` when it is missing.
 * @param {string} file @param {string} script @returns {any}
 */
function readMachineFile(file, script) {
	if (!existsSync(file)) execFileSync(process.execPath, [script], { stdio: 'inherit' });
	return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * `stored` written to `file` whole, then renamed: processes starting at once read one complete
 * file. Readable by this user only.
 * @param {string} file @param {unknown} stored
 */
function writeMachineFile(file, stored) {
	const partial = `${file}.${process.pid}`;
	writeFileSync(partial, `${JSON.stringify(stored, null, '\t')}\n`, { mode: 0o600 });
	renameSync(partial, file);
}

module.exports = { machineFile, readMachineFile, writeMachineFile };
