/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Runs the Conversation Inbox Trigger inside n8n-core's real HookContext and WebhookContext.
 *
 * What n8n's CLI does around them, and what this file stands in for (the CLI package is not a
 * dependency and cannot run here):
 * - `TriggerInstance.activate()` / `deactivate()` mirror ActiveWorkflowManager.addWebhooks /
 *   clearWebhooks: one webhook entry per HTTP method of every webhook description
 *   (WebhookService.getNodeWebhooks splits `httpMethod` on ','), `checkExists` then `create` when
 *   it answered false (WebhookService.createWebhookIfNotExists), `delete` on deactivation. n8n
 *   saves the workflow's static data afterwards; `persistedStaticData()` is that saved JSON, and a
 *   new `TriggerInstance` built from it is the workflow as n8n loads it again.
 * - `N8nWebhookEndpointStandIn` stands in for n8n's webhook HTTP endpoints (`/webhook/...`, and
 *   `/webhook-test/...` in mode manual as n8n's test webhooks): a
 *   node:http server that parses the body the way n8n's body parser does, hangs `body`, `rawBody`,
 *   `query` and `params` on the real IncomingMessage, builds the WebhookContext with it as
 *   `additionalData.httpRequest` (and the real ServerResponse as `httpResponse`), calls the node's
 *   `webhook()` and answers as n8n's executeWebhook does (nothing when the node answered itself,
 *   the node's `webhookResponse` or n8n's default message when no workflow runs; when it does, the
 *   description's `responseData` (n8n's default: the text "firstEntryJson"), else the node's
 *   `webhookResponse`, else "Workflow was started"). Emitted items are recorded instead of running
 *   a workflow.
 */
import { HookContext, WebhookContext } from 'n8n-core';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';
import type {
	IDataObject,
	IHttpRequestMethods,
	INode,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WebhookSetupMethodNames,
	Workflow,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import * as n8nWorkflow from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ConversationInboxTrigger } from '../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node';
import type { InboxCredentials } from './n8n-harness';
import { makeAdditionalData, makeWorkflow } from './n8n-harness';

export const TRIGGER_TYPE = 'conversationInboxTrigger';
/** The node's webhookId, as n8n assigns one (a uuid) when the node is added to a workflow. */
export const TEST_WEBHOOK_ID = '5f0c6a38-2b1e-4c1a-9d55-0d2f3c4b5a61';
/** n8n's default N8N_PAYLOAD_SIZE_MAX, in bytes (16 MiB). */
export const N8N_PAYLOAD_SIZE_MAX = 16 * 1024 * 1024;

export interface HookCall {
	method: IHttpRequestMethods;
	hook: WebhookSetupMethodNames;
	result: boolean | undefined;
}

export interface TriggerSetup {
	parameters: INodeParameters;
	credentials: InboxCredentials;
	/** n8n's webhook base URL, e.g. `http://127.0.0.1:5678/webhook` */
	webhookBaseUrl?: string;
	/** n8n's test-webhook base URL (used when `isTest` is set) */
	webhookTestBaseUrl?: string;
	/** the workflow's static data as n8n stored it (JSON) */
	staticData?: IDataObject;
	/** a node saved without a webhookId (n8n then puts workflow ID and node name in its path) */
	webhookId?: string | null;
	/** the node's typeVersion (default: the one the editor gives a new node) */
	typeVersion?: number;
	/** the node's class as one n8n process loaded it (default: this test file's; see `restartedN8n`) */
	nodeClass?: typeof ConversationInboxTrigger;
	/**
	 * the node's name when the user renamed it (n8n-workflow's `Workflow.renameNode`, as the editor
	 * renames; it leaves static data as it is: n8n keys a node's part by the name it had)
	 */
	nodeName?: string;
}

/**
 * The trigger's module as a restarted n8n process (or n8n after an update of the package) loads
 * it: the node's files and our shared ones loaded again, so module state (the process record of
 * registrations, record.ts) starts empty. n8n-workflow stays the one n8n provides (a peer), as
 * in n8n; static data is whatever the test hands the new TriggerInstance.
 */
export function restartedN8n(): typeof ConversationInboxTrigger {
	let loaded: typeof ConversationInboxTrigger | undefined;
	jest.isolateModules(() => {
		jest.doMock('n8n-workflow', () => n8nWorkflow);
		loaded = (
			require('../../nodes/ConversationInboxTrigger/ConversationInboxTrigger.node') as {
				ConversationInboxTrigger: typeof ConversationInboxTrigger;
			}
		).ConversationInboxTrigger;
	});
	if (!loaded) throw new Error('the trigger module did not load');
	return loaded;
}

/** The node type as n8n holds it, with `typeVersion` as the version a node is created at. */
function atVersion(nodeType: ConversationInboxTrigger, typeVersion: number | undefined): INodeType {
	if (typeVersion === undefined) return nodeType;
	return { ...nodeType, description: { ...nodeType.description, defaultVersion: typeVersion } } as INodeType;
}

/** One trigger node in one workflow, as n8n holds it in memory between load and save. */
export class TriggerInstance {
	readonly nodeType: ConversationInboxTrigger;
	readonly workflow: Workflow;
	readonly node: INode;

	constructor(readonly setup: TriggerSetup) {
		this.nodeType = new (setup.nodeClass ?? ConversationInboxTrigger)();
		const fixture = makeWorkflow(TRIGGER_TYPE, atVersion(this.nodeType, setup.typeVersion), setup.parameters, {
			staticData: setup.staticData ? (JSON.parse(JSON.stringify(setup.staticData)) as IDataObject) : undefined,
			webhookId: setup.webhookId === null ? undefined : (setup.webhookId ?? TEST_WEBHOOK_ID),
		});
		this.workflow = fixture.workflow;
		if (setup.nodeName !== undefined && setup.nodeName !== fixture.node.name) {
			this.workflow.renameNode(fixture.node.name, setup.nodeName);
		}
		this.node = this.workflow.getNode(setup.nodeName ?? fixture.node.name) as INode;
	}

	additionalData(overrides: Partial<IWorkflowExecuteAdditionalData> = {}): IWorkflowExecuteAdditionalData {
		const extra: Partial<IWorkflowExecuteAdditionalData> = {};
		if (this.setup.webhookBaseUrl) extra.webhookBaseUrl = this.setup.webhookBaseUrl;
		if (this.setup.webhookTestBaseUrl) extra.webhookTestBaseUrl = this.setup.webhookTestBaseUrl;
		return makeAdditionalData(this.setup.credentials, { ...extra, ...overrides });
	}

	/** One entry per HTTP method of every webhook description, as WebhookService.getNodeWebhooks. */
	webhooks(isTest = false): IWebhookData[] {
		const additionalData = this.additionalData();
		return (this.nodeType.description.webhooks ?? []).flatMap((description) =>
			String(description.httpMethod)
				.split(',')
				.filter((method) => method.trim() !== '')
				.map((method) => ({
					httpMethod: method.trim() as IHttpRequestMethods,
					node: this.node.name,
					path: NodeHelpers.getNodeWebhookPath(String(this.workflow.id), this.node, String(description.path)),
					webhookDescription: description,
					workflowId: this.workflow.id,
					workflowExecuteAdditionalData: additionalData,
					isTest,
				})),
		);
	}

	hookContext(
		webhookData: IWebhookData,
		mode: WorkflowExecuteMode = 'trigger',
		activation: WorkflowActivateMode = 'activate',
	): HookContext {
		return new HookContext(
			this.workflow,
			this.node,
			webhookData.workflowExecuteAdditionalData,
			mode,
			activation,
			webhookData,
		);
	}

	async runHook(
		hook: WebhookSetupMethodNames,
		webhookData: IWebhookData = this.webhooks()[0],
		mode: WorkflowExecuteMode = 'trigger',
		activation: WorkflowActivateMode = 'activate',
	): Promise<boolean> {
		const methods = this.nodeType.webhookMethods.default;
		return await methods[hook].call(this.hookContext(webhookData, mode, activation));
	}

	/** ActiveWorkflowManager.addWebhooks: checkExists, then create when it answered false. */
	async activate(options: { isTest?: boolean } = {}): Promise<HookCall[]> {
		const calls: HookCall[] = [];
		const mode: WorkflowExecuteMode = options.isTest ? 'manual' : 'trigger';
		const activation: WorkflowActivateMode = options.isTest ? 'manual' : 'activate';
		for (const webhookData of this.webhooks(options.isTest)) {
			const exists = await this.runHook('checkExists', webhookData, mode, activation);
			calls.push({ method: webhookData.httpMethod, hook: 'checkExists', result: exists });
			if (!exists) {
				const created = await this.runHook('create', webhookData, mode, activation);
				calls.push({ method: webhookData.httpMethod, hook: 'create', result: created });
			}
		}
		return calls;
	}

	/** ActiveWorkflowManager.clearWebhooks: delete for every webhook entry. */
	async deactivate(): Promise<HookCall[]> {
		const calls: HookCall[] = [];
		for (const webhookData of this.webhooks()) {
			const result = await this.runHook('delete', webhookData, 'internal', 'update');
			calls.push({ method: webhookData.httpMethod, hook: 'delete', result });
		}
		return calls;
	}

	/** The node's static data as the node sees it. */
	nodeStaticData(): IDataObject {
		return this.workflow.getStaticData('node', this.node);
	}

	/** What n8n's saveStaticData writes to the database (JSON, no proxies). */
	persistedStaticData(): IDataObject {
		return JSON.parse(JSON.stringify(this.workflow.staticData)) as IDataObject;
	}

	webhookUrl(isTest = false): string {
		const url = this.hookContext(this.webhooks(isTest)[0]).getNodeWebhookUrl('default');
		if (!url) throw new Error('no webhook URL');
		return url;
	}

	/** The context of one request; `isTest`: n8n's test URL ("Listen for test event"), mode manual. */
	webhookContext(
		request: IncomingMessage,
		response: ServerResponse,
		method: IHttpRequestMethods,
		isTest = false,
	): WebhookContext {
		const webhookData = this.webhooks(isTest).find((entry) => entry.httpMethod === method);
		if (!webhookData) throw new Error(`no webhook for ${method}`);
		const additionalData = this.additionalData({
			httpRequest: request as unknown as IWorkflowExecuteAdditionalData['httpRequest'],
			httpResponse: response as unknown as IWorkflowExecuteAdditionalData['httpResponse'],
		});
		return new WebhookContext(this.workflow, this.node, additionalData, isTest ? 'manual' : 'webhook', webhookData, [], null);
	}
}

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** One call the node made to n8n's logger (`this.logger`) while handling a request. */
export interface LogCall {
	level: LogLevel;
	message: string;
	metadata?: unknown;
}

/**
 * The context's `this.logger` with the four level methods recorded instead of printed (n8n's
 * real logger would write each line to the test output; the e2e suite checks n8n's own log).
 * Everything else is n8n's logger.
 */
function recordingLogger(context: WebhookContext, real: WebhookContext['logger'], calls: LogCall[]): void {
	const levels: LogLevel[] = ['error', 'warn', 'info', 'debug'];
	const recorder = Object.create(real) as typeof real;
	for (const level of levels) {
		Object.defineProperty(recorder, level, {
			value: (message: string, metadata?: unknown) => calls.push({ level, message, metadata }),
		});
	}
	Object.defineProperty(context, 'logger', { value: recorder });
}

/** One request the stand-in endpoint handled. */
export interface EndpointCall {
	method: string;
	path: string;
	statusCode: number;
	/** the response body as sent */
	responseText: string;
	/** items the trigger emitted: a workflow execution would start with these */
	items?: INodeExecutionData[];
	error?: string;
}

/** Reads the body as n8n's rawBodyReader does (limit N8N_PAYLOAD_SIZE_MAX, else 413). */
async function readRawBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request) {
		const buffer = chunk as Buffer;
		size += buffer.length;
		if (size > limit) return 'too-large';
		chunks.push(buffer);
	}
	return Buffer.concat(chunks);
}

/**
 * Stands in for n8n's webhook endpoint: see the file header. `attach()` names the trigger
 * instance (the active workflow) that receives requests.
 */
export class N8nWebhookEndpointStandIn {
	readonly calls: EndpointCall[] = [];
	/** what the node logged through `this.logger`, in order */
	readonly logs: LogCall[] = [];
	/**
	 * How long n8n takes to answer once the node has decided (n8n under load: a busy main, queue
	 * mode): the answer is written this much later. The node's work is done by then.
	 */
	answerDelayMs = 0;
	private server?: Server;
	private instance?: TriggerInstance;
	private waiters: Array<() => void> = [];

	constructor(private readonly payloadSizeMax = N8N_PAYLOAD_SIZE_MAX) {}

	async start(): Promise<this> {
		this.server = createServer((request, response) => {
			void this.handle(request, response);
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		return this;
	}

	async stop(): Promise<void> {
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
	}

	get origin(): string {
		const address = this.server?.address() as AddressInfo | null;
		if (!address) throw new Error('stand-in endpoint not started');
		return `http://127.0.0.1:${address.port}`;
	}

	/** n8n's webhook base URL as this endpoint serves it. */
	get webhookBaseUrl(): string {
		return `${this.origin}/webhook`;
	}

	/** n8n's test-webhook base URL as this endpoint serves it (mode manual, as n8n's TestWebhooks). */
	get webhookTestBaseUrl(): string {
		return `${this.origin}/webhook-test`;
	}

	attach(instance: TriggerInstance): void {
		this.instance = instance;
	}

	/** No active workflow: n8n answers 404 (the webhook is not registered). */
	detach(): void {
		this.instance = undefined;
	}

	/** Executions so far: calls that emitted items. */
	get executions(): EndpointCall[] {
		return this.calls.filter((call) => call.items !== undefined);
	}

	/** Resolves once `condition()` holds after a handled call (rejects after `timeoutMs`). */
	async waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (!condition()) {
			const left = deadline - Date.now();
			if (left <= 0) throw new Error(`condition not met within ${timeoutMs} ms (${this.calls.length} calls)`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, left);
				this.waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
	}

	/** Resolves with the first `count` handled calls once there are that many. */
	async waitForCalls(count: number, timeoutMs = 5000): Promise<EndpointCall[]> {
		await this.waitUntil(() => this.calls.length >= count, timeoutMs);
		return this.calls.slice(0, count);
	}

	private record(call: EndpointCall): void {
		this.calls.push(call);
		const waiters = this.waiters;
		this.waiters = [];
		for (const wake of waiters) wake();
	}

	private send(
		response: ServerResponse,
		call: Omit<EndpointCall, 'statusCode' | 'responseText'>,
		statusCode: number,
		body: unknown,
	): void {
		// n8n sends a text as it is (its placeholder 'firstEntryJson' included), anything else as JSON.
		const text = typeof body === 'string' ? body : JSON.stringify(body);
		const type = typeof body === 'string' ? 'text/html' : 'application/json';
		response.writeHead(statusCode, { 'Content-Type': `${type}; charset=utf-8` });
		response.end(text);
		this.record({ ...call, statusCode, responseText: text });
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const url = new URL(request.url ?? '/', this.origin);
		const method = (request.method ?? 'GET').toUpperCase() as IHttpRequestMethods;
		const call = { method, path: url.pathname };
		const instance = this.instance;
		const isTest = url.pathname.startsWith('/webhook-test/');
		const routePath = url.pathname.replace(/^\/webhook(-test)?\//, '').replace(/\/+$/, '');
		const webhook = instance
			?.webhooks(isTest)
			.find((entry) => entry.httpMethod === method && entry.path === routePath);
		if (!instance || !/^\/webhook(-test)?\//.test(url.pathname) || !webhook) {
			this.send(response, call, 404, { code: 404, message: 'The requested webhook is not registered.' });
			return;
		}

		const raw = await readRawBody(request, this.payloadSizeMax);
		if (raw === 'too-large') {
			this.send(response, call, 413, { message: 'request entity too large' });
			return;
		}
		// n8n's parseIncomingMessage + parseBody
		const contentTypeHeader = request.headers['content-type'] ?? '';
		const contentType = contentTypeHeader.split(';')[0].trim().toLowerCase();
		const charset = /charset=([^;]+)/i.exec(contentTypeHeader)?.[1]?.trim().toLowerCase();
		const encoding = (charset === 'utf-8' || !charset ? 'utf8' : charset) as BufferEncoding;
		let body: unknown = undefined;
		if (raw.length > 0) {
			try {
				if (contentType === 'application/json') body = JSON.parse(raw.toString(encoding));
				else if (contentType === 'application/x-www-form-urlencoded') {
					body = parseQueryString(raw.toString(encoding), undefined, undefined, { maxKeys: 1000 });
				} else if (contentType === 'text/plain') body = raw.toString(encoding);
			} catch (error) {
				this.send(response, call, 422, {
					code: 422,
					message: 'Failed to parse request body',
					hint: (error as Error).message,
				});
				return;
			}
		}
		Object.assign(request, {
			body: body ?? {},
			rawBody: raw,
			query: { ...parseQueryString(url.search.replace(/^\?/, '')) },
			params: {},
			contentType,
			encoding,
		});

		// Keep what the node itself writes (its 401/400/413 answers) for the record.
		let nodeResponseText = '';
		const originalEnd = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
		response.end = ((...args: unknown[]) => {
			if (typeof args[0] === 'string') nodeResponseText = args[0];
			return originalEnd(...args);
		}) as ServerResponse['end'];

		let result: IWebhookResponseData;
		try {
			const context = instance.webhookContext(request, response, method, isTest);
			// n8n's logger from another context of the node: reading `context.logger` would pin it.
			const n8nLogger = instance.hookContext(instance.webhooks()[0]).logger;
			recordingLogger(context, n8nLogger, this.logs);
			result = await instance.nodeType.webhook.call(context);
		} catch (error) {
			this.send(response, { ...call, error: (error as Error).message }, 500, {
				code: 0,
				message: 'Error in workflow',
			});
			return;
		}
		if (this.answerDelayMs > 0) await new Promise<void>((resolve) => setTimeout(resolve, this.answerDelayMs));
		if (result.noWebhookResponse === true) {
			// The node answered itself (401, 400, 413): record what it sent.
			this.record({ ...call, statusCode: response.statusCode, responseText: nodeResponseText });
			return;
		}
		if (result.workflowData === undefined) {
			this.send(response, call, 200, result.webhookResponse ?? { message: 'Webhook call received' });
			return;
		}
		// n8n's onReceived answer (extractWebhookOnReceivedResponse): the description's responseData,
		// evaluated with the default 'firstEntryJson' and sent as it is when not empty, else the
		// node's webhookResponse, else n8n's message.
		const webhookData = instance.webhooks().find((entry) => entry.httpMethod === method);
		const responseData = webhookData?.webhookDescription.responseData ?? 'firstEntryJson';
		const answer =
			responseData === 'noData'
				? ''
				: responseData || (result.webhookResponse ?? { message: 'Workflow was started' });
		this.send(response, { ...call, items: result.workflowData[0] ?? [] }, 200, answer);
	}
}
