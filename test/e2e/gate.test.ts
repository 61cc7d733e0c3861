/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * harness/gate.ts in a real jest run (a child jest over a sample suite): a suite switched off is
 * skipped outside CI and fails under CI=true, naming what is missing; a suite switched on runs.
 * (A unit test: jest runs it with the other *.test.ts, not with the e2e suites.)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '..', '..');

interface JestReport {
	numPassedTests: number;
	numFailedTests: number;
	numPendingTests: number;
	testResults: Array<{ assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }> }>;
}

let dir: string;

beforeAll(() => {
	mkdirSync(join(REPO_ROOT, 'test-output'), { recursive: true });
	dir = mkdtempSync(join(REPO_ROOT, 'test-output', 'gate-'));
	const gate = JSON.stringify(join(REPO_ROOT, 'test', 'e2e', 'harness', 'gate'));
	writeFileSync(
		join(dir, 'suites.sample.ts'),
		`import { describeWhen } from ${gate};
describeWhen(false, 'the switched-off suite', 'E2E_SAMPLE=0', () => { test('a check', () => undefined); });
describeWhen(true, 'the switched-on suite', 'never off', () => { test('a check', () => undefined); });
`,
	);
});

afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

function runJest(ci: string | undefined): { status: number | null; report: JestReport } {
	const config = {
		rootDir: dir,
		testMatch: ['**/*.sample.ts'],
		testEnvironment: 'node',
		transform: { '^.+\\.ts$': [require.resolve('ts-jest'), { diagnostics: false }] },
	};
	const env: NodeJS.ProcessEnv = { ...process.env };
	delete env.CI;
	if (ci !== undefined) env.CI = ci;
	const result = spawnSync(
		process.execPath,
		[require.resolve('jest/bin/jest'), '--config', JSON.stringify(config), '--json', '--ci=false'],
		{ cwd: dir, env, encoding: 'utf8' },
	);
	return { status: result.status, report: JSON.parse(result.stdout) as JestReport };
}

const outcomes = (report: JestReport): string[][] =>
	report.testResults.flatMap((file) => file.assertionResults.map((test) => [test.fullName, test.status])).sort();

test('outside CI the switched-off suite is skipped, the reason in its title; the other runs', () => {
	const { status, report } = runJest(undefined);
	expect(status).toBe(0);
	expect(outcomes(report)).toEqual([
		['the switched-off suite (skipped: E2E_SAMPLE=0) a check', 'pending'],
		['the switched-on suite a check', 'passed'],
	]);
}, 60_000);

test('under CI=true the switched-off suite fails, naming what is missing', () => {
	const { status, report } = runJest('true');
	expect(status).toBe(1);
	expect(outcomes(report)).toEqual([
		['the switched-off suite runs under CI=true', 'failed'],
		['the switched-on suite a check', 'passed'],
	]);
	const [message] = report.testResults.flatMap((file) => file.assertionResults.flatMap((test) => test.failureMessages));
	expect(message).toContain('the switched-off suite did not run: E2E_SAMPLE=0. CI expects every e2e suite');
	expect(report.numPendingTests).toBe(0);
}, 60_000);

test('CI=false is not CI: the switched-off suite is skipped, as outside CI', () => {
	const { status, report } = runJest('false');
	expect(status).toBe(0);
	expect(outcomes(report)).toEqual([
		['the switched-off suite (skipped: E2E_SAMPLE=0) a check', 'pending'],
		['the switched-on suite a check', 'passed'],
	]);
}, 60_000);
