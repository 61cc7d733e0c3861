/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Issue 37's quick profile of our cost per request, without n8n's server: the action node through
 * n8n-core's RoutingNode (test/helpers/n8n-harness.ts) in this process, the sandbox in a child
 * process (so its work is not in this process's profile), seeded as the bench's list cases.
 * Cases (each run `--rounds` times after one warm-up; prints each run's wall time and this
 * process's CPU time):
 *   stall     Tag → Remove From Contact of `--items` items (1 000), no Batching, no rate limit
 *   tag       Tag → Get Contacts, Return All, 10 000 contacts (100 pages)
 *   chats     Chat → Get Many, Return All, 10 000 chats
 *   messages  Message → Get Many, Return All, 5 000 messages
 *
 *   node --cpu-prof --cpu-prof-dir DIR -r ts-node/register/transpile-only scripts/bench/profile-request-path.ts \
 *     [--only stall,tag,chats,messages] [--rounds 5] [--items 1000] [--latency 0]
 *   node scripts/bench/profile.mjs DIR/<file>.cpuprofile --ours
 *
 * The figures are for comparing two builds on the same machine in the same hour, not the bench's.
 */
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-profile-'));

const argument = (name: string, fallback: string): string => {
	const at = process.argv.indexOf(`--${name}`);
	return at === -1 ? fallback : process.argv[at + 1];
};

const SIZES = { tagContacts: 10_000, chats: 10_000, messages: 5_000, templates: 2_000 };

/** The child: the sandbox, seeded as the bench's list cases; `reset` on request. */
async function serve(): Promise<void> {
	const { startSandbox } = await import('../../test/sandbox');
	const { seedLists } = await import('./lists');
	const { membersOf } = await import('../../test/reliability/bulk');
	const sandbox = await startSandbox({ quiet: true, latencyMs: Number(argument('latency', '0')) });
	const reseed = (): string[] => {
		seedLists(sandbox, SIZES);
		return membersOf(sandbox);
	};
	const phones = reseed();
	process.on('message', (message: { kind: string }) => {
		if (message.kind === 'reset') reseed();
		process.send?.({ kind: 'ready' });
	});
	process.send?.({ kind: 'started', baseUrl: sandbox.baseUrl, token: sandbox.token, phones });
}

async function main(): Promise<void> {
	const { DirectoryLoader } = await import('n8n-core');
	const { forgetPaces } = await import('../../nodes/shared/pace');
	const { runRoutingNode } = await import('../../test/helpers/n8n-harness');
	const { removeBigTag, itemsFor } = await import('../../test/reliability/bulk');
	const { LIST_CASES } = await import('./lists');
	// By its full name (scripts/bench/poisoned.ts says why).
	const { ConversationInbox } = require(join(__dirname, '../../nodes/ConversationInbox/ConversationInbox.node.ts')) as typeof import('../../nodes/ConversationInbox/ConversationInbox.node');
	// Loaded once, as n8n loads it once: its description is built at load, not per run.
	const node = new ConversationInbox();
	// A VersionedNodeType: n8n's loader prepares every version.
	for (const version of Object.values(node.nodeVersions)) DirectoryLoader.applyDeclarativeNodeOptionParameters(version);
	const loadedNode = () => node;

	const child = fork(__filename, ['--serve', ...process.argv.slice(2)], { execArgv: ['-r', 'ts-node/register/transpile-only'] });
	const next = async <T>(): Promise<T> => await new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));
	const { baseUrl, token, phones } = await next<{ baseUrl: string; token: string; phones: string[] }>();
	const reset = async (): Promise<void> => {
		const ready = next();
		child.send({ kind: 'reset' });
		await ready;
	};

	const only = argument('only', 'stall,tag,chats,messages').split(',');
	const rounds = Number(argument('rounds', '5'));
	const items = Number(argument('items', '1000'));
	const credentials = { baseUrl, apiToken: token };
	const cases: Array<{ key: string; parameters: Record<string, unknown>; items?: Array<Record<string, unknown>> }> = [];
	if (only.includes('stall')) cases.push({ key: 'stall', parameters: removeBigTag, items: itemsFor(phones.slice(0, items)) });
	for (const list of LIST_CASES) if (only.includes(list.key)) cases.push({ key: list.key, parameters: list.ours });

	try {
		for (const c of cases) {
			const times: number[] = [];
			const cpuTimes: number[] = [];
			for (let round = 0; round <= rounds; round++) {
				if (c.key === 'stall') await reset();
				forgetPaces();
				const started = performance.now();
				const cpuBefore = process.cpuUsage();
				const output = await runRoutingNode('conversationInbox', loadedNode(), {
					parameters: c.parameters as never,
					items: c.items as never,
					mode: 'trigger',
					credentials,
				});
				const elapsed = performance.now() - started;
				// CPU time of this process (the sandbox is another): on a shared machine the wall time
				// and a profile's self times grow with the load, the CPU time much less.
				const cpu = process.cpuUsage(cpuBefore);
				const cpuMs = (cpu.user + cpu.system) / 1000;
				if (round > 0) {
					times.push(elapsed);
					cpuTimes.push(cpuMs);
				}
				console.log(`${c.key}\t${round === 0 ? 'warm-up' : `round ${round}`}\t${elapsed.toFixed(0)} ms\tCPU ${cpuMs.toFixed(0)} ms\t${output.length} items`);
			}
			const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1];
			console.log(`${c.key}\tmedian ${median(times).toFixed(0)} ms\tCPU ${median(cpuTimes).toFixed(0)} ms`);
		}
	} finally {
		child.kill();
	}
}

(process.argv.includes('--serve') ? serve() : main()).catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
