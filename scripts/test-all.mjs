// `npm run test:all` (what .ci/run runs): every check, jest, then the end-to-end suite in real n8n.
//
// On a cold machine the slowest step is not a test: installing n8n 2.41.1 and 1.123.81 into the
// cache (about 11 minutes, mostly download and unpacking), Chromium and PostgreSQL/Redis from Debian.
// None of that is needed before the e2e suite, so it runs in the background from the first second,
// beside the typecheck, build, verify (lint, scanner, package checks) and jest, and the e2e suite starts once both are done.
// Warm (everything cached), the background step only checks its markers and ends at once.
//
// Each step's output goes to the terminal as it comes; the background step's goes to a log file
// whose path is printed, and its tail is printed if it fails. The first failing step ends the run
// with its exit code; the background step is then stopped (its process group).
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
const say = (line) => process.stderr.write(`[test:all ${elapsed()}] ${line}\n`);

/** The foreground step running now (stopped with us on a signal). */
let current;

/** Runs a command in the foreground; resolves with its exit code. */
function run(command, args) {
	return new Promise((done) => {
		current = spawn(command, args, { cwd: root, stdio: 'inherit' });
		current.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
	});
}

// What the e2e suite needs installed, in the order it needs it; each step is idempotent (a no-op when
// installed) and the provisioning script locks its folders, so the e2e setup calling it again waits
// for (or reuses) this install. apt-get runs one step at a time (its lock).
const PREPARE = [
	'bash scripts/provision-n8n.sh all >&2',
	'bash scripts/install-chromium.sh >&2',
	'node -r ts-node/register/transpile-only -e "require(\'./test/e2e/harness/services\').ensureQueuePackages((line) => console.error(line))"',
].join(' && ');

const logDir = mkdtempSync(join(tmpdir(), 'test-all-'));
const prepareLog = join(logDir, 'prepare.log');
const out = openSync(prepareLog, 'a');
// Its own process group, so a failure of the foreground steps stops all of it.
const prepare = spawn('bash', ['-c', PREPARE], { cwd: root, stdio: ['ignore', out, out], detached: true });
const prepared = new Promise((done) => prepare.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0))));
say(`installing n8n, Chromium, PostgreSQL and Redis in the background (log: ${prepareLog})`);

const stopPrepare = () => {
	try {
		process.kill(-prepare.pid, 'SIGTERM');
	} catch {
		// already ended
	}
};
process.on('exit', stopPrepare);
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		current?.kill(signal);
		process.exit(130);
	});
}

// verify holds the lint, n8n's scanner and the package checks (scripts/release/verify.mjs).
const FOREGROUND = [
	['npm', ['run', 'typecheck']],
	['npm', ['run', 'build']],
	['npm', ['run', 'verify']],
	['npm', ['test']],
];

for (const [command, args] of FOREGROUND) {
	say(`${command} ${args.join(' ')}`);
	const code = await run(command, args);
	if (code !== 0) {
		say(`${command} ${args.join(' ')} failed (exit ${code})`);
		process.exit(code);
	}
}

say('waiting for the background install to finish');
const prepareCode = await prepared;
if (prepareCode !== 0) {
	const tail = readFileSync(prepareLog, 'utf8').split('\n').slice(-40).join('\n');
	say(`the background install failed (exit ${prepareCode}); the end of ${prepareLog}:\n${tail}`);
	process.exit(prepareCode);
}
say('background install done');

say('npm run test:e2e');
const e2e = await run('npm', ['run', 'test:e2e']);
say(e2e === 0 ? 'all passed' : `npm run test:e2e failed (exit ${e2e})`);
process.exit(e2e);
