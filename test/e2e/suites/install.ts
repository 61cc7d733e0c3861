/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The package installed the ways users install it (issue 30), from a local registry holding the
 * released 0.1.0 (the frozen tarball, test/fixtures/0.1.0/package) and today's build as 0.2.0:
 *
 * 1. n8n's installer (Settings → Community Nodes, harness/installer.ts): install 0.1.0, test the
 *    credential, run every workflow saved with 0.1.0 and activate a trigger saved with it; update to
 *    0.2.0; the same workflows send what 0.1.0 sent and the trigger keeps its registrations (no new
 *    `webhook/create`); after a restart all of it is still there; uninstall leaves nothing.
 * 2. By hand: `npm install n8n-nodes-conversation-inbox` in a fresh `.n8n/nodes`: only our package
 *    lands; n8n loads both nodes and the credential and runs a workflow with n8n's own n8n-workflow.
 *
 * The action workflows talk to one sandbox (reset before each, as in compat-0.1.0.ts), the trigger to
 * a second one that is never reset, so its registrations and request log span update and restart.
 * Install and update times are printed ("[install] …").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { actionFixtures, asRecorded, cameFor, endOfListProbes, type ActionFixture } from '../../compat/fixtures';
import { SAAS_RATE_LIMIT, startSandbox, type Sandbox } from '../../sandbox';
import { releasedTrigger } from '../../trigger/setup';
import { describeWhen } from '../harness/gate';
import { N8nClient, type CredentialRecord, type WorkflowDefinition } from '../harness/n8n-client';
import { N8nProcess, processGroupMembers } from '../harness/n8n-process';
import { type PackedPackage } from '../harness/package';
import { N8N_VERSIONS, PACKAGE_NAME, selectedMajors, type N8nInstall, type N8nMajor } from '../harness/provision';
import { EditorCalls, enableCustomRegistry, installByHand, installerEnvironment, listTree, packagesIn, timed } from '../harness/installer';
import { RELEASED_0_1_0_TARBALL, repackWithVersion, startRegistry, type LocalRegistry } from '../harness/registry';
import { DEMO_OWNER } from '../harness/stack';
import { ACTION_NODE_TYPE, CREDENTIAL_TYPE, manualTriggerToWebhook, prepareForImport, TRIGGER_NODE_TYPE } from '../harness/workflows';
import { problemLines } from './package';

/** Today's build is published as the version after the released 0.1.0. */
export const NEXT_VERSION = '0.2.0';
const TRIGGER_NAME = 'Inbox events';
const CREATE_PATH = '/v2/integration/webhook/create';

function fromEnv<T>(name: string): T {
	const raw = process.env[name];
	if (!raw) throw new Error(`${name} is not set: run the e2e tests with jest -c jest.e2e.config.js (its globalSetup provisions n8n)`);
	return JSON.parse(raw) as T;
}

const say = (line: string): void => void process.stderr.write(`[install] ${line}\n`);

/** Lines of n8n's log that name our package at level error or warn, or say it failed to load. */
function ourProblems(log: string): string[] {
	return [
		...problemLines(log).filter((line) => /conversation-?inbox|conversationInbox/i.test(line)),
		...log.split('\n').filter((line) => /Skipping package|Failed to load package|failed to load package metadata/.test(line)),
	];
}

/** Every copy of n8n-workflow under a folder (its package.json files). */
function n8nWorkflowCopies(dir: string): string[] {
	const found = spawnSync('find', [dir, '-path', '*/node_modules/n8n-workflow/package.json'], { encoding: 'utf8' });
	return found.stdout.split('\n').filter(Boolean);
}

interface SavedRun {
	fixture: ActionFixture;
	workflow: { id: string; versionId: string };
	path: string;
}

export function describeInstall(major: N8nMajor): void {
	const selected = selectedMajors().includes(major);
	describeWhen(selected, `installed as users install it, n8n ${N8N_VERSIONS[major]}`, `N8N_E2E_VERSIONS=${process.env.N8N_E2E_VERSIONS ?? ''} does not select n8n ${major}`, () => {
		let install: N8nInstall;
		let registry: LocalRegistry | undefined;
		let actions: Sandbox | undefined;
		let platform: Sandbox | undefined;
		let n8n: N8nProcess | undefined;
		const folders: string[] = [];
		const stopN8n = async (): Promise<void> => {
			const pid = n8n?.pid;
			await n8n?.stop();
			n8n = undefined;
			if (pid !== undefined) expect(processGroupMembers(pid)).toEqual([]);
		};

		beforeAll(async () => {
			install = fromEnv<N8nInstall>(`E2E_N8N_${major}`);
			const packed = fromEnv<PackedPackage>('E2E_PACKED');
			registry = await startRegistry();
			registry.publish(RELEASED_0_1_0_TARBALL);
			const repackDir = mkdtempSync(join(tmpdir(), 'n8n-e2e-next-'));
			folders.push(repackDir);
			registry.publish(repackWithVersion(packed.tarball, NEXT_VERSION, repackDir));
			actions = await startSandbox({ quiet: true, minuteMs: 20, rateLimit: SAAS_RATE_LIMIT });
			platform = await startSandbox({ quiet: true, minuteMs: 20, rateLimit: SAAS_RATE_LIMIT });
		}, 180_000);

		afterAll(async () => {
			await n8n?.stop();
			await registry?.stop();
			await actions?.close();
			await platform?.close();
			if (process.env.E2E_KEEP_USER_FOLDER !== '1') for (const folder of folders) rmSync(folder, { recursive: true, force: true });
		}, 60_000);

		describe("through n8n's installer (Settings → Community Nodes), 0.1.0 then the update", () => {
			let userFolder: string;
			let client: N8nClient;
			let editor: EditorCalls;
			let actionCredential: CredentialRecord;
			let platformCredential: CredentialRecord;
			let trigger: { id: string; versionId: string; url: string; integrationId: string };
			const saved: SavedRun[] = [];
			let createsAtActivation = 0;

			/** n8n on the user folder, the owner logged in, a custom registry allowed (see installer.ts). */
			let port: number | undefined;
			const startN8n = async (): Promise<void> => {
				// The same port after a restart: n8n's webhook URLs (registered on the platform) contain it.
				const started = await timed(async () => await N8nProcess.start({ install, userFolder, port, logLevel: 'debug', env: installerEnvironment(registry!.url) }));
				port = started.result.port;
				n8n = started.result;
				say(`n8n ${install.version} started in ${started.ms} ms`);
				client = new N8nClient(n8n.url, major);
				if (await client.ownerIsSetUp()) await client.login(DEMO_OWNER.email, DEMO_OWNER.password);
				else await client.setupOwner(DEMO_OWNER);
				await enableCustomRegistry(n8n.url);
				editor = new EditorCalls(client);
			};

			const nodesDir = (): string => join(userFolder, '.n8n', 'nodes');
			const installedVersion = (): string =>
				(JSON.parse(readFileSync(join(nodesDir(), 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8')) as { version: string }).version;

			/** Runs one saved workflow against a fresh sandbox; returns what the API received. */
			const runSaved = async (run: SavedRun): Promise<unknown[]> => {
				actions!.reset();
				const response = await client.callWebhook(run.path, {});
				expect([run.fixture.name, response.status]).toEqual([run.fixture.name, 200]);
				return actions!.requests.filter((request) => request.path.startsWith('/v2/')).map((request) => ({ ...(asRecorded(request) as Record<string, unknown>), status: request.status }));
			};

			const expectSentWhat010Sent = async (run: SavedRun, received: Array<Record<string, unknown>>): Promise<void> => {
				const recorded = received.map(({ status: _status, ...request }) => request);
				expect([run.fixture.name, recorded.slice(0, run.fixture.requests.length)]).toEqual([run.fixture.name, run.fixture.requests]);
				const extra = received.slice(run.fixture.requests.length) as Array<{ method: string; path: string; query: Record<string, string>; status: number }>;
				// `came` is counted after the run (the sandbox answers the same reads again; reads change nothing).
				expect([run.fixture.name, endOfListProbes(run.fixture, extra, await cameFor(run.fixture, actions!))]).toEqual([run.fixture.name, []]);
			};

			const platformCreates = (): number => platform!.requests.filter((request) => request.path === CREATE_PATH).length;

			/**
			 * An inbound message from a new contact on the platform reaches the trigger: every delivery
			 * (one per event the node listens to) answered 200 and started an execution. Waits first until
			 * n8n routes the trigger's URL (it answers 401 to a request without the secret): after a
			 * start, n8n activates saved workflows in the background.
			 */
			let contacts = 0;
			let executions = 0;
			const expectDeliveryExecutes = async (): Promise<void> => {
				const deadline = Date.now() + 30_000;
				while ((await client.raw('POST', trigger.url, { body: { probe: true } })).status !== 401) {
					if (Date.now() > deadline) throw new Error(`n8n does not route ${trigger.url}\n${n8n!.logTail(40)}`);
					await new Promise((r) => setTimeout(r, 200));
				}
				contacts += 1;
				const deliveries = await platform!.simulate.message({
					integrationId: trigger.integrationId,
					phoneNumber: `55119555${String(contacts).padStart(5, '0')}`,
					name: `Install check ${contacts}`,
					direction: 'inbound',
					text: 'Still there after the update?',
				});
				expect(deliveries.length).toBeGreaterThan(0);
				// 0.1.0 answered the platform with n8n's placeholder text, later builds with JSON: the
				// status and the executions are what every version shares.
				expect(deliveries.map((d) => [d.url, d.status])).toEqual(deliveries.map(() => [trigger.url, 200]));
				executions += deliveries.length;
				while ((await editor.successfulExecutions(trigger.id)) < executions) {
					if (Date.now() > deadline) throw new Error(`n8n ran fewer than ${executions} executions of the trigger workflow\n${n8n!.logTail(40)}`);
					await new Promise((r) => setTimeout(r, 200));
				}
				expect(await editor.successfulExecutions(trigger.id)).toBe(executions);
			};

			beforeAll(async () => {
				userFolder = mkdtempSync(join(tmpdir(), `n8n-e2e-install-${major}-`));
				folders.push(userFolder);
				// The README's line for a private registry: it also points n8n's "update available" check
				// (npm outdated in this folder, which ignores N8N_COMMUNITY_PACKAGES_REGISTRY) at it.
				mkdirSync(nodesDir(), { recursive: true });
				writeFileSync(join(nodesDir(), '.npmrc'), `registry=${registry!.url}\n`);
				await startN8n();
			}, 300_000);

			test('Install: 0.1.0 from the registry, its two nodes and the credential loaded, nothing else on disk', async () => {
				expect(await editor.packages()).toEqual([]);
				const { result, ms } = await timed(async () => await editor.installPackage(PACKAGE_NAME, '0.1.0'));
				say(`n8n ${install.version}: install of 0.1.0 through POST /rest/community-packages took ${ms} ms`);
				expect(result.installedVersion).toBe('0.1.0');
				expect(result.installedNodes.map((node) => node.type).sort()).toEqual([ACTION_NODE_TYPE, TRIGGER_NODE_TYPE]);
				expect(installedVersion()).toBe('0.1.0');
				expect(packagesIn(join(nodesDir(), 'node_modules'))).toEqual([PACKAGE_NAME]);
				expect(await client.nodeTypeNames()).toEqual(expect.arrayContaining([ACTION_NODE_TYPE, TRIGGER_NODE_TYPE]));
				expect(await client.credentialTypeNames()).toContain(CREDENTIAL_TYPE);
				// The page's list offers the update (npm outdated against the registry of .npmrc).
				const [row] = await editor.packages();
				expect([row.packageName, row.installedVersion, row.updateAvailable]).toEqual([PACKAGE_NAME, '0.1.0', NEXT_VERSION]);
			});

			test("the credential: n8n's credential test passes against the API", async () => {
				actionCredential = await editor.createCredential({ name: 'Conversation Inbox account', type: CREDENTIAL_TYPE, data: { baseUrl: actions!.baseUrl, apiToken: actions!.token } });
				platformCredential = await editor.createCredential({ name: 'Conversation Inbox platform', type: CREDENTIAL_TYPE, data: { baseUrl: platform!.baseUrl, apiToken: platform!.token } });
				actions!.clearRequests();
				const result = await client.testCredential(actionCredential, { baseUrl: actions!.baseUrl, apiToken: actions!.token });
				expect(result).toEqual({ status: 'OK', message: expect.any(String) });
				expect(actions!.requests.map((r) => [r.method, r.path, r.status])).toEqual([['GET', '/v2/user/list', 200]]);
			});

			test('every workflow saved with 0.1.0, imported and run on 0.1.0, sends what 0.1.0 recorded', async () => {
				for (const fixture of actionFixtures()) {
					const path = `install-${major}-${fixture.name.replace(/\W/g, '-')}`;
					const definition = prepareForImport(manualTriggerToWebhook(fixture.workflow as unknown as WorkflowDefinition, path), actionCredential);
					const workflow = await editor.createWorkflow(definition);
					await editor.activate(workflow);
					saved.push({ fixture, workflow, path });
				}
				for (const run of saved) expect(await runSaved(run)).toEqual(run.fixture.requests.map((request) => ({ ...(request as Record<string, unknown>), status: expect.any(Number) })));
			}, 300_000);

			test('a trigger saved with 0.1.0 activates and registers one webhook per event on the platform', async () => {
				const node = releasedTrigger(2).node as unknown as WorkflowDefinition['nodes'][number];
				const definition = prepareForImport({ name: 'install trigger', nodes: [{ ...node, name: TRIGGER_NAME }], connections: {}, settings: { executionOrder: 'v1' } }, platformCredential);
				const webhookId = definition.nodes[0].webhookId;
				const workflow = await editor.createWorkflow(definition);
				const url = `${n8n!.url}/webhook/${webhookId}/webhook`;
				trigger = { id: workflow.id, versionId: workflow.versionId, url, integrationId: (node.parameters.integrationId as { value: string }).value };
				const events = (node.parameters.events as string[]).length;
				await editor.activate(workflow);
				await client.activationApplied(workflow.id);
				await platform!.waitForRequests((requests) => requests.filter((r) => r.path === CREATE_PATH && r.status === 200).length >= events, 30_000);
				createsAtActivation = platformCreates();
				expect(createsAtActivation).toBe(events);
				expect([...platform!.state.webhooks.values()].filter((w) => w.url === url)).toHaveLength(events);
				await expectDeliveryExecutes();
			});

			test(`Update: to ${NEXT_VERSION} with the page's update call; the same workflows send the same requests; the trigger keeps its registrations`, async () => {
				const { result, ms } = await timed(async () => await editor.updatePackage(PACKAGE_NAME));
				say(`n8n ${install.version}: update 0.1.0 → ${result.installedVersion} through PATCH /rest/community-packages took ${ms} ms`);
				expect(result.installedVersion).toBe(NEXT_VERSION);
				expect(installedVersion()).toBe(NEXT_VERSION);
				expect(packagesIn(join(nodesDir(), 'node_modules'))).toEqual([PACKAGE_NAME]);
				const [row] = await editor.packages();
				expect([row.packageName, row.installedVersion, row.updateAvailable]).toEqual([PACKAGE_NAME, NEXT_VERSION, undefined]);

				for (const run of saved) await expectSentWhat010Sent(run, (await runSaved(run)) as Array<Record<string, unknown>>);
				expect(platformCreates()).toBe(createsAtActivation);
				await expectDeliveryExecutes();
				expect(platformCreates()).toBe(createsAtActivation);
				expect(ourProblems(n8n!.log())).toEqual([]);
			}, 300_000);

			test('after a restart: the package, its nodes, the workflows and the trigger are all still there', async () => {
				await stopN8n();
				await startN8n();
				expect(n8n!.startupLog()).toMatch(new RegExp(`Loaded all credentials and nodes from ${PACKAGE_NAME} .*"credentials":1,"nodes":2`));
				const [row] = await editor.packages();
				expect([row.packageName, row.installedVersion, row.failedLoading ?? false]).toEqual([PACKAGE_NAME, NEXT_VERSION, false]);
				expect(await client.nodeTypeNames()).toEqual(expect.arrayContaining([ACTION_NODE_TYPE, TRIGGER_NODE_TYPE]));
				for (const run of saved) await expectSentWhat010Sent(run, (await runSaved(run)) as Array<Record<string, unknown>>);
				// n8n re-activated the trigger at start: from its static data, without registering again.
				await expectDeliveryExecutes();
				expect(platformCreates()).toBe(createsAtActivation);
				expect(ourProblems(n8n!.log())).toEqual([]);
			}, 300_000);

			test('Uninstall: the package, its folder and its node types are gone', async () => {
				await editor.deactivate(trigger.id);
				for (const run of saved) await editor.deactivate(run.workflow.id);
				await editor.uninstallPackage(PACKAGE_NAME);
				expect(await editor.packages()).toEqual([]);
				expect(existsSync(join(nodesDir(), 'node_modules', PACKAGE_NAME))).toBe(false);
				expect(packagesIn(join(nodesDir(), 'node_modules'))).toEqual([]);
				const nodeTypes = await client.nodeTypeNames();
				expect(nodeTypes.filter((name) => name.startsWith(`${PACKAGE_NAME}.`))).toEqual([]);
				expect(ourProblems(n8n!.log())).toEqual([]);
				await stopN8n();
			}, 120_000);
		});

		describe('by hand: npm install in a fresh .n8n/nodes, then n8n starts with it', () => {
			let userFolder: string;

			test('npm installs our package and nothing else', () => {
				userFolder = mkdtempSync(join(tmpdir(), `n8n-e2e-byhand-${major}-`));
				folders.push(userFolder);
				const { output, ms, nodesDir } = installByHand(userFolder, PACKAGE_NAME, registry!.url);
				say(`n8n ${install.version}: npm install ${PACKAGE_NAME} by hand took ${ms} ms: ${output.trim().split('\n').pop()}`);
				const tree = listTree(nodesDir, (path) => path.startsWith(`node_modules/${PACKAGE_NAME}/dist`));
				say(`on disk in .n8n/nodes:\n  ${tree.join('\n  ')}`);
				expect(output).toMatch(/added 1 package/);
				expect(packagesIn(join(nodesDir, 'node_modules'))).toEqual([PACKAGE_NAME]);
				expect(n8nWorkflowCopies(userFolder)).toEqual([]);
				const manifest = JSON.parse(readFileSync(join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'), 'utf8')) as { version: string };
				expect(manifest.version).toBe(NEXT_VERSION);
			});

			test('n8n loads both nodes and the credential and runs a workflow, with its own n8n-workflow', async () => {
				const started = await timed(async () => await N8nProcess.start({ install, userFolder, logLevel: 'debug' }));
				n8n = started.result;
				say(`n8n ${install.version} started with the by-hand install in ${started.ms} ms`);
				expect(n8n.startupLog()).toMatch(new RegExp(`Loaded all credentials and nodes from ${PACKAGE_NAME} .*"credentials":1,"nodes":2`));
				const client = new N8nClient(n8n.url, major);
				await client.setupOwner(DEMO_OWNER);
				expect(await client.nodeTypeNames()).toEqual(expect.arrayContaining([ACTION_NODE_TYPE, TRIGGER_NODE_TYPE]));
				expect(await client.credentialTypeNames()).toContain(CREDENTIAL_TYPE);

				const editor = new EditorCalls(client);
				const credential = await editor.createCredential({ name: 'Conversation Inbox account', type: CREDENTIAL_TYPE, data: { baseUrl: actions!.baseUrl, apiToken: actions!.token } });
				const fixture = actionFixtures().find((f) => f.name === 'tag.create');
				if (!fixture) throw new Error('the 0.1.0 fixture tag.create is missing');
				const path = `byhand-${major}-tag-create`;
				const workflow = await editor.createWorkflow(prepareForImport(manualTriggerToWebhook(fixture.workflow as unknown as WorkflowDefinition, path), credential));
				await editor.activate(workflow);
				actions!.reset();
				const response = await client.callWebhook(path, {});
				expect(response.status).toBe(200);
				expect(actions!.requests.map(asRecorded)).toEqual(fixture.requests);

				// The only n8n-workflow the package can reach is n8n's: none under the user folder, and
				// from the package's own folder Node's resolution finds none either.
				expect(n8nWorkflowCopies(userFolder)).toEqual([]);
				const resolve = spawnSync(process.execPath, ['-e', "require.resolve('n8n-workflow')"], { cwd: join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME), encoding: 'utf8' });
				expect(resolve.stderr).toMatch(/Cannot find module 'n8n-workflow'/);
				expect(ourProblems(n8n.log())).toEqual([]);
				await stopN8n();
			}, 300_000);
		});
	});
}
