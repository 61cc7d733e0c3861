/**
 * Runs the Conversation Inbox action node against a sandbox through n8n-core's RoutingNode
 * (test/helpers/n8n-harness.ts), and captures what the node throws.
 */
import { DirectoryLoader } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters, WorkflowExecuteMode } from 'n8n-workflow';

import { ConversationInbox } from '../../nodes/ConversationInbox/ConversationInbox.node';
import { forgetPaces } from '../../nodes/shared/pace';
import type { RecordedRequest, Sandbox, SandboxOptions } from '../sandbox';
import { startSandbox } from '../sandbox';
import { runRoutingNode } from './n8n-harness';

export interface NodeRun {
	parameters: INodeParameters;
	items?: IDataObject[];
	continueOnFail?: boolean;
	/** defaults to the sandbox's base URL and token */
	baseUrl?: string;
	apiToken?: string;
	/** Settings → Request Options → Timeout (ms) */
	timeoutMs?: number;
	/** cancels the execution when it fires */
	signal?: AbortSignal;
	/** the node's typeVersion; default: the one the editor adds to a new node */
	typeVersion?: number;
	/** the execution's mode; default 'manual' (a run from the editor) */
	mode?: WorkflowExecuteMode;
}

/**
 * The action node as n8n's loader prepares it: DirectoryLoader adds the "Request Options" node
 * setting (batching, timeout, …) to every declarative node, so it reaches the node as in n8n.
 */
export function loadedNode(): ConversationInbox {
	const node = new ConversationInbox();
	// As n8n's loader does it for a VersionedNodeType: to every version.
	for (const version of Object.values(node.nodeVersions)) DirectoryLoader.applyDeclarativeNodeOptionParameters(version);
	return node;
}

export async function runNode(sandbox: Sandbox, run: NodeRun): Promise<INodeExecutionData[]> {
	const parameters: INodeParameters = { ...run.parameters };
	if (run.timeoutMs !== undefined) parameters.requestOptions = { timeout: run.timeoutMs };
	return await runRoutingNode('conversationInbox', loadedNode(), {
		parameters,
		items: run.items,
		continueOnFail: run.continueOnFail,
		signal: run.signal,
		typeVersion: run.typeVersion,
		mode: run.mode,
		credentials: {
			baseUrl: run.baseUrl ?? sandbox.baseUrl,
			apiToken: run.apiToken ?? sandbox.token,
		},
	});
}

/** The error the node throws; fails the test when it throws nothing. */
export async function runNodeError(sandbox: Sandbox, run: NodeRun): Promise<Error & IDataObject> {
	try {
		await runNode(sandbox, run);
	} catch (error) {
		return error as Error & IDataObject;
	}
	throw new Error('expected the node to throw, but it returned output');
}

export const jsonOf = (items: INodeExecutionData[]): IDataObject[] => items.map((item) => item.json);

/** The one request the sandbox saw (fails when there were more or none). */
export function onlyRequest(sandbox: Sandbox): RecordedRequest {
	expect(sandbox.requests).toHaveLength(1);
	return sandbox.requests[0];
}

/**
 * One sandbox per test file on a random port, reset to its seed before every test (request log,
 * faults and state). `seed` sizes the generated data.
 *
 * Rate limit: NONE unless the test sets one. `options.rateLimit` applies to the whole file; a test
 * sets its own with `sandbox.setRateLimit(...)` (reset() goes back to the file's). Each test also
 * starts with the node's pace forgotten (nodes/shared/pace.ts), as a fresh n8n process would: the
 * limiter of this sandbox's API is per process, and one test's 429s must not slow the next.
 */
export function useSandbox(options: SandboxOptions = {}): { readonly sandbox: Sandbox } {
	let current: Sandbox | undefined;
	beforeAll(async () => {
		current = await startSandbox({ quiet: true, ...options });
	});
	afterAll(async () => {
		await current?.close();
	});
	beforeEach(() => {
		current?.reset();
		forgetPaces();
	});
	return {
		get sandbox(): Sandbox {
			if (!current) throw new Error('sandbox not started');
			return current;
		},
	};
}
