/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Runs the action node inside a workflow through n8n-core's real `WorkflowExecute`, where n8n's node
 * settings act: Retry On Fail (maxTries, waitBetweenTries), On Error (stop, continue with the
 * regular output, continue with the error output), and the execution's cancel. The node is fed by
 * a test-only start node that returns the given items (n8n's Manual Trigger is in n8n-nodes-base,
 * which is not installed here); everything after it is n8n's engine. The credentials store is the
 * in-memory one of n8n-harness.ts.
 */
import { Container } from '@n8n/di';
import { ErrorReporter, ExecutionLifecycleHooks, RoutingNode, WorkflowExecute } from 'n8n-core';
import type { IConnections, IDataObject, IExecuteFunctions, INode, INodeExecutionData, INodeParameters, INodeType, IRun, ITaskData } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { CREDENTIAL_TYPE, PACKAGE_PREFIX, TestNodeTypes, makeAdditionalData, type InboxCredentials } from './n8n-harness';
import { loadedNode } from './node-runner';

const ITEMS_TYPE = 'test.items';
export const NODE_NAME = 'Conversation Inbox';
const START_NAME = 'Items';

/** n8n's node settings (the node's Settings tab). */
export interface NodeSettings {
	retryOnFail?: boolean;
	/** n8n clamps it to 2-5 */
	maxTries?: number;
	/** ms, n8n clamps it to 0-5000 and reads 0 as 1000 */
	waitBetweenTries?: number;
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
}

export interface WorkflowRun {
	parameters: INodeParameters;
	items: IDataObject[];
	credentials: InboxCredentials;
	settings?: NodeSettings;
	/** each execution its own id, as n8n gives them */
	executionId: string;
	typeVersion?: number;
}

/** A running execution: its result, its cancel, and the signal n8n hands the node. */
export interface Execution {
	done: Promise<IRun>;
	cancel(): void;
	signal: AbortSignal;
}

/** The test's start node: returns the items it was built with. */
function itemsNode(items: IDataObject[]): INodeType {
	return {
		description: {
			displayName: 'Items',
			name: 'items',
			group: ['transform'],
			version: 1,
			description: 'test-only: the input items',
			defaults: { name: START_NAME },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
			return [items.map((json) => ({ json }))];
		},
	} as INodeType;
}

/**
 * The node as n8n's server hands it to the engine: n8n's NodeTypes gives a declarative node an
 * `execute` that runs RoutingNode in the execution's context (packages/cli/src/node-types.ts,
 * `shouldAssignExecuteMethod`), so the node gets the execution's cancel signal. Without it,
 * WorkflowExecute runs a declarative node in a context without that signal (`executeDeclarativeNodeInTest`).
 */
function asN8nServes(nodeType: INodeType): INodeType {
	nodeType.execute = async function (this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const routingNode = new RoutingNode(this as ConstructorParameters<typeof RoutingNode>[0], nodeType);
		return (await routingNode.runNode()) ?? [];
	};
	return nodeType;
}

export function startExecution(run: WorkflowRun): Execution {
	// n8n's error reporter (Sentry in n8n) logs every node error to the console; the tests read the
	// errors from the run instead.
	(Container.get(ErrorReporter) as unknown as { report: () => void }).report = () => {};
	const versioned = loadedNode();
	const typeVersion = run.typeVersion ?? versioned.currentVersion;
	// The version's node type, as n8n's NodeTypes hands it out (getByNameAndVersion).
	const nodeType = asN8nServes(versioned.getNodeType(typeVersion));
	const type = `${PACKAGE_PREFIX}.conversationInbox`;
	const node: INode = {
		id: 'node-under-test',
		name: NODE_NAME,
		type,
		typeVersion,
		position: [220, 0],
		parameters: run.parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Sandbox' } },
		...run.settings,
	};
	const start: INode = { id: 'start', name: START_NAME, type: ITEMS_TYPE, typeVersion: 1, position: [0, 0], parameters: {} };
	const connections: IConnections = { [START_NAME]: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } };
	const workflow = new Workflow({
		id: 'wf-properties',
		name: 'Property test workflow',
		nodes: [start, node],
		connections,
		active: false,
		nodeTypes: new TestNodeTypes({ [type]: nodeType, [ITEMS_TYPE]: itemsNode(run.items) }),
		settings: { executionOrder: 'v1' },
	});
	const hooks = new ExecutionLifecycleHooks('manual', run.executionId, { id: workflow.id, name: workflow.name, nodes: [start, node], connections, active: false, settings: { executionOrder: 'v1' } } as never);
	const additionalData = makeAdditionalData(run.credentials, { hooks, executionId: run.executionId } as never);
	const engine = new WorkflowExecute(additionalData, 'manual');
	const done = engine.run({ workflow, startNode: workflow.getNode(START_NAME) as INode });
	const signal = (engine as unknown as { abortController: AbortController }).abortController.signal;
	return { done, cancel: () => done.cancel(), signal };
}

/** What the node's run gave: the items of each output, and the error when the node stopped the workflow. */
export interface NodeOutcome {
	/** output 0 (success, and error items under continueRegularOutput) */
	main: IDataObject[];
	/** output 1 under continueErrorOutput */
	errors: IDataObject[];
	/** the node's error when it stopped the workflow */
	error?: { message: string; description?: string | null; httpCode?: string | null };
	/** the node never ran to the end (a cancel) */
	missing: boolean;
}

export function nodeOutcome(run: IRun): NodeOutcome {
	const task: ITaskData | undefined = run.data.resultData.runData[NODE_NAME]?.at(-1);
	const outputs = (task?.data?.main ?? []) as Array<INodeExecutionData[] | null>;
	const jsonOf = (output: INodeExecutionData[] | null | undefined): IDataObject[] => (output ?? []).map((item) => item.json);
	const error = task?.error as NodeOutcome['error'] | undefined;
	return {
		main: jsonOf(outputs[0]),
		errors: jsonOf(outputs[1]),
		...(error && { error: { message: error.message, description: error.description, httpCode: error.httpCode } }),
		missing: task === undefined,
	};
}
