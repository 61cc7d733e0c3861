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

export type TestRequestOutcome = { ok: true; json: unknown } | { ok: false; error: Error };

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
		const output = await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
		return { ok: true, json: output?.[0]?.[0]?.json };
	} catch (error) {
		return { ok: false, error: error as Error };
	}
}

/**
 * The credential's `responseSuccessBody` rules applied to a 2xx answer the way n8n's
 * CredentialsTester applies them after the request (n8n 2.41.1 and 1.123.81 alike,
 * packages/cli/src/services/credentials-tester.service.ts: the first rule with
 * `get(body, key) === value` fails the test with its message). A stand-in for the part of n8n's
 * CLI that jest cannot load; the e2e suite runs the real one (test/e2e/suites/package.ts).
 */
export function successBodyVerdict(json: unknown): string | undefined {
	const rules = (new ConversationInboxApi().test as ICredentialTestRequest).rules ?? [];
	for (const rule of rules as Array<{ type: string; properties: { key?: string; value?: unknown; message: string } }>) {
		if (rule.type !== 'responseSuccessBody') continue;
		// lodash's get for a one-segment key, as n8n calls it (a text body's "0" is its first character).
		const found = json === null || json === undefined ? undefined : (Object(json) as Record<string, unknown>)[rule.properties.key as string];
		if (found === rule.properties.value) return rule.properties.message;
	}
	return undefined;
}
