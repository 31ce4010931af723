// @ts-check
'use strict';
/**
 * A temp folder holding a file of a known size, for the install heartbeat's test (in JavaScript:
 * the community-node lint forbids node:fs in the TypeScript tests).
 */
const fs = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

/** @param {number} bytes written for real (not a sparse file), so that the disk holds them */
function folderWithBytes(bytes) {
	const dir = fs.mkdtempSync(join(tmpdir(), 'affiliate-tracking-folder-'));
	fs.writeFileSync(join(dir, 'written.bin'), Buffer.alloc(bytes, 1));
	return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

module.exports = { folderWithBytes };
