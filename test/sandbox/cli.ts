/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
// `npm run sandbox` — the sandbox API server on a fixed port, with a request log.
// Flags: --port (4010) --host (127.0.0.1) --token (sandbox-token) --contacts --templates --chats
// --messages-per-chat --latency (ms) --minute-ms (60000) --async-delete-ms (2000) --quiet
// --demo (accepted; demo data is always seeded). Env: SANDBOX_PORT, SANDBOX_TOKEN.
// Rate limit per token, on by default as on a SaaS API (rateLimit.ts SAAS_RATE_LIMIT: 10/s, bursts
// of 20): --rate-limit N (requests per second) --rate-burst N --no-retry-after --no-rate-limit.
import { CONTROL_ENDPOINTS } from './control';
import { SAAS_RATE_LIMIT } from './rateLimit';
import { DEMO } from './seed';
import { startSandbox, type SandboxOptions } from './server';

const NUMERIC: Record<string, (o: SandboxOptions, n: number) => void> = {
	'--port': (o, n) => (o.port = n),
	'--contacts': (o, n) => (o.seed = { ...o.seed, contactsOnBigTag: n }),
	'--templates': (o, n) => (o.seed = { ...o.seed, templates: n }),
	'--chats': (o, n) => (o.seed = { ...o.seed, chats: n }),
	'--messages-per-chat': (o, n) => (o.seed = { ...o.seed, messagesPerChat: n }),
	'--latency': (o, n) => (o.latencyMs = n),
	'--minute-ms': (o, n) => (o.minuteMs = n),
	'--async-delete-ms': (o, n) => (o.asyncDeleteMs = n),
	'--rate-limit': (o, n) => (o.rateLimit = { ...(o.rateLimit ?? SAAS_RATE_LIMIT), perSecond: n, burst: Math.max(1, n) }),
	'--rate-burst': (o, n) => (o.rateLimit = { ...(o.rateLimit ?? SAAS_RATE_LIMIT), burst: n }),
};

function usage(): string {
	return `usage: sandbox [--port N] [--host H] [--token T] [--contacts N] [--templates N] [--chats N]
               [--messages-per-chat N] [--latency MS] [--minute-ms MS] [--async-delete-ms MS] [--quiet]
               [--rate-limit N] [--rate-burst N] [--no-retry-after] [--no-rate-limit]`;
}

export function parseArgs(argv: string[], env: NodeJS.ProcessEnv): SandboxOptions {
	const options: SandboxOptions = {
		port: env.SANDBOX_PORT ? Number(env.SANDBOX_PORT) : 4010,
		token: env.SANDBOX_TOKEN || 'sandbox-token',
		quiet: false,
		rateLimit: { ...SAAS_RATE_LIMIT },
	};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split(/=(.*)/s, 2);
		const value = (): string => {
			const v = inline ?? argv[++i];
			if (v === undefined) throw new Error(`${flag} needs a value\n${usage()}`);
			return v;
		};
		if (flag in NUMERIC) {
			const raw = value();
			if (!/^\d+$/.test(raw)) throw new Error(`${flag} must be a non-negative integer, got "${raw}"`);
			NUMERIC[flag](options, Number(raw));
		} else if (flag === '--host') options.host = value();
		else if (flag === '--token') options.token = value();
		else if (flag === '--quiet') options.quiet = true;
		else if (flag === '--no-rate-limit') options.rateLimit = undefined;
		else if (flag === '--no-retry-after') options.rateLimit = options.rateLimit && { ...options.rateLimit, retryAfter: false };
		else if (flag === '--demo') continue;
		else if (flag === '--help' || flag === '-h') throw new Error(usage());
		else throw new Error(`unknown flag ${flag}\n${usage()}`);
	}
	if (!Number.isInteger(options.port)) throw new Error(`SANDBOX_PORT must be an integer, got "${env.SANDBOX_PORT}"`);
	return options;
}

async function main(): Promise<void> {
	let options: SandboxOptions;
	try {
		options = parseArgs(process.argv.slice(2), process.env);
	} catch (error) {
		console.error((error as Error).message);
		process.exit(2);
	}
	const sandbox = await startSandbox(options);
	console.log(`Conversation Inbox sandbox API
  base URL: ${sandbox.baseUrl}
  token:    ${sandbox.token}
  try:      curl -H 'Authorization: Bearer ${sandbox.token}' ${sandbox.baseUrl}/user/list
  demo:     whatsapp integration ${DEMO.integrations.whatsapp.id}, official ${DEMO.integrations.official.id}
control endpoints (no auth) at ${sandbox.url}:
  ${CONTROL_ENDPOINTS.join('\n  ')}
Ctrl-C stops.`);
	const stop = (signal: string): void => {
		console.log(`\n${signal}: stopping sandbox`);
		void sandbox.close().then(() => process.exit(0));
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}
