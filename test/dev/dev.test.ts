/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * `npm run dev` (scripts/dev.ts), the parts that need no n8n: the demo IDs it prints and the README
 * table that lists them, and the npm script that lets signals reach it. Its start and stop in real
 * n8n are in test/e2e/dev.e2e.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { demoIdLines, demoIdSections } from '../../scripts/dev';
import { DEMO } from '../sandbox';

const REPO_ROOT = join(__dirname, '..', '..');

/** Every seeded ID a user cannot pick from a list, plus the chats (straight from the seed). */
const NEEDED_IDS = [
	...Object.values(DEMO.tags).map((t) => t.id),
	...Object.values(DEMO.triggers).map((t) => t.id),
	...Object.values(DEMO.bots).map((b) => b.id),
	...Object.values(DEMO.customFields).flatMap((template) => Object.values(template.fields)),
	...Object.values(DEMO.chats).map((c) => c.id),
];

describe('npm run dev: demo IDs', () => {
	test('the printed block names every tag, automation trigger, bot, template field and chat ID, each once', () => {
		const printed = demoIdLines().join('\n');
		for (const id of NEEDED_IDS) {
			expect({ id, times: printed.split(id).length - 1 }).toEqual({ id, times: 1 });
		}
		// Each ID is on a line with its name: "      VIP    cec2…".
		expect(demoIdLines()).toContainEqual(expect.stringMatching(new RegExp(`^ +VIP +${DEMO.tags.vip.id}$`)));
		expect(demoIdLines()).toContainEqual(
			expect.stringMatching(new RegExp(`^ +Customer profile: cpf +${DEMO.customFields.profile.fields.cpf}$`)),
		);
	});

	test("the demo section of docs/development.md lists the same rows as the script prints", () => {
		const readme = readFileSync(join(REPO_ROOT, 'docs', 'development.md'), 'utf8');
		const section = readme.slice(readme.indexOf('## The demo (`npm run dev`)'));
		expect(section.length).toBeLessThan(readme.length);
		for (const { title, rows } of demoIdSections()) {
			expect(section).toContain(`| **${title}** | |`);
			for (const [name, id] of rows) expect(section).toContain(`| ${name} | \`${id}\` |`);
		}
		for (const id of NEEDED_IDS) expect(section).toContain(id);
	});
});

describe('npm run dev: signals', () => {
	test('npm runs the script with exec, so no `sh -c` layer stands between npm and the script', () => {
		// npm forwards SIGINT/SIGTERM to its child only; a `sh -c` child ignores a background SIGINT
		// and dies on SIGTERM, leaving the script (and n8n) running.
		const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
		expect(pkg.scripts.dev).toMatch(/^exec ts-node .*scripts\/dev\.ts$/);
	});
});
