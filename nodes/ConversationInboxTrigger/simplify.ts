/**
 * The Simplify option's item: one flat object with the event, the integration and the useful
 * fields of the payload. The spec does not show the payload's shape, so every field is looked up
 * defensively (a missing or differently shaped field is just left out), and a payload in which
 * none of the expected fields is found is kept whole under `body`: Simplify never throws and never
 * loses a delivery's content.
 */
import type { IDataObject } from 'n8n-workflow';

type Scalar = string | number | boolean;

function isObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

function isScalar(value: unknown): value is Scalar {
	return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** `data` of the payload: an object, or (GET deliveries) the same object JSON-encoded in the query. */
function dataOf(payload: IDataObject): IDataObject | undefined {
	const data = payload.data;
	if (isObject(data)) return data;
	if (typeof data === 'string' && data.trim().startsWith('{')) {
		try {
			const parsed = JSON.parse(data) as unknown;
			return isObject(parsed) ? parsed : undefined;
		} catch {
			return undefined;
		}
	}
	return undefined;
}

/** output field ← [object of `data`, field of that object]; the first match wins per output field */
const PICKS: Array<[string, Array<[string, string]>]> = [
	['messageId', [['message', 'id']]],
	['text', [['message', 'text']]],
	['direction', [['message', 'direction']]],
	['fromMe', [['message', 'fromMe']]],
	['messageType', [['message', 'type']]],
	['transferType', [['message', 'transferType']]],
	['sentAt', [['message', 'createdAt']]],
	['chatInternalId', [['chat', 'chatInternalId'], ['message', 'chatInternalId']]],
	['chatId', [['chat', 'chatId'], ['message', 'chatId'], ['contact', 'chatId']]],
	['chatName', [['chat', 'name']]],
	['chatCategory', [['chat', 'category']]],
	['phoneNumber', [['contact', 'phoneNumber'], ['chat', 'phoneNumber']]],
	['contactName', [['contact', 'name']]],
	['integrationName', [['integration', 'name']]],
];

/** Scalars directly under `data` that are kept under their own name. */
const DIRECT = ['firstMessage', 'connectionStatus', 'previousStatus'];

export function simplifyDelivery(event: string, integrationId: string, payload: unknown): IDataObject {
	const item: IDataObject = { event, integrationId };
	if (!isObject(payload)) {
		item.body = payload as IDataObject;
		return item;
	}
	if (typeof payload.timestamp === 'string') item.timestamp = payload.timestamp;
	const data = dataOf(payload);
	let found = 0;
	if (data) {
		for (const [field, paths] of PICKS) {
			for (const [objectName, key] of paths) {
				const holder = data[objectName];
				const value = isObject(holder) ? holder[key] : undefined;
				if (isScalar(value)) {
					item[field] = value;
					found++;
					break;
				}
			}
		}
		for (const field of DIRECT) {
			if (isScalar(data[field])) {
				item[field] = data[field];
				found++;
			}
		}
	}
	// Nothing recognised: an unknown shape (or an empty chat reference) keeps the whole payload.
	if (found === 0) item.body = payload;
	return item;
}
