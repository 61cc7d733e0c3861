/**
 * Runs the action node through n8n-core's WorkflowExecute, the engine that applies the node's
 * settings (Retry On Fail with its tries and wait, On Error: stop, continue with the regular
 * output, continue with the error output), as n8n runs a workflow. The node is the workflow's
 * first node, its input given on the execution stack; no other node is needed.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type { IDataObject, INode, INodeExecutionData, INodeParameters, IRun, IRunExecutionData } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import { makeAdditionalData, makeWorkflow } from './n8n-harness';
import { loadedNode } from './node-runner';

export type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';

export interface WorkflowRun {
	parameters: INodeParameters;
	items: IDataObject[];
	onError: OnError;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	/** n8n's execution id (the memory of writes is per execution) */
	executionId: string;
	/** the credential's Base URL; default: the sandbox's */
	baseUrl?: string;
}

export interface WorkflowResult {
	run: IRun;
	/** the node's outputs of its one run: [regular] or [regular, error] */
	outputs: INodeExecutionData[][];
	/** the error the execution stopped with, if any */
	error?: Error;
	/** how many times n8n ran the node (nodeExecuteBefore counts one per run, not per try) */
	node: INode;
}

export async function runWorkflow(sandbox: Sandbox, options: WorkflowRun): Promise<WorkflowResult> {
	const nodeType = loadedNode();
	const { workflow, node } = makeWorkflow('conversationInbox', nodeType, options.parameters, {});
	node.onError = options.onError;
	node.retryOnFail = options.retryOnFail ?? false;
	if (options.maxTries !== undefined) node.maxTries = options.maxTries;
	if (options.waitBetweenTries !== undefined) node.waitBetweenTries = options.waitBetweenTries;
	const items: INodeExecutionData[] = options.items.map((json) => ({ json }));
	const runExecutionData: IRunExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node, data: { main: [items] }, source: null }],
		},
	});
	const hooks = new ExecutionLifecycleHooks('manual', options.executionId, {
		id: workflow.id,
		name: workflow.name ?? 'Test workflow',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [node],
		connections: {},
		activeVersionId: null,
	} as never);
	const additionalData = makeAdditionalData(
		{ baseUrl: options.baseUrl ?? sandbox.baseUrl, apiToken: sandbox.token },
		{ executionId: options.executionId, hooks } as never,
	);
	const execute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
	const run = await execute.processRunExecutionData(workflow);
	const task = run.data.resultData.runData[node.name]?.[0];
	return {
		run,
		outputs: (task?.data?.main ?? []).map((output) => output ?? []),
		error: run.data.resultData.error ?? undefined,
		node,
	};
}
