/**
 * The never-twice tests' view of a workflow run: the node's outputs with their items whole (error
 * items keep their NodeApiError), and the error the execution stopped with. The run itself is
 * workflow-execute.ts's: n8n-core's WorkflowExecute with the node's settings (Retry On Fail with
 * its tries and wait, On Error) and the node as n8n's server hands it to the engine.
 */
import type { IDataObject, INodeExecutionData, INodeParameters, IRun } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import { NODE_NAME, startExecution, type NodeSettings } from './workflow-execute';

export type OnError = NonNullable<NodeSettings['onError']>;

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
}

export async function runWorkflow(sandbox: Sandbox, options: WorkflowRun): Promise<WorkflowResult> {
	const { parameters, items, executionId, onError, retryOnFail = false, maxTries, waitBetweenTries } = options;
	const run = await startExecution({
		parameters,
		items,
		executionId,
		credentials: { baseUrl: options.baseUrl ?? sandbox.baseUrl, apiToken: sandbox.token },
		settings: { onError, retryOnFail, ...(maxTries !== undefined && { maxTries }), ...(waitBetweenTries !== undefined && { waitBetweenTries }) },
	}).done;
	const task = run.data.resultData.runData[NODE_NAME]?.[0];
	return {
		run,
		outputs: (task?.data?.main ?? []).map((output) => output ?? []),
		error: run.data.resultData.error ?? undefined,
	};
}
