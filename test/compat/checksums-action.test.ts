/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The 0.1.0 fixtures are frozen (scripts/tools/record-0.1.0-fixtures.ts recorded the action node's once
 * from the released build): any change to a file, a file missing, or a file not listed fails the
 * suite. SHA256SUMS holds one `sha256  path` line per file, path relative to test/fixtures/0.1.0;
 * this file checks that every file of the folder is listed and the action node's lines (action/...),
 * checksums-trigger.test.ts the trigger's.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', 'fixtures', '0.1.0');
const SUMS = 'SHA256SUMS';

function filesUnder(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [relative(ROOT, path).split('\\').join('/')];
	});
}

const listed = readFileSync(join(ROOT, SUMS), 'utf8')
	.split('\n')
	.filter((line) => line !== '')
	.map((line) => {
		const match = /^([0-9a-f]{64}) {2}(\S.*)$/.exec(line);
		if (!match) throw new Error(`${SUMS}: not a "sha256  path" line: ${line}`);
		return { hash: match[1], path: match[2] };
	});

describe('the frozen 0.1.0 fixtures', () => {
	it('lists every file once, sorted by path', () => {
		const paths = listed.map((entry) => entry.path);
		expect(paths).toEqual([...new Set(paths)].sort());
		expect(filesUnder(ROOT).filter((path) => path !== SUMS).sort()).toEqual(paths);
		expect(paths.filter((path) => path.startsWith('action/')).length).toBeGreaterThanOrEqual(2 * 19);
	});

	it.each(listed.filter((entry) => entry.path.startsWith('action/')).map((entry) => [entry.path, entry.hash] as const))('%s is unchanged', (path, hash) => {
		expect(existsSync(join(ROOT, path))).toBe(true);
		expect(createHash('sha256').update(readFileSync(join(ROOT, path))).digest('hex')).toBe(hash);
	});
});
