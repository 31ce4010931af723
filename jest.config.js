/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	setupFiles: ['<rootDir>/test/helpers/setup.ts'],
	testTimeout: 60000,
	reporters: ['default', '<rootDir>/test/helpers/summaryReporter.js'],
	collectCoverageFrom: ['dist/credentials/**/*.js', 'dist/nodes/**/*.js'],
	coverageProvider: 'v8',
	coverageReporters: ['text-summary', 'text'],
};
