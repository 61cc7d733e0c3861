/**
 * Sends the credential's declarative test request the way n8n's CredentialsTester does (a temporary
 * node whose only property routes `test.request`, run through n8n-core's RoutingNode with the
 * credential), and returns what n8n-core produced: the output, or the error it threw. It does NOT
 * turn a failure into the message the user sees: that is n8n's CredentialsTester (in the n8n
 * package, not in n8n-core), which the e2e suite runs through n8n's own REST endpoint
 * (test/e2e/suites/package.ts, "the credential").
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type { ICredentialTestRequest, IExecuteData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { ConversationInboxApi } from '../../credentials/ConversationInboxApi.credentials';
import { CREDENTIAL_TYPE, makeAdditionalData, makeWorkflow, type InboxCredentials } from './n8n-harness';

export type TestRequestOutcome = { ok: true } | { ok: false; error: Error };

export async function sendCredentialTestRequest(credentials: InboxCredentials): Promise<TestRequestOutcome> {
	const testRequest = new ConversationInboxApi().test as ICredentialTestRequest;
	const description: INodeTypeDescription = {
		displayName: 'Temp',
		name: 'temp',
		group: ['transform'],
		version: 1,
		description: '',
		defaults: { name: 'Temp-Node' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: CREDENTIAL_TYPE, required: true }],
		properties: [
			{
				displayName: 'Temp',
				name: 'temp',
				type: 'string',
				default: '',
				routing: { request: testRequest.request },
			},
		],
	};
	const nodeType: INodeType = { description };
	const { workflow, node } = makeWorkflow('temp', nodeType, {});
	const inputData = { main: [[{ json: {} }]] };
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		makeAdditionalData(credentials),
		'internal',
		createRunExecutionData(),
		0,
		[],
		inputData,
		executeData,
		[],
	);
	const credentialsDecrypted = { id: 'cred-1', name: 'Test', type: CREDENTIAL_TYPE, data: credentials };
	try {
		await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
		return { ok: true };
	} catch (error) {
		return { ok: false, error: error as Error };
	}
}
