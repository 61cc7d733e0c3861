import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiError, isSuccessBody, networkError } from './errors';

export const CREDENTIAL_NAME = 'conversationInboxApi';

type Context =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IWebhookFunctions;

/** The credential's Base URL without trailing slashes; it must end in the API version `/v2`. */
export function normalizeBaseUrl(this: Context, baseUrl: unknown): string {
	const trimmed = String(baseUrl ?? '').trim().replace(/\/+$/, '');
	if (!/^https?:\/\/[^/]+.*\/v2$/.test(trimmed)) {
		throw new NodeOperationError(
			this.getNode(),
			'The credential\'s Base URL must be an http(s) address ending in /v2',
			{
				description: `Got "${trimmed || '(empty)'}". Example: https://api.example.com/v2. Edit the Conversation Inbox credential.`,
			},
		);
	}
	return trimmed;
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject;
	qs?: IDataObject;
	itemIndex?: number;
}

/**
 * One authenticated API call for programmatic code (trigger lifecycle, list searches).
 * Returns the whole success body; any failure becomes the shared NodeApiError.
 */
export async function inboxApiRequest(this: Context, request: ApiRequest): Promise<IDataObject> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const baseUrl = normalizeBaseUrl.call(this, credentials.baseUrl);
	const options: IHttpRequestOptions = {
		method: request.method,
		url: `${baseUrl}${request.path}`,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};
	if (request.body !== undefined) options.body = request.body;
	if (request.qs !== undefined) options.qs = request.qs;
	let response: IN8nHttpFullResponse;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_NAME,
			options,
		)) as IN8nHttpFullResponse;
	} catch (error) {
		throw networkError(this.getNode(), error, request.method, request.path, request.itemIndex);
	}
	if (response.statusCode >= 400 || !isSuccessBody(response.body)) {
		throw apiError(
			this.getNode(),
			{
				statusCode: response.statusCode,
				body: response.body,
				method: request.method,
				path: request.path,
			},
			request.itemIndex,
		);
	}
	return response.body as IDataObject;
}
