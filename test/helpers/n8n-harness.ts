/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Runs our nodes inside n8n-core's real execution machinery (RoutingNode, ExecuteContext,
 * HookContext, WebhookContext) without an n8n server. The only stand-in is the credentials
 * store: n8n keeps credentials encrypted in its database, so `StoredCredentialsHelper` keeps
 * them in memory and applies the credential type's generic `authenticate` block the way
 * n8n's CLI CredentialsHelper does (expressions resolved by the workflow's expression engine).
 */
import { setMaxListeners } from 'node:events';

import { ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, isExpression, NodeHelpers, Workflow, createRunExecutionData } from 'n8n-workflow';

import { ConversationInboxApi } from '../../credentials/ConversationInboxApi.credentials';

export const CREDENTIAL_TYPE = 'conversationInboxApi';
export const PACKAGE_PREFIX = 'n8n-nodes-conversation-inbox';

export interface InboxCredentials extends ICredentialDataDecryptedObject {
	baseUrl: string;
	apiToken: string;
}

/** In-memory credentials store; `authenticate` mirrors n8n CLI's generic authentication. */
export class StoredCredentialsHelper extends ICredentialsHelper {
	private readonly credentialType: ICredentialType = new ConversationInboxApi();

	constructor(private readonly data: InboxCredentials) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = this.credentialType.authenticate;
		// A function-style authenticate is called as is, as n8n's CLI does.
		if (typeName === CREDENTIAL_TYPE && typeof authenticate === 'function') return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		if (typeName !== CREDENTIAL_TYPE || typeof authenticate !== 'object') {
			throw new Error(`Unexpected credential type ${typeName}`);
		}
		if (!workflow || !node) throw new Error('workflow and node are required to authenticate');
		const options = requestOptions as unknown as Record<string, Record<string, string>>;
		for (const [target, entries] of Object.entries(authenticate.properties)) {
			options[target] ??= {};
			for (const [key, value] of Object.entries(entries as Record<string, string>)) {
				options[target][key] = isExpression(value)
					? String(
							workflow.expression.getSimpleParameterValue(
								node,
								value,
								'internal',
								{ $credentials: credentials },
								undefined,
								'',
							) ?? '',
						)
					: value;
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(_helpers: IHttpRequestHelper): Promise<undefined> {
		return undefined;
	}

	async getCredentials(_details: INodeCredentialsDetails, _type: string): Promise<ICredentials> {
		throw new Error('not used: getDecrypted answers directly');
	}

	async getDecrypted(): Promise<ICredentialDataDecryptedObject> {
		return { ...this.data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(): INodeProperties[] {
		return this.credentialType.properties;
	}
}

/** A node type, or n8n's VersionedNodeType holding one per version (the action node). */
export type AnyNodeType = INodeType | IVersionedNodeType;

export class TestNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, AnyNodeType>) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType];
		if (!type) throw new Error(`Unknown node type ${nodeType}`);
		return type;
	}

	/** As n8n's NodeTypes: the version's own node type (NodeHelpers.getVersionedNodeType). */
	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

export function makeAdditionalData(
	credentials: InboxCredentials,
	overrides: Partial<IWorkflowExecuteAdditionalData> = {},
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new StoredCredentialsHelper(credentials),
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formBaseUrl: 'http://127.0.0.1:5678/form',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		formTestBaseUrl: 'http://127.0.0.1:5678/form-test',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcp',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcp-test',
		variables: {},
		logAiEvent: () => {},
		executeWorkflow: async () => {
			throw new Error('not available in tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('not available in tests');
		},
		...overrides,
	} as IWorkflowExecuteAdditionalData;
}

export interface WorkflowFixture {
	workflow: Workflow;
	node: INode;
}

/** The version the editor adds: `defaultVersion`, else the (highest) version. */
function defaultVersionOf(nodeType: AnyNodeType): number {
	if ("nodeVersions" in nodeType) return nodeType.description.defaultVersion ?? Math.max(...Object.keys(nodeType.nodeVersions).map(Number));
	const { version, defaultVersion } = nodeType.description;
	return defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
}

/** A one-node workflow around `nodeType`, holding `parameters` and a credential reference. */
export function makeWorkflow(
	typeName: string,
	nodeType: AnyNodeType,
	parameters: INodeParameters,
	options: { continueOnFail?: boolean; staticData?: IDataObject; webhookId?: string; typeVersion?: number } = {},
): WorkflowFixture {
	const typeVersion = options.typeVersion ?? defaultVersionOf(nodeType);
	const { description } = NodeHelpers.getVersionedNodeType(nodeType, typeVersion);
	const node: INode = {
		id: 'node-under-test',
		name: description.defaults.name ?? description.displayName,
		type: `${PACKAGE_PREFIX}.${typeName}`,
		typeVersion,
		position: [0, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Sandbox' } },
		onError: options.continueOnFail ? 'continueRegularOutput' : 'stopWorkflow',
		webhookId: options.webhookId,
	};
	const workflow = new Workflow({
		id: 'wf-test',
		name: 'Test workflow',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new TestNodeTypes({ [node.type]: nodeType }),
		staticData: options.staticData,
	});
	// Node parameters must carry their defaults, as the editor stores them.
	return { workflow, node: workflow.getNode(node.name) as INode };
}

export interface RunOptions {
	parameters: INodeParameters;
	items?: IDataObject[];
	credentials: InboxCredentials;
	continueOnFail?: boolean;
	mode?: WorkflowExecuteMode;
	/** the execution's cancel signal (n8n aborts it when the execution is cancelled) */
	signal?: AbortSignal;
	/** the node's saved typeVersion; default: the one the editor adds */
	typeVersion?: number;
}

/**
 * The cancel signal n8n gives every execution (WorkflowExecute's AbortController, with no limit on
 * its listeners, as n8n sets it): the node keys what one run's items share on it (helpers/run.ts).
 */
function executionSignal(): AbortSignal {
	const { signal } = new AbortController();
	setMaxListeners(Infinity, signal);
	return signal;
}

/** Runs a declarative node over `items` through n8n-core's RoutingNode; returns output items. */
export async function runRoutingNode(
	typeName: string,
	nodeType: AnyNodeType,
	options: RunOptions,
): Promise<INodeExecutionData[]> {
	const { workflow, node } = makeWorkflow(typeName, nodeType, options.parameters, {
		continueOnFail: options.continueOnFail,
		typeVersion: options.typeVersion,
	});
	const inputItems: INodeExecutionData[] = (options.items ?? [{}]).map((json) => ({ json }));
	const inputData = { main: [inputItems] };
	const executeData: IExecuteData = { node, data: inputData, source: null };
	const runExecutionData: IRunExecutionData = createRunExecutionData();
	const context = new ExecuteContext(
		workflow,
		node,
		makeAdditionalData(options.credentials),
		options.mode ?? 'manual',
		runExecutionData,
		0,
		inputItems,
		inputData,
		executeData,
		[],
		options.signal ?? executionSignal(),
	);
	// As n8n runs a declarative node: its version's node type (NodeTypes.getByNameAndVersion).
	const routingNode = new RoutingNode(context, workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion));
	const output = await routingNode.runNode();
	return output?.[0] ?? [];
}
