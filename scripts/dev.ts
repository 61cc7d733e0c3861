/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * `npm run dev` — the main job: a working n8n with this package, in one command after `npm install`.
 *
 *   1. builds the package (npm run build) and packs it (npm pack);
 *   2. starts the sandbox API with its demo data on 127.0.0.1:4010 (or uses a real API, see below);
 *   3. provisions n8n 2.41.1 (first run: several minutes, cached in ~/.cache/n8n-nodes-conversation-inbox)
 *      and starts it on 127.0.0.1:5678 with the package installed in a throw-away user folder;
 *   4. creates the owner (demo@example.com / Demo-Passw0rd), a "Conversation Inbox account"
 *      credential and the example workflows of examples/workflows/, and prints the editor URL.
 * With the sandbox it prints the demo IDs the API cannot list (tags, automation triggers, bots,
 * template fields, chats), the same table as the demo section of docs/development.md.
 * Ctrl-C, or SIGINT/SIGTERM/SIGHUP to the `npm run dev` process (npm forwards them: package.json runs
 * this script with `exec`, so no `sh -c` layer swallows them), stops n8n and the sandbox and removes
 * the user folder; so does the end of the parent process (npm killed with SIGKILL).
 *
 * Flags (or environment):
 *   --api-base-url URL   (CONVERSATION_INBOX_BASE_URL)   use a real API instead of the sandbox; ends in /v2
 *   --api-token TOKEN    (CONVERSATION_INBOX_API_TOKEN)  its API token
 *   --port N             (N8N_DEV_PORT, default 5678)     n8n's port (a free one when 5678 is taken)
 *   --sandbox-port N     (SANDBOX_PORT, default 4010)     the sandbox's port
 *   --n8n 2|1            (N8N_DEV_VERSION, default 2)      n8n 2.41.1 (Node 24) or 1.123.81 (Node 20)
 *   --user-folder DIR    keep n8n's data in DIR (kept on exit; reused, and set up only once)
 *   --verbose            show n8n's log in the terminal (it is always in <user folder>/n8n.log; the path is printed)
 *   --queue              n8n in queue mode instead (scripts/queue-stack.ts; takes --workers N, --port N, --verbose)
 * With a real API nothing is activated: an active trigger would register webhooks on the platform
 * pointing at this machine's 127.0.0.1.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Sandbox } from '../test/sandbox';
import { DEMO, SAAS_RATE_LIMIT, startSandbox } from '../test/sandbox';
import type { N8nClient, WorkflowRecord } from '../test/e2e/harness/n8n-client';
import { freePort, portInUse } from '../test/e2e/harness/n8n-process';
import { buildPackage, packPackage } from '../test/e2e/harness/package';
import { isMajor, N8N_VERSIONS, provisionN8n, type N8nMajor } from '../test/e2e/harness/provision';
import { DEMO_OWNER, startN8nStack, type ApiTarget, type N8nStack } from '../test/e2e/harness/stack';
import { exampleNames, loadExample, prepareForImport, TRIGGER_NODE_TYPE } from '../test/e2e/harness/workflows';
import { parseQueueArgs, runQueueStack } from './queue-stack';

interface DevOptions {
	apiBaseUrl?: string;
	apiToken?: string;
	port: number;
	sandboxPort: number;
	major: N8nMajor;
	userFolder?: string;
	verbose: boolean;
}

const USAGE = `usage: npm run dev -- [--api-base-url URL --api-token TOKEN] [--port N] [--sandbox-port N]
                      [--n8n 2|1] [--user-folder DIR] [--verbose]`;

export function parseDevArgs(argv: string[], env: NodeJS.ProcessEnv): DevOptions {
	const options: DevOptions = {
		apiBaseUrl: env.CONVERSATION_INBOX_BASE_URL || undefined,
		apiToken: env.CONVERSATION_INBOX_API_TOKEN || undefined,
		port: Number(env.N8N_DEV_PORT || 5678),
		sandboxPort: Number(env.SANDBOX_PORT || 4010),
		major: (env.N8N_DEV_VERSION || '2') as N8nMajor,
		verbose: false,
	};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s, 2);
		const value = (): string => {
			const v = inline ?? argv[++i];
			if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value\n${USAGE}`);
			return v;
		};
		switch (flag) {
			case '--api-base-url':
				options.apiBaseUrl = value();
				break;
			case '--api-token':
				options.apiToken = value();
				break;
			case '--port':
				options.port = Number(value());
				break;
			case '--sandbox-port':
				options.sandboxPort = Number(value());
				break;
			case '--n8n':
				options.major = value().split('.')[0] as N8nMajor;
				break;
			case '--user-folder':
				options.userFolder = value();
				break;
			case '--verbose':
				options.verbose = true;
				break;
			case '--help':
			case '-h':
				throw new Error(USAGE);
			default:
				throw new Error(`unknown argument ${argv[i]}\n${USAGE}`);
		}
	}
	for (const [name, port] of [['--port', options.port], ['--sandbox-port', options.sandboxPort]] as const) {
		if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number, got "${port}"`);
	}
	if (!isMajor(options.major)) throw new Error(`--n8n must be 2 or 1, got "${options.major}"`);
	if (!!options.apiBaseUrl !== !!options.apiToken) throw new Error('give both --api-base-url and --api-token (or neither, for the sandbox)');
	if (options.apiBaseUrl && !/^https?:\/\/.+\/v2\/?$/.test(options.apiBaseUrl)) {
		throw new Error(`--api-base-url must be an http(s) URL ending in /v2, got "${options.apiBaseUrl}"`);
	}
	return options;
}

const say = (message: string): void => {
	process.stdout.write(`[dev] ${message}\n`);
};

/**
 * The ready block's head: where the editor is, how to log in, the API (with the sandbox's token, for
 * a credential of one's own: issue 43, row 15; a real API's token is never printed), n8n's folder
 * and log.
 */
export function readyLines(info: { version: string; seconds: number; editor: string; api: string; sandboxToken?: string; userFolder: string; kept: boolean }): string[] {
	return [
		'',
		`n8n ${info.version} with n8n-nodes-conversation-inbox is ready (${info.seconds} s).`,
		'',
		`  Editor:   ${info.editor}`,
		`  Login:    ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`,
		`  API:      ${info.api}${info.sandboxToken ? ' (sandbox, demo data)' : ''}`,
		...(info.sandboxToken ? [`  Token:    ${info.sandboxToken} (the sandbox's API token, for a Conversation Inbox credential of your own)`] : []),
		`  n8n data: ${info.userFolder}${info.kept ? ' (kept)' : ' (removed on exit)'}`,
		`  n8n log:  ${join(info.userFolder, 'n8n.log')}`,
	];
}

/**
 * The seeded IDs a user needs and cannot pick from a list (the API lists no tags, automation
 * triggers, bots or template fields), plus the chats. The demo section of docs/development.md shows the same
 * table; test/dev/dev.test.ts keeps the two in step.
 */
export function demoIdSections(): Array<{ title: string; rows: Array<[string, string]> }> {
	const contactNamed = (chatId: string): string => Object.values(DEMO.contacts).find((c) => c.chatId === chatId)?.name ?? chatId;
	const lineNamed = (id: string): string => Object.values(DEMO.integrations).find((i) => i.id === id)?.name ?? id;
	const fields = (template: (typeof DEMO.customFields)[keyof typeof DEMO.customFields]) =>
		Object.entries(template.fields).map(([key, id]): [string, string] => [`${template.name}: ${key}`, id]);
	return [
		{ title: 'Tags (Tag ID)', rows: Object.values(DEMO.tags).map((t) => [t.name, t.id]) },
		{
			title: 'Automation triggers (Automation Trigger ID)',
			rows: Object.values(DEMO.triggers).map((t) => [`${t.name} (${t.triggerType})`, t.id]),
		},
		{ title: 'Bots (Automation Bot ID)', rows: Object.values(DEMO.bots).map((b) => [b.name, b.id]) },
		{
			title: 'Template fields (Custom Field → Upsert: Template Field ID)',
			rows: [...fields(DEMO.customFields.profile), ...fields(DEMO.customFields.delivery)],
		},
		{
			title: 'Chats (Chat ID; the chat pickers list them too)',
			rows: Object.values(DEMO.chats).map((chat): [string, string] => {
				const who = chat.id === DEMO.group.chatInternalId ? DEMO.group.name : contactNamed(chat.chatId);
				return [`${who} · ${lineNamed(chat.integrationId)} (${chat.category})`, chat.id];
			}),
		},
		{
			title: 'Contacts (Phone Number)',
			rows: Object.values(DEMO.contacts).map((c) => [c.name, c.phoneNumber]),
		},
	];
}

/** The demo IDs as printed: one block per section, names padded so the IDs line up. */
export function demoIdLines(): string[] {
	const sections = demoIdSections();
	const width = Math.max(...sections.flatMap((section) => section.rows.map(([name]) => name.length)));
	const lines = ['  Demo IDs (the API cannot list tags, automations, bots or template fields):'];
	for (const section of sections) {
		lines.push(`    ${section.title}`);
		for (const [name, id] of section.rows) lines.push(`      ${name.padEnd(width)}  ${id}`);
	}
	return lines;
}

/** Imports every example workflow; with the sandbox, activates those that wait for events. */
async function importExamples(client: N8nClient, stack: N8nStack, activate: boolean): Promise<WorkflowRecord[]> {
	const existing = new Set((await client.listWorkflows()).map((w) => w.name));
	const imported: WorkflowRecord[] = [];
	for (const name of exampleNames()) {
		const example = loadExample(name);
		if (existing.has(example.name)) continue;
		const workflow = await client.createWorkflow(prepareForImport(example, stack.credential));
		const waitsForEvents = example.nodes.some((n) => n.type === TRIGGER_NODE_TYPE || n.type === 'n8n-nodes-base.webhook');
		if (activate && waitsForEvents) await client.activate(workflow.id);
		imported.push({ ...workflow, active: activate && waitsForEvents });
	}
	return imported;
}

async function main(): Promise<void> {
	// --queue: the same on n8n's queue mode (main, 2 workers, webhook processor); scripts/queue-stack.ts.
	if (process.argv.includes('--queue')) return await runQueueStack({ ...parseQueueArgs(process.argv.slice(2)), examples: true });
	let options: DevOptions;
	try {
		options = parseDevArgs(process.argv.slice(2), process.env);
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`);
		process.exit(2);
	}
	const started = Date.now();
	let sandbox: Sandbox | undefined;
	let stack: N8nStack | undefined;
	/** n8n while it starts: a stop in that window waits for it, then stops it too. */
	let starting: Promise<N8nStack> | undefined;
	let stopping = false;
	const packDir = mkdtempSync(join(tmpdir(), 'n8n-dev-pack-'));
	// Our own temporary user folder (unless --user-folder), so that its log path can be printed now.
	const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), 'n8n-dev-'));
	const parentPid = process.ppid;

	const stop = async (code: number, why: string): Promise<void> => {
		// Ctrl-C reaches us twice (from the terminal and forwarded by npm): one stop is enough.
		if (stopping) return;
		stopping = true;
		say(`${why}: stopping n8n and the sandbox…`);
		const running = stack ?? (await starting?.catch(() => undefined));
		await running?.stop().catch((e: unknown) => process.stderr.write(`could not stop n8n: ${String(e)}\n`));
		await sandbox?.close().catch(() => undefined);
		rmSync(packDir, { recursive: true, force: true });
		if (!options.userFolder) rmSync(userFolder, { recursive: true, force: true });
		say('stopped.');
		process.exit(code);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0, signal));
	// Whoever started us is gone (npm killed with SIGKILL, the terminal closed): nobody can stop us.
	const orphanWatch = setInterval(() => {
		if (process.ppid !== parentPid) void stop(1, 'the parent process ended');
	}, 1000);
	orphanWatch.unref();

	try {
		say('building the package (npm run build) and packing it (npm pack)');
		buildPackage();
		const packed = packPackage(packDir);

		let api: ApiTarget;
		if (options.apiBaseUrl && options.apiToken) {
			api = { baseUrl: options.apiBaseUrl, apiToken: options.apiToken };
			say(`using the API at ${api.baseUrl} (no sandbox)`);
		} else {
			if (await portInUse(options.sandboxPort)) throw new Error(`port ${options.sandboxPort} is taken (another sandbox?); pass --sandbox-port N`);
			// As a SaaS API: its rate is limited (429 with Retry-After beyond it), so the demo meets what users meet.
			sandbox = await startSandbox({ port: options.sandboxPort, quiet: true, rateLimit: SAAS_RATE_LIMIT });
			api = { baseUrl: sandbox.baseUrl, apiToken: sandbox.token };
			say(`sandbox API with demo data on ${sandbox.baseUrl} (token ${sandbox.token}; at most ${SAAS_RATE_LIMIT.perSecond} requests per second, bursts of ${SAAS_RATE_LIMIT.burst})`);
		}

		say(`provisioning n8n ${N8N_VERSIONS[options.major]} (cached after the first run, which takes several minutes)`);
		const install = await provisionN8n(options.major);
		let port = options.port;
		if (await portInUse(port)) {
			port = await freePort();
			say(`port ${options.port} is taken; n8n uses ${port} instead`);
		}
		const reused = options.userFolder !== undefined && existsSync(join(options.userFolder, '.n8n', 'database.sqlite'));
		say(`starting n8n ${install.version} on http://127.0.0.1:${port} (log: ${join(userFolder, 'n8n.log')})`);
		starting = startN8nStack({
			install,
			packed,
			api,
			port,
			userFolder,
			logLevel: 'info',
			echo: options.verbose ? process.stdout : undefined,
		});
		stack = await starting;
		if (stopping) return;
		const { client, credential } = stack;
		say(`n8n runs as pid ${stack.n8n.pid}`);

		if (reused) say(`reusing ${options.userFolder}: logged in; a new "${credential.name}" credential was added`);
		const test = await client.testCredential(credential, { baseUrl: api.baseUrl, apiToken: api.apiToken });
		say(`credential "${credential.name}" → ${api.baseUrl}: test ${test.status}${test.status === 'OK' ? '' : ` (${test.message})`}`);
		const imported = await importExamples(client, stack, sandbox !== undefined);
		for (const workflow of imported) say(`workflow "${workflow.name}"${workflow.active ? ' (active)' : ''}`);

		const lines = readyLines({
			version: install.version,
			seconds: Math.round((Date.now() - started) / 1000),
			editor: `${stack.n8n.url}/`,
			api: api.baseUrl,
			sandboxToken: sandbox?.token,
			userFolder: stack.userFolder,
			kept: options.userFolder !== undefined,
		});
		if (sandbox) {
			lines.push(
				'',
				'  Try it:',
				`    curl -X POST ${stack.n8n.url}/webhook/stop-automation -H 'content-type: application/json' \\`,
				`         -d '{"phoneNumber":"${DEMO.contacts.twoLines.phoneNumber}","integrationId":"${DEMO.integrations.whatsapp.id}"}'`,
				`    curl -X POST ${sandbox.url}/_sandbox/simulate/message -H 'content-type: application/json' \\`,
				`         -d '{"integrationId":"${DEMO.integrations.whatsapp.id}","phoneNumber":"${DEMO.contacts.botFlow.phoneNumber}","direction":"inbound","text":"Can I talk to a person?"}'`,
				'    then open Executions in the editor. Sandbox controls: GET ' + `${sandbox.url}/_sandbox/health`,
				'',
				...demoIdLines(),
			);
		}
		lines.push('', `Ctrl-C (or kill -INT / -TERM of the npm process) stops everything. [dev] pid ${process.pid}`, '');
		process.stdout.write(lines.join('\n'));

		const n8n = stack.n8n;
		const watch = setInterval(() => {
			if (!n8n.running && !stopping) {
				process.stderr.write(`\nn8n exited unexpectedly:\n${n8n.logTail(30)}\n`);
				clearInterval(watch);
				void stop(1, 'n8n exited');
			}
		}, 1000);
	} catch (error) {
		process.stderr.write(`\n[dev] ERROR: ${(error as Error).message}\n`);
		await stop(1, 'error');
	}
}

if (require.main === module) void main();
