/** @type {import('jest').Config} */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	// n8n-core reads its settings from a user folder; each test worker gets a throw-away one.
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	testTimeout: 30000,
};
