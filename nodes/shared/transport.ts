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
import type { Attempt } from './retry';
import {
	DEFAULT_RETRY_POLICY,
	describeNetworkError,
	networkFailure,
	statusFailure,
	withRetry,
} from './retry';

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
 * Timeout of one request when the user sets none (n8n's own fallback is 5 minutes). The action
 * node's users can change it under Settings → Request Options → Timeout.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The execution's cancel signal, where the context has one. */
export function cancelSignalOf(context: object): AbortSignal | undefined {
	const fn = (context as { getExecutionCancelSignal?: () => AbortSignal | undefined })
		.getExecutionCancelSignal;
	return typeof fn === 'function' ? fn.call(context) : undefined;
}

/** The value of a response header (names compared case-insensitively). */
export function headerValue(headers: unknown, name: string): string | undefined {
	if (!headers || typeof headers !== 'object') return undefined;
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
		if (key.toLowerCase() !== wanted) continue;
		if (typeof value === 'string') return value;
		if (typeof value === 'number') return String(value);
		if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
	}
	return undefined;
}

/**
 * One authenticated API call for programmatic code (trigger lifecycle, list searches), with the
 * shared retry policy (retry.ts). Returns the whole success body; any failure becomes the shared
 * NodeApiError.
 */
export async function inboxApiRequest(this: Context, request: ApiRequest): Promise<IDataObject> {
	const credentials = await this.getCredentials(CREDENTIAL_NAME);
	const baseUrl = normalizeBaseUrl.call(this, credentials.baseUrl);
	const token = typeof credentials.apiToken === 'string' ? credentials.apiToken : undefined;
	const signal = cancelSignalOf(this);
	const send = async (): Promise<Attempt<IDataObject>> => {
		// A fresh options object per attempt: authentication writes the token into its headers.
		const options: IHttpRequestOptions = {
			method: request.method,
			url: `${baseUrl}${request.path}`,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: DEFAULT_TIMEOUT_MS,
		};
		if (request.body !== undefined) options.body = request.body;
		if (request.qs !== undefined) options.qs = { ...request.qs };
		let response: IN8nHttpFullResponse;
		try {
			response = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				CREDENTIAL_NAME,
				options,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			return {
				ok: false,
				error: networkError(this.getNode(), error, request.method, request.path, request.itemIndex, {
					timeoutMs: DEFAULT_TIMEOUT_MS,
				}),
				failure: networkFailure(describeNetworkError(error)),
			};
		}
		if (response.statusCode >= 400 || !isSuccessBody(response.body)) {
			return {
				ok: false,
				error: apiError(
					this.getNode(),
					{
						statusCode: response.statusCode,
						body: response.body,
						method: request.method,
						path: request.path,
						contentType: headerValue(response.headers, 'content-type'),
						redact: token === undefined ? [] : [token],
					},
					request.itemIndex,
				),
				failure:
					response.statusCode >= 400
						? statusFailure(response.statusCode, headerValue(response.headers, 'retry-after'))
						: { kind: 'final' },
			};
		}
		return { ok: true, value: response.body as IDataObject };
	};
	return await withRetry(send, { method: request.method, policy: DEFAULT_RETRY_POLICY, signal });
}
