/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Talks to a running n8n the way a person or a script would, over HTTP only:
 *
 * - the REST API of the editor (`/rest`, cookie `n8n-auth`): owner setup, login, API keys, the
 *   credential test and the node types;
 * - the public API (`/api/v1`, header `X-N8N-API-KEY`): credentials, workflows, activation,
 *   executions;
 * - production webhooks (`/webhook/...`).
 *
 * The differences between the versions live here, keyed by `major`:
 * - API keys: both take `POST /rest/api-keys {label, scopes, expiresAt}`; the scopes offered to
 *   the owner come from `GET /rest/api-keys/scopes` and all of them are requested. The raw key is
 *   `rawApiKey` in the answer (older releases answered it as `apiKey`; both are read).
 * - Activation: 2.x "publishes" a workflow (`POST /workflows/:id/publish`, and `/unpublish`); 1.x
 *   "activates" it (`/activate`, `/deactivate`). 2.x registers a published workflow's webhooks
 *   asynchronously, just after answering, so callers wait for them (see `callWebhook`).
 * - Credential test: `POST /rest/credentials/test {credentials: {id, name, type, data}}`; 2.x
 *   requires the id of a stored credential and tests the given data merged over it.
 */
import type { N8nMajor } from './provision';

export interface Owner {
	email: string;
	password: string;
	firstName: string;
	lastName: string;
}

export class HttpError extends Error {
	constructor(
		readonly method: string,
		readonly url: string,
		readonly status: number,
		readonly body: string,
	) {
		super(`${method} ${url} → HTTP ${status}: ${body.slice(0, 1500)}`);
	}
}

export interface CredentialRecord {
	id: string;
	name: string;
	type: string;
}

export interface WorkflowNode {
	id?: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	webhookId?: string;
	executeOnce?: boolean;
	alwaysOutputData?: boolean;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	disabled?: boolean;
	notes?: string;
	notesInFlow?: boolean;
}

/** `main` between nodes; `ai_tool` from a tool node to the agent or MCP Server Trigger that uses it. */
export type ConnectionType = 'main' | 'ai_tool';
export type Connections = Record<string, Partial<Record<ConnectionType, Array<Array<{ node: string; type: ConnectionType; index: number }>>>>>;

export interface WorkflowDefinition {
	name: string;
	nodes: WorkflowNode[];
	connections: Connections;
	settings?: Record<string, unknown>;
	staticData?: Record<string, unknown> | null;
}

export interface WorkflowRecord extends WorkflowDefinition {
	id: string;
	active: boolean;
	staticData?: Record<string, unknown> | null;
}

export interface ExecutionItem {
	json: Record<string, unknown>;
	binary?: Record<string, { fileName?: string; mimeType?: string; fileExtension?: string; fileSize?: string; data?: string; id?: string }>;
	pairedItem?: { item: number } | Array<{ item: number }>;
	error?: unknown;
}

export interface TaskData {
	startTime: number;
	executionStatus?: string;
	data?: { main: Array<ExecutionItem[] | null> };
	error?: { message: string; description?: string };
}

export interface ExecutionSummary {
	id: string;
	finished: boolean;
	mode: string;
	status: string;
	workflowId: string;
	startedAt: string;
	stoppedAt: string | null;
}

export interface Execution extends ExecutionSummary {
	data: {
		resultData: {
			runData: Record<string, TaskData[]>;
			lastNodeExecuted?: string;
			error?: { message: string; description?: string; node?: { name: string } };
		};
	};
}

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export interface WebhookResponse {
	status: number;
	body: unknown;
	text: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The items a node produced on output 0 of its first run (throws when it did not run). */
export function nodeOutput(execution: Execution, nodeName: string, run = 0): ExecutionItem[] {
	const runs = execution.data.resultData.runData[nodeName];
	if (!runs?.[run]) {
		throw new Error(`node "${nodeName}" has no run ${run} in execution ${execution.id}; ran: ${Object.keys(execution.data.resultData.runData).join(', ')}`);
	}
	const task = runs[run];
	if (task.error) throw new Error(`node "${nodeName}" failed in execution ${execution.id}: ${task.error.message} ${task.error.description ?? ''}`);
	return task.data?.main[0] ?? [];
}

/** The json of every item a node produced. */
export const nodeJson = (execution: Execution, nodeName: string): Array<Record<string, unknown>> =>
	nodeOutput(execution, nodeName).map((item) => item.json);

export class N8nClient {
	private cookie: string | undefined;
	private apiKey: string | undefined;

	constructor(
		readonly baseUrl: string,
		readonly major: N8nMajor,
	) {}

	// ---- plumbing -------------------------------------------------------------------------

	private async request(method: string, path: string, options: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ status: number; text: string; headers: Headers }> {
		const url = `${this.baseUrl}${path}`;
		const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
		if (options.body !== undefined) headers['content-type'] = 'application/json';
		const res = await fetch(url, {
			method,
			headers,
			body: options.body === undefined ? undefined : JSON.stringify(options.body),
			redirect: 'manual',
			signal: AbortSignal.timeout(options.timeoutMs ?? 60_000),
		});
		return { status: res.status, text: await res.text(), headers: res.headers };
	}

	private parse<T>(method: string, path: string, res: { status: number; text: string }): T {
		if (res.status < 200 || res.status >= 300) throw new HttpError(method, `${this.baseUrl}${path}`, res.status, res.text);
		return (res.text === '' ? undefined : JSON.parse(res.text)) as T;
	}

	/** The editor's REST API; unwraps `{data}`. `headers`: what the editor adds (e.g. `push-ref`). */
	async rest<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
		const res = await this.request(method, `/rest${path}`, { body, headers: { ...headers, cookie: this.authCookie } });
		return this.parse<{ data: T }>(method, `/rest${path}`, res).data;
	}

	/** `n8n-auth=…` of the logged-in user (the editor's push connection sends it too). */
	get authCookie(): string {
		if (!this.cookie) throw new Error('not logged in to n8n: call setupOwner() or login() first');
		return this.cookie;
	}

	/** The public API (`/api/v1`). */
	async api<T>(method: string, path: string, body?: unknown): Promise<T> {
		if (!this.apiKey) throw new Error('no n8n API key: call createApiKey() first');
		const res = await this.request(method, `/api/v1${path}`, { body, headers: { 'x-n8n-api-key': this.apiKey } });
		return this.parse<T>(method, `/api/v1${path}`, res);
	}

	private keepCookie(headers: Headers): void {
		const setCookie = headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (!setCookie) throw new Error('n8n set no n8n-auth cookie');
		this.cookie = setCookie.split(';')[0];
	}

	// ---- users and keys -------------------------------------------------------------------

	/** POST /rest/owner/setup on a fresh instance; logs in as the owner. */
	async setupOwner(owner: Owner): Promise<void> {
		const res = await this.request('POST', '/rest/owner/setup', { body: owner });
		this.parse('POST', '/rest/owner/setup', res);
		this.keepCookie(res.headers);
	}

	/** True once an owner exists (GET /rest/settings → userManagement.showSetupOnFirstLoad false). */
	async ownerIsSetUp(): Promise<boolean> {
		const res = await this.request('GET', '/rest/settings');
		const settings = this.parse<{ data: { userManagement?: { showSetupOnFirstLoad?: boolean } } }>('GET', '/rest/settings', res).data;
		return settings.userManagement?.showSetupOnFirstLoad === false;
	}

	async login(email: string, password: string): Promise<void> {
		// 1.x and 2.x name the login field emailOrLdapLoginId (older 1.x: email); unknown keys are ignored.
		const res = await this.request('POST', '/rest/login', { body: { emailOrLdapLoginId: email, email, password } });
		this.parse('POST', '/rest/login', res);
		this.keepCookie(res.headers);
	}

	/** Creates a non-expiring API key with every scope the owner may grant, and uses it. */
	async createApiKey(label: string): Promise<string> {
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes');
		if (!Array.isArray(scopes) || scopes.length === 0) throw new Error('n8n offered no API key scopes');
		const created = await this.rest<{ rawApiKey?: string; apiKey?: string }>('POST', '/api-keys', { label, scopes, expiresAt: null });
		const key = created.rawApiKey ?? created.apiKey;
		if (!key || key.includes('*')) throw new Error(`n8n answered no usable API key: ${JSON.stringify(created).slice(0, 300)}`);
		this.apiKey = key;
		return key;
	}

	useApiKey(key: string): void {
		this.apiKey = key;
	}

	// ---- node types -----------------------------------------------------------------------

	/** Names of every node type the editor offers (GET /types/nodes.json, as the editor loads it). */
	async nodeTypeNames(): Promise<string[]> {
		return await this.typeNames('/types/nodes.json');
	}

	/**
	 * The names in one of the editor's static type files. n8n 1.x rewrites these files after a
	 * community package is installed or updated, so a read can catch one half written (seen: a 4 MB
	 * nodes.json cut off right after an install): a body that does not parse is read again, a few
	 * times, 250 ms apart.
	 */
	private async typeNames(path: string): Promise<string[]> {
		for (let attempt = 1; ; attempt++) {
			const res = await this.request('GET', path, { headers: this.cookie ? { cookie: this.cookie } : {} });
			try {
				return this.parse<Array<{ name: string }>>('GET', path, res).map((t) => t.name);
			} catch (error) {
				if (!(error instanceof SyntaxError) || attempt >= 20) throw error;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		}
	}

	/** Names of every credential type (GET /types/credentials.json). */
	async credentialTypeNames(): Promise<string[]> {
		return await this.typeNames('/types/credentials.json');
	}

	// ---- credentials ----------------------------------------------------------------------

	/**
	 * POST /api/v1/credentials. n8n adds an "Allowed HTTP Request Domains" setting to every
	 * credential; 1.x's public-API schema wrongly requires `allowedDomains` when that setting is
	 * absent, so it is sent explicitly with its default, "all" (accepted by 2.x too). A type without
	 * that setting on 1.x (e.g. httpBearerAuth) refuses the property: then it is sent without it.
	 */
	async createCredential(credential: { name: string; type: string; data: Record<string, unknown> }): Promise<CredentialRecord> {
		try {
			return await this.api<CredentialRecord>('POST', '/credentials', {
				...credential,
				data: { allowedHttpRequestDomains: 'all', ...credential.data },
			});
		} catch (error) {
			const refused = error instanceof HttpError && error.status === 400 && /not allowed to have the additional property \\?"allowedHttpRequestDomains/.test(error.body);
			if (!refused) throw error;
			return await this.api<CredentialRecord>('POST', '/credentials', credential);
		}
	}

	async deleteCredential(id: string): Promise<void> {
		await this.api('DELETE', `/credentials/${id}`);
	}

	/**
	 * PATCH /rest/credentials/:id, as the editor saves an edited credential (`data` in full). n8n
	 * re-activates nothing: active workflows read the new data from their next use on.
	 */
	async updateCredential(credential: CredentialRecord, data: Record<string, unknown>): Promise<void> {
		await this.rest('PATCH', `/credentials/${credential.id}`, { name: credential.name, type: credential.type, data });
	}

	/** n8n's credential test (the editor's "Test" button) on stored credential `id` with `data`. */
	async testCredential(credential: CredentialRecord, data: Record<string, unknown>): Promise<CredentialTestResult> {
		return await this.rest<CredentialTestResult>('POST', '/credentials/test', {
			credentials: { id: credential.id, name: credential.name, type: credential.type, data },
		});
	}

	// ---- workflows ------------------------------------------------------------------------

	async createWorkflow(workflow: WorkflowDefinition): Promise<WorkflowRecord> {
		return await this.api<WorkflowRecord>('POST', '/workflows', {
			name: workflow.name,
			nodes: workflow.nodes,
			connections: workflow.connections,
			settings: workflow.settings ?? { executionOrder: 'v1' },
			...(workflow.staticData ? { staticData: workflow.staticData } : {}),
		});
	}

	/** PUT /api/v1/workflows/:id: the workflow as edited and saved in the editor (not activated). */
	async updateWorkflow(id: string, workflow: WorkflowDefinition): Promise<WorkflowRecord> {
		return await this.api<WorkflowRecord>('PUT', `/workflows/${id}`, workflow);
	}

	async getWorkflow(id: string): Promise<WorkflowRecord> {
		return await this.api<WorkflowRecord>('GET', `/workflows/${id}`);
	}

	async listWorkflows(): Promise<WorkflowRecord[]> {
		const page = await this.api<{ data: WorkflowRecord[] }>('GET', '/workflows?limit=250');
		return page.data;
	}

	/** Publishes (2.x) / activates (1.x) a workflow. */
	async activate(id: string): Promise<WorkflowRecord> {
		return await this.api<WorkflowRecord>('POST', `/workflows/${id}/${this.major === '2' ? 'publish' : 'activate'}`, this.major === '2' ? {} : undefined);
	}

	/**
	 * Resolves once n8n has applied the workflow's last publish / activate: its triggers'
	 * checkExists and create have run (a sequenced point, not a wait). n8n 1.x applies it inside
	 * the activate call; 2.x from its publication outbox, and GET /rest/workflows/:id/publication-status
	 * says 'in_progress' until it has (without the publication service, 404: the call applied it).
	 */
	async activationApplied(id: string, timeoutMs = 30_000): Promise<void> {
		if (this.major !== '2') return;
		const deadline = Date.now() + timeoutMs;
		let status = '';
		while (Date.now() < deadline) {
			let triggers: Array<{ errorMessage?: string | null }> = [];
			try {
				({ status, triggers = [] } = await this.rest<{ status: string; triggers?: Array<{ errorMessage?: string | null }> }>('GET', `/workflows/${id}/publication-status`));
			} catch (error) {
				if (error instanceof HttpError && error.status === 404) return;
				throw error;
			}
			if (status === 'published') return;
			if (status !== 'in_progress') {
				// What n8n's editor shows for each trigger that failed to activate.
				const reasons = triggers.map((trigger) => trigger.errorMessage).filter(Boolean).join('; ');
				throw new Error(`workflow ${id}: publication ${status}${reasons ? `: ${reasons}` : ''}`);
			}
			await sleep(200);
		}
		throw new Error(`workflow ${id}: publication still ${status} after ${timeoutMs} ms`);
	}

	/** Unpublishes (2.x) / deactivates (1.x) a workflow. */
	async deactivate(id: string): Promise<WorkflowRecord> {
		return await this.api<WorkflowRecord>('POST', `/workflows/${id}/${this.major === '2' ? 'unpublish' : 'deactivate'}`);
	}

	// ---- executions -----------------------------------------------------------------------

	async listExecutions(workflowId: string): Promise<ExecutionSummary[]> {
		const all: ExecutionSummary[] = [];
		let cursor: string | null = null;
		do {
			const query: string = `workflowId=${encodeURIComponent(workflowId)}&limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
			const page: { data: ExecutionSummary[]; nextCursor: string | null } = await this.api('GET', `/executions?${query}`);
			all.push(...page.data);
			cursor = page.nextCursor;
		} while (cursor);
		return all;
	}

	async getExecution(id: string): Promise<Execution> {
		return await this.api<Execution>('GET', `/executions/${id}?includeData=true`);
	}

	/**
	 * Waits until the workflow has `count` finished executions that are not in `known`, and returns
	 * them, oldest first, with their data.
	 */
	async waitForExecutions(workflowId: string, known: Set<string>, count: number, timeoutMs = 30_000): Promise<Execution[]> {
		const deadline = Date.now() + timeoutMs;
		let fresh: ExecutionSummary[] = [];
		while (Date.now() < deadline) {
			fresh = (await this.listExecutions(workflowId)).filter((e) => !known.has(e.id));
			const done = fresh.filter((e) => e.finished || ['success', 'error', 'crashed', 'canceled'].includes(e.status));
			if (done.length >= count && done.length === fresh.length) {
				done.sort((a, b) => Number(a.id) - Number(b.id));
				return await Promise.all(done.map((e) => this.getExecution(e.id)));
			}
			await sleep(200);
		}
		throw new Error(`workflow ${workflowId}: expected ${count} new finished executions within ${timeoutMs} ms, have ${JSON.stringify(fresh.map((e) => [e.id, e.status]))}`);
	}

	async executionIds(workflowId: string): Promise<Set<string>> {
		return new Set((await this.listExecutions(workflowId)).map((e) => e.id));
	}

	// ---- webhooks -------------------------------------------------------------------------

	/** Any request to this n8n (no auth), e.g. a production webhook URL. */
	async raw(method: string, pathOrUrl: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<WebhookResponse> {
		const path = pathOrUrl.startsWith('http') ? pathOrUrl.slice(this.baseUrl.length) : pathOrUrl;
		if (pathOrUrl.startsWith('http') && !pathOrUrl.startsWith(this.baseUrl)) throw new Error(`${pathOrUrl} is not on ${this.baseUrl}`);
		const res = await this.request(method, path, { body: options.body, headers: options.headers, timeoutMs: 120_000 });
		let body: unknown = res.text;
		try {
			body = JSON.parse(res.text);
		} catch {
			// not JSON
		}
		return { status: res.status, body, text: res.text };
	}

	/**
	 * POSTs to the production webhook `/webhook/<path>`. A 404 "not registered" is retried for up
	 * to `waitMs` (2.x registers webhooks of a just-published workflow asynchronously).
	 */
	async callWebhook(path: string, body: unknown, waitMs = 15_000): Promise<WebhookResponse> {
		const deadline = Date.now() + waitMs;
		for (;;) {
			const res = await this.raw('POST', `/webhook/${path}`, { body });
			if (res.status !== 404 || Date.now() > deadline) return res;
			await sleep(200);
		}
	}
}
