/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * n8n as an MCP server for the e2e suites: workflows with n8n's MCP Server Trigger and our tool
 * nodes, and a real MCP client (@modelcontextprotocol/sdk, Streamable HTTP) that talks to them.
 *
 * What n8n 2.41.1 does with such a workflow (checked against its source and on this machine):
 * - the trigger (`@n8n/n8n-nodes-langchain.mcpTrigger`, typeVersion 2.1) serves `/mcp/<path>`;
 * - each node connected to it by an `ai_tool` connection is one MCP tool, named after the node
 *   (`nodeNameToToolName`: every run of characters outside [a-zA-Z0-9_-] becomes `_`);
 * - the tool's input schema holds one required property per `$fromAI(key, description, type)`
 *   in the node's parameters; its description is the operation's action + " in Conversation
 *   Inbox" ("Set Automatically") or the node's own Description ("Set Manually");
 * - a call runs the node once (one execution) with the arguments; the result is the JSON of its
 *   output items, an error is `isError: true` with "<ErrorName>: <message>\n\nDetails: <description>".
 */
import { randomUUID } from 'node:crypto';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import type { Connections, CredentialRecord, WorkflowDefinition, WorkflowNode } from './n8n-client';
import { CREDENTIAL_TYPE, TOOL_NODE_TYPE } from './workflows';

export const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
export const MCP_TRIGGER_VERSION = 2.1;
export const BEARER_CREDENTIAL_TYPE = 'httpBearerAuth';

/** A parameter value the way the editor writes it when "Let the model define this parameter" is on. */
export function fromAI(key: string, description = '', type: 'string' | 'number' | 'boolean' | 'json' = 'string'): string {
	return `={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`${description}\`, '${type}') }}`;
}

export interface ToolNodeSpec {
	name: string;
	parameters: Record<string, unknown>;
}

/** The MCP tool name n8n derives from a node name. */
export const toolNameOf = (nodeName: string): string => nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');

/**
 * MCP Server Trigger ← tool nodes of ours. With `bearer`, the trigger requires that credential's
 * token (n8n answers 401 without it).
 */
export function mcpWorkflow(options: {
	name: string;
	path: string;
	tools: ToolNodeSpec[];
	credential: CredentialRecord;
	bearer?: CredentialRecord;
	instructions?: string;
}): WorkflowDefinition {
	const trigger: WorkflowNode = {
		id: randomUUID(),
		name: 'MCP Server Trigger',
		type: MCP_TRIGGER_TYPE,
		typeVersion: MCP_TRIGGER_VERSION,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: {
			authentication: options.bearer ? 'bearerAuth' : 'none',
			path: options.path,
			...(options.instructions === undefined ? {} : { instructions: options.instructions }),
		},
	};
	if (options.bearer) trigger.credentials = { [BEARER_CREDENTIAL_TYPE]: { id: options.bearer.id, name: options.bearer.name } };
	const connections: Connections = {};
	const tools = options.tools.map((tool, i): WorkflowNode => {
		connections[tool.name] = { ai_tool: [[{ node: trigger.name, type: 'ai_tool', index: 0 }]] };
		return {
			id: randomUUID(),
			name: tool.name,
			type: TOOL_NODE_TYPE,
			// The version the editor adds to a new node.
			typeVersion: 2,
			position: [-300 + 200 * i, 240],
			parameters: tool.parameters,
			credentials: { [CREDENTIAL_TYPE]: { id: options.credential.id, name: options.credential.name } },
		};
	});
	return { name: options.name, nodes: [trigger, ...tools], connections, settings: { executionOrder: 'v1' } };
}

/** The production URL of an MCP Server Trigger with this path. */
export const mcpUrl = (n8nUrl: string, path: string): string => `${n8nUrl}/mcp/${path}`;

/** An MCP client connected over Streamable HTTP, sending `token` as a Bearer token when given. */
export async function connectMcp(url: string, token?: string): Promise<Client> {
	const transport = new StreamableHTTPClientTransport(new URL(url), {
		requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
	});
	const client = new Client({ name: 'n8n-nodes-conversation-inbox-e2e', version: '1.0.0' });
	await client.connect(transport);
	return client;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Connects once the endpoint is live: n8n 2.x registers a published workflow's webhooks just
 * after answering the publish call, and answers 404 until then. Only a 404 is retried.
 */
export async function connectMcpWhenLive(url: string, token?: string, waitMs = 20_000): Promise<Client> {
	const deadline = Date.now() + waitMs;
	for (;;) {
		try {
			return await connectMcp(url, token);
		} catch (error) {
			if ((error as { code?: unknown }).code !== 404 || Date.now() > deadline) throw error;
			await sleep(200);
		}
	}
}

/** The text of a tool result (n8n answers one text part). */
export function resultText(result: unknown): string {
	const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
	if (content.length !== 1 || content[0].type !== 'text' || typeof content[0].text !== 'string') {
		throw new Error(`expected one text part in the tool result, got ${JSON.stringify(result).slice(0, 500)}`);
	}
	return content[0].text;
}
