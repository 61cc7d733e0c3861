/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * `npm run dev` (scripts/dev.ts), the parts that need no n8n: the demo IDs it prints and the README
 * table that lists them, and the npm script that lets signals reach it. Its start and stop in real
 * n8n are in test/e2e/dev.e2e.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { demoIdLines, demoIdSections, parseDevArgs, readyLines } from '../../scripts/dev';
import { N8N_VERSIONS } from '../e2e/harness/provision';
import { DEMO_OWNER } from '../e2e/harness/stack';
import { exampleNames, loadExample } from '../e2e/harness/workflows';
import { useSandbox } from '../helpers/node-runner';
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

describe('npm run dev: the ready block', () => {
	const info = { version: '2.41.1', seconds: 37, editor: 'http://127.0.0.1:5678/', api: 'http://127.0.0.1:4010/v2', userFolder: '/tmp/n8n-dev', kept: false };

	test('with the sandbox: its API token beside its address, for a credential of one\'s own (issue 43, row 15)', () => {
		const lines = readyLines({ ...info, sandboxToken: DEMO.token });
		expect(lines).toContain('  API:      http://127.0.0.1:4010/v2 (sandbox, demo data)');
		expect(lines).toContain(`  Token:    ${DEMO.token} (the sandbox's API token, for a Conversation Inbox credential of your own)`);
		expect(lines).toContain(`  Login:    ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`);
	});

	test('with a real API: its token is never printed', () => {
		const lines = readyLines({ ...info, api: 'https://api.example.com/v2' });
		expect(lines.join('\n')).not.toMatch(/Token:/);
		expect(lines).toContain('  API:      https://api.example.com/v2');
	});

	test('the README gives the same address and token', () => {
		const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
		expect(readme).toContain(`Base URL\n   **http://127.0.0.1:4010/v2**, API Token **${DEMO.token}**`);
	});
});

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

describe("the README's first screen says what npm run dev gives", () => {
	const ctx = useSandbox();
	const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
	const firstScreen = readme.slice(0, readme.indexOf('\n## '));

	test('the two commands open the README; .ci/run runs the test one exactly', () => {
		expect(readme.split('\n').slice(2, 6)).toEqual([
			'```bash',
			'npm install --no-audit --no-fund && npm run dev        # main job: n8n with these nodes and the sandbox API, ready to use',
			'npm install --no-audit --no-fund && npm run test:all   # the whole test suite (exactly what .ci/run runs)',
			'```',
		]);
		expect(readFileSync(join(REPO_ROOT, '.ci', 'run'), 'utf8')).toContain('\nnpm install --no-audit --no-fund && npm run test:all\n');
	});

	test('the URL, the login, the ready line, the examples and what they show', () => {
		expect(firstScreen).toContain(`**http://127.0.0.1:${parseDevArgs([], {}).port}**`);
		expect(firstScreen).toContain(`**${DEMO_OWNER.email}** / **${DEMO_OWNER.password}**`);
		// What scripts/dev.ts prints when n8n is ready.
		expect(readyLines({ version: N8N_VERSIONS['2'], seconds: 1, editor: '', api: '', userFolder: '', kept: false })).toContain(`n8n ${N8N_VERSIONS['2']} with n8n-nodes-conversation-inbox is ready (1 s).`);
		expect(firstScreen).toContain(`\`n8n ${N8N_VERSIONS['2']} with n8n-nodes-conversation-inbox is ready\``);
		const names = exampleNames().map((name) => loadExample(name).name);
		expect(firstScreen).toContain(`the ${['zero', 'one', 'two', 'three', 'four', 'five', 'six'][names.length]} example workflows`);
		expect(names).toContain('Conversation Inbox: list the approved message templates');
		expect(firstScreen).toContain('Open **Conversation Inbox: list the approved message templates**');
		const templates = ctx.sandbox.state.templates.get(DEMO.integrations.official.id)!.list;
		const approved = templates.filter((t) => t.status === 'APPROVED').length;
		expect(firstScreen).toContain(`lists the ${approved} approved templates`);
		expect(firstScreen).toContain(`(of its ${templates.length},`);
		expect(firstScreen).toContain(`(${DEMO.defaults.contactsOnBigTag} contacts,`);
		expect(firstScreen).toMatch(/\(docs\/screenshots\/[a-z0-9-]+\.png\)/);
		for (const [, picture] of firstScreen.matchAll(/\((docs\/screenshots\/[a-z0-9-]+\.png)\)/g)) {
			expect(existsSync(join(REPO_ROOT, picture))).toBe(true);
		}
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
