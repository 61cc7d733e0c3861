import type { IExecuteSingleFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** Our errors pass unchanged; anything else (a bug) becomes a NodeOperationError for the item. */
export function asNodeError(
	fn: IExecuteSingleFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	return error instanceof NodeApiError || error instanceof NodeOperationError
		? error
		: new NodeOperationError(fn.getNode(), error as Error, { itemIndex });
}

/**
 * Failures of `preSend` kept for the executor when the node continues on fail.
 *
 * n8n's RoutingNode turns an error thrown by a preSend step into an error item WITHOUT
 * `pairedItem`, so a list operation could not tell which input item failed. Under
 * continueOnFail the failure is therefore parked here, keyed by the request object, and the
 * executor (the operation's pagination function, which RoutingNode calls next with that same
 * object) emits the error item with its pairedItem. Without continueOnFail the error is thrown
 * right away. No request is sent in either case.
 */
const parkedFailures = new WeakMap<object, Error>();

export function parkFailure(request: object, failure: Error): void {
	parkedFailures.set(request, failure);
}

export function takeParkedFailure(request: object): Error | undefined {
	const failure = parkedFailures.get(request);
	parkedFailures.delete(request);
	return failure;
}

