/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The first start shows progress (issue 26, item 6): test/e2e/harness/progress.ts, which `npm run
 * dev` and the e2e global setup use around scripts/provision-n8n.sh. Ticks come from a ticker the
 * test drives and the time from a clock it sets: sequenced, never waited for.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Progress, runWithProgress } from '../e2e/harness/progress';
import type { Ticker } from '../e2e/harness/progress';

/** What the progress wrote, and the ticker it started (every, tick, stopped). */
function harness(isTTY: boolean) {
	let clock = 1_000_000;
	const written: string[] = [];
	const ticker = { every: 0, tick: (): void => undefined, stopped: false };
	const start: Ticker = (every, tick) => {
		ticker.every = every;
		ticker.tick = tick;
		return () => {
			ticker.stopped = true;
		};
	};
	const out = { isTTY, write: (text: string) => written.push(text) };
	const at = (seconds: number): void => {
		clock = 1_000_000 + seconds * 1000;
	};
	return { written, ticker, out, at, options: { out, now: () => clock, ticker: start } };
}

describe('a long step shows what it does and the time elapsed, at least every 10 s, and its total at the end', () => {
	test('not a terminal: one line per tick with the step and the elapsed time, then the total', () => {
		const h = harness(false);
		const progress = new Progress({ ...h.options, tag: 'provision-n8n' });
		expect(h.ticker.every).toBeLessThanOrEqual(10_000);
		progress.step('installing n8n-2.41.1 with npm');
		h.at(10);
		h.ticker.tick();
		h.at(75);
		h.ticker.tick();
		h.at(312);
		progress.finish('n8n 2.41.1 ready');
		expect(h.written).toEqual([
			'[provision-n8n] still installing n8n-2.41.1 with npm: 10 s elapsed\n',
			'[provision-n8n] still installing n8n-2.41.1 with npm: 1 min 15 s elapsed\n',
			'[provision-n8n] n8n 2.41.1 ready in 5 min 12 s\n',
		]);
		expect(h.ticker.stopped).toBe(true);
	});

	test('a terminal: one line rewritten in place, cleared before other output and at the end', () => {
		const h = harness(true);
		const progress = new Progress({ ...h.options, tag: 'provision-n8n' });
		progress.step('installing node24 with npm');
		h.at(10);
		h.ticker.tick();
		h.at(20);
		h.ticker.tick();
		progress.line('[provision-n8n] installed node24 in 21 s');
		h.at(30);
		progress.finish('n8n 2.41.1 ready');
		expect(h.written).toEqual([
			'\r\x1b[2K[provision-n8n] still installing node24 with npm: 10 s elapsed',
			'\r\x1b[2K[provision-n8n] still installing node24 with npm: 20 s elapsed',
			'\r\x1b[2K',
			'[provision-n8n] installed node24 in 21 s\n',
			'[provision-n8n] n8n 2.41.1 ready in 30 s\n',
		]);
	});

	test('a fake slow step run through runWithProgress: its step lines set what the ticks say; it ends when the step does', async () => {
		const h = harness(false);
		const progress = new Progress({ ...h.options, tag: 'provision-n8n' });
		progress.step('provisioning n8n 2.41.1');
		const dir = mkdtempSync(join(tmpdir(), 'progress-'));
		const go = join(dir, 'go');
		// Narrates two steps, then waits until the test creates `go`: the test, not a timer, decides when it ends.
		const script = [
			"process.stderr.write('[provision-n8n] reusing /cache/node24\\n');",
			"process.stderr.write('[provision-n8n] installing n8n-2.41.1 with npm (several minutes the first time; log: x)\\n');",
			"process.stderr.write('[provision-n8n] installed /cache/n8n-2.41.1 in 300 s\\n');",
			`const wait = setInterval(() => { if (require('fs').existsSync(${JSON.stringify(go)})) { clearInterval(wait); console.log('n8n 2.41.1: node=/n bin=/b'); } }, 20);`,
		].join('\n');
		let seen!: () => void;
		const narrated = new Promise<void>((resolve) => (seen = resolve));
		const write = h.out.write;
		h.out.write = (text: string) => {
			const n = write(text);
			if (text.includes('installed /cache/n8n-2.41.1')) seen();
			return n;
		};
		const running = runWithProgress(process.execPath, ['-e', script], { progress, tag: 'provision-n8n' });

		await narrated;
		h.at(40);
		h.ticker.tick();
		writeFileSync(go, '');
		const result = await running;
		h.at(41);
		progress.finish('n8n 2.41.1 ready');

		expect(result).toEqual({ status: 0, stdout: 'n8n 2.41.1: node=/n bin=/b\n' });
		expect(h.written).toEqual([
			'[provision-n8n] reusing /cache/node24\n',
			'[provision-n8n] installing n8n-2.41.1 with npm (several minutes the first time; log: x)\n',
			'[provision-n8n] installed /cache/n8n-2.41.1 in 300 s\n',
			// "installed …" reports; the step stays the last one in progress.
			'[provision-n8n] still installing n8n-2.41.1 with npm: 40 s elapsed\n',
			'[provision-n8n] n8n 2.41.1 ready in 41 s\n',
		]);
	});
});
