/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The 0.1.0 trigger fixtures are frozen (recorded once from the released build by
 * scripts/tools/record-0.1.0-trigger.ts): a fixture that changes, appears or disappears fails here.
 * test/fixtures/0.1.0/SHA256SUMS holds one `sha256  path` line per file, path relative to that
 * folder, sorted by path; this file checks the trigger's lines (trigger/...).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(__dirname, '..', 'fixtures', '0.1.0');
const lines = readFileSync(join(FIXTURES, 'SHA256SUMS'), 'utf8').split('\n').filter((line) => line !== '');
const entries = lines.map((line) => {
	const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
	if (!match) throw new Error(`SHA256SUMS: not a "sha256  path" line: ${JSON.stringify(line)}`);
	return { sum: match[1], path: match[2] };
});
const trigger = entries.filter((entry) => entry.path.startsWith('trigger/'));

test('SHA256SUMS lists every file under trigger/, each once, sorted by path', () => {
	const files = readdirSync(join(FIXTURES, 'trigger')).map((name) => `trigger/${name}`).sort();
	expect(files.length).toBeGreaterThan(0);
	expect(trigger.map((entry) => entry.path)).toEqual(files);
	const paths = entries.map((entry) => entry.path);
	expect(paths).toEqual([...paths].sort());
});

test.each(trigger.map((entry) => [entry.path, entry.sum]))('%s has the SHA-256 it was recorded with', (path, sum) => {
	expect(createHash('sha256').update(readFileSync(join(FIXTURES, path))).digest('hex')).toBe(sum);
});
