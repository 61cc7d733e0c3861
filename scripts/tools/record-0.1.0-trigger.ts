/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Records the 0.1.0 fixtures of the trigger. THE FIXTURES ARE FROZEN: they were recorded once, from
 * the build released as 0.1.0 (commit 74a8fad), and are never regenerated. This script refuses to
 * write when test/fixtures/0.1.0/trigger/ exists; it is kept to show how the fixtures were made.
 *
 * Everything runs on 0.1.0's own code, loaded from the release folder: its built trigger and
 * credential (dist/, mapped in for nodes/ and credentials/ sources), its test harness
 * (test/helpers/trigger-harness.ts: n8n-core's HookContext and WebhookContext, and the stand-in
 * for n8n's webhook endpoint), its sandbox API and its node_modules (n8n-core, n8n-workflow).
 * Nothing of today's code is loaded. For each released typeVersion of the trigger (1 and 2):
 * 1. the node as the 0.1.0 editor saves it: parameters at their default are not stored
 *    (n8n-workflow's NodeHelpers.getNodeParameters(properties, values, false, false, node) against
 *    0.1.0's description);
 * 2. activation against a fresh sandbox, with the stand-in endpoint as n8n's webhook URL: the hook
 *    calls, every POST /integration/webhook/create the sandbox received (HTTP headers and body,
 *    whose `headers` are the registration's headers) and the webhooks the platform then holds;
 * 3. a message on the channel: the deliveries the platform sent for 0.1.0's registrations
 *    (method, URL, headers, body) and what 0.1.0's trigger answered and emitted for each;
 * 4. the workflow's static data as n8n saves it, after activation and after deactivation, and the
 *    hook calls of a re-activation from the saved data.
 * Written to test/fixtures/0.1.0/trigger/v<typeVersion>.<part>.json, and the files' SHA-256 added
 * to test/fixtures/0.1.0/SHA256SUMS (one `sha256  path` line per file, path relative to
 * test/fixtures/0.1.0, sorted by path).
 *
 * Usage (0.1.0 is commit 74a8fad; its devDependencies differ from today's, so it gets its own):
 *   git worktree add /tmp/release-0.1.0-trigger 74a8fad
 *   cd /tmp/release-0.1.0-trigger && npm install --prefer-offline && npm run build
 *   cd <repo> && npx ts-node --transpile-only scripts/tools/record-0.1.0-trigger.ts /tmp/release-0.1.0-trigger
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';

const RELEASE_COMMIT = '74a8fad4c1be1d254da48a5329c66c0ff3198970';
const FIXTURES = resolve(__dirname, '..', '..', 'test', 'fixtures', '0.1.0');
const TRIGGER_DIR = join(FIXTURES, 'trigger');
const SUMS = join(FIXTURES, 'SHA256SUMS');

/** 0.1.0's modules are loaded at run time from the release folder: their types are not today's. */
type Any = any;

/** What the user set in the panel, per released typeVersion (webhook IDs as the editor assigns them). */
const CASES = [
	{
		typeVersion: 1,
		webhookId: '0a1b2c3d-0001-4e5f-8a9b-0c1d2e3f4a51',
		values: (whatsapp: string) => ({
			integrationId: { __rl: true, mode: 'list', value: whatsapp, cachedResultName: 'Support WhatsApp' },
			events: ['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE'],
			transferType: 'USER',
			delayMinutes: 2,
			options: { extraHeaders: { header: [{ key: 'X-Proxy-Key', value: 'proxy-123' }] } },
		}),
		message: { phoneNumber: '5511933330101', text: 'Hello from a 0.1.0 registration (typeVersion 1)' },
		connectionStatus: 'DISCONNECTED' as string | undefined,
		/** MESSAGE_RECEIVED (after the delay) and CONNECTION_STATUS_UPDATE */
		deliveries: 2,
	},
	{
		typeVersion: 2,
		webhookId: '0a1b2c3d-0002-4e5f-8a9b-0c1d2e3f4a52',
		values: (whatsapp: string) => ({
			integrationId: { __rl: true, mode: 'id', value: whatsapp },
			events: ['MESSAGE_SENT_AND_RECEIVED', 'FIRST_MESSAGE_RECEIVED'],
			transferType: 'ALL',
			delayMinutes: 0,
			options: {},
		}),
		message: { phoneNumber: '5511933330202', text: 'Hello from a 0.1.0 registration (typeVersion 2)' },
		connectionStatus: undefined,
		/** the number's first message: MESSAGE_SENT_AND_RECEIVED and FIRST_MESSAGE_RECEIVED */
		deliveries: 2,
	},
];

function fail(message: string): never {
	process.stderr.write(`record-0.1.0-trigger: ${message}\n`);
	process.exit(1);
}

/**
 * Loads nodes/ and credentials/ of the release from its build (dist/), everything else as it is.
 * A source import names the module without extension (`./X.node`, which Node alone would resolve
 * to X.node.json): the .ts beside it decides.
 */
function mapSourcesToBuild(release: string): void {
	const loader = Module as unknown as { _resolveFilename: (...args: Any[]) => string };
	const original = loader._resolveFilename;
	loader._resolveFilename = function (request: string, parent: Any, ...rest: Any[]): string {
		if (request.startsWith('.') && parent?.filename) {
			const target = relative(release, resolve(dirname(parent.filename as string), request));
			if (/^(nodes|credentials)[\\/]/.test(target) && existsSync(join(release, `${target}.ts`))) {
				const built = join(release, 'dist', `${target}.js`);
				if (!existsSync(built)) fail(`${built} is missing: run npm run build in ${release}`);
				return built;
			}
		}
		return original.call(this, request, parent, ...rest);
	};
}

const json = (value: unknown): string => `${JSON.stringify(value, null, '\t')}\n`;

async function main(): Promise<void> {
	const release = resolve(process.argv[2] ?? fail('usage: record-0.1.0-trigger.ts <release folder>'));
	if (existsSync(TRIGGER_DIR)) {
		fail(`${relative(process.cwd(), TRIGGER_DIR)} exists. The 0.1.0 fixtures are frozen: they are never recorded again.`);
	}
	const head = execFileSync('git', ['-C', release, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
	if (head !== RELEASE_COMMIT) fail(`${release} is at ${head}, not the 0.1.0 commit ${RELEASE_COMMIT}`);
	const releasedPackage = JSON.parse(readFileSync(join(release, 'package.json'), 'utf8')) as { version: string };
	if (releasedPackage.version !== '0.1.0') fail(`${release}/package.json is ${releasedPackage.version}, not 0.1.0`);
	mapSourcesToBuild(release);
	// n8n-core's InstanceSettings writes a config file under N8N_USER_FOLDER (else ~/.n8n) on first use.
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-record-0.1.0-'));

	const fromRelease = (path: string): Any => require(join(release, path));
	const triggerModule = fromRelease('dist/nodes/ConversationInboxTrigger/ConversationInboxTrigger.node.js');
	const harness = fromRelease('test/helpers/trigger-harness.ts');
	const { startSandbox, DEMO } = fromRelease('test/sandbox/index.ts');
	const { NodeHelpers } = fromRelease('node_modules/n8n-workflow');
	const Released = triggerModule.ConversationInboxTrigger;
	const recordedWith = {
		package: `n8n-nodes-conversation-inbox@${releasedPackage.version}`,
		commit: RELEASE_COMMIT,
		code: "0.1.0's dist/ (built from the commit), test/helpers/trigger-harness.ts and test/sandbox",
		nodeVersion: process.version,
		n8nCore: fromRelease('node_modules/n8n-core/package.json').version as string,
		n8nWorkflow: fromRelease('node_modules/n8n-workflow/package.json').version as string,
		recordedAt: new Date().toISOString(),
	};

	const files: Record<string, string> = {};
	for (const testCase of CASES) {
		// 0.1.0's harness creates the node at the type's defaultVersion, as the editor does.
		triggerModule.ConversationInboxTrigger = class extends Released {
			constructor() {
				super();
				(this as Any).description = { ...(this as Any).description, defaultVersion: testCase.typeVersion };
			}
		};
		const description = new Released().description;
		const sandbox = await startSandbox({ minuteMs: 20, quiet: true });
		const endpoint = await new harness.N8nWebhookEndpointStandIn().start();
		try {
			const credentials = { baseUrl: sandbox.baseUrl, apiToken: DEMO.token };
			const savedNode = {
				parameters: {},
				name: description.defaults.name,
				type: 'n8n-nodes-conversation-inbox.conversationInboxTrigger',
				typeVersion: testCase.typeVersion,
				position: [0, 0],
				webhookId: testCase.webhookId,
				credentials: { conversationInboxApi: { id: 'cred-1', name: 'Conversation Inbox account' } },
			};
			savedNode.parameters = NodeHelpers.getNodeParameters(
				description.properties,
				testCase.values(DEMO.integrations.whatsapp.id),
				false,
				false,
				savedNode,
				description,
			);
			const setup = {
				parameters: savedNode.parameters,
				credentials,
				webhookBaseUrl: endpoint.webhookBaseUrl,
				webhookId: testCase.webhookId,
			};
			const instance = new harness.TriggerInstance(setup);
			if (instance.node.typeVersion !== testCase.typeVersion) fail(`node created at ${instance.node.typeVersion}`);
			const webhookUrl = instance.webhookUrl();

			const hookCalls = await instance.activate();
			const staticAfterActivation = instance.persistedStaticData();
			const registrationRequests = sandbox.requests
				.filter((request: Any) => request.path === '/v2/integration/webhook/create')
				.map(({ method, path, headers, body, status }: Any) => ({ method, path, headers, body, status }));
			const platformWebhooks = [...sandbox.state.webhooks.values()].filter((webhook: Any) => webhook.url === webhookUrl);

			endpoint.attach(instance);
			await sandbox.simulate.message({
				integrationId: DEMO.integrations.whatsapp.id,
				direction: 'inbound',
				transferType: 'USER',
				...testCase.message,
			});
			if (testCase.connectionStatus) {
				await sandbox.simulate.connectionStatus(DEMO.integrations.whatsapp.id, testCase.connectionStatus);
			}
			await sandbox.waitForDeliveries(testCase.deliveries, 10_000);
			await endpoint.waitForCalls(sandbox.deliveries.length, 10_000);
			const deliveries = (sandbox.deliveries as Any[])
				.filter((delivery) => delivery.url.split('?')[0] === webhookUrl)
				.sort((a, b) => (a.event < b.event ? -1 : 1))
				.map((delivery) => ({
					delivery,
					released: endpoint.calls
						.filter((call: Any) => call.items?.[0]?.json?.event === delivery.event)
						.map(({ statusCode, responseText, items }: Any) => ({ statusCode, responseText, items })),
				}));
			const accepted = (entry: Any): boolean => entry.delivery.status === 200 && entry.released.length === 1;
			if (deliveries.length !== testCase.deliveries || !deliveries.every(accepted)) {
				fail(`0.1.0 did not accept its own delivery: ${JSON.stringify(deliveries, null, 1)}`);
			}

			await instance.deactivate();
			const staticAfterDeactivation = instance.persistedStaticData();
			const reloaded = new harness.TriggerInstance({ ...setup, staticData: staticAfterDeactivation });
			const reactivationHookCalls = await reloaded.activate();
			const createsAfterReactivation = sandbox.requests.filter(
				(request: Any) => request.path === '/v2/integration/webhook/create',
			).length - registrationRequests.length;

			const prefix = `v${testCase.typeVersion}`;
			files[`${prefix}.node.json`] = json(savedNode);
			files[`${prefix}.activation.json`] = json({
				recordedWith,
				webhookBaseUrl: endpoint.webhookBaseUrl,
				webhookUrl,
				hookCalls,
				registrationRequests,
				platformWebhooks,
			});
			files[`${prefix}.static-data.json`] = json({
				afterActivation: staticAfterActivation,
				afterDeactivation: staticAfterDeactivation,
				reactivationHookCalls,
				createsAfterReactivation,
			});
			files[`${prefix}.deliveries.json`] = json(deliveries);
		} finally {
			await endpoint.stop();
			await sandbox.close();
		}
	}

	mkdirSync(TRIGGER_DIR, { recursive: true });
	const sums = existsSync(SUMS) ? readFileSync(SUMS, 'utf8').split('\n').filter((line) => line.trim() !== '') : [];
	for (const [name, text] of Object.entries(files)) {
		writeFileSync(join(TRIGGER_DIR, name), text, { flag: 'wx' });
		const path = ['trigger', name].join('/');
		sums.push(`${createHash('sha256').update(text, 'utf8').digest('hex')}  ${path}`);
	}
	const byPath = (line: string): string => line.slice(line.indexOf('  ') + 2);
	sums.sort((a, b) => (byPath(a) < byPath(b) ? -1 : byPath(a) > byPath(b) ? 1 : 0));
	writeFileSync(SUMS, `${sums.join('\n')}\n`);
	process.stdout.write(`recorded ${Object.keys(files).length} files in ${relative(process.cwd(), TRIGGER_DIR)}${sep}\n`);
}

void main().catch((error: unknown) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)));
