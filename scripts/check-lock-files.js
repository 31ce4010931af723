#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `node scripts/check-lock-files.js [lock file…]`: fails when a lock file (default: every committed
 * lock) holds an entry without a version, which npm ci cannot install with an empty cache. The
 * check and why it exists: support/lockFiles.js.
 */
const { assertLockFilesComplete, committedLockFiles } = require('../support/lockFiles');

const files = process.argv.length > 2 ? process.argv.slice(2) : committedLockFiles();
try {
	assertLockFilesComplete(files);
	console.log(`lock files: ${files.length} checked, every entry has a version`);
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
}
