import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { apiError, isSuccessBody, networkError } from '../../shared/errors';
import type { Unwrap } from './output';
import type { ListSpec, SendPage } from './pagination';
import { collect } from './pagination';
import { asNodeError, takeParkedFailure } from './failures';

/**
 * THE executor: every request of the node goes through here, as the operation's custom
 * `pagination` function (RoutingNode calls it for every item, after the preSend step, because every
 * operation sets `send.paginate: true`). Single requests and all list strategies share this one place
 * where the HTTP status and `success: false` are checked, output is unwrapped, items are paired to
 * their input item and continueOnFail is honoured. (Retries belong here too.)
 */

export type OperationOutput =
	| { kind: 'single'; unwrap: Unwrap }
	| { kind: 'list'; list: ListSpec };

const RESPONSE_KEY = '__conversationInboxResponse';

/**
 * postReceive of every operation: hands the full response (status and body) to the executor,
 * because with `ignoreHttpStatusErrors` the status is ours to check.
 */
export async function captureResponse(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	return [
		{
			json: {
				[RESPONSE_KEY]: {
					statusCode: response.statusCode,
					body: response.body as IDataObject,
				},
			},
		},
	];
}

/** One request; returns the success body or throws the shared NodeApiError. */
async function sendOne(
	fn: IExecutePaginationFunctions,
	requestData: DeclarativeRestApiSettings.ResultOptions,
	query: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const options = {
		...requestData.options,
		qs: { ...(requestData.options.qs ?? {}), ...query },
	};
	const method = String(options.method ?? 'GET').toUpperCase();
	const path = String(options.url ?? '');
	let items: INodeExecutionData[];
	try {
		items = await fn.makeRoutingRequest({ ...requestData, options });
	} catch (error) {
		// No HTTP answer. Built from the error code only: the original error holds the request,
		// and the request holds the token.
		throw networkError(fn.getNode(), error, method, path, itemIndex);
	}
	const response = items[0]?.json?.[RESPONSE_KEY] as
		| { statusCode: number; body: unknown }
		| undefined;
	const statusCode = response?.statusCode ?? 0;
	const body = response?.body;
	if (statusCode >= 400 || !isSuccessBody(body)) {
		throw apiError(fn.getNode(), { statusCode, body, method, path }, itemIndex);
	}
	return body;
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

export function executor(output: OperationOutput) {
	return async function (
		this: IExecutePaginationFunctions,
		requestData: DeclarativeRestApiSettings.ResultOptions,
	): Promise<INodeExecutionData[]> {
		const itemIndex = this.getItemIndex();
		try {
			const parked = takeParkedFailure(requestData.options);
			if (parked) throw parked;
			const send: SendPage = async (query) => await sendOne(this, requestData, query, itemIndex);
			const results =
				output.kind === 'single'
					? output.unwrap(await send({}), requestData.options)
					: await collect(output.list, send, readLimit(this));
			return results.map((json) => ({ json, pairedItem: { item: itemIndex } }));
		} catch (error) {
			if (this.continueOnFail()) return [errorItem(this, error, itemIndex)];
			throw asNodeError(this, error, itemIndex);
		}
	};
}
