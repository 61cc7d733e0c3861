/**
 * Shared set-up of the editor tests: the action node's description walked as the editor walks it,
 * and n8n-core's real LoadOptionsContext (what the editor's pickers call) for the action node.
 * Not a test file (jest runs *.test.ts only).
 */
import { LoadOptionsContext } from 'n8n-core';
import type { INodeParameters, INodeProperties } from 'n8n-workflow';

import { ConversationInbox } from '../../nodes/ConversationInbox/ConversationInbox.node';
import { actionNode, DEFAULT_NODE_VERSION } from '../helpers/action-node';
import type { Sandbox } from '../sandbox';
import { makeAdditionalData, makeWorkflow } from '../helpers/n8n-harness';
import { operationsOf, panelOf } from '../helpers/operations';

export const NODE_TYPE = 'conversationInbox';
/** The node with all its versions (n8n's VersionedNodeType), as n8n loads it. */
export const versioned = new ConversationInbox();
/** The version a new node gets: its pickers and its description. */
export const node = actionNode(DEFAULT_NODE_VERSION, versioned);
export const { description } = node;

export interface FoundProperty {
	property: INodeProperties;
	/** dotted path as the editor names it, e.g. 'additionalFields.integrationId' */
	path: string;
	resource: string;
	operation: string;
}

/**
 * Every parameter of the action node as each operation's panel shows it (a property shared by
 * several operations once for each), collection options included.
 */
export function allProperties(): FoundProperty[] {
	const found: FoundProperty[] = [];
	const walk = (properties: INodeProperties[], prefix: string, resource: string, operation: string) => {
		for (const property of properties) {
			const path = prefix ? `${prefix}.${property.name}` : property.name;
			found.push({ property, path, resource, operation });
			if (property.type === 'collection' && Array.isArray(property.options)) {
				walk(property.options as INodeProperties[], path, resource, operation);
			}
		}
	};
	for (const { resource, operation } of operationsOf(description)) {
		walk(panelOf(description, resource, operation), '', resource, operation);
	}
	return found;
}

export function findProperty(resource: string, operation: string, path: string): INodeProperties {
	const hit = allProperties().find(
		(entry) => entry.resource === resource && entry.operation === operation && entry.path === path,
	);
	if (!hit) throw new Error(`no property ${resource}.${operation}.${path}`);
	return hit.property;
}

/** A LoadOptionsContext on a one-node workflow holding `parameters`, as the editor builds it. */
export function loadOptionsContext(
	sandbox: Sandbox,
	parameters: INodeParameters,
	path: string,
	apiToken: string = sandbox.token,
): LoadOptionsContext {
	const { workflow, node: workflowNode } = makeWorkflow(NODE_TYPE, versioned, parameters);
	return new LoadOptionsContext(
		workflow,
		workflowNode,
		makeAdditionalData({ baseUrl: sandbox.baseUrl, apiToken }),
		`parameters.${path}`,
	);
}

/** API requests the sandbox saw for one path (without /v2). */
export function requestsTo(sandbox: Sandbox, path: string) {
	return sandbox.requests.filter((request) => request.path === `/v2${path}`);
}
