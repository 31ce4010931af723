const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

// n8n-core writes its settings into the user folder: keep it out of ~/.n8n. Workers inherit it.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'affiliate-tracking-n8n-'));

/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	// n8n-core's dependency injection needs the metadata polyfill before anything loads.
	setupFiles: ['reflect-metadata'],
	// The built package that the tests load the way n8n does.
	globals: { PACKAGE_DIR: __dirname },
	testTimeout: 60000,
	reporters: ['default', '<rootDir>/test/helpers/summaryReporter.js'],
	collectCoverageFrom: ['dist/credentials/**/*.js', 'dist/nodes/**/*.js'],
	coverageProvider: 'v8',
	coverageReporters: ['text-summary', 'text'],
};
