/**
 * End-to-end tests against real n8n (test/e2e/*.e2e.ts): `npm run test:e2e`.
 * One file per n8n version; N8N_E2E_VERSIONS (default "2,1") selects the versions, and files of
 * versions not selected skip. Files run one after the other (each starts its own n8n).
 * @type {import('jest').Config}
 */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	globalSetup: '<rootDir>/test/e2e/global-setup.ts',
	globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
	maxWorkers: 1,
	testTimeout: 120000,
	slowTestThreshold: 60,
};
