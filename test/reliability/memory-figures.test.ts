/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The memory of writes' figures in the README ("Retry On Fail": about 180 B a write, about 620 B an
 * execution of one write, about 0.9 kB a held Remove From Contact answer, about 260 B a held unknown
 * outcome, about 36 MB at the bound; issue 42, Build 8), held as the documented literals: the heap
 * measured after full garbage collections by scripts/tools/never-twice-at-size.ts over 50 000 writes
 * (100 000 when run by hand), each within a quarter above and half below its literal. The outcomes
 * are made by the node's own reader and error builder. The script runs in a Node process of its own:
 * in a jest worker, what earlier test files left behind is freed meanwhile and would be counted
 * against the writes.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { SHIPPED_LIMITS } from '../../nodes/shared/writes';

/** The README's literals (bytes), and its figure at the bound (MB). */
const README = { fact: 180, executionOfOneWrite: 620, removeAnswer: 900, unknownAnswer: 260, atTheBoundMb: 36 };

/** Within a quarter above and half below the literal. */
function expectAbout(measured: number, literal: number): void {
	expect({ measured: Math.round(measured), literal, within: measured <= literal * 1.25 && measured >= literal * 0.5 }).toEqual({ measured: Math.round(measured), literal, within: true });
}

describe('the memory of writes, measured against the README', () => {
	let figures: { fact: number; executionOfOneWrite: number; removeHeld: number; unknownHeld: number };

	beforeAll(() => {
		const root = join(__dirname, '..', '..');
		const script = join('scripts', 'tools', 'never-twice-at-size.ts');
		const out = execFileSync(process.execPath, ['--expose-gc', '-r', 'ts-node/register/transpile-only', script, '--writes', '50000', '--json'], { cwd: root, encoding: 'utf8' });
		figures = JSON.parse(out) as typeof figures;
	}, 120_000);

	test('a fact (a write done, its answer no longer held): about 180 B in a run of many writes; about 620 B an execution of one write', () => {
		expectAbout(figures.fact, README.fact);
		expectAbout(figures.executionOfOneWrite, README.executionOfOneWrite);
	});

	test('a held answer: about 0.9 kB a Remove From Contact answer; about 260 B an unknown outcome (the first try\'s message and HTTP code, not its error)', () => {
		expectAbout(figures.removeHeld, README.removeAnswer);
		expectAbout(figures.unknownHeld, README.unknownAnswer);
	});

	test('at the bound, 100 000 writes of one run with the shipped 20 000 answers held: about 36 MB', () => {
		const atTheBound = (100_000 * figures.fact + SHIPPED_LIMITS.maxAnswers * figures.removeHeld) / 1024 / 1024;
		expectAbout(atTheBound, README.atTheBoundMb);
	});
});
