/**
 * Tests a credential the way n8n's CLI CredentialsTester does for a declarative `test` block:
 * a temporary node whose only property routes the credential's test request, run through
 * n8n-core's RoutingNode, then the credential's `rules` applied to the failure.
 */
import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialTestRequest,
	IExecuteData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { createRunExecutionData } from 'n8n-workflow';

import { ConversationInboxApi } from '../../credentials/ConversationInboxApi.credentials';
import { CREDENTIAL_TYPE, makeAdditionalData, makeWorkflow, type InboxCredentials } from './n8n-harness';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

export async function testCredential(credentials: InboxCredentials): Promise<CredentialTestResult> {
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
	} catch (error) {
		const status: number | undefined = error.cause?.response?.status;
		if (status !== undefined) {
			const rule = testRequest.rules?.find(
				(candidate) => candidate.type === 'responseCode' && candidate.properties.value === status,
			);
			if (rule) return { status: 'Error', message: rule.properties.message };
			return { status: 'Error', message: `Received HTTP status code: ${status}` };
		}
		return { status: 'Error', message: String(error.cause?.code ?? error.message) };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
