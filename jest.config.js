const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

// n8n-core writes its settings into the user folder: keep it out of ~/.n8n. Workers inherit it.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'affiliate-tracking-n8n-'));

const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] };

/** @type {import('jest').Config} */
module.exports = {
	testTimeout: 60000,
	reporters: ['default', '<rootDir>/support/testing/summaryReporter.js'],
	// `npm run test:coverage`: the unit tests' coverage of the TypeScript sources.
	collectCoverageFrom: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	coverageProvider: 'v8',
	coverageReporters: ['text-summary', 'text'],
	projects: [
		{
			// Decisions of the TypeScript sources, no build and no sockets: test/<subject>/*.unit.test.ts.
			displayName: 'unit',
			testEnvironment: 'node',
			// The sources are roots too, so that coverage counts the files no unit test loads.
			roots: ['<rootDir>/test', '<rootDir>/nodes', '<rootDir>/credentials'],
			testMatch: ['**/*.unit.test.ts'],
			transform,
		},
		{
			// The built package as n8n loads it: workflows through n8n-core's engine, the sandbox's
			// contract, the description n8n reads.
			displayName: 'integration',
			testEnvironment: 'node',
			// test/<subject>/*.{engine,contract,package}.test.ts
			roots: ['<rootDir>/test'],
			testMatch: ['**/*.engine.test.ts', '**/*.contract.test.ts', '**/*.package.test.ts'],
			transform,
			// n8n-core's dependency injection needs the metadata polyfill before anything loads.
			setupFiles: ['reflect-metadata'],
			globals: { PACKAGE_DIR: __dirname },
		},
	],
};
