/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * What every e2e suite shares for one n8n version: the sandbox API (in this process, on a free
 * port), n8n with our package (started once per test file), and helpers to run workflows.
 */
import { randomUUID } from 'node:crypto';

import type { Sandbox, Webhook } from '../../sandbox';
import { SAAS_RATE_LIMIT, startSandbox } from '../../sandbox';
import { describeWhen } from './gate';
import { processGroupMembers } from './n8n-process';
import { HttpError, type Execution, type N8nClient, type WebhookResponse, type WorkflowDefinition, type WorkflowRecord } from './n8n-client';
import type { PackedPackage } from './package';
import { N8N_VERSIONS, selectedMajors, type N8nInstall, type N8nMajor } from './provision';
import { startN8nStack, type N8nStack } from './stack';

export interface E2EContext {
	major: N8nMajor;
	install: N8nInstall;
	sandbox: Sandbox;
	stack: N8nStack;
	client: N8nClient;
	/** Where production webhooks and MCP endpoints are served: n8n itself, or in queue mode the webhook processor. */
	productionUrl?: string;
}

function fromEnv<T>(name: string): T {
	const raw = process.env[name];
	if (!raw) throw new Error(`${name} is not set: run the e2e tests with jest -c jest.e2e.config.js (its globalSetup provisions n8n)`);
	return JSON.parse(raw) as T;
}

/** A setting of n8n the suites run under besides its defaults: named in the describe, given to n8n's environment. */
export interface N8nVariant {
	label: string;
	env: Record<string, string>;
}

/**
 * describe() for one n8n version, skipped when N8N_E2E_VERSIONS does not select it (under CI=true:
 * failed, see gate.ts). Starts the
 * sandbox and n8n before the suites and stops both after them.
 */
export function describeN8n(major: N8nMajor, suites: Array<(ctx: () => E2EContext) => void>, variant?: N8nVariant): void {
	const selected = selectedMajors().includes(major);
	const off = `N8N_E2E_VERSIONS=${process.env.N8N_E2E_VERSIONS ?? ''} does not select n8n ${major}`;
	describeWhen(selected, `n8n ${N8N_VERSIONS[major]}${variant ? `, ${variant.label}` : ''}`, off, () => {
		let current: E2EContext | undefined;
		let sandbox: Sandbox | undefined;
		let stack: N8nStack | undefined;

		beforeAll(async () => {
			const install = fromEnv<N8nInstall>(`E2E_N8N_${major}`);
			const packed = fromEnv<PackedPackage>('E2E_PACKED');
			// minuteMs: a webhook's delayMinutes passes in 20 ms per minute. The API's rate is limited
			// as a SaaS API's is (reset() keeps it); a test that needs no limit says so (setRateLimit).
			sandbox = await startSandbox({ quiet: true, minuteMs: 20, rateLimit: SAAS_RATE_LIMIT });
			stack = await startN8nStack({ install, packed, api: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token }, env: variant?.env });
			current = { major, install, sandbox, stack, client: stack.client };
		}, 300_000);

		afterAll(async () => {
			const pid = stack?.n8n.pid;
			await stack?.stop();
			await sandbox?.close();
			// Nothing n8n started (its task runner included) outlives it.
			if (pid !== undefined) expect(processGroupMembers(pid)).toEqual([]);
		}, 60_000);

		const ctx = (): E2EContext => {
			if (!current) throw new Error('n8n did not start (see the beforeAll error)');
			return current;
		};
		for (const suite of suites) suite(ctx);
	});
}

export interface WorkflowRun {
	workflow: WorkflowRecord;
	response: WebhookResponse;
	execution: Execution;
}

/** The path of the workflow's Webhook node. */
export function webhookPathOf(workflow: WorkflowDefinition): string {
	const webhook = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.webhook');
	if (!webhook || typeof webhook.parameters.path !== 'string') throw new Error(`workflow "${workflow.name}" has no Webhook node with a path`);
	return webhook.parameters.path;
}

/** Creates and activates a workflow that starts with a Webhook node. */
export async function importAndActivate(ctx: E2EContext, definition: WorkflowDefinition): Promise<WorkflowRecord> {
	const workflow = await ctx.client.createWorkflow(definition);
	try {
		await ctx.client.activate(workflow.id);
	} catch (error) {
		if (error instanceof HttpError) throw new Error(`${error.message}\n--- n8n log ---\n${ctx.stack.n8n.logTail(40)}`);
		throw error;
	}
	return workflow;
}

/**
 * One production run: POST `body` to the workflow's webhook, wait for its execution, return the
 * answer and the execution with its data. Fails with n8n's log when the execution failed and
 * `expectSuccess` is true (the default).
 */
export async function runWebhookWorkflow(ctx: E2EContext, workflow: WorkflowRecord, body: unknown, expectSuccess = true): Promise<WorkflowRun> {
	const known = await ctx.client.executionIds(workflow.id);
	const response = await ctx.client.callWebhook(webhookPathOf(workflow), body);
	if (response.status === 404) throw new Error(`the webhook of "${workflow.name}" is not registered: ${response.text}\n--- n8n log ---\n${ctx.stack.n8n.logTail(40)}`);
	const [execution] = await ctx.client.waitForExecutions(workflow.id, known, 1);
	if (expectSuccess && execution.status !== 'success') {
		throw new Error(`execution ${execution.id} of "${workflow.name}" ended ${execution.status}: ${JSON.stringify(execution.data.resultData.error ?? {}).slice(0, 2000)}`);
	}
	return { workflow, response, execution };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until an activation of a workflow with our trigger has finished: n8n saved the node's
 * static data (`registrations` registrations) and routes the production URL to the node (it
 * answers 401 to a request without the secret). Deliveries do not need this wait (the trigger
 * derives its secret; see the trigger suite's "no blind second" test); assertions on what
 * activation stored do.
 */
export async function waitForTriggerActivation(ctx: E2EContext, workflowId: string, nodeName: string, productionUrl: string, registrations: number, timeoutMs = 20_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let last = '';
	while (Date.now() < deadline) {
		const workflow = await ctx.client.getWorkflow(workflowId);
		const data = (workflow.staticData ?? {})[`node:${nodeName}`] as { registrations?: unknown[] } | undefined;
		const saved = (data?.registrations?.length ?? 0) >= registrations;
		const probe = await ctx.client.raw('POST', productionUrl, { body: { probe: true } });
		last = `static data ${saved ? 'saved' : JSON.stringify(data ?? null).slice(0, 200)}, URL answers ${probe.status}`;
		if (saved && probe.status === 401) return;
		await sleep(200);
	}
	throw new Error(`activation of workflow ${workflowId} did not finish within ${timeoutMs} ms (${last})\n--- n8n log ---\n${ctx.stack.n8n.logTail(40)}`);
}

/** A trigger workflow that the tests of one describe block share (see triggerWorkflowFixture). */
export interface TriggerWorkflowFixture {
	readonly webhookId: string;
	readonly workflow: WorkflowRecord;
	/** n8n's production URL of the trigger: where the platform delivers */
	readonly productionUrl: string;
	/** executions the tests have already looked at */
	readonly known: Set<string>;
	/** the platform's registrations for the production URL */
	registrations(): Webhook[];
	/** waits until an activation has finished (waitForTriggerActivation, every registration) */
	waitUntilLive(): Promise<void>;
}

/**
 * Creates a trigger workflow before the tests of the calling describe block (after resetting the
 * sandbox) and deactivates it after them. The tests activate it themselves: activation is what
 * they check. `webhookBase` is where n8n serves production webhooks (n8n itself, or in queue mode
 * the webhook processor); `registrations` is how many webhooks an activation registers.
 */
export function triggerWorkflowFixture<C extends E2EContext>(
	ctx: () => C,
	setup: { definition: (c: C, webhookId: string) => WorkflowDefinition; webhookBase: (c: C) => string; node: string; registrations: number },
): TriggerWorkflowFixture {
	const webhookId = randomUUID();
	const known = new Set<string>();
	let workflow: WorkflowRecord | undefined;
	let productionUrl = '';

	beforeAll(async () => {
		const c = ctx();
		c.sandbox.reset();
		productionUrl = `${setup.webhookBase(c)}/webhook/${webhookId}/webhook`;
		workflow = await c.client.createWorkflow(setup.definition(c, webhookId));
	});

	afterAll(async () => {
		if (workflow) await ctx().client.deactivate(workflow.id).catch(() => undefined);
	});

	const fixture: TriggerWorkflowFixture = {
		webhookId,
		known,
		get workflow(): WorkflowRecord {
			if (!workflow) throw new Error('the trigger workflow was not created (see the beforeAll error)');
			return workflow;
		},
		get productionUrl(): string {
			return productionUrl;
		},
		registrations: () => [...ctx().sandbox.state.webhooks.values()].filter((w) => w.url === productionUrl),
		waitUntilLive: async () => await waitForTriggerActivation(ctx(), fixture.workflow.id, setup.node, productionUrl, setup.registrations),
	};
	return fixture;
}
