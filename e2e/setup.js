#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run setup:n8n`: installs the real n8n (and playwright-core) into e2e/, apart from the
 * package, once; later calls reuse it. `npm start` and `npm run test:e2e` call the same step.
 */
const { ensureN8n } = require('./n8n');

ensureN8n((line) => console.log(line)).catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
