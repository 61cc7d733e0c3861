// StrykerJS (mutation testing): which tests cannot fail. Run it with scripts/tools/mutation.sh, which
// installs Stryker outside the repo and sets the two variables read here (docs/development.md,
// "Mutation testing"):
//   STRYKER_MUTATE  the module(s) to mutate, comma-separated (`nodes/shared/reading.ts`; a line
//                   range narrows it: `nodes/shared/errors.ts:100-180`)
//   STRYKER_TESTS   the test files or folders that cover it, comma-separated
// Stryker is not a dev dependency: its plugins are found next to @stryker-mutator/core (the default
// `plugins: ['@stryker-mutator/*']` is globbed from core's own node_modules folder), while the jest
// runner loads jest, ts-jest and jest-environment-node from the project's node_modules (it resolves
// them from the working directory), so the project's jest.config.js runs unchanged.
const list = (name) =>
	(process.env[name] ?? '')
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');

const mutate = list('STRYKER_MUTATE');
const tests = list('STRYKER_TESTS');
if (mutate.length === 0 || tests.length === 0) {
	throw new Error('stryker.config.mjs: set STRYKER_MUTATE and STRYKER_TESTS (run it with scripts/tools/mutation.sh)');
}

// Reports and the incremental record are kept per module, under reports/mutation/ (git-ignored).
const slug = mutate.map((entry) => entry.replace(/[^A-Za-z0-9]+/g, '-')).join('+');
const reports = `reports/mutation/${slug}`;

// A folder stands for the test files under it; a file for itself.
const testMatch = tests.map((entry) =>
	entry.endsWith('.ts') ? `<rootDir>/${entry}` : `<rootDir>/${entry.replace(/\/$/, '')}/**/*.test.ts`,
);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	mutate,
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		configFile: 'jest.config.js',
		// Only the named tests; jest's findRelatedTests narrows them further to those importing the
		// module, which it can follow only through files under its roots (the project's: test/ only).
		config: { roots: ['<rootDir>/test', '<rootDir>/nodes', '<rootDir>/credentials'], testMatch },
		enableFindRelatedTests: true,
	},
	// each mutant runs only the tests that reached it in the first (coverage) run
	coverageAnalysis: 'perTest',
	// the machine's cores are shared: one jest at a time unless STRYKER_CONCURRENCY says otherwise
	concurrency: Number(process.env.STRYKER_CONCURRENCY ?? 1),
	// the tests talk to the sandbox over real HTTP; a loaded machine needs the margin
	timeoutMS: 15000,
	timeoutFactor: 2,
	// re-runs test only the mutants and tests that changed since the last run
	incremental: true,
	incrementalFile: `${reports}/incremental.json`,
	tempDirName: '.stryker-tmp',
	cleanTempDir: 'always',
	ignorePatterns: ['reports', 'dist', 'coverage', 'test-output', 'docs', 'examples', '.n8n-cache'],
	reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
	htmlReporter: { fileName: `${reports}/mutation.html` },
	jsonReporter: { fileName: `${reports}/mutation.json` },
	clearTextReporter: { allowColor: false, reportTests: false, reportMutants: true, reportScoreTable: true },
	thresholds: { high: 90, low: 75, break: null },
};
