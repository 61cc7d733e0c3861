/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Queue mode as n8n 3.0 will run it: OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true (3.0 removes the
 * variable and always does this; 2.41.1 reports it as a v3 breaking change, and 1.123.81 reads it
 * too). Manual runs from the editor are then queued in Redis and run by a worker, not by main.
 * Driven through n8n's REST API the way the editor calls it (harness/editor.ts), with the editor's
 * push connection open, on a stack of main, one worker and a webhook processor behind a load
 * balancer (harness/balancer.ts: `/webhook/…` to the webhook processor, the rest to main):
 *
 * - "Execute step" of our node, first with nothing run before (n8n runs the trigger and the node),
 *   then with the last run's data (only the node runs again): queued, run by the worker, the output
 *   and exactly the requests the sandbox received, the events on the push connection;
 * - "Listen for test event" on our trigger: main registers the test URL at the sandbox; a delivery
 *   there reaches main (test webhooks are main's), which queues one execution for the worker;
 * - the pickers (loadOptions, listSearch) answer from main with every worker stopped.
 *
 * "Ran on the worker": the execution's id in the worker's log ("Worker started execution <id>"),
 * never in main's or the webhook processor's (the execution record names no process).
 */
import { randomUUID } from 'node:crypto';

import { DEMO, startSandbox } from '../../sandbox';
import type { Sandbox } from '../../sandbox';
import { EditorSession } from '../harness/editor';
import { describeWhen } from '../harness/gate';
import { nodeJson, type Execution, type WorkflowDefinition, type WorkflowNode, type WorkflowRecord } from '../harness/n8n-client';
import { processGroupMembers } from '../harness/n8n-process';
import type { PackedPackage } from '../harness/package';
import { N8N_VERSIONS, selectedMajors, type N8nInstall, type N8nMajor } from '../harness/provision';
import { startQueueStack, type QueueStack } from '../harness/queue-stack';
import { until } from '../harness/until';
import { ACTION_NODE_TYPE, CREDENTIAL_TYPE, TRIGGER_NODE_TYPE } from '../harness/workflows';

const MANUAL = 'When clicking ‘Execute workflow’';
const REMOVE = 'Remove VIP tag';
const CONTACTS = 'Newsletter contacts';
const TRIGGER = 'New inbox message';
const STARTED = /Worker started execution/;

/** E2E_QUEUE=0 skips it, as the other queue suites (outside CI: gate.ts); the version must be selected. */
const enabled = (major: N8nMajor): boolean => process.env.E2E_QUEUE !== '0' && selectedMajors().includes(major);

const report = (line: string): void => void process.stderr.write(`[queue-offload] ${line}\n`);

function fromEnv<T>(name: string): T {
	const raw = process.env[name];
	if (!raw) throw new Error(`${name} is not set: run the e2e tests with jest -c jest.e2e.config.js (its globalSetup provisions n8n)`);
	return JSON.parse(raw) as T;
}

interface Context {
	sandbox: Sandbox;
	queue: QueueStack;
	editor: EditorSession;
	credential: { [CREDENTIAL_TYPE]: { id: string; name: string } };
}

/** Manual Trigger → Tag → Remove From Contact → Tag → Get Contacts, as a user builds it (node version 2). */
function stepWorkflow(c: Context): WorkflowDefinition {
	const action = (name: string, x: number, parameters: Record<string, unknown>): WorkflowNode => ({
		id: randomUUID(),
		name,
		type: ACTION_NODE_TYPE,
		typeVersion: 2,
		position: [x, 0],
		parameters,
		credentials: c.credential,
	});
	return {
		name: 'e2e offload: execute step',
		nodes: [
			{ id: randomUUID(), name: MANUAL, type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			action(REMOVE, 220, { resource: 'tag', operation: 'removeFromContact', phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: [DEMO.tags.vip.id] }),
			action(CONTACTS, 440, { resource: 'tag', operation: 'getContacts', tag: { __rl: true, mode: 'id', value: DEMO.tags.big.id }, limit: 5 }),
		],
		connections: {
			[MANUAL]: { main: [[{ node: REMOVE, type: 'main', index: 0 }]] },
			[REMOVE]: { main: [[{ node: CONTACTS, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The sandbox's log without what the test itself asked of it: method, path, query, body. */
const received = (sandbox: Sandbox) => sandbox.requests.map((r) => ({ method: r.method, path: r.path, query: r.query, body: r.body }));

export function describeQueueOffload(major: N8nMajor): void {
	const version = N8N_VERSIONS[major];
	describeWhen(enabled(major), `n8n ${version} in queue mode with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true (main, a worker, a webhook processor behind a balancer)`, `E2E_QUEUE=0, or N8N_E2E_VERSIONS does not select n8n ${major}`, () => {
		let current: Context | undefined;
		let sandbox: Sandbox | undefined;
		let queue: QueueStack | undefined;
		let editor: EditorSession | undefined;
		let startedAt = 0;

		beforeAll(async () => {
			startedAt = Date.now();
			const install = fromEnv<N8nInstall>(`E2E_N8N_${major}`);
			const packed = fromEnv<PackedPackage>('E2E_PACKED');
			sandbox = await startSandbox({ quiet: true });
			queue = await startQueueStack({
				install,
				packed,
				api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
				workers: 1,
				balancer: true,
				env: { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' },
				log: report,
			});
			report(`n8n ${version}: stack ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
			editor = await EditorSession.open(queue.client);
			current = { sandbox, queue, editor, credential: { [CREDENTIAL_TYPE]: { id: queue.credential.id, name: queue.credential.name } } };
		}, 600_000);

		afterAll(async () => {
			editor?.close();
			const groups = queue ? [queue.main.pid, queue.webhook.pid, ...queue.workers.map((w) => w.pid)] : [];
			await queue?.stop();
			await sandbox?.close();
			for (const pid of groups) expect(processGroupMembers(pid)).toEqual([]);
			report(`n8n ${version}: the suite took ${((Date.now() - startedAt) / 1000).toFixed(1)} s (stack start, tests, stop)`);
		}, 120_000);

		const ctx = (): Context => {
			if (!current) throw new Error('the queue-mode stack did not start (see the beforeAll error)');
			return current;
		};

		/** The execution ran on the worker, and neither main nor the webhook processor ran anything. */
		function expectRanOnTheWorker(c: Context, executionId: string): void {
			const [worker] = c.queue.workers;
			expect(c.queue.executionsStartedBy(worker).filter((id) => id === executionId)).toEqual([executionId]);
			expect(c.queue.main.log()).not.toMatch(STARTED);
			expect(c.queue.webhook.log()).not.toMatch(STARTED);
		}

		describe('"Execute step" of our node', () => {
			let workflow: WorkflowRecord;
			let first: Execution;

			test('with nothing run before: queued, run on the worker up to the node; its output, the one request, the editor told', async () => {
				const c = ctx();
				c.sandbox.reset();
				workflow = await c.editor.saveNewWorkflow(stepWorkflow(c));
				const answer = await c.editor.executeStep(workflow, REMOVE);
				expect(answer).toEqual({ executionId: expect.any(String) });
				const id = (answer as { executionId: string }).executionId;
				await c.editor.finished(id);
				first = await c.queue.client.getExecution(id);

				expect([first.mode, first.status]).toEqual(['manual', 'success']);
				// n8n ran the trigger and the node, not the node after it.
				expect(Object.keys(first.data.resultData.runData).sort()).toEqual([MANUAL, REMOVE].sort());
				const [removed] = nodeJson(first, REMOVE);
				expect((removed.removedTags as Array<{ id: string }>).map((t) => t.id)).toEqual([DEMO.tags.vip.id]);
				expect(removed.contact).toMatchObject({ phoneNumber: DEMO.contacts.alice.phoneNumber });
				expect(received(c.sandbox)).toEqual([
					{ method: 'POST', path: '/v2/tag/remove-from-contact', query: {}, body: { phoneNumber: DEMO.contacts.alice.phoneNumber, tagIds: [DEMO.tags.vip.id] } },
				]);
				expectRanOnTheWorker(c, id);
				// What the editor's canvas shows comes over the push connection, relayed from the worker.
				const events = c.editor.messagesOf(id).map((m) => `${m.type}${m.data.nodeName ? ` ${String(m.data.nodeName)}` : ''}`);
				expect(events).toEqual(expect.arrayContaining([`nodeExecuteAfter ${REMOVE}`, 'executionFinished']));
				report(`execute step (full): execution ${id}, push events: ${events.join(', ')}`);
			});

			test('with the last run\'s data: only the next node runs, on the worker; its output and its one request', async () => {
				const c = ctx();
				c.sandbox.reset();
				const answer = await c.editor.executeStep(workflow, CONTACTS, first.data.resultData.runData);
				const id = (answer as { executionId: string }).executionId;
				expect(id).toEqual(expect.any(String));
				await c.editor.finished(id);
				const execution = await c.queue.client.getExecution(id);

				expect([execution.mode, execution.status]).toEqual(['manual', 'success']);
				// The earlier node's data is the last run's, not a new run.
				expect(execution.data.resultData.runData[REMOVE][0].startTime).toBe(first.data.resultData.runData[REMOVE][0].startTime);
				const phones = c.sandbox.state.tagMembers(DEMO.tags.big.id).map((m) => m.phoneNumber);
				expect(nodeJson(execution, CONTACTS).map((contact) => contact.phoneNumber)).toEqual(phones.slice(0, 5));
				expect(received(c.sandbox)).toEqual([
					{ method: 'GET', path: '/v2/tag/list-contacts', query: { tagId: DEMO.tags.big.id, offset: '0', limit: '5' }, body: undefined },
				]);
				expectRanOnTheWorker(c, id);
			});
		});

		describe('"Listen for test event" on our trigger', () => {
			test('main registers the test URL once; a delivery there gives one execution on the worker, with the event; the test URL is gone afterwards', async () => {
				const c = ctx();
				c.sandbox.reset();
				const webhookId = randomUUID();
				const workflow = await c.editor.saveNewWorkflow({
					name: 'e2e offload: listen for test event',
					nodes: [
						{
							id: randomUUID(),
							name: TRIGGER,
							type: TRIGGER_NODE_TYPE,
							typeVersion: 3,
							position: [0, 0],
							webhookId,
							parameters: { integrationId: { __rl: true, mode: 'id', value: DEMO.integrations.whatsapp.id }, events: ['MESSAGE_RECEIVED'] },
							credentials: c.credential,
						},
					],
					connections: {},
					settings: { executionOrder: 'v1' },
				});
				const answer = await c.editor.executeStep(workflow, TRIGGER);
				expect(answer).toEqual({ waitingForWebhook: true });

				// n8n 2.x builds test URLs on N8N_EDITOR_BASE_URL (main), 1.x on WEBHOOK_URL (the balancer, which sends /webhook-test/ to main).
				const testBase = major === '2' ? c.queue.main.url : c.queue.webhookUrl;
				const testUrl = `${testBase}/webhook-test/${webhookId}/webhook`;
				const registrations = (): string[][] => [...c.sandbox.state.webhooks.values()].map((w) => [w.url, w.type]);
				expect(registrations()).toEqual([[testUrl, 'MESSAGE_RECEIVED']]);

				const text = 'Hello from the test event';
				const phoneNumber = '5511944443333';
				const deliveries = await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber, name: 'Lia Campos', direction: 'inbound', text });
				expect(deliveries.map((d) => [d.url, d.status])).toEqual([[testUrl, 200]]);
				const receivedMessage = await c.editor.push.waitFor('testWebhookReceived', (m) => m.type === 'testWebhookReceived' && m.data.workflowId === workflow.id);
				const id = String(receivedMessage.data.executionId);
				await c.editor.finished(id);

				const executions = await until('the test event\'s execution listed', async () => {
					const list = await c.queue.client.listExecutions(workflow.id);
					return list.length > 0 ? list : undefined;
				}, 30_000);
				expect(executions.map((e) => e.id)).toEqual([id]);
				const execution = await c.queue.client.getExecution(id);
				expect([execution.mode, execution.status]).toEqual(['manual', 'success']);
				expect(nodeJson(execution, TRIGGER)).toEqual([expect.objectContaining({ event: 'MESSAGE_RECEIVED', integrationId: DEMO.integrations.whatsapp.id, text, phoneNumber })]);
				expectRanOnTheWorker(c, id);
				if (c.queue.balancer && major === '1') {
					expect(c.queue.balancer.routed.filter((r) => r.path.startsWith('/webhook-test/')).map((r) => [r.target, r.status])).toEqual([['main', 200]]);
				}

				// The test is over: n8n removed its test webhook, the registration stays at the
				// platform (the API cannot delete it; the trigger's notice says so), and a later event
				// sent there gets a 404 and runs nothing.
				expect(c.sandbox.requests.filter((r) => r.path === '/v2/integration/webhook/create')).toHaveLength(1);
				const later = await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber, direction: 'inbound', text: 'after the test' });
				expect(later.map((d) => [d.url, d.status])).toEqual([[testUrl, 404]]);
				expect((await c.queue.client.listExecutions(workflow.id)).map((e) => e.id)).toEqual([id]);
				expect(registrations()).toEqual([[testUrl, 'MESSAGE_RECEIVED']]);
			});
		});

		describe('the pickers', () => {
			test('answer from main, with every worker stopped, with the sandbox\'s integrations and users', async () => {
				const c = ctx();
				for (const worker of [...c.queue.workers]) await c.queue.stopWorker(worker);
				expect(c.queue.workers).toHaveLength(0);
				c.sandbox.reset();
				const executionsBefore = (await c.queue.client.api<{ data: unknown[] }>('GET', '/executions?limit=250')).data.length;
				const node = (parameters: Record<string, unknown>): WorkflowNode => ({ name: 'Conversation Inbox', type: ACTION_NODE_TYPE, typeVersion: 2, position: [0, 0], parameters, credentials: c.credential });
				const workflowId = (await c.queue.client.listWorkflows())[0].id;

				const integrationNode = node({ resource: 'integration', operation: 'disconnect', integrationId: { __rl: true, mode: 'list', value: '' } });
				const all = await c.editor.listSearch({ node: integrationNode, path: 'parameters.integrationId', methodName: 'searchIntegrations', workflowId });
				const shown = Object.values(DEMO.integrations).map((i) => ({ name: `${i.name} (${i.connectionStatus})`, value: i.id }));
				expect(all.results).toEqual([...shown].sort((a, b) => a.name.localeCompare(b.name)));
				const search = await c.editor.listSearch({ node: integrationNode, path: 'parameters.integrationId', methodName: 'searchIntegrations', workflowId, filter: 'support' });
				expect(search.results).toEqual([{ name: `${DEMO.integrations.whatsapp.name} (CONNECTED)`, value: DEMO.integrations.whatsapp.id }]);

				const chatsNode = node({ resource: 'chat', operation: 'getAll', filters: { attendantIds: [] } });
				const users = await c.editor.loadOptions({ node: chatsNode, path: 'parameters.filters.attendantIds', methodName: 'getUsers', workflowId });
				expect(users.map((u) => [u.name, u.value])).toEqual(Object.values(DEMO.users).map((u) => [u.name, u.id]).sort((a, b) => a[0].localeCompare(b[0])));

				expect(received(c.sandbox).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v2/integration/list', 'GET /v2/integration/list', 'GET /v2/user/list']);
				expect((await c.queue.client.api<{ data: unknown[] }>('GET', '/executions?limit=250')).data.length).toBe(executionsBefore);
			});
		});
	});
}
