/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * What n8n's editor sends for a node, without a browser (read from the editor bundles of n8n 2.41.1
 * and 1.123.81, `useRunWorkflow` and the parameter inputs):
 *
 * - "Execute step" / "Listen for test event": `POST /rest/workflows/:id/run` with the header
 *   `push-ref` (the editor's push connection) and `{destinationNode: {nodeName, mode: 'inclusive'},
 *   startNodes, runData?}`; 2.x names the workflow by `workflowId` (the server reads the saved one),
 *   1.x sends it whole as `workflowData`. `runData` is the last run's data when there is one (a
 *   partial run: only the node and what follows its parents' data run again). n8n answers
 *   `{executionId}`, or `{waitingForWebhook: true}` when a trigger must receive an event first.
 * - the pickers: `POST /rest/dynamic-node-parameters/options` (loadOptions) and
 *   `…/resource-locator-results` (listSearch) with `{nodeTypeAndVersion, path, methodName,
 *   currentNodeParameters, credentials, workflowId, filter?}`.
 * - the push connection (push.ts), on which the run's events arrive.
 */
import { randomUUID } from 'node:crypto';

import type { N8nClient, TaskData, WorkflowDefinition, WorkflowNode, WorkflowRecord } from './n8n-client';
import { PushConnection, type PushMessage } from './push';

export type RunAnswer = { executionId: string } | { waitingForWebhook: true };

export interface PickerRequest {
	node: WorkflowNode;
	/** the parameter's path as the editor names it, e.g. `parameters.integrationId` */
	path: string;
	methodName: string;
	workflowId: string;
	filter?: string;
}

export class EditorSession {
	private constructor(
		private readonly client: N8nClient,
		readonly pushRef: string,
		readonly push: PushConnection,
	) {}

	/** Opens the push connection as the editor does when a workflow is open. */
	static async open(client: N8nClient): Promise<EditorSession> {
		// The editor's pushRef: a random string of letters and digits.
		const pushRef = Math.random().toString(36).slice(2, 15);
		const push = await PushConnection.open(client.baseUrl, pushRef, client.authCookie);
		return new EditorSession(client, pushRef, push);
	}

	/**
	 * Saves a new workflow as the editor does (`POST /rest/workflows`, the canvas serialized: with
	 * `pinData: {}`). One created through the public API has no pin data (null in the database),
	 * which n8n 2.41.1's partial run does not expect (docs/performance.md, queue mode).
	 */
	async saveNewWorkflow(workflow: WorkflowDefinition): Promise<WorkflowRecord> {
		const { name, nodes, connections, settings } = workflow;
		return await this.client.rest<WorkflowRecord>('POST', '/workflows', { name, nodes, pinData: {}, connections, active: false, settings: settings ?? {}, tags: [] }, this.headers());
	}

	private headers(): Record<string, string> {
		return { 'push-ref': this.pushRef, 'browser-id': BROWSER_ID };
	}

	/**
	 * "Execute step" on `nodeName` (or "Listen for test event" on a trigger): `runData` is the run
	 * data the editor shows from the last run, if any.
	 */
	async executeStep(workflow: WorkflowRecord, nodeName: string, runData?: Record<string, TaskData[]>): Promise<RunAnswer> {
		const parents = Object.entries(workflow.connections)
			.filter(([, byType]) => (byType.main ?? []).some((outputs) => outputs.some((c) => c.node === nodeName)))
			.map(([name]) => name);
		// With run data the node itself is the start node, fed by its parent's first output; without
		// it the editor sends no start node for a node that has parents (n8n starts from the trigger).
		const startNodes = runData
			? [{ name: nodeName, sourceData: parents.length ? { previousNode: parents[0], previousNodeOutput: 0, previousNodeRun: 0 } : null }]
			: parents.length
				? []
				: [{ name: nodeName, sourceData: null }];
		const workflowPart =
			this.client.major === '2'
				? { workflowId: workflow.id }
				: { workflowData: { id: workflow.id, name: workflow.name, active: workflow.active, nodes: workflow.nodes, connections: workflow.connections, settings: workflow.settings ?? {}, pinData: {} } };
		const body = { ...workflowPart, runData, startNodes, destinationNode: { nodeName, mode: 'inclusive' } };
		return await this.client.rest<RunAnswer>('POST', `/workflows/${workflow.id}/run`, body, this.headers());
	}

	/** loadOptions of an options / multi-options parameter. */
	async loadOptions(request: PickerRequest): Promise<Array<{ name: string; value: string; description?: string }>> {
		return await this.client.rest('POST', '/dynamic-node-parameters/options', this.pickerBody(request), this.headers());
	}

	/** listSearch of a resource locator's "From list" mode. */
	async listSearch(request: PickerRequest): Promise<{ results: Array<{ name: string; value: string }>; paginationToken?: unknown }> {
		return await this.client.rest('POST', '/dynamic-node-parameters/resource-locator-results', this.pickerBody(request), this.headers());
	}

	private pickerBody(request: PickerRequest): Record<string, unknown> {
		const { node, path, methodName, workflowId, filter } = request;
		return {
			nodeTypeAndVersion: { name: node.type, version: node.typeVersion },
			path,
			methodName,
			currentNodeParameters: node.parameters,
			credentials: node.credentials,
			workflowId,
			...(filter ? { filter } : {}),
		};
	}

	/** The push messages about one execution (`data.executionId`), in arrival order. */
	messagesOf(executionId: string): PushMessage[] {
		return this.push.messages.filter((m) => m.data?.executionId === executionId);
	}

	/** Resolves once n8n told the editor that the execution finished. */
	async finished(executionId: string, timeoutMs = 90_000): Promise<PushMessage> {
		return await this.push.waitFor(`executionFinished ${executionId}`, (m) => m.type === 'executionFinished' && m.data?.executionId === executionId, timeoutMs);
	}

	close(): void {
		this.push.close();
	}
}

/** The editor's browser id (localStorage `n8n-browserId`), one per test process. */
const BROWSER_ID = randomUUID();
