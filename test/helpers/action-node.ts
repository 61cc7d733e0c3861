/**
 * The action node's versions (n8n's VersionedNodeType): each version is a node type of its own,
 * with its own description; tests name the version they read, or get the one new nodes get.
 */
import type { INodeTypeDescription } from 'n8n-workflow';

import type { ConversationInboxVersion } from '../../nodes/ConversationInbox/ConversationInbox.node';
import { ConversationInbox } from '../../nodes/ConversationInbox/ConversationInbox.node';
import { DEFAULT_NODE_VERSION, NODE_VERSIONS } from '../../nodes/ConversationInbox/helpers/operation';

export { DEFAULT_NODE_VERSION, NODE_VERSIONS };

/** The node type of one version (default: the version a new node gets). */
export function actionNode(version: number = DEFAULT_NODE_VERSION, node: ConversationInbox = new ConversationInbox()): ConversationInboxVersion {
	return node.getNodeType(version) as ConversationInboxVersion;
}

/** The description of one version (default: the version a new node gets). */
export function actionDescription(version: number = DEFAULT_NODE_VERSION): INodeTypeDescription {
	return actionNode(version).description;
}
