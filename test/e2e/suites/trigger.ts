/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The trigger in a real n8n: activation registers webhooks on the platform (the sandbox) with
 * n8n's production URL and our headers; deliveries start executions; forged ones do not and leave
 * a line in n8n's log; a deactivate → activate cycle registers nothing new; a delivery sent the
 * moment the platform stores a registration (before n8n can have saved static data) executes.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { DEMO } from '../../sandbox';
import type { Delivery, Sandbox, Webhook } from '../../sandbox';
import { triggerWorkflowFixture, waitForTriggerActivation, type E2EContext } from '../harness/context';
import { nodeJson, type WorkflowDefinition, type WorkflowRecord } from '../harness/n8n-client';
import { CREDENTIAL_TYPE, TRIGGER_NODE_TYPE } from '../harness/workflows';
import { releasedTrigger } from '../../trigger/setup';

export const EVENTS = ['MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE'];
export const TRIGGER = 'Inbox events';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** typeVersion 2 is what the editor adds; 1 is what the first builds saved. */
export function triggerWorkflow(ctx: E2EContext, webhookId: string, typeVersion = 2, events = EVENTS): WorkflowDefinition {
	return {
		name: `e2e trigger v${typeVersion}`,
		nodes: [
			{
				id: randomUUID(),
				name: TRIGGER,
				type: TRIGGER_NODE_TYPE,
				typeVersion,
				position: [0, 0],
				webhookId,
				parameters: {
					integrationId: { __rl: true, mode: 'id', value: DEMO.integrations.whatsapp.id },
					events,
					transferType: 'ALL',
					delayMinutes: 0,
					options: {},
				},
				credentials: { [CREDENTIAL_TYPE]: { id: ctx.stack.credential.id, name: ctx.stack.credential.name } },
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

const registrationOf = (sandbox: Sandbox, url: string): Webhook | undefined => [...sandbox.state.webhooks.values()].find((w) => w.url === url);

/**
 * Runs `deliver` as soon as the sandbox has stored a registration for `url`: its create handler is
 * watched from the sandbox's beforeHandle hook, and the delivery starts in the same turn of the
 * event loop as the registration is stored, before the platform has even answered n8n's request
 * (so before n8n can save the node's static data).
 */
function deliverOnRegistration(sandbox: Sandbox, url: string, deliver: () => Promise<Delivery[]>): Promise<Delivery[]> {
	return new Promise((resolve, reject) => {
		sandbox.beforeHandle = (request) => {
			if (request.path !== '/v2/integration/webhook/create' || (request.body as { url?: unknown } | undefined)?.url !== url) return;
			sandbox.beforeHandle = undefined;
			let turns = 0;
			const attempt = (): void => {
				if (registrationOf(sandbox, url)) deliver().then(resolve, reject);
				else if (++turns > 10_000) reject(new Error(`the sandbox never stored the registration for ${url}`));
				else setImmediate(attempt);
			};
			// A microtask: runs right after the (synchronous) handler stored it, before the answer is sent.
			queueMicrotask(attempt);
		};
	});
}

/** What a version's trigger suite runs besides the tests every n8n gets. */
export interface TriggerSuiteOptions {
	/**
	 * Restart this n8n (the same process set-up and data folder) once, at the end, for the rows of
	 * issue 42 a restart decides: run where n8n saves static data only after an activation succeeds
	 * (1.x, and 2.x without its publication service).
	 */
	restart?: boolean;
}

/** The events a contact's first inbound message counts as, all three selected (issue 45). */
const FIRST_MESSAGE_KINDS = ['MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED', 'MESSAGE_SENT_AND_RECEIVED'];
/** How long apart the two identical connection-status bodies are sent, at least (issue 45). */
const STATUS_AGAIN_AFTER_MS = 60_000;

export function triggerSuite(ctx: () => E2EContext, options: TriggerSuiteOptions = {}): void {
	describe('the trigger', () => {
		const fixture = triggerWorkflowFixture(ctx, {
			definition: (c, webhookId) => triggerWorkflow(c, webhookId),
			webhookBase: (c) => c.stack.n8n.url,
			node: TRIGGER,
			registrations: EVENTS.length,
		});
		const { known, registrations, waitUntilLive } = fixture;

		async function newExecutions(count: number) {
			const executions = await ctx().client.waitForExecutions(fixture.workflow.id, known, count);
			for (const e of executions) known.add(e.id);
			return executions;
		}

		test('activation registers one webhook per event with n8n’s production URL and our headers', async () => {
			const c = ctx();
			await c.client.activate(fixture.workflow.id);
			await waitUntilLive();
			const hooks = registrations();
			expect(hooks.map((h) => h.type).sort()).toEqual([...EVENTS].sort());
			expect(c.sandbox.state.webhooks.size).toBe(EVENTS.length);
			const secrets = new Set<string>();
			for (const hook of hooks) {
				expect(hook).toMatchObject({ integrationId: DEMO.integrations.whatsapp.id, method: 'POST', url: fixture.productionUrl, transferType: 'ALL', delayMinutes: 0 });
				const headers = Object.fromEntries(hook.headers.map((h) => [h.key.toLowerCase(), h.value]));
				expect(headers['x-inbox-event']).toBe(hook.type);
				expect(headers['x-inbox-webhook-secret']).toMatch(/^\S{32,}$/);
				expect(headers['x-inbox-registration']).toEqual(expect.any(String));
				secrets.add(headers['x-inbox-webhook-secret']);
			}
			// One secret per node.
			expect(secrets.size).toBe(1);
			// The registration went through the API with the credential's token.
			const creates = c.sandbox.requests.filter((r) => r.path === '/v2/integration/webhook/create');
			expect(creates).toHaveLength(EVENTS.length);
			expect(creates.every((r) => r.headers.authorization === `Bearer ${c.sandbox.token}`)).toBe(true);
			for (const id of await c.client.executionIds(fixture.workflow.id)) known.add(id);
		});

		test('an inbound message from a new contact starts two executions: message received and first message', async () => {
			const c = ctx();
			const deliveries = await c.sandbox.simulate.message({
				integrationId: DEMO.integrations.whatsapp.id,
				phoneNumber: '5511955554444',
				name: 'Nina Prado',
				direction: 'inbound',
				text: 'Hello, is anybody there?',
			});
			expect(deliveries.map((d) => [d.event, d.status]).sort()).toEqual([
				['FIRST_MESSAGE_RECEIVED', 200],
				['MESSAGE_RECEIVED', 200],
			]);
			// The platform reads a small JSON acknowledgement, not n8n's placeholder "firstEntryJson".
			for (const delivery of deliveries) {
				expect(JSON.parse(delivery.responseBody ?? '')).toEqual({ success: true, executed: true });
			}
			const executions = await newExecutions(2);
			const items = executions.map((e) => {
				expect(e.status).toBe('success');
				expect(e.mode).toBe('webhook');
				const out = nodeJson(e, TRIGGER);
				expect(out).toHaveLength(1);
				return out[0];
			});
			expect(items.map((i) => i.event).sort()).toEqual(['FIRST_MESSAGE_RECEIVED', 'MESSAGE_RECEIVED']);
			for (const item of items) {
				expect(item).toMatchObject({
					integrationId: DEMO.integrations.whatsapp.id,
					body: {
						event: item.event,
						integrationId: DEMO.integrations.whatsapp.id,
						data: { message: { text: 'Hello, is anybody there?', direction: 'inbound' }, contact: { phoneNumber: '5511955554444', name: 'Nina Prado' } },
					},
				});
				const headers = item.headers as Record<string, string>;
				expect(headers['x-inbox-event']).toBe(item.event);
				// The secret never reaches the workflow's data.
				expect(headers['x-inbox-webhook-secret']).toBeUndefined();
				const secret = registrations()[0].headers.find((h) => h.key === 'x-inbox-webhook-secret')!.value;
				expect(JSON.stringify(item)).not.toContain(secret);
			}
		});

		test('a connection change starts an execution with the new status', async () => {
			const c = ctx();
			const deliveries = await c.sandbox.simulate.connectionStatus(DEMO.integrations.whatsapp.id, 'DISCONNECTED');
			expect(deliveries.map((d) => [d.event, d.status])).toEqual([['CONNECTION_STATUS_UPDATE', 200]]);
			const [execution] = await newExecutions(1);
			expect(nodeJson(execution, TRIGGER)).toEqual([
				expect.objectContaining({
					event: 'CONNECTION_STATUS_UPDATE',
					body: expect.objectContaining({ data: expect.objectContaining({ connectionStatus: 'DISCONNECTED', previousStatus: 'CONNECTED' }) }),
				}),
			]);
		});

		test('a forged delivery (no secret, or a wrong one) is refused with 401 and starts nothing', async () => {
			const c = ctx();
			const before = (await c.client.listExecutions(fixture.workflow.id)).length;
			const body = { event: 'MESSAGE_RECEIVED', integrationId: DEMO.integrations.whatsapp.id, data: { message: { text: 'forged' } } };
			const noSecret = await c.client.raw('POST', fixture.productionUrl, { body, headers: { 'x-inbox-event': 'MESSAGE_RECEIVED' } });
			const wrongSecret = await c.client.raw('POST', fixture.productionUrl, { body, headers: { 'x-inbox-event': 'MESSAGE_RECEIVED', 'x-inbox-webhook-secret': 'f'.repeat(64) } });
			expect([noSecret.status, wrongSecret.status]).toEqual([401, 401]);
			// A genuine delivery after the forged ones: exactly one execution appears, and it is the genuine one.
			await c.sandbox.simulate.connectionStatus(DEMO.integrations.whatsapp.id, 'CONNECTED');
			const [execution] = await newExecutions(1);
			expect(nodeJson(execution, TRIGGER)[0]).toMatchObject({ event: 'CONNECTION_STATUS_UPDATE' });
			expect((await c.client.listExecutions(fixture.workflow.id)).length).toBe(before + 1);
		});

		test('deactivate → activate registers nothing new, and deliveries still arrive', async () => {
			const c = ctx();
			const before = registrations().map((h) => h.id).sort();
			const createsBefore = c.sandbox.requests.filter((r) => r.path === '/v2/integration/webhook/create').length;
			await c.client.deactivate(fixture.workflow.id);
			// While inactive, n8n does not know the URL (and the platform cannot delete the webhook).
			const deadline = Date.now() + 15_000;
			while ((await c.client.raw('POST', fixture.productionUrl, { body: {} })).status !== 404 && Date.now() < deadline) await sleep(200);
			expect((await c.client.raw('POST', fixture.productionUrl, { body: {} })).status).toBe(404);

			await c.client.activate(fixture.workflow.id);
			await waitUntilLive();
			// Once n8n has applied the activation, checkExists (and create, had it been called) has run.
			await c.client.activationApplied(fixture.workflow.id);
			expect(registrations().map((h) => h.id).sort()).toEqual(before);
			expect(c.sandbox.requests.filter((r) => r.path === '/v2/integration/webhook/create')).toHaveLength(createsBefore);

			await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: '5511955554444', direction: 'inbound', text: 'Back again' });
			const [execution] = await newExecutions(1);
			expect(nodeJson(execution, TRIGGER)[0]).toMatchObject({ event: 'MESSAGE_RECEIVED', body: { data: { message: { text: 'Back again' } } } });
		});
	});

	describe.each([1, 2] as const)('the trigger as 0.1.0 left it (frozen fixtures of typeVersion %i)', (typeVersion) => {
		const released = releasedTrigger(typeVersion);
		let workflow: WorkflowRecord | undefined;

		afterAll(async () => {
			if (workflow) await ctx().client.deactivate(workflow.id).catch(() => undefined);
		});

		test("its saved node and static data activate without a new registration, and 0.1.0's delivery starts an execution", async () => {
			const c = ctx();
			const { node, activation, staticData, deliveries } = released;
			const productionUrl = `${c.stack.n8n.url}/webhook/${node.webhookId}/webhook`;
			// The static data as 0.1.0 saved it; only the address its registrations point at is n8n's
			// here (the recorder's stand-in for n8n had another port). Fingerprints, secret and the
			// rest stay as recorded.
			const saved = JSON.parse(JSON.stringify(staticData.afterDeactivation).split(activation.webhookUrl).join(productionUrl)) as Record<string, unknown>;
			workflow = await c.client.createWorkflow({
				name: `e2e trigger saved by 0.1.0 at typeVersion ${typeVersion}`,
				nodes: [
					{
						id: randomUUID(),
						name: node.name,
						type: TRIGGER_NODE_TYPE,
						typeVersion: node.typeVersion,
						position: [0, 0],
						webhookId: node.webhookId,
						parameters: node.parameters,
						credentials: { [CREDENTIAL_TYPE]: { id: c.stack.credential.id, name: c.stack.credential.name } },
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
				staticData: saved,
			});
			expect((await c.client.getWorkflow(workflow.id)).staticData).toEqual(saved);
			const creates = (): number => c.sandbox.requests.filter((r) => r.path === '/v2/integration/webhook/create').length;
			const before = creates();

			await c.client.activate(workflow.id);
			await waitForTriggerActivation(c, workflow.id, node.name, productionUrl, activation.registrationRequests.length);
			await c.client.activationApplied(workflow.id);
			expect(creates()).toBe(before);

			const known = await c.client.executionIds(workflow.id);
			const [{ delivery, released: [answer] }] = deliveries;
			const response = await c.client.raw(delivery.method, productionUrl, { headers: delivery.headers, body: delivery.body });
			expect(response.status).toBe(200);
			const [execution] = await c.client.waitForExecutions(workflow.id, known, 1);
			const expected = answer.items[0].json;
			expect(nodeJson(execution, node.name)).toEqual([
				expect.objectContaining({ event: expected.event, integrationId: expected.integrationId, body: expected.body }),
			]);
			expect(creates()).toBe(before);
		}, 60_000);
	});

	describe('the trigger: a registration answered 204 (no webhook in the answer)', () => {
		const webhookId = randomUUID();
		let workflow: WorkflowRecord | undefined;
		let variants: Parameters<Sandbox['setVariants']>[0] = {};

		afterAll(async () => {
			ctx().sandbox.setVariants(variants);
			if (workflow) await ctx().client.deactivate(workflow.id).catch(() => undefined);
		});

		test('is registered once: recorded, and deactivate → activate registers nothing more', async () => {
			const c = ctx();
			variants = c.sandbox.variants;
			c.sandbox.setVariants({ ...variants, shapes: { ...variants.shapes, '/integration/webhook/create': 'noContent' } });
			const url = `${c.stack.n8n.url}/webhook/${webhookId}/webhook`;
			const creates = (): number =>
				c.sandbox.requests.filter((r) => r.path === '/v2/integration/webhook/create' && (r.body as { url?: unknown } | undefined)?.url === url).length;
			workflow = await c.client.createWorkflow(triggerWorkflow(c, webhookId, 2, ['CONNECTION_STATUS_UPDATE']));
			await c.client.activate(workflow.id);
			await waitForTriggerActivation(c, workflow.id, TRIGGER, url, 1);
			expect(creates()).toBe(1);
			expect([...c.sandbox.state.webhooks.values()].filter((w) => w.url === url)).toHaveLength(1);

			await c.client.deactivate(workflow.id);
			await c.client.activate(workflow.id);
			await waitForTriggerActivation(c, workflow.id, TRIGGER, url, 1);
			await c.client.activationApplied(workflow.id);
			expect(creates()).toBe(1);
			expect([...c.sandbox.state.webhooks.values()].filter((w) => w.url === url)).toHaveLength(1);
		}, 60_000);
	});

	describe('the trigger saved at typeVersion 1', () => {
		const webhookId = randomUUID();
		let workflow: WorkflowRecord | undefined;

		afterAll(async () => {
			if (workflow) await ctx().client.deactivate(workflow.id).catch(() => undefined);
		});

		test('registers and delivers exactly like version 2', async () => {
			const c = ctx();
			const url = `${c.stack.n8n.url}/webhook/${webhookId}/webhook`;
			workflow = await c.client.createWorkflow(triggerWorkflow(c, webhookId, 1, ['CONNECTION_STATUS_UPDATE']));
			await c.client.activate(workflow.id);
			await waitForTriggerActivation(c, workflow.id, TRIGGER, url, 1);
			const known = await c.client.executionIds(workflow.id);
			// Disconnected, then connected again: the suites after this one expect the line connected.
			const deliveries = [
				...(await c.sandbox.simulate.connectionStatus(DEMO.integrations.whatsapp.id, 'DISCONNECTED')),
				...(await c.sandbox.simulate.connectionStatus(DEMO.integrations.whatsapp.id, 'CONNECTED')),
			];
			expect(deliveries.filter((d) => d.url === url).map((d) => [d.event, d.status])).toEqual([
				['CONNECTION_STATUS_UPDATE', 200],
				['CONNECTION_STATUS_UPDATE', 200],
			]);
			const executions = await c.client.waitForExecutions(workflow.id, known, 2);
			const items = executions.map((execution) => {
				expect(execution.status).toBe('success');
				const out = nodeJson(execution, TRIGGER);
				expect(out).toHaveLength(1);
				expect(out[0]).toMatchObject({ event: 'CONNECTION_STATUS_UPDATE', integrationId: DEMO.integrations.whatsapp.id });
				return out[0];
			});
			const statuses = items.map((item) => ((item.body as { data: { connectionStatus: string } }).data.connectionStatus)).sort();
			expect(statuses).toEqual(['CONNECTED', 'DISCONNECTED']);
		});
	});

	describe('the trigger: rejected deliveries in n8n\'s log', () => {
		let workflow: WorkflowRecord | undefined;

		afterAll(async () => {
			if (workflow) await ctx().client.deactivate(workflow.id).catch(() => undefined);
		});

		test('a forged delivery leaves a warning with the reason and the event, and no secret or token, in n8n\'s log', async () => {
			const c = ctx();
			const webhookId = randomUUID();
			const url = `${c.stack.n8n.url}/webhook/${webhookId}/webhook`;
			workflow = await c.client.createWorkflow({ ...triggerWorkflow(c, webhookId, 3, ['MESSAGE_SENT']), name: 'e2e trigger log' });
			await c.client.activate(workflow.id);
			// Nothing is sent to the URL before the forged deliveries (a probe would be logged too):
			// the registration on the platform says activation got that far.
			const deadline = Date.now() + 20_000;
			while (!registrationOf(c.sandbox, url) && Date.now() < deadline) await sleep(100);
			const secret = registrationOf(c.sandbox, url)!.headers.find((h) => h.key === 'x-inbox-webhook-secret')!.value;

			const body = { event: 'MESSAGE_SENT', integrationId: DEMO.integrations.whatsapp.id, data: { message: { text: 'forged' } } };
			const forge = async (headers: Record<string, string>): Promise<number> => {
				// n8n answers 404 itself (without the node) until it routes the URL.
				for (;;) {
					const { status } = await c.client.raw('POST', url, { body, headers });
					if (status !== 404 || Date.now() > deadline) return status;
					await sleep(100);
				}
			};
			const logBefore = c.stack.n8n.log().length;
			expect(await forge({ 'x-inbox-event': 'MESSAGE_SENT' })).toBe(401);
			expect(await forge({ 'x-inbox-event': 'MESSAGE_CONTENT', 'x-inbox-webhook-secret': 'f'.repeat(64) })).toBe(401);

			// n8n's log: its console output, as the harness keeps it in memory and in <user folder>/n8n.log.
			const refused = (): string[] =>
				c.stack.n8n.log().slice(logBefore).split('\n').filter((line) => line.includes(`Conversation Inbox Trigger "${TRIGGER}" in workflow ${workflow!.id} refused a delivery (HTTP 401)`));
			while (refused().length < 2 && Date.now() < deadline + 10_000) await sleep(100);
			const lines = refused();
			expect(lines).toEqual([
				expect.stringContaining('the x-inbox-webhook-secret header is missing. Event: MESSAGE_SENT. The workflow did not run for it.'),
				expect.stringContaining("the x-inbox-webhook-secret header does not match this node's secret nor that of any registration it made (a registration of another node, or a forged request). Event: not one of the seven event kinds. The workflow did not run for it."),
			]);
			const log = c.stack.n8n.log();
			expect(log).not.toContain(secret);
			expect(log).not.toContain(c.sandbox.token);
			expect(log).not.toContain('f'.repeat(64));
			expect(readFileSync(join(c.stack.n8n.userFolder, 'n8n.log'), 'utf8')).toContain(lines[1].trim());
			console.log(`[e2e n8n ${c.major}] log lines of two forged deliveries:\n${lines.join('\n')}`);
		}, 60_000);
	});

	describe('the trigger: no blind second after activation', () => {
		const ROUNDS = 20;
		const workflows: WorkflowRecord[] = [];

		afterAll(async () => {
			ctx().sandbox.beforeHandle = undefined;
			for (const w of workflows) await ctx().client.deactivate(w.id).catch(() => undefined);
		});

		test(`a message delivered the moment the platform stores the registration starts an execution, ${ROUNDS} activations in a row, none lost`, async () => {
			const c = ctx();
			const outcomes: string[] = [];
			for (let round = 1; round <= ROUNDS; round++) {
				const webhookId = randomUUID();
				const url = `${c.stack.n8n.url}/webhook/${webhookId}/webhook`;
				// typeVersion 3, as the editor adds it now: the simplified item.
				const workflow = await c.client.createWorkflow({ ...triggerWorkflow(c, webhookId, 3, ['MESSAGE_SENT']), name: `e2e trigger window ${round}` });
				workflows.push(workflow);
				const text = `window round ${round}`;
				const delivered = deliverOnRegistration(c.sandbox, url, () =>
					c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.alice.phoneNumber, direction: 'outbound', text, transferType: 'API' }),
				);
				await c.client.activate(workflow.id);
				const ours = (await delivered).filter((d) => d.url === url);
				expect(ours).toHaveLength(1);
				if (ours[0].status !== 200) {
					outcomes.push(`round ${round}: HTTP ${ours[0].status ?? ours[0].error} ${ours[0].responseBody ?? ''}`);
				} else {
					const [execution] = await c.client.waitForExecutions(workflow.id, new Set(), 1);
					const item = nodeJson(execution, TRIGGER)[0];
					outcomes.push(execution.status === 'success' && item?.text === text && item.event === 'MESSAGE_SENT' ? 'executed' : `round ${round}: ${execution.status} ${JSON.stringify(item)}`);
				}
				await c.client.deactivate(workflow.id);
			}
			const executed = outcomes.filter((o) => o === 'executed').length;
			console.log(`[e2e n8n ${c.major}] deliveries sent the moment the registration was stored: ${executed}/${ROUNDS} executed, ${ROUNDS - executed} lost`);
			expect(outcomes).toEqual(Array.from({ length: ROUNDS }, () => 'executed'));
		}, 300_000);
	});

	describe('the trigger: an activation the API refuses part-way, then a corrected one (issue 35)', () => {
		const webhookId = randomUUID();
		const REFUSAL = 'the e2e sandbox refuses CONNECTION_STATUS_UPDATE';
		let workflow: WorkflowRecord | undefined;

		afterAll(async () => {
			ctx().sandbox.clearFaults();
			if (workflow) await ctx().client.deactivate(workflow.id).catch(() => undefined);
		});

		test('the error carries the API\'s refusal; after removing the refused event, one registration per kind and one execution per inbound message', async () => {
			const c = ctx();
			const url = `${c.stack.n8n.url}/webhook/${webhookId}/webhook`;
			const ours = () => [...c.sandbox.state.webhooks.values()].filter((w) => w.url === url);
			c.sandbox.addFault({ kind: 'status', status: 400, path: '/v2/integration/webhook/create', match: 'CONNECTION_STATUS_UPDATE', message: REFUSAL, times: Infinity });
			workflow = await c.client.createWorkflow(triggerWorkflow(c, webhookId, 3, ['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE']));

			const failure = await c.client
				.activate(workflow.id)
				.then(() => c.client.activationApplied(workflow!.id))
				.then(() => 'activated', (error: unknown) => String(error));
			console.log(`[e2e n8n ${c.major}] activation refused part-way: ${failure.slice(0, 600)}`);
			expect(failure).toContain(REFUSAL);
			// The refused kind is named, as the Events list names it, on every path (issue 43).
			expect(failure).toContain('Registering the webhook for Connection Status Update failed');
			expect(ours().map((w) => w.type)).toEqual(['MESSAGE_RECEIVED']);
			await c.client.deactivate(workflow.id).catch(() => undefined);

			// The user removes the refused event and activates again.
			await c.client.updateWorkflow(workflow.id, triggerWorkflow(c, webhookId, 3, ['MESSAGE_RECEIVED']));
			await c.client.activate(workflow.id);
			await waitForTriggerActivation(c, workflow.id, TRIGGER, url, 1);
			await c.client.activationApplied(workflow.id);
			expect(ours().map((w) => w.type)).toEqual(['MESSAGE_RECEIVED']);

			const known = await c.client.executionIds(workflow.id);
			const deliveries = (await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.alice.phoneNumber, direction: 'inbound', text: 'after the correction' })).filter((d) => d.url === url);
			expect(deliveries.map((d) => d.status)).toEqual([200]);
			const [execution] = await c.client.waitForExecutions(workflow.id, known, 1);
			expect(nodeJson(execution, TRIGGER)[0]).toMatchObject({ event: 'MESSAGE_RECEIVED', text: 'after the correction' });
		}, 120_000);
	});

	describe('the trigger: the API token changed in the credential while active (issue 35)', () => {
		const webhookId = randomUUID();
		let workflow: WorkflowRecord | undefined;

		afterAll(async () => {
			if (workflow) await ctx().client.deactivate(workflow.id).catch(() => undefined);
		});

		test('the next delivery runs the workflow; deactivate → activate registers nothing and no delivery is refused', async () => {
			const c = ctx();
			const url = `${c.stack.n8n.url}/webhook/${webhookId}/webhook`;
			const creates = (): number =>
				c.sandbox.requests.filter((r) => r.path === '/v2/integration/webhook/create' && (r.body as { url?: unknown } | undefined)?.url === url).length;
			const credential = await c.client.createCredential({ name: 'Conversation Inbox (rotated in e2e)', type: CREDENTIAL_TYPE, data: { baseUrl: c.sandbox.baseUrl, apiToken: c.sandbox.token } });
			const definition = triggerWorkflow(c, webhookId, 3, ['MESSAGE_RECEIVED']);
			definition.nodes[0].credentials = { [CREDENTIAL_TYPE]: { id: credential.id, name: credential.name } };
			workflow = await c.client.createWorkflow(definition);
			await c.client.activate(workflow.id);
			await waitForTriggerActivation(c, workflow.id, TRIGGER, url, 1);
			await c.client.activationApplied(workflow.id);
			expect(creates()).toBe(1);

			await c.client.updateCredential(credential, { baseUrl: c.sandbox.baseUrl, apiToken: 'rotated-e2e-token-0123456789abcdef' });
			const inbound = async (text: string) => {
				const known = await c.client.executionIds(workflow!.id);
				const deliveries = (await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.alice.phoneNumber, direction: 'inbound', text })).filter((d) => d.url === url);
				expect(deliveries.map((d) => d.status)).toEqual([200]);
				const [execution] = await c.client.waitForExecutions(workflow!.id, known, 1);
				expect(nodeJson(execution, TRIGGER)[0]).toMatchObject({ event: 'MESSAGE_RECEIVED', text });
			};
			await inbound('after the rotation');

			await c.client.deactivate(workflow.id);
			await c.client.activate(workflow.id);
			await waitForTriggerActivation(c, workflow.id, TRIGGER, url, 1);
			await c.client.activationApplied(workflow.id);
			expect(creates()).toBe(1);
			await inbound('after the rotation and a re-activation');
		}, 120_000);
	});

	if (options.restart) describe('the trigger across a restart of n8n (issue 42)', () => {
		const renamedId = randomUUID();
		const failedId = randomUUID();
		const workflows: WorkflowRecord[] = [];
		const RENAMED = 'Inbox events (renamed)';
		const REFUSAL = 'the e2e sandbox refuses CONNECTION_STATUS_UPDATE (issue 42)';

		afterAll(async () => {
			ctx().sandbox.clearFaults();
			for (const w of workflows) await ctx().client.deactivate(w.id).catch(() => undefined);
		});

		test('a node renamed, then n8n restarted: nothing registered again; a failed activation, n8n restarted, the corrected one: the event registered again, and each message runs each workflow once', async () => {
			const c = ctx();
			const urlOf = (webhookId: string): string => `${c.stack.n8n.url}/webhook/${webhookId}/webhook`;
			const ours = (webhookId: string) => [...c.sandbox.state.webhooks.values()].filter((w) => w.url === urlOf(webhookId));
			const creates = (webhookId: string): number =>
				c.sandbox.requests.filter((r) => r.path === '/v2/integration/webhook/create' && (r.body as { url?: unknown } | undefined)?.url === urlOf(webhookId)).length;

			// 1. Activated once, deactivated, the node renamed (saved while inactive).
			const definition = triggerWorkflow(c, renamedId, 3, ['MESSAGE_RECEIVED']);
			const renamed = await c.client.createWorkflow({ ...definition, name: 'e2e trigger renamed (issue 42)' });
			workflows.push(renamed);
			await c.client.activate(renamed.id);
			await waitForTriggerActivation(c, renamed.id, TRIGGER, urlOf(renamedId), 1);
			await c.client.activationApplied(renamed.id);
			await c.client.deactivate(renamed.id);
			await c.client.updateWorkflow(renamed.id, { ...definition, name: 'e2e trigger renamed (issue 42)', nodes: [{ ...definition.nodes[0], name: RENAMED }] });
			expect(creates(renamedId)).toBe(1);

			// 2. An activation the API refuses part-way (MESSAGE_RECEIVED accepted), then corrected (saved while inactive).
			c.sandbox.addFault({ kind: 'status', status: 400, path: '/v2/integration/webhook/create', match: 'CONNECTION_STATUS_UPDATE', message: REFUSAL, times: Infinity });
			const failed = await c.client.createWorkflow({ ...triggerWorkflow(c, failedId, 3, ['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE']), name: 'e2e trigger failed then corrected (issue 42)' });
			workflows.push(failed);
			const failure = await c.client
				.activate(failed.id)
				.then(() => c.client.activationApplied(failed.id))
				.then(() => 'activated', (error: unknown) => String(error));
			expect(failure).toContain(REFUSAL);
			expect(ours(failedId).map((w) => w.type)).toEqual(['MESSAGE_RECEIVED']);
			await c.client.deactivate(failed.id).catch(() => undefined);
			c.sandbox.clearFaults();
			await c.client.updateWorkflow(failed.id, { ...triggerWorkflow(c, failedId, 3, ['MESSAGE_RECEIVED']), name: 'e2e trigger failed then corrected (issue 42)' });

			// 3. n8n restarted: its process memory is gone, its database kept.
			const restartStarted = Date.now();
			await c.stack.restart!();
			console.log(`[e2e n8n ${c.major}] restart of n8n: ${Date.now() - restartStarted} ms`);

			// 4. Both activated again.
			await c.client.activate(renamed.id);
			await waitForTriggerActivation(c, renamed.id, RENAMED, urlOf(renamedId), 1);
			await c.client.activationApplied(renamed.id);
			await c.client.activate(failed.id);
			await waitForTriggerActivation(c, failed.id, TRIGGER, urlOf(failedId), 1);
			await c.client.activationApplied(failed.id);
			console.log(`[e2e n8n ${c.major}] after the restart: MESSAGE_RECEIVED registered ${ours(failedId).length} time(s) for the corrected workflow`);

			// 5. One inbound message, then a later one: each workflow's executions are read once the
			// later message's has appeared (the first message's deliveries were answered before the
			// later one was sent, so its executions exist by then: no waiting for "nothing more").
			const text = 'one message after the restart (issue 42)';
			const later = 'a later message (issue 42)';
			const known = { renamed: await c.client.executionIds(renamed.id), failed: await c.client.executionIds(failed.id) };
			const deliveries = await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.alice.phoneNumber, direction: 'inbound', text });
			await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: DEMO.contacts.alice.phoneNumber, direction: 'inbound', text: later });
			const texts = async (workflow: WorkflowRecord, node: string, seen: Set<string>): Promise<string[]> => {
				const ran: string[] = [];
				while (!ran.includes(later)) {
					for (const execution of await c.client.waitForExecutions(workflow.id, seen, 1)) {
						seen.add(execution.id);
						ran.push(String(nodeJson(execution, node)[0]?.text));
					}
				}
				return ran;
			};
			const statuses = (webhookId: string) => deliveries.filter((d) => d.url === urlOf(webhookId) && d.event === 'MESSAGE_RECEIVED').map((d) => d.status);
			const observed = {
				renamed: { registrationsSent: creates(renamedId), deliveries: statuses(renamedId), ran: await texts(renamed, RENAMED, known.renamed) },
				corrected: { deliveriesAll200: statuses(failedId).every((status) => status === 200), ran: await texts(failed, TRIGGER, known.failed) },
			};
			console.log(`[e2e n8n ${c.major}] after the restart: ${JSON.stringify(observed)}`);
			expect(observed).toEqual({
				// The renamed node's registration is reused, not made again.
				renamed: { registrationsSent: 1, deliveries: [200], ran: [text, later] },
				// The failed activation's registration was forgotten with n8n's memory (where n8n saved
				// nothing) and made again: its deliveries are acknowledged and run nothing.
				corrected: { deliveriesAll200: true, ran: [text, later] },
			});
			expect(statuses(failedId).length).toBeGreaterThanOrEqual(1);
		}, 240_000);
	});
}

/**
 * One Execution per Message in real n8n (issue 45), as two suites of one n8n file: `first` early in
 * the file (a first message under three events, a redelivery 2 s later, another message with the
 * same text a second later; a connection status whose very body `last` sends again), `last` after
 * other suites, at least 60 s after the first status (the suites in between fill the 60 s; what is
 * left, if anything, is waited for and printed). Not across a restart: a restart forgets the memory.
 */
export function oncePerMessageSuites(): { first: (ctx: () => E2EContext) => void; last: (ctx: () => E2EContext) => void } {
	const oncePerMessage: { status?: WorkflowRecord; statusUrl?: string; firstStatus?: Delivery; firstStatusAt?: number } = {};

	const first = (ctx: () => E2EContext): void => describe('one execution per message (issue 45): a new node, version 4, the option on by default', () => {
		const messagesId = randomUUID();
		const statusId = randomUUID();
		const workflows: WorkflowRecord[] = [];

		afterAll(async () => {
			for (const w of workflows) await ctx().client.deactivate(w.id).catch(() => undefined);
		});

		test('a first message under Message Received, First Message Received and Message Sent and Received: one execution; a redelivery 2 s later: none; another message with the same text a second later: one', async () => {
			const c = ctx();
			const urlOf = (webhookId: string): string => `${c.stack.n8n.url}/webhook/${webhookId}/webhook`;
			const messages = await c.client.createWorkflow({ ...triggerWorkflow(c, messagesId, 4, FIRST_MESSAGE_KINDS), name: 'e2e trigger v4, one execution per message' });
			const status = await c.client.createWorkflow({ ...triggerWorkflow(c, statusId, 4, ['CONNECTION_STATUS_UPDATE']), name: 'e2e trigger v4, connection status' });
			// The connection-status workflow stays active until `last` (which deactivates it).
			workflows.push(messages);
			for (const [workflow, webhookId, count] of [[messages, messagesId, 3], [status, statusId, 1]] as const) {
				await c.client.activate(workflow.id);
				await waitForTriggerActivation(c, workflow.id, TRIGGER, urlOf(webhookId), count);
				await c.client.activationApplied(workflow.id);
			}
			const known = await c.client.executionIds(messages.id);

			// A connection status, whose very body `last` sends again (≥ 60 s later).
			const [firstStatus] = (await c.sandbox.simulate.connectionStatus(DEMO.integrations.whatsapp.id, 'DISCONNECTED')).filter((d) => d.url === urlOf(statusId));
			Object.assign(oncePerMessage, { status, statusUrl: urlOf(statusId), firstStatus, firstStatusAt: Date.now() });
			await c.sandbox.simulate.connectionStatus(DEMO.integrations.whatsapp.id, 'CONNECTED');

			const phoneNumber = `55119${String(Date.now()).slice(-8)}`;
			const text = 'first words (issue 45)';
			const first = (await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber, name: 'Olga Reis', direction: 'inbound', text })).filter((d) => d.url === urlOf(messagesId));
			expect(first.map((d) => [d.event, d.status]).sort()).toEqual(FIRST_MESSAGE_KINDS.map((kind) => [kind, 200]).sort());
			// The platform delivers one of them again, 2 s later: the same body and headers.
			await sleep(2_000);
			const again = await c.client.raw(first[0].method, first[0].url, { headers: first[0].headers, body: first[0].body });
			expect(again.status).toBe(200);
			expect(again.body).toMatchObject({ executed: false });
			// A second message with the same text, a second later: a message of its own.
			await sleep(1_000);
			const second = (await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber, direction: 'inbound', text })).filter((d) => d.url === urlOf(messagesId));
			expect(second.map((d) => d.status)).toEqual([200, 200]);
			// A last message: once its execution appears, the ones before it are all there (no waiting for "nothing").
			const last = 'the last message (issue 45)';
			await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber, direction: 'inbound', text: last });
			const ran: Array<{ text: unknown; events: unknown; messageKey: unknown; event: unknown }> = [];
			while (!ran.some((item) => item.text === last)) {
				for (const execution of await c.client.waitForExecutions(messages.id, known, 1)) {
					known.add(execution.id);
					expect(execution.status).toBe('success');
					const [item] = nodeJson(execution, TRIGGER);
					ran.push({ text: item.text, events: item.events, messageKey: item.messageKey, event: item.event });
				}
			}
			console.log(`[e2e n8n ${c.major}] one execution per message: ${JSON.stringify(ran)}`);
			expect(ran.map((item) => item.text)).toEqual([text, text, last]);
			expect(ran[0].events).toEqual(['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_RECEIVED', 'FIRST_MESSAGE_RECEIVED']);
			expect(ran[1].events).toEqual(['MESSAGE_SENT_AND_RECEIVED', 'MESSAGE_RECEIVED']);
			expect(new Set(ran.map((item) => item.messageKey)).size).toBe(3);
			expect(String(ran[0].messageKey)).toMatch(/^message:/);
		}, 120_000);
	});

	const last = (ctx: () => E2EContext): void => describe('one execution per message (issue 45): the same connection-status body, sent again after the other suites', () => {
		afterAll(async () => {
			if (oncePerMessage.status) await ctx().client.deactivate(oncePerMessage.status.id).catch(() => undefined);
		});

		test(`the same body at least ${STATUS_AGAIN_AFTER_MS / 1000} s after the first: two events, two executions`, async () => {
			const c = ctx();
			const { status, statusUrl, firstStatus, firstStatusAt } = oncePerMessage;
			if (!status || !statusUrl || !firstStatus || firstStatusAt === undefined) throw new Error('the first connection status was not sent (see the first test of issue 45)');
			// The suites in between took this long; whatever is left of the 60 s is waited for (and said).
			const left = firstStatusAt + STATUS_AGAIN_AFTER_MS - Date.now();
			console.log(`[e2e n8n ${c.major}] the same connection-status body again: ${Math.round((Date.now() - firstStatusAt) / 1000)} s after the first, waiting ${Math.max(0, Math.ceil(left / 1000))} s more`);
			if (left > 0) await sleep(left);
			const before = await c.client.executionIds(status.id);
			const again = await c.client.raw(firstStatus.method, firstStatus.url, { headers: firstStatus.headers, body: firstStatus.body });
			expect(again.status).toBe(200);
			expect(again.body).toMatchObject({ executed: true });
			const timestamp = (firstStatus.body as { timestamp: string }).timestamp;
			const [fresh] = await c.client.waitForExecutions(status.id, before, 1);
			expect(nodeJson(fresh, TRIGGER)[0]).toMatchObject({ event: 'CONNECTION_STATUS_UPDATE', connectionStatus: 'DISCONNECTED', timestamp });
			const withThatBody: string[] = [];
			for (const id of await c.client.executionIds(status.id)) {
				const execution = await c.client.getExecution(id);
				if (nodeJson(execution, TRIGGER)[0]?.timestamp === timestamp) withThatBody.push(execution.id);
			}
			expect(withThatBody).toHaveLength(2);
		}, STATUS_AGAIN_AFTER_MS + 60_000);
	});

	return { first, last };
}
