/**
 * Runs the Conversation Inbox action node against a sandbox through n8n-core's RoutingNode
 * (test/helpers/n8n-harness.ts), and captures what the node throws.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { ConversationInbox } from '../../nodes/ConversationInbox/ConversationInbox.node';
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
}

export async function runNode(sandbox: Sandbox, run: NodeRun): Promise<INodeExecutionData[]> {
	return await runRoutingNode('conversationInbox', new ConversationInbox(), {
		parameters: run.parameters,
		items: run.items,
		continueOnFail: run.continueOnFail,
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
	});
	return {
		get sandbox(): Sandbox {
			if (!current) throw new Error('sandbox not started');
			return current;
		},
	};
}
