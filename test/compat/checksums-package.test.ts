/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The released 0.1.0 as npm packed it (test/fixtures/0.1.0/package/, packed once from commit 74a8fad;
 * the e2e install suite publishes it to its local registry and installs it before updating to
 * today's build) is frozen like the other 0.1.0 fixtures: test/fixtures/0.1.0/SHA256SUMS lists it,
 * and this file checks its lines (package/...).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const FIXTURES = join(__dirname, '..', 'fixtures', '0.1.0');
const entries = readFileSync(join(FIXTURES, 'SHA256SUMS'), 'utf8')
	.split('\n')
	.filter((line) => line !== '')
	.map((line) => {
		const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line);
		if (!match) throw new Error(`SHA256SUMS: not a "sha256  path" line: ${JSON.stringify(line)}`);
		return { sum: match[1], path: match[2] };
	});
const packageEntries = entries.filter((entry) => entry.path.startsWith('package/'));

test('SHA256SUMS lists the one file under package/: the 0.1.0 tarball', () => {
	expect(readdirSync(join(FIXTURES, 'package')).map((name) => `package/${name}`)).toEqual(['package/n8n-nodes-conversation-inbox-0.1.0.tgz']);
	expect(packageEntries.map((entry) => entry.path)).toEqual(['package/n8n-nodes-conversation-inbox-0.1.0.tgz']);
});

test.each(packageEntries.map((entry) => [entry.path, entry.sum]))('%s has the SHA-256 it was packed with', (path, sum) => {
	expect(createHash('sha256').update(readFileSync(join(FIXTURES, path))).digest('hex')).toBe(sum);
});
