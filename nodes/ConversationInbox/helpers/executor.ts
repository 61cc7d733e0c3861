import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ErrorHints } from '../../shared/errors';
import { apiError, isSuccessBody, networkError } from '../../shared/errors';
import type { Attempt, RetryGate } from '../../shared/retry';
import {
	DEFAULT_RETRY_POLICY,
	describeNetworkError,
	networkFailure,
	newRetryGate,
	statusFailure,
	withRetry,
} from '../../shared/retry';
import {
	cancelSignalOf,
	CREDENTIAL_NAME,
	DEFAULT_TIMEOUT_MS,
	headerValue,
} from '../../shared/transport';
import type { Unwrap } from './output';
import { AssumptionFailed } from './output';
import type { ListSpec, PagingNames, SendPage } from './pagination';
import { collect, pageConcurrency, PAGING_NAME_OPTIONS } from './pagination';
import { asNodeError, takeParkedFailure } from './failures';

/**
 * THE executor: every request of the node goes through here, as the operation's custom
 * `pagination` function (RoutingNode calls it for every item, after the preSend step, because every
 * operation sets `send.paginate: true`). Single requests and all list strategies share this one place
 * where the HTTP status and `success: false` are checked, failed sends are retried by the shared
 * policy (shared/retry.ts), output is unwrapped, items are paired to their input item and
 * continueOnFail is honoured.
 */

export type OperationOutput =
	| { kind: 'single'; unwrap: Unwrap }
	| { kind: 'list'; list: ListSpec };

const RESPONSE_KEY = '__conversationInboxResponse';

/** Where users change the timeout: n8n adds "Request Options" to every declarative node. */
const TIMEOUT_SETTING = 'Timeout under the node\'s Settings → Request Options';

interface CapturedResponse {
	statusCode: number;
	body: unknown;
	retryAfter?: string;
	contentType?: string;
}

/**
 * postReceive of every operation: hands the full response (status, body and the headers the
 * executor reads) to the executor, because with `ignoreHttpStatusErrors` the status is ours to check.
 */
export async function captureResponse(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const captured: CapturedResponse = {
		statusCode: response.statusCode,
		body: response.body,
		retryAfter: headerValue(response.headers, 'retry-after'),
		contentType: headerValue(response.headers, 'content-type'),
	};
	return [{ json: { [RESPONSE_KEY]: captured as unknown as IDataObject } }];
}

/**
 * The timeout of each request: the user's Settings → Request Options → Timeout when set (RoutingNode
 * has already copied it into the request), else DEFAULT_TIMEOUT_MS instead of n8n's 5-minute fallback.
 */
function timeoutOf(fn: IExecuteSingleFunctions): number {
	const requestOptions = fn.getNodeParameter('requestOptions', {}) as IDataObject | undefined;
	const configured = Number(requestOptions?.timeout);
	return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_TIMEOUT_MS;
}

/** The API token, to redact it from any text of the API quoted in an error. */
async function tokenOf(fn: IExecuteSingleFunctions): Promise<string[]> {
	try {
		const credentials = await fn.getCredentials(CREDENTIAL_NAME);
		return typeof credentials?.apiToken === 'string' ? [credentials.apiToken] : [];
	} catch {
		return [];
	}
}

/** What every request of one item shares: read once per item, not once per page or attempt. */
interface ItemRequest {
	fn: IExecutePaginationFunctions;
	requestData: DeclarativeRestApiSettings.ResultOptions;
	itemIndex: number;
	method: string;
	path: string;
	timeoutMs: number;
	/** the prepared query string (filters, escape hatch); a page's values are laid over it */
	baseQs: IDataObject;
	/** the execution's cancel signal */
	cancel: AbortSignal | undefined;
	/** one gate per item: all its pages, concurrent ones included, share the 429 backoff */
	gate: RetryGate;
	/** the operation's error hints */
	hints: ErrorHints | undefined;
}

function itemRequest(
	fn: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	itemIndex: number,
	hints: ErrorHints | undefined,
): ItemRequest {
	return {
		fn,
		requestData,
		itemIndex,
		method: String(requestData.options.method ?? 'GET').toUpperCase(),
		path: String(requestData.options.url ?? ''),
		timeoutMs: timeoutOf(fn),
		baseQs: requestData.options.qs ?? {},
		cancel: cancelSignalOf(fn),
		gate: newRetryGate(),
		hints,
	};
}

/**
 * One request (retried as the policy says); returns the success body or throws the NodeApiError.
 * `signal` (a concurrent walk's, which follows the execution's) ends the waits before a send.
 */
async function sendOne(
	item: ItemRequest,
	query: IDataObject,
	signal: AbortSignal | undefined,
): Promise<IDataObject> {
	const { fn, requestData, itemIndex, method, path, timeoutMs, baseQs } = item;
	const attempt = async (): Promise<Attempt<IDataObject>> => {
		// Fresh options (and headers) for every attempt: authentication writes the token into the
		// headers, and a retry must send exactly the same query (offset, cursor) again.
		const options = {
			...requestData.options,
			headers: { ...(requestData.options.headers ?? {}) },
			qs: { ...baseQs, ...query },
			timeout: timeoutMs,
		};
		let items: INodeExecutionData[];
		try {
			items = await fn.makeRoutingRequest({ ...requestData, options });
		} catch (error) {
			// No HTTP answer. Built from the error code only: the original error holds the request,
			// and the request holds the token.
			return {
				ok: false,
				error: networkError(fn.getNode(), error, method, path, itemIndex, {
					timeoutMs,
					timeoutSetting: TIMEOUT_SETTING,
				}),
				failure: networkFailure(describeNetworkError(error)),
			};
		}
		const response = items[0]?.json?.[RESPONSE_KEY] as CapturedResponse | undefined;
		const statusCode = response?.statusCode ?? 0;
		const body = response?.body;
		if (statusCode >= 400 || !isSuccessBody(body)) {
			const error = apiError(
				fn.getNode(),
				{
					statusCode,
					body,
					method,
					path,
					contentType: response?.contentType,
					redact: await tokenOf(fn),
					hints: item.hints,
				},
				itemIndex,
			);
			return {
				ok: false,
				error,
				failure:
					statusCode >= 400 ? statusFailure(statusCode, response?.retryAfter) : { kind: 'final' },
			};
		}
		return { ok: true, value: body };
	};
	return await withRetry(attempt, {
		method,
		policy: DEFAULT_RETRY_POLICY,
		gate: item.gate,
		signal: signal ?? item.cancel,
	});
}

/** `undefined` when Return All is on. */
function readLimit(fn: IExecuteSingleFunctions): number | undefined {
	const returnAll = fn.getNodeParameter('returnAll', false) as unknown;
	if (returnAll === true || returnAll === 'true') return undefined;
	return Number(fn.getNodeParameter('limit', 50));
}

function errorItem(
	fn: IExecuteSingleFunctions,
	error: unknown,
	itemIndex: number,
): INodeExecutionData {
	const nodeError = asNodeError(fn, error, itemIndex);
	const json: IDataObject = { error: nodeError.message };
	if (nodeError.description) json.description = nodeError.description;
	if (nodeError instanceof NodeApiError && nodeError.httpCode) json.httpCode = nodeError.httpCode;
	return { json, error: nodeError, pairedItem: { item: itemIndex } };
}

/**
 * The concurrency setting of a list that has one (tag contacts); 1 otherwise. The preSend rule
 * (resources/tag/getContacts.ts) has already rejected a value out of range before anything was sent.
 */
function readConcurrency(fn: IExecuteSingleFunctions, list: ListSpec): number {
	const setting = list.paging.kind === 'offset' ? list.paging.concurrency : undefined;
	if (!setting) return 1;
	const value = fn.getNodeParameter(setting.parameter, setting.default) as unknown;
	return pageConcurrency(value, setting) ?? setting.default;
}

/** The paging parameter names set under Options (checked by the preSend rule; blank = assumed). */
function readPagingNames(fn: IExecuteSingleFunctions): Partial<PagingNames> {
	const names: Partial<PagingNames> = {};
	for (const key of Object.keys(PAGING_NAME_OPTIONS) as Array<keyof PagingNames>) {
		const value = fn.getNodeParameter(PAGING_NAME_OPTIONS[key].parameter, '') as unknown;
		if (typeof value === 'string' && value.trim() !== '') names[key] = value.trim();
	}
	return names;
}

export function executor(output: OperationOutput, hints?: ErrorHints) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		try {
			const parked = takeParkedFailure(requestData.options);
			if (parked) throw parked;
			const item = itemRequest(this, requestData, itemIndex, hints);
			const send: SendPage = async (query, signal) => await sendOne(item, query, signal);
			const results =
				output.kind === 'single'
					? output.unwrap(await send({}), requestData.options)
					: await collect(output.list, send, {
							limit: readLimit(this),
							concurrency: readConcurrency(this, output.list),
							signal: item.cancel,
							names: readPagingNames(this),
							query: item.baseQs,
						});
			const out = new Array<INodeExecutionData>(results.length);
			for (let i = 0; i < results.length; i++) {
				out[i] = { json: results[i], pairedItem: { item: itemIndex } };
			}
			return out;
		} catch (caught) {
			const error =
				caught instanceof AssumptionFailed
					? new NodeOperationError(this.getNode(), caught.message, {
							itemIndex,
							description: caught.description,
						})
					: caught;
			if (this.continueOnFail()) return [errorItem(this, error, itemIndex)];
			throw asNodeError(this, error, itemIndex);
		}
	};
}
