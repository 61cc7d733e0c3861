import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	PreSendAction,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { normalizeBaseUrl } from '../../shared/transport';
import { asNodeError, parkFailure } from './failures';
import type { Rule, RuleContext } from './validation';
import { describeValue, invalid, parseJsonValue } from './validation';

const EXTRA_QUERY = { key: 'options.extraQueryParameters', label: 'Extra Query Parameters' };
const EXTRA_BODY = { key: 'options.extraBodyFields', label: 'Extra Body Fields' };

const RENAME = { key: 'options.renameFields', label: 'Rename Sent Fields' };

/** Options → Rename Sent Fields: a field or query parameter sent under the API's own name. */
function renameFields(ctx: RuleContext, options: IDataObject): void {
	const entries = (options.renameFields as IDataObject | undefined)?.field;
	if (!Array.isArray(entries)) return;
	(entries as IDataObject[]).forEach((entry, index) => {
		const from = typeof entry?.from === 'string' ? entry.from.trim() : '';
		const to = typeof entry?.to === 'string' ? entry.to.trim() : '';
		if (!from || !to) throw invalid(ctx, RENAME, `entry ${index + 1} needs both names`);
		for (const target of [ctx.request.qs, ctx.request.body as IDataObject | undefined]) {
			if (!target || typeof target !== 'object' || !(from in target)) continue;
			target[to] = target[from];
			delete target[from];
		}
	});
}

/** The escape hatch: renames, then extra query parameters and extra body fields, merged last. */
function mergeExtras(ctx: RuleContext): void {
	const { fn, request } = ctx;
	const options = (fn.getNodeParameter('options', {}) ?? {}) as IDataObject;
	renameFields(ctx, options);
	const pairs = (options.extraQueryParameters as IDataObject | undefined)?.parameter;
	if (Array.isArray(pairs) && pairs.length) {
		const qs: IDataObject = { ...(request.qs ?? {}) };
		(pairs as IDataObject[]).forEach((pair, index) => {
			const name = typeof pair?.name === 'string' ? pair.name.trim() : '';
			if (!name) {
				throw invalid(ctx, EXTRA_QUERY, `entry ${index + 1} needs a name`);
			}
			const value = pair.value;
			qs[name] =
				value === undefined || value === null
					? ''
					: typeof value === 'object'
						? JSON.stringify(value)
						: String(value);
		});
		request.qs = qs;
	}

	const rawBody = options.extraBodyFields;
	if (rawBody === undefined || rawBody === null || rawBody === '') return;
	const extra = parseJsonValue(ctx, EXTRA_BODY, rawBody);
	if (!extra || typeof extra !== 'object' || Array.isArray(extra)) {
		throw invalid(ctx, EXTRA_BODY, 'must be a JSON object, like {"field": "value"}', describeValue(extra));
	}
	if (Object.keys(extra).length === 0) return;
	request.body = { ...((request.body as IDataObject) ?? {}), ...(extra as IDataObject) };
}

/** The credential's Base URL must end in /v2 (checked before anything is sent). */
function checkBaseUrl(ctx: RuleContext): void {
	try {
		ctx.request.baseURL = normalizeBaseUrl.call(ctx.fn, ctx.request.baseURL);
	} catch (error) {
		const original = error as NodeOperationError;
		throw new NodeOperationError(ctx.fn.getNode(), original.message, {
			itemIndex: ctx.itemIndex,
			description: original.description ?? undefined,
		});
	}
}

/**
 * The one preSend step of every operation: base URL, the operation's rules in order (each may
 * normalise its field), then the escape hatch. Throws (or parks, under continueOnFail) a
 * NodeOperationError naming the field and the item; nothing is sent for that item.
 */
export function prepareRequest(rules: Rule[]): PreSendAction {
	return async function (
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const ctx: RuleContext = { fn: this, request: requestOptions, itemIndex: this.getItemIndex() };
		try {
			checkBaseUrl(ctx);
			for (const rule of rules) rule(ctx);
			mergeExtras(ctx);
		} catch (error) {
			const failure = asNodeError(this, error, ctx.itemIndex);
			if (this.continueOnFail()) {
				parkFailure(requestOptions, failure);
				return requestOptions;
			}
			throw failure;
		}
		return requestOptions;
	};
}
