#!/usr/bin/env node
// @ts-check
'use strict';
/**
 * `npm run setup:n8n`: installs the default n8n release (and playwright-core) with its Node into
 * the install cache outside the clone (support/n8n/n8nInstall.js: `$N8N_INSTALL_CACHE`, or
 * `${XDG_CACHE_HOME:-~/.cache}/n8n-nodes-affiliate-tracking`), once; later calls reuse it.
 * `npm start` and `npm run test:e2e` call the same step.
 */
const { installDefaultRelease } = require('../support/n8n/n8nInstance');

installDefaultRelease((line) => console.log(line)).catch((error) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
