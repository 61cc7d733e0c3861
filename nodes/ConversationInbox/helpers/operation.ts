import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	ICredentialDataDecryptedObject,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IDisplayOptions,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ErrorHints } from '../../shared/errors';
import { doneWithoutPayload } from '../../shared/reading';
import { newRetryGate } from '../../shared/retry';
import type { CallSettings } from '../../shared/transport';
import { cancelSignalOf, DEFAULT_TIMEOUT_MS, secretsOf, sendRequest } from '../../shared/transport';
import type { FieldSpec } from './fields';
import { asField } from './fields';
import { listNotice, listOptions, optionsCollection } from './options';
import type { SentRequest, Unwrap } from './output';
import { AssumptionFailed, doneItem } from './output';
import type { ListSpec } from './paging';
import { collect, readListSettings } from './paging';
import type { SendPage } from './paging/walk';
import type { Preparation, Rule } from './prepare';
import { prepareRequest, ruleContext } from './prepare';
import { runOf } from './run';

/**
 * One operation = one file under resources/<resource>/: its fields (each with its check), its
 * request, the rules that relate several fields, and its output. `defineOperation` turns that into
 * the operation option and the operation's parameters.
 *
 * Every operation runs the same four steps for each input item (`runOperation` below, which n8n's
 * routing engine calls with the request it built from the parameters): check and complete the
 * request (prepare.ts), send it through the one request path (shared/transport.ts), unwrap the
 * answer or page through the list (paging/), and return one item per element, paired with its
 * input item. Under Continue On Fail a failing item gives one error item; N items in, N results out.
 */

/**
 * The versions of the action node (n8n's typeVersion). A saved workflow keeps its version; a new
 * node gets the last. An operation whose released form changed has one definition per form, each
 * naming the versions it serves (docs/development.md, "Changing a released operation").
 */
export const NODE_VERSIONS = [1, 2];
export const DEFAULT_NODE_VERSION = 2;

/**
 * A single answer's items; `simplified`, when its boolean parameter is on, gives them in a simpler
 * shape (read once per item, after the answer came).
 */
export type OperationOutput =
	| { kind: 'single'; unwrap: Unwrap; simplified?: { parameter: string; unwrap: Unwrap } }
	| { kind: 'list'; list: ListSpec };

export interface OperationDefinition {
	resource: string;
	operation: string;
	/** option label, e.g. 'Create' */
	name: string;
	/** sentence-case action, e.g. 'Create a tag' */
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** path under the base URL, e.g. '/tag/create' */
	path: string;
	fields: FieldSpec[];
	/** rules that relate several fields, after the fields' own checks */
	rules?: Rule[];
	output: OperationOutput;
	/** further entries of the operation's "Options" collection (beside the escape hatch) */
	options?: INodeProperties[];
	/** hints for failed calls that replace the standard ones, or say what to check (errors.ts) */
	errors?: Omit<ErrorHints, 'assumptions'>;
	/**
	 * The operation's names in wireNames.ts (the spec does not show them): those its fields send are
	 * named in request errors, in this order.
	 */
	wireNames?: Readonly<Record<string, string>>;
	/** a further assumption of the operation, named in request errors */
	assumption?: string;
	/** the node versions this form of the operation serves; default: every version */
	versions?: number[];
	/**
	 * The panel's name of what a rule sends (e.g. Tag → Get Contacts sends its Tag field as
	 * `tagId` or `tagName`), for the API's messages (errors.ts inPanelWords); the fields' own
	 * names are known from their declarations.
	 */
	labels?: Readonly<Record<string, string>>;
}

export interface Operation {
	resource: string;
	operation: string;
	option: INodePropertyOptions;
	/** its fields, each shown for its resource and operation (helpers/versions.ts adds nothing else) */
	properties: INodeProperties[];
	versions: number[];
}

/** Where users change the timeout: n8n adds "Request Options" to every declarative node. */
const TIMEOUT_SETTING = 'Timeout under the node\'s Settings → Request Options';

/**
 * How this item's calls are sent: the user's Settings → Request Options → Timeout when set, else
 * DEFAULT_TIMEOUT_MS (not n8n's 5 minutes); one retry gate for all its pages.
 */
function callSettings(
	fn: IExecuteSingleFunctions,
	itemIndex: number,
	hints: ErrorHints,
	credentials: ICredentialDataDecryptedObject,
): CallSettings {
	const requestOptions = fn.getNodeParameter('requestOptions', {}) as IDataObject | undefined;
	const configured = Number(requestOptions?.timeout);
	return {
		itemIndex,
		hints,
		gate: newRetryGate(),
		signal: cancelSignalOf(fn),
		timeoutMs: Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_TIMEOUT_MS,
		timeoutSetting: TIMEOUT_SETTING,
		redact: secretsOf(credentials),
		credentials,
	};
}

/** Our errors pass unchanged; an assumption the API broke, or a bug, becomes the item's error. */
function asNodeError(fn: IExecuteSingleFunctions, error: unknown, itemIndex: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	if (error instanceof AssumptionFailed) {
		return new NodeOperationError(fn.getNode(), error.message, { itemIndex, description: error.description });
	}
	return new NodeOperationError(fn.getNode(), error as Error, { itemIndex });
}

/** The item's failure: one error item under Continue On Fail (paired), else thrown. */
function failed(fn: IExecuteSingleFunctions, error: unknown, itemIndex: number): INodeExecutionData[] {
	const nodeError = asNodeError(fn, error, itemIndex);
	if (!fn.continueOnFail()) throw nodeError;
	const json: IDataObject = { error: nodeError.message };
	if (nodeError.description) json.description = nodeError.description;
	if (nodeError instanceof NodeApiError && nodeError.httpCode) json.httpCode = nodeError.httpCode;
	return [{ json, error: nodeError, pairedItem: { item: itemIndex } }];
}

/** A single answer's items: the payload unwrapped, or what is known of a write done without it. */
function single(unwrap: Unwrap, body: IDataObject, request: SentRequest): IDataObject[] {
	const done = doneWithoutPayload(body);
	return done === undefined ? unwrap(body, request) : [doneItem(done, body, request)];
}

/** The item's way to unwrap a single answer: the simplified one when its parameter is on. */
function unwrapOf(fn: IExecutePaginationFunctions, output: Extract<OperationOutput, { kind: 'single' }>): Unwrap {
	const { simplified } = output;
	return simplified && fn.getNodeParameter(simplified.parameter, true) === true ? simplified.unwrap : output.unwrap;
}

/**
 * The node's saved version must be one this form of the operation serves. Each version has its own
 * description (ConversationInbox.node.ts), so n8n runs a node with its version's operations; but
 * n8n 1.x keeps one AI-tool variant per node type for the whole process, whatever version asked
 * first (fixed in n8n 2.x, n8n-io/n8n#34850), so a tool node of the other version would run with
 * this version's parameters. Nothing is sent then.
 */
function checkVersion(fn: IExecutePaginationFunctions, definition: Pick<OperationDefinition, 'resource' | 'operation'>, versions: number[], itemIndex: number): void {
	const { typeVersion } = fn.getNode();
	if (versions.includes(typeVersion)) return;
	throw new NodeOperationError(fn.getNode(), `This node (version ${typeVersion}) was given the parameters of node version ${versions.join(', ')}: nothing was sent`, {
		itemIndex,
		description: `n8n 1.x keeps one AI-tool variant of a node for the whole n8n process, whatever version was used first (fixed in n8n 2.x). A workflow here uses the Conversation Inbox tool at node versions ${versions.join(', ')} and ${typeVersion}. Replace the older tool nodes with new ones (or use one version throughout), then restart n8n. (${definition.resource} → ${definition.operation})`,
	});
}

/** The four steps of one operation for one input item. */
function runOperation(definition: OperationDefinition, versions: number[], preparation: Preparation, hints: ErrorHints) {
	const { output } = definition;
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		try {
			checkVersion(this, definition, versions, itemIndex);
			// 0. The item's turn (run.ts): n8n answers between slices of a large input.
			const run = runOf(this);
			await run.slices.turn();
			const credentials = await run.credentials();

			// 1. Check and complete the request; nothing is sent when a value breaks a rule.
			const ctx = ruleContext(this, { ...requestData.options, baseURL: credentials.baseUrl as string });
			prepareRequest(ctx, preparation);
			const { request } = ctx;

			// 2. Send: every call of this item (each page) through the one request path.
			const call = callSettings(this, itemIndex, hints, credentials);
			const send: SendPage = async (query, signal) =>
				await sendRequest(this, { ...request, qs: { ...request.qs, ...query } }, { ...call, signal: signal ?? call.signal });

			// 3. The answer's payload, or every page of the list (its settings are checked first).
			const results =
				output.kind === 'single'
					? single(unwrapOf(this, output), await send({}), ctx.renamed ? { ...request, renamed: ctx.renamed } : request)
					: await collect(output.list, send, readListSettings(ctx, output.list), request.qs ?? {}, call.signal);

			// 4. One item per element, paired with its input item.
			return results.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		} catch (error) {
			return failed(this, error, itemIndex);
		}
	};
}

/** The property, shown only for this resource and operation. */
function showFor(property: INodeProperties, resource: string, operation: string): INodeProperties {
	const displayOptions: IDisplayOptions = {
		...property.displayOptions,
		show: {
			resource: [resource],
			operation: [operation],
			...property.displayOptions?.show,
		},
	};
	return { ...property, displayOptions };
}

/** The error hints of an operation: its own, and the assumptions a request error may come from. */
function errorHints(definition: OperationDefinition, assumedNames: string[], fieldLabels: Record<string, string>): ErrorHints {
	const { output, assumption } = definition;
	const parts: string[] = [];
	if (assumption) parts.push(assumption);
	if (assumedNames.length > 0) {
		const names = assumedNames.map((name) => `"${name}"`).join(', ');
		parts.push(
			`The API description does not show the names ${names}; the node assumes them (README → Assumptions about the API). If the API's message names one of them, or a field it expects instead, set the API's name under Options → Rename Sent Fields.`,
		);
	}
	if (output.kind === 'list' && output.list.paging.kind !== 'whole') {
		parts.push('The paging parameters are renamed under Options → … Parameter Name.');
	}
	return {
		noReason: `Check the values of this item for "${definition.action}" against the fields' hints (the API's rules), and that the IDs it names exist.`,
		...definition.errors,
		assumptions: parts.length > 0 ? parts.join(' ') : undefined,
		assumedNames,
		fieldLabels,
	};
}

export function defineOperation(definition: OperationDefinition): Operation {
	const { output, versions = NODE_VERSIONS } = definition;
	const fields = definition.fields.map(asField);
	const options = [
		...(definition.options ?? []),
		...(output.kind === 'list' ? listOptions(output.list) : []),
	];
	const preparation: Preparation = {
		fields: fields.flatMap((field) => field.sent),
		clearings: fields.flatMap((field) => (field.clearing ? [field.clearing] : [])),
		rules: definition.rules ?? [],
	};
	const sent = new Set(preparation.fields.map((field) => field.key));
	const assumed = Object.values(definition.wireNames ?? {}).filter((name) => sent.has(name));
	// The API's messages name fields as they travel; errors name them as the panel does (errors.ts).
	const fieldLabels = { ...Object.fromEntries(preparation.fields.map((field) => [field.key, field.label])), ...definition.labels };
	return {
		resource: definition.resource,
		operation: definition.operation,
		option: {
			name: definition.name,
			value: definition.operation,
			action: definition.action,
			description: definition.description,
			routing: {
				request: { method: definition.method, url: definition.path },
				// The whole run is ours (runOperation); n8n's engine builds the request and calls it.
				send: { paginate: true },
				operations: { pagination: runOperation(definition, versions, preparation, errorHints(definition, assumed, fieldLabels)) },
			},
		},
		properties: [
			...fields.flatMap((field) =>
				// A list's own notice says how it is read, right above the shared Return All.
				output.kind === 'list' && field.property.name === 'returnAll' ? [listNotice(output.list), field.property] : [field.property],
			),
			optionsCollection(definition.method, options),
		].map((property) => showFor(property, definition.resource, definition.operation)),
		versions,
	};
}

/** A resource: its operations (each form once, with the versions it serves) and the default one. */
export interface Resource {
	resource: string;
	operations: Operation[];
	defaultOperation: string;
}

/** The Operation selector of a resource, options in alphabetical order. */
function operationSelector(resource: string, operations: Operation[], defaultOperation: string): INodeProperties {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options: operations
			.map((operation) => operation.option)
			.sort((a, b) => a.name.localeCompare(b.name)),
		default: defaultOperation,
	};
}

/**
 * What a resource adds to one node version's description: its Operation selector, offering the form
 * of each operation that version has (a selector's option carries the operation's routing), and
 * those operations' fields, as each operation declares them.
 */
export function resourceProperties(resource: Resource, version: number): INodeProperties[] {
	const operations = resource.operations.filter((operation) => operation.versions.includes(version));
	if (operations.length === 0) return [];
	return [
		operationSelector(resource.resource, operations, resource.defaultOperation),
		...operations.flatMap((operation) => operation.properties),
	];
}
