import type { IDataObject } from 'n8n-workflow';

import { AssumptionFailed, valueAt } from '../../shared/answers';
import type { DoneWithoutPayload } from '../../shared/reading';

/**
 * Output unwrapping: the API wraps payloads in `data` or `response` (api-spec.md, per endpoint);
 * users get the resource itself.
 */

export { AssumptionFailed };

/** JSON for an n8n item: objects as they are, anything else under `value`. */
export function asItemJson(value: unknown): IDataObject {
	if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as IDataObject;
	return { value: value as IDataObject[string] };
}

/** How a single (non-list) answer becomes output items. */
export type Unwrap = (body: IDataObject, request: SentRequest) => IDataObject[];

/** What was sent, as far as unwrapping needs it. */
export interface SentRequest {
	body?: unknown;
	qs?: IDataObject;
	/** a field's name → the name it was sent under (Options → Rename Sent Fields) */
	renamed?: Record<string, string>;
}

/**
 * A write the API accepted (2xx) without the payload its description shows (shared/reading.ts,
 * doneWithoutPayload): done (DESIGN.md, "A 2xx to a write is done"), so one item with what is
 * known: what was sent and what came.
 */
export function doneItem(done: DoneWithoutPayload, body: IDataObject, request: SentRequest): IDataObject {
	return {
		success: true,
		sent: (request.body ?? {}) as IDataObject,
		answer: withoutSuccess(body),
		note: done.note,
	};
}

/**
 * The object at `path` (e.g. `data.tag`) as one item; an array there gives one item per
 * element. The reader of answers (shared/reading.ts) has refused a read without the payload the
 * spec names (a write without it is done: doneItem); a path deeper than that one which the API left
 * out is an error too, never an item without the resource.
 */
export function pick(path: string): Unwrap {
	return (body) => {
		const value = valueAt(body, path);
		if (Array.isArray(value)) return value.map(asItemJson);
		if (value !== undefined && value !== null) return [asItemJson(value)];
		throw new AssumptionFailed(
			`The API's answer has no ${path}`,
			`The API description shows the result under ${path}; the answer has ${Object.keys(body).join(', ') || 'no keys'}. No output was produced for this item.`,
		);
	};
}

/**
 * For answers that are only `{success: true}`: one item saying what succeeded, with the id the
 * request named (e.g. `{ success: true, automationTriggerId }`).
 */
export function confirm(idKey: string): Unwrap {
	return (body, request) => {
		const sent = (request.body ?? {}) as IDataObject;
		return [{ success: true, [idKey]: sent[idKey], ...withoutSuccess(body) }];
	};
}

/** The body without its `success` flag (a copy; no unused binding, which the lint forbids). */
function withoutSuccess(body: IDataObject): IDataObject {
	const rest = { ...body };
	delete rest.success;
	return rest;
}
