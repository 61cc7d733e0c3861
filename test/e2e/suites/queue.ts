/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The package on n8n's distributed engine (queue mode, harness/queue-stack.ts): main + 2 workers +
 * a webhook processor on Postgres and Redis. Every production request goes to the webhook
 * processor (QueueClient); the execution record has no worker field, so "ran on a worker" is read
 * from the workers' own logs ("Worker started execution <id>"), and shown once the hard way: with
 * no worker running the execution waits in Redis, and runs when one starts.
 *
 * Order matters: the resource workflows reset the sandbox before each test; the trigger's tests
 * come after them and never reset it (a reset would wipe the registrations n8n keeps trusting).
 */
import { randomUUID } from 'node:crypto';

import { DEMO, SAAS_RATE_LIMIT, startSandbox } from '../../sandbox';
import type { Delivery, Sandbox } from '../../sandbox';
import { importAndActivate, triggerWorkflowFixture, waitForTriggerActivation, webhookPathOf, type E2EContext } from '../harness/context';
import { nodeJson, type Execution, type ExecutionSummary } from '../harness/n8n-client';
import { processGroupMembers } from '../harness/n8n-process';
import type { PackedPackage } from '../harness/package';
import { N8N_VERSIONS, selectedMajors, type N8nInstall } from '../harness/provision';
import { describeWhen } from '../harness/gate';
import { describeMemory, describeStartup, QUEUE_KEYS, startQueueStack, type QueueStack } from '../harness/queue-stack';
import { until } from '../harness/until';
import { chainWorkflow } from '../harness/workflows';
import { aiToolsSuite } from './ai-tools';
import { resourcesSuite } from './resources';
import { EVENTS, TRIGGER, triggerWorkflow } from './trigger';

const BURST = 500;
const BURST_CONCURRENCY = 20;
/** deliveries in the burst during which a worker is killed */
const CRASH_BURST = 200;
const CONTACT = { phoneNumber: '5511944443333', name: 'Queue Tester' };
const FINISHED = ['success', 'error', 'crashed', 'canceled'];

const report = (line: string): void => void process.stderr.write(`[queue] ${line}\n`);

/** E2E_QUEUE=0 skips the suite (outside CI: gate.ts); it also needs n8n 2.x selected (N8N_E2E_VERSIONS). */
export const queueSuiteEnabled = (): boolean => process.env.E2E_QUEUE !== '0' && selectedMajors().includes('2');
const QUEUE_OFF = 'E2E_QUEUE=0, or N8N_E2E_VERSIONS does not select n8n 2';

export interface QueueContext extends E2EContext {
	queue: QueueStack;
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */

/** Runs `task(0..count-1)` with at most `limit` at a time. */
async function pool<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
	const results: T[] = new Array<T>(count);
	let next = 0;
	const lane = async (): Promise<void> => {
		while (next < count) {
			const index = next++;
			results[index] = await task(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
	return results;
}

/** Every execution n8n lists (all workflows). */
async function allExecutions(ctx: QueueContext): Promise<ExecutionSummary[]> {
	const all: ExecutionSummary[] = [];
	let cursor: string | null = null;
	do {
		const page: { data: ExecutionSummary[]; nextCursor: string | null } = await ctx.client.api('GET', `/executions?limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
		all.push(...page.data);
		cursor = page.nextCursor;
	} while (cursor);
	return all;
}

/** How many times each execution id appears as "Worker started execution <id>" in each worker's log. */
function workerTally(ctx: QueueContext, ids: string[]): { perWorker: number[]; startedTimes: Map<string, number> } {
	const logs = ctx.queue.workerLogs();
	const startedTimes = new Map<string, number>(ids.map((id) => [id, 0]));
	const perWorker = logs.map((log) => {
		let count = 0;
		for (const match of log.matchAll(/Worker started execution (\d+) /g)) {
			if (!startedTimes.has(match[1])) continue;
			startedTimes.set(match[1], startedTimes.get(match[1])! + 1);
			count++;
		}
		return count;
	});
	return { perWorker, startedTimes };
}

/**
 * The message text a trigger execution carries: from the trigger's output, or (an execution that
 * crashed before it ran) from the start data the webhook processor queued.
 */
function messageText(execution: Execution): string | undefined {
	const fromRun = execution.data?.resultData?.runData?.[TRIGGER]?.[0]?.data?.main[0]?.[0]?.json;
	const queued = (execution.data as unknown as { executionData?: { nodeExecutionStack?: Array<{ data: { main: Array<Array<{ json: Record<string, unknown> }>> } }> } })
		?.executionData?.nodeExecutionStack?.[0]?.data?.main?.[0]?.[0]?.json;
	const json = fromRun ?? queued;
	const body = json?.body as { data?: { message?: { text?: string } } } | undefined;
	return body?.data?.message?.text;
}

async function executionsWithData(ctx: QueueContext, ids: string[]): Promise<Execution[]> {
	return await pool(ids.length, 10, async (i) => await ctx.client.getExecution(ids[i]));
}

function fromEnv<T>(name: string): T {
	const raw = process.env[name];
	if (!raw) throw new Error(`${name} is not set: run the e2e tests with jest -c jest.e2e.config.js (its globalSetup provisions n8n)`);
	return JSON.parse(raw) as T;
}

export function describeQueue(): void {
	describeWhen(queueSuiteEnabled(), `n8n ${N8N_VERSIONS['2']} in queue mode (main + 2 workers + webhook processor, Postgres, Redis)`, QUEUE_OFF, () => {
		let current: QueueContext | undefined;
		let sandbox: Sandbox | undefined;
		let queue: QueueStack | undefined;
		const groups: number[] = [];

		beforeAll(async () => {
			const install = fromEnv<N8nInstall>('E2E_N8N_2');
			const packed = fromEnv<PackedPackage>('E2E_PACKED');
			// The platform's 5 s delivery timeout is the sandbox's default; on a loaded CI machine the
			// webhook processor can answer a burst's deliveries later than that, and a timed-out
			// delivery would be counted as lost by the sender although n8n ran it. This suite is about
			// what n8n does with each delivery, so the sender waits up to 60 s.
			sandbox = await startSandbox({ quiet: true, minuteMs: 20, deliveryTimeoutMs: 60_000, rateLimit: SAAS_RATE_LIMIT });
			queue = await startQueueStack({ install, packed, api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token }, log: report });
			report(`stack ready in ${describeStartup(queue.startup)}`);
			report(`memory after start: ${describeMemory(queue.memory())}`);
			current = { major: '2', install, sandbox, stack: queue.asN8nStack(), client: queue.client, queue, productionUrl: queue.webhook.url };
		}, 600_000);

		afterAll(async () => {
			if (queue) {
				report(`memory at the end: ${describeMemory(queue.memory())}`);
				groups.push(queue.main.pid, queue.webhook.pid, ...queue.workers.map((w) => w.pid), queue.postgres.process.pid, queue.redis.process.pid);
			}
			await queue?.stop();
			await sandbox?.close();
			// Nothing the stack started outlives it.
			for (const pid of groups) expect(processGroupMembers(pid)).toEqual([]);
		}, 120_000);

		const ctx = (): QueueContext => {
			if (!current) throw new Error('the queue-mode stack did not start (see the beforeAll error)');
			return current;
		};

		// Every operation, each resource's workflow through the webhook processor (QueueClient).
		resourcesSuite(ctx);
		// The AI tools: MCP tool calls through the webhook processor, each one execution.
		aiToolsSuite(ctx);

		describe('executions run on the workers', () => {
			test('every execution of the resource workflows and of the MCP tool calls ran on a worker, exactly once', async () => {
				const c = ctx();
				const executions = await allExecutions(c);
				expect(executions.length).toBeGreaterThanOrEqual(8);
				const { perWorker, startedTimes } = workerTally(c, executions.map((e) => e.id));
				expect([...startedTimes.entries()].filter(([, times]) => times !== 1)).toEqual([]);
				// Neither main nor the webhook processor ran one.
				for (const p of [c.queue.main, c.queue.webhook]) expect(p.log()).not.toMatch(/Worker started execution/);
				report(`resource workflows and MCP tool calls: ${executions.length} executions (${executions.filter((e) => e.status === 'success').length} success), per worker ${perWorker.join(' / ')}`);
			});

			test('with no worker running a production execution waits in Redis; a worker that starts runs it', async () => {
				const c = ctx();
				c.sandbox.reset();
				for (const worker of [...c.queue.workers]) await c.queue.stopWorker(worker);
				expect(c.queue.workers).toHaveLength(0);
				const definition = chainWorkflow('e2e queue wait', `e2e-queue-wait-${Date.now()}`, [{ name: 'Create', parameters: { resource: 'tag', operation: 'create', name: '={{ $json.body.tagName }}' } }], c.stack.credential);
				const workflow = await importAndActivate(c, definition);
				try {
					const answer = c.client.callWebhook(webhookPathOf(definition), { tagName: 'Queued Tag' });
					// The webhook processor stored the execution and queued it; nobody takes it.
					const waiting = await until(
						'an execution of the workflow and a job waiting in Redis',
						async () => {
							const [execution] = await c.client.listExecutions(workflow.id);
							return execution && Number(c.queue.redis.cli('LLEN', QUEUE_KEYS.wait)) >= 1 ? execution : undefined;
						},
						60_000,
					);
					expect(FINISHED).not.toContain(waiting.status);
					expect(c.sandbox.requests.filter((r) => r.path === '/v2/tag/create')).toHaveLength(0);

					const [first, second] = await Promise.all([c.queue.startWorker(), c.queue.startWorker()]);
					const response = await answer;
					expect(response.status).toBe(200);
					const [execution] = await c.client.waitForExecutions(workflow.id, new Set(), 1);
					expect(execution.id).toBe(waiting.id);
					expect(execution.status).toBe('success');
					expect(nodeJson(execution, 'Create')[0]).toMatchObject({ name: 'Queued Tag' });
					expect(c.sandbox.state.tagByName('Queued Tag')).toBeDefined();
					expect(Number(c.queue.redis.cli('LLEN', QUEUE_KEYS.wait))).toBe(0);
					// Exactly one of the two new workers took it.
					const takers = [first, second].filter((w) => c.queue.executionsStartedBy(w).includes(execution.id));
					expect(takers).toHaveLength(1);
				} finally {
					await c.client.deactivate(workflow.id);
				}
			}, 300_000);
		});

		describe('a bulk run at the API\'s limit (the sandbox limits the rate as a SaaS API does)', () => {
			const RUNS = 6;
			const ITEMS_PER_RUN = 40;
			const BIG = DEMO.tags.big.id;

			test(`${RUNS} runs of ${ITEMS_PER_RUN} items at once, on both workers: every item done exactly once`, async () => {
				const c = ctx();
				c.sandbox.reset({ contactsOnBigTag: RUNS * ITEMS_PER_RUN });
				const phones = c.sandbox.state.tagMembers(BIG).map((member) => member.phoneNumber);
				const definition = chainWorkflow('e2e queue bulk', `e2e-queue-bulk-${Date.now()}`, [
					{ name: 'Split', type: 'n8n-nodes-base.splitOut', parameters: { fieldToSplitOut: 'body.contacts', options: {} } },
					{ name: 'Remove', parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}', tagIds: [BIG] }, executeOnce: false },
				], c.stack.credential);
				const workflow = await importAndActivate(c, definition);
				try {
					const known = await c.client.executionIds(workflow.id);
					const batches = Array.from({ length: RUNS }, (_, run) => phones.slice(run * ITEMS_PER_RUN, (run + 1) * ITEMS_PER_RUN));
					const answers = await Promise.all(batches.map(async (batch) => await c.client.callWebhook(webhookPathOf(definition), { contacts: batch.map((phone) => ({ phone })) })));
					expect(answers.map((a) => a.status)).toEqual(batches.map(() => 200));
					const executions = await c.client.waitForExecutions(workflow.id, known, RUNS, 300_000);
					expect(executions.map((e) => e.status)).toEqual(batches.map(() => 'success'));
					// Each run's output: one removal per contact it was given, in its order.
					const outputs = executions.map((e) => nodeJson(e, 'Remove').map((json) => (json.contact as { phoneNumber: string }).phoneNumber));
					expect([...outputs].sort()).toEqual([...batches].sort());
					// The sandbox: each contact accepted exactly once, the tag gone from all.
					const removals = c.sandbox.requests.filter((r) => r.path === '/v2/tag/remove-from-contact');
					const accepted = removals.filter((r) => r.status === 200).map((r) => String((r.body as { phoneNumber: string }).phoneNumber));
					expect([...accepted].sort()).toEqual([...phones].sort());
					expect(removals.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
					expect(c.sandbox.state.tagMembers(BIG)).toEqual([]);
					const perWorker = c.queue.workers.map((w) => executions.filter((e) => c.queue.executionsStartedBy(w).includes(e.id)).length);
					expect(perWorker.every((n) => n > 0)).toBe(true);
					const span = Math.max(...executions.map((e) => Date.parse(e.stoppedAt!))) - Math.min(...executions.map((e) => Date.parse(e.startedAt)));
					report(`bulk at ${c.sandbox.rateLimit.current?.perSecond}/s: ${phones.length} items in ${RUNS} runs, per worker ${perWorker.join(' / ')}; ${removals.length} requests, ${removals.length - accepted.length} refused (429); first start → last stop ${span} ms`);
				} finally {
					await c.client.deactivate(workflow.id);
				}
			}, 600_000);
		});

		describe('the trigger', () => {
			// Its creation is the last reset: from here on the sandbox keeps the registrations.
			const fixture = triggerWorkflowFixture(ctx, {
				definition: (c, webhookId) => triggerWorkflow(c, webhookId),
				webhookBase: (c) => c.queue.webhookUrl,
				node: TRIGGER,
				registrations: EVENTS.length,
			});
			const { known, registrations, waitUntilLive, webhookId } = fixture;
			const creates = (): number => ctx().sandbox.requests.filter((r) => r.path === '/v2/integration/webhook/create').length;

			/**
			 * Waits until the workflow has at least `count` executions not seen before, all finished
			 * (success, error, crashed, canceled), and returns them with their data, oldest first.
			 */
			async function newExecutions(count: number, timeoutMs = 60_000): Promise<Execution[]> {
				const c = ctx();
				const fresh = await until(
					`${count} new finished executions of the trigger workflow`,
					async () => {
						const list = (await c.client.listExecutions(fixture.workflow.id)).filter((e) => !known.has(e.id));
						return list.length >= count && list.every((e) => FINISHED.includes(e.status)) ? list : undefined;
					},
					timeoutMs,
				);
				const ids = fresh.map((e) => e.id).sort((a, b) => Number(a) - Number(b));
				for (const id of ids) known.add(id);
				return await executionsWithData(c, ids);
			}

			/** Executions left by an earlier test (e.g. one that failed half-way) are not this test's. */
			async function forgetEarlierExecutions(): Promise<void> {
				for (const id of await ctx().client.executionIds(fixture.workflow.id)) known.add(id);
			}

			/** `count` inbound messages from the (known) contact, `BURST_CONCURRENCY` at a time, through the sandbox's webhook delivery. */
			async function burst(label: string, count: number): Promise<Delivery[][]> {
				return await pool(count, BURST_CONCURRENCY, async (i) =>
					await ctx().sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: CONTACT.phoneNumber, direction: 'inbound', text: `${label} ${i}` }),
				);
			}

			test('activation on main registers exactly one webhook per event, at the webhook processor’s URL', async () => {
				const c = ctx();
				await c.client.activate(fixture.workflow.id);
				await waitUntilLive();
				expect(registrations().map((h) => h.type).sort()).toEqual([...EVENTS].sort());
				expect(c.sandbox.state.webhooks.size).toBe(EVENTS.length);
				expect(creates()).toBe(EVENTS.length);
				// Main serves no production webhook (N8N_DISABLE_PRODUCTION_MAIN_PROCESS).
				expect((await c.client.raw('POST', `${c.queue.main.url}/webhook/${webhookId}/webhook`, { body: {} })).status).not.toBe(200);
				for (const id of await c.client.executionIds(fixture.workflow.id)) known.add(id);
			});

			test('an inbound message from a new contact, delivered to the webhook processor, gives two executions on a worker', async () => {
				const c = ctx();
				const deliveries = await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: CONTACT.phoneNumber, name: CONTACT.name, direction: 'inbound', text: 'Hello from the queue' });
				expect(deliveries.map((d) => [d.event, d.url, d.status]).sort()).toEqual([
					['FIRST_MESSAGE_RECEIVED', fixture.productionUrl, 200],
					['MESSAGE_RECEIVED', fixture.productionUrl, 200],
				]);
				const executions = await newExecutions(2);
				expect(executions.map((e) => e.status)).toEqual(['success', 'success']);
				expect(executions.map((e) => nodeJson(e, TRIGGER)[0].event).sort()).toEqual(['FIRST_MESSAGE_RECEIVED', 'MESSAGE_RECEIVED']);
				expect(executions.map(messageText)).toEqual(['Hello from the queue', 'Hello from the queue']);
				const { startedTimes } = workerTally(c, executions.map((e) => e.id));
				expect([...startedTimes.values()]).toEqual([1, 1]);
			});

			test('a forged delivery gets 401 from the webhook processor and starts nothing', async () => {
				const c = ctx();
				const body = { event: 'MESSAGE_RECEIVED', integrationId: DEMO.integrations.whatsapp.id, data: { message: { text: 'forged' } } };
				const noSecret = await c.client.raw('POST', fixture.productionUrl, { body, headers: { 'x-inbox-event': 'MESSAGE_RECEIVED' } });
				const wrongSecret = await c.client.raw('POST', fixture.productionUrl, { body, headers: { 'x-inbox-event': 'MESSAGE_RECEIVED', 'x-inbox-webhook-secret': 'f'.repeat(64) } });
				expect([noSecret.status, wrongSecret.status]).toEqual([401, 401]);
				// A genuine delivery after the forged ones: exactly one new execution, the genuine one.
				await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: CONTACT.phoneNumber, direction: 'inbound', text: 'genuine' });
				const executions = await newExecutions(1);
				expect(executions.map(messageText)).toEqual(['genuine']);
			});

			test(`a burst of ${BURST} deliveries, ${BURST_CONCURRENCY} at a time, gives exactly ${BURST} executions, none doubled, on both workers`, async () => {
				const c = ctx();
				await forgetEarlierExecutions();
				const deliveries = await burst('burst', BURST);
				const answers = deliveries.map((d) => d.map((x) => `${x.event} ${x.status ?? x.error}`).join());
				expect(answers.filter((a) => a !== 'MESSAGE_RECEIVED 200')).toEqual([]);
				const executions = await newExecutions(BURST, 300_000);
				const texts = executions.map(messageText);
				expect(new Set(texts).size).toBe(BURST);
				expect([...texts].sort()).toEqual(Array.from({ length: BURST }, (_, i) => `burst ${i}`).sort());
				const statuses = executions.map((e) => e.status);
				expect(statuses.filter((s) => s !== 'success')).toEqual([]);
				const { perWorker, startedTimes } = workerTally(c, executions.map((e) => e.id));
				expect([...startedTimes.values()].filter((n) => n !== 1)).toEqual([]);
				const running = c.queue.workers.map((w) => executions.filter((e) => c.queue.executionsStartedBy(w).includes(e.id)).length);
				expect(running).toHaveLength(2);
				expect(running.every((n) => n > 0)).toBe(true);
				const span = Math.max(...executions.map((e) => Date.parse(e.stoppedAt!))) - Math.min(...executions.map((e) => Date.parse(e.startedAt)));
				report(`burst: ${BURST} deliveries (all answered 200) → ${executions.length} executions, ${statuses.filter((s) => s === 'success').length} success, ${texts.length - new Set(texts).size} doubled; per worker ${running.join(' / ')} (all worker logs: ${perWorker.join(' / ')}); first start → last stop ${span} ms`);
			}, 600_000);

			test('restarting main registers nothing new, and deliveries still run', async () => {
				const c = ctx();
				await forgetEarlierExecutions();
				const before = registrations().map((h) => h.id).sort();
				const createsBefore = creates();
				const webhookRequestsBefore = c.sandbox.requests.filter((r) => r.path.startsWith('/v2/integration/webhook')).length;
				await c.queue.restartMain();
				await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: CONTACT.phoneNumber, direction: 'inbound', text: 'after restart' });
				const executions = await newExecutions(1);
				expect(executions.map(messageText)).toEqual(['after restart']);
				// By now main is up and has done whatever it does with active workflows at start.
				expect((await c.client.getWorkflow(fixture.workflow.id)).active).toBe(true);
				expect(registrations().map((h) => h.id).sort()).toEqual(before);
				expect(creates()).toBe(createsBefore);
				const webhookRequests = c.sandbox.requests.filter((r) => r.path.startsWith('/v2/integration/webhook')).length - webhookRequestsBefore;
				report(`main restart: registrations ${before.length} → ${registrations().length}, webhook API requests from n8n during the restart: ${webhookRequests}`);
			}, 300_000);

			test(`killing one worker in the middle of a burst of ${CRASH_BURST}: every delivery accounted for in n8n’s execution list`, async () => {
				const c = ctx();
				await forgetEarlierExecutions();
				const [survivor, victim] = c.queue.workers;
				const victimBefore = c.queue.executionsStartedBy(victim).length;
				const sent = burst('crash', CRASH_BURST);
				await until('the worker to be killed took 30 executions of the burst', () => (c.queue.executionsStartedBy(victim).length - victimBefore >= 30 ? true : undefined), 180_000);
				await c.queue.stopWorker(victim, true);
				const deliveries = await sent;
				const answered = deliveries.map((d, i) => ({ text: `crash ${i}`, status: d[0]?.status }));
				const accepted = answered.filter((a) => a.status === 200);
				// The killed worker's jobs: their lock expires, the survivor's stalled check fails them
				// (n8n never runs a stalled job twice); then nothing is waiting or active.
				await until('the queue to drain', () => (Number(c.queue.redis.cli('LLEN', QUEUE_KEYS.wait)) === 0 && Number(c.queue.redis.cli('LLEN', QUEUE_KEYS.active)) === 0 ? true : undefined), 180_000);
				// Main's queue recovery (at its start) marks executions whose job is gone as crashed.
				await c.queue.restartMain();
				const settled = await until(
					'every new execution finished or crashed',
					async () => {
						const fresh = (await c.client.listExecutions(fixture.workflow.id)).filter((e) => !known.has(e.id));
						return fresh.length >= accepted.length && fresh.every((e) => FINISHED.includes(e.status)) ? fresh : undefined;
					},
					120_000,
				);
				const executions = await executionsWithData(c, settled.map((e) => e.id));
				for (const e of executions) known.add(e.id);
				// A run on the killed worker that n8n gave up on (the webhook processor that queued it
				// sees its job fail as stalled and saves the execution as an error, with n8n's error in
				// place of the run data; main's recovery would mark a leftover one crashed) no longer
				// carries the message: it is matched by count, and it must not be one the survivor ran.
				const byText = new Map<string, Execution[]>();
				const gaveUp: Execution[] = [];
				for (const e of executions) {
					const text = messageText(e);
					if (text === undefined) gaveUp.push(e);
					else byText.set(text, [...(byText.get(text) ?? []), e]);
				}
				const sentTexts = new Set(answered.map((a) => a.text));
				const strays = [...byText.keys()].filter((text) => !sentTexts.has(text));
				const missing = accepted.filter((a) => !byText.has(a.text)).map((a) => a.text);
				const doubled = [...byText.entries()].filter(([, list]) => list.length > 1).map(([text]) => text);
				const count = (status: string): number => executions.filter((e) => e.status === status).length;
				const startedOnVictim = new Set(c.queue.executionsStartedBy(victim));
				const startedOnSurvivor = new Set(c.queue.executionsStartedBy(survivor));
				report(
					`worker killed mid-burst: ${CRASH_BURST} deliveries, ${accepted.length} answered 200 (others: ${JSON.stringify(answered.filter((a) => a.status !== 200).map((a) => a.status))}); ` +
						`${executions.length} executions: ${count('success')} success, ${count('crashed')} crashed, ${count('error')} error, ${count('canceled')} canceled; ` +
						`started on the killed worker ${executions.filter((e) => startedOnVictim.has(e.id)).length} (its log), on the survivor ${executions.filter((e) => startedOnSurvivor.has(e.id)).length}; ` +
						`deliveries without a successful run ${missing.length} = executions n8n marked failed/crashed ${gaveUp.length} ` +
						`(${JSON.stringify(gaveUp.map((e) => [e.id, e.status, e.data.resultData.error?.message?.slice(0, 80)]))}); doubled ${doubled.length}, strays ${strays.length}`,
				);
				expect(doubled).toEqual([]);
				expect(strays).toEqual([]);
				// Each execution succeeded, or n8n marked it failed/crashed and the surviving worker never
				// ran it (the killed one may have taken the job without getting as far as its log line).
				expect(executions.filter((e) => e.status !== 'success' && !(['error', 'crashed'].includes(e.status) && !startedOnSurvivor.has(e.id))).map((e) => [e.id, e.status])).toEqual([]);
				// Every accepted delivery without an execution carrying its message is matched by one
				// such marked execution that no longer carries it.
				expect(gaveUp.filter((e) => e.status === 'success')).toEqual([]);
				expect(gaveUp.length).toBe(missing.length);
			}, 900_000);
		});

		// The README's fallback for queue mode with several webhook processes (issue 45): a
		// redelivery may reach a process whose memory did not see the first delivery. The trigger
		// runs with One Execution per Message off here, standing in for that process; n8n's Remove
		// Duplicates ("Remove Items Processed in Previous Executions", database-backed) keyed by the
		// item's messageKey lets one execution per message go on.
		describe('the trigger: the README\'s Remove Duplicates fallback (issue 45)', () => {
			const REMOVE_DUPLICATES = 'Remove Duplicates';
			const ONCE = 'Once per message';
			let workflowId: string | undefined;

			afterAll(async () => {
				if (workflowId) await ctx().client.deactivate(workflowId).catch(() => undefined);
			});

			test('a message delivered, then delivered again after its execution ended: two executions, the steps after Remove Duplicates run once', async () => {
				const c = ctx();
				const webhookId = randomUUID();
				const trigger = triggerWorkflow(c, webhookId, 4, ['MESSAGE_RECEIVED']);
				trigger.nodes[0].parameters.oncePerMessage = false;
				const workflow = await c.client.createWorkflow({
					name: 'e2e queue: Remove Duplicates on the trigger\'s messageKey (issue 45)',
					nodes: [
						trigger.nodes[0],
						{
							id: randomUUID(),
							name: REMOVE_DUPLICATES,
							type: 'n8n-nodes-base.removeDuplicates',
							typeVersion: 2,
							position: [220, 0],
							parameters: { operation: 'removeItemsSeenInPreviousExecutions', logic: 'removeItemsWithAlreadySeenKeyValues', dedupeValue: '={{ $json.messageKey }}', options: {} },
						},
						{ id: randomUUID(), name: ONCE, type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [440, 0], parameters: {} },
					],
					connections: {
						[TRIGGER]: { main: [[{ node: REMOVE_DUPLICATES, type: 'main', index: 0 }]] },
						[REMOVE_DUPLICATES]: { main: [[{ node: ONCE, type: 'main', index: 0 }]] },
					},
					settings: { executionOrder: 'v1' },
				});
				workflowId = workflow.id;
				const url = `${c.productionUrl}/webhook/${webhookId}/webhook`;
				await c.client.activate(workflow.id);
				await waitForTriggerActivation(c, workflow.id, TRIGGER, url, 1);
				await c.client.activationApplied(workflow.id);

				const [delivery] = (await c.sandbox.simulate.message({ integrationId: DEMO.integrations.whatsapp.id, phoneNumber: CONTACT.phoneNumber, direction: 'inbound', text: 'delivered twice (issue 45)' })).filter((d) => d.url === url);
				expect(delivery.status).toBe(200);
				const [first] = await c.client.waitForExecutions(workflow.id, new Set(), 1, 60_000);
				// The platform delivers it again (the same body and headers), to the webhook processor.
				const again = await fetch(delivery.url, { method: delivery.method, headers: delivery.headers, body: JSON.stringify(delivery.body) });
				expect(again.status).toBe(200);
				const [second] = await c.client.waitForExecutions(workflow.id, new Set([first.id]), 1, 60_000);
				// Items a node gave; 0 for a node that did not run (nothing reached it).
				const items = (execution: Execution, node: string): number => (execution.data.resultData.runData[node] ? nodeJson(execution, node).length : 0);
				const ran = (execution: Execution) => ({
					status: execution.status,
					key: nodeJson(execution, TRIGGER)[0]?.messageKey,
					passed: items(execution, REMOVE_DUPLICATES),
					once: items(execution, ONCE),
				});
				const observed = [ran(first), ran(second)];
				report(`Remove Duplicates on messageKey: ${JSON.stringify(observed)}`);
				expect(observed).toEqual([
					{ status: 'success', key: expect.stringMatching(/^message:/), passed: 1, once: 1 },
					{ status: 'success', key: observed[0].key, passed: 0, once: 0 },
				]);
				const { startedTimes } = workerTally(c, [first.id, second.id]);
				expect([...startedTimes.values()]).toEqual([1, 1]);
			}, 180_000);
		});
	});
}
