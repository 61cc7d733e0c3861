/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * n8n 2.41.1 in queue mode with this package, on this machine (test/e2e/harness/queue-stack.ts):
 * PostgreSQL + Redis (Debian's packages, installed with apt-get when missing), main, 2 workers and
 * a webhook processor, the sandbox API with its demo data, the owner and a credential.
 *
 *   npm run queue-stack                 start it, print the URLs, start-up time and memory; Ctrl-C stops all
 *   npm run queue-stack -- --check      the same, then stop at once (start-up time and memory only)
 *   npm run dev -- --queue              the same as the first, plus the example workflows (scripts/dev.ts)
 *   options: --workers N (default 2)  --port N (main's port, default 5678 or a free one)  --verbose
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Sandbox } from '../test/sandbox';
import { DEMO, SAAS_RATE_LIMIT, startSandbox } from '../test/sandbox';
import { freePort, portInUse } from '../test/e2e/harness/n8n-process';
import { buildPackage, packPackage } from '../test/e2e/harness/package';
import { provisionN8n } from '../test/e2e/harness/provision';
import { describeMemory, describeStartup, startQueueStack, type QueueStack } from '../test/e2e/harness/queue-stack';
import { DEMO_OWNER } from '../test/e2e/harness/stack';
import { exampleNames, loadExample, prepareForImport, TRIGGER_NODE_TYPE } from '../test/e2e/harness/workflows';

const say = (message: string): void => void process.stdout.write(`[queue] ${message}\n`);

export interface QueueRunOptions {
	/** import (and with the sandbox, publish) examples/workflows/ */
	examples: boolean;
	/** stop right after start-up (figures only) */
	check: boolean;
	workers: number;
	port: number;
	verbose: boolean;
}

export function parseQueueArgs(argv: string[]): QueueRunOptions {
	const options: QueueRunOptions = { examples: false, check: false, workers: 2, port: 5678, verbose: false };
	for (let i = 0; i < argv.length; i++) {
		const number = (): number => {
			const value = Number(argv[++i]);
			if (!Number.isInteger(value) || value < 1) throw new Error(`${argv[i - 1]} needs a positive whole number`);
			return value;
		};
		if (argv[i] === '--check') options.check = true;
		else if (argv[i] === '--examples') options.examples = true;
		else if (argv[i] === '--verbose') options.verbose = true;
		else if (argv[i] === '--workers') options.workers = number();
		else if (argv[i] === '--port') options.port = number();
		else if (argv[i] !== '--queue') throw new Error(`unknown argument ${argv[i]} (queue mode takes --workers N, --port N, --check, --verbose)`);
	}
	return options;
}

export async function runQueueStack(options: QueueRunOptions): Promise<void> {
	let sandbox: Sandbox | undefined;
	let stack: QueueStack | undefined;
	let stopping = false;
	const packDir = mkdtempSync(join(tmpdir(), 'n8n-queue-pack-'));
	const stop = async (code: number): Promise<never> => {
		if (stopping) process.exit(code);
		stopping = true;
		say('stopping n8n (main, workers, webhook processor), Redis, Postgres and the sandbox…');
		await stack?.stop().catch((e: unknown) => process.stderr.write(`could not stop the stack: ${String(e)}\n`));
		await sandbox?.close().catch(() => undefined);
		rmSync(packDir, { recursive: true, force: true });
		say('stopped.');
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));
	try {
		say('building and packing the package');
		buildPackage();
		const packed = packPackage(packDir);
		const install = await provisionN8n('2');
		sandbox = await startSandbox({ port: (await portInUse(4010)) ? 0 : 4010, quiet: true, rateLimit: SAAS_RATE_LIMIT });
		const port = (await portInUse(options.port)) ? await freePort() : options.port;
		say(`starting n8n ${install.version} in queue mode (${options.workers} workers)`);
		stack = await startQueueStack({
			install,
			packed,
			api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
			workers: options.workers,
			mainPort: port,
			echo: options.verbose ? process.stdout : undefined,
			log: say,
		});
		const { client, credential } = stack;
		if (options.examples) {
			for (const name of exampleNames()) {
				const example = loadExample(name);
				const workflow = await client.createWorkflow(prepareForImport(example, credential));
				// Published on main; their production webhooks are served by the webhook processor.
				const waitsForEvents = example.nodes.some((n) => n.type === TRIGGER_NODE_TYPE || n.type === 'n8n-nodes-base.webhook');
				if (waitsForEvents) await client.activate(workflow.id);
				say(`workflow "${workflow.name}"${waitsForEvents ? ' (published)' : ''}`);
			}
		}
		process.stdout.write(
			[
				'',
				`n8n ${install.version} in queue mode is ready in ${describeStartup(stack.startup)}.`,
				'',
				`  Editor (main):        ${stack.main.url}/   login ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`,
				`  Webhook processor:    ${stack.webhookUrl}/webhook/…   (= WEBHOOK_URL)`,
				`  Workers:              ${stack.workers.map((w) => `${w.url}/healthz`).join(', ')}`,
				`  Postgres / Redis:     127.0.0.1:${stack.postgres.port} / 127.0.0.1:${stack.redis.port}`,
				`  Sandbox API:          ${sandbox.baseUrl} (token ${sandbox.token})`,
				`  Logs:                 <user folder>/n8n.log of each process: ${[stack.main, stack.webhook, ...stack.workers].map((p) => p.userFolder).join(', ')}`,
				'',
				`Memory (RSS): ${describeMemory(stack.memory())}`,
				'',
				`Try it: curl -X POST ${sandbox.url}/_sandbox/simulate/message -H 'content-type: application/json' -d '{"integrationId":"${DEMO.integrations.whatsapp.id}","phoneNumber":"${DEMO.contacts.botFlow.phoneNumber}","direction":"inbound","text":"Hello"}'`,
				'',
				options.check ? '' : 'Ctrl-C stops everything.\n',
			].join('\n'),
		);
		if (options.check) await stop(0);
	} catch (error) {
		process.stderr.write(`\n[queue] ERROR: ${(error as Error).message}\n`);
		await stop(1);
	}
}

if (require.main === module) {
	let options: QueueRunOptions;
	try {
		options = parseQueueArgs(process.argv.slice(2));
	} catch (error) {
		process.stderr.write(`${(error as Error).message}\n`);
		process.exit(2);
	}
	void runQueueStack(options);
}
