// @ts-check
'use strict';
/**
 * Required first by the benchmarks that run n8n-core in their own process: its dependency
 * injection needs `reflect-metadata` before anything of n8n loads, and n8n-core writes its
 * instance settings into a user folder, a temporary one unless N8N_USER_FOLDER says.
 */
require('reflect-metadata');
const { mkdtempSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(os.tmpdir(), 'affiliate-tracking-bench-'));
