/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Issue 42, Build 4, at real time (the CI test, test/reliability/refusing-everything.test.ts, moves
 * the node's clock instead): 400 items of Tag → Remove From Contact (a trigger's run, Continue On
 * Fail) through n8n-core's RoutingNode against the sandbox in this process, the shipped retry policy
 * and pace, with
 *   refusing   every request answered 429 without Retry-After: how long the run takes (the issue:
 *              within 90 s), whether every item names the answer, and how many requests came
 *              after the first minute (a handful);
 *   refusing0  the same with Retry-After: 0;
 *   perMinute  a per-minute limit: every request refused (429, no Retry-After) for the first 50 s,
 *              then accepted: whether all 400 are done, and how long it takes.
 *
 *   node -r ts-node/register/transpile-only scripts/tools/refusing-everything.ts [--only refusing,refusing0,perMinute] [--items 400]
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-refusing-'));

const argument = (name: string, fallback: string): string => {
	const at = process.argv.indexOf(`--${name}`);
	return at === -1 ? fallback : process.argv[at + 1];
};

async function main(): Promise<void> {
	const { DirectoryLoader } = await import('n8n-core');
	const { forgetPaces } = await import('../../nodes/shared/pace');
	const { runRoutingNode } = await import('../../test/helpers/n8n-harness');
	const { removeBigTag, itemsFor, membersOf, removalsOf, BIG_TAG_CONTACTS } = await import('../../test/reliability/bulk');
	const { startSandbox } = await import('../../test/sandbox');
	const { ConversationInbox } = require(join(__dirname, '../../nodes/ConversationInbox/ConversationInbox.node.ts')) as typeof import('../../nodes/ConversationInbox/ConversationInbox.node');
	const node = new ConversationInbox();
	// As n8n's loader does it for a VersionedNodeType: to every version.
	for (const version of Object.values(node.nodeVersions)) DirectoryLoader.applyDeclarativeNodeOptionParameters(version);

	const items = Number(argument('items', '400'));
	const only = argument('only', 'refusing,refusing0,perMinute').split(',');
	const sandbox = await startSandbox({ quiet: true, seed: { contactsOnBigTag: BIG_TAG_CONTACTS } });
	console.log(`${items} items, Tag → Remove From Contact, Continue On Fail; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

	const cases: Record<string, { refuse: (elapsedMs: number) => boolean; retryAfter?: string }> = {
		refusing: { refuse: () => true },
		refusing0: { refuse: () => true, retryAfter: '0' },
		perMinute: { refuse: (elapsedMs) => elapsedMs < 50_000 },
	};
	for (const name of only) {
		const spec = cases[name];
		if (!spec) throw new Error(`unknown case ${name}`);
		sandbox.reset();
		forgetPaces();
		const phones = membersOf(sandbox).slice(0, items);
		let first: number | undefined;
		sandbox.answerWith = (request) => {
			if (request.path !== '/v2/tag/remove-from-contact') return undefined;
			first ??= request.at;
			return spec.refuse(request.at - first) ? { answer: { status: 429, ...(spec.retryAfter !== undefined && { retryAfter: spec.retryAfter }) } } : undefined;
		};
		const started = performance.now();
		const out = await runRoutingNode('conversationInbox', node, {
			parameters: removeBigTag,
			items: itemsFor(phones),
			continueOnFail: true,
			mode: 'trigger',
			credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
		});
		const seconds = (performance.now() - started) / 1000;
		const requests = removalsOf(sandbox);
		const start = first ?? 0;
		const afterMinute = requests.filter((r) => r.at - start > 60_000).length;
		const failed = out.filter((item) => item.json.error !== undefined);
		const naming429 = failed.filter((item) => /HTTP 429/.test(String(item.json.error))).length;
		const unsent = failed.filter((item) => /not sent$/.test(String(item.json.error))).length;
		const accepted = requests.filter((r) => r.status === 200).length;
		console.log(
			`${name}: ${seconds.toFixed(1)} s; ${out.length} results, ${out.length - failed.length} done, ${failed.length} failed (${naming429} naming HTTP 429, ${unsent} of them unsent); ` +
				`${requests.length} requests (${accepted} accepted), ${afterMinute} after the first minute; load ${loadavg()[0].toFixed(2)}`,
		);
	}
	await sandbox.close();
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
