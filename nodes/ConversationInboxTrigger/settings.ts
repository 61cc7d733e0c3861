/**
 * The trigger's settings, read from the node and checked with the action node's checks
 * (shared/checks.ts), so a wrong value fails in the same words, before any request is sent.
 */
import { createHash } from 'crypto';
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import type { Check, Subject } from '../shared/checks';
import { describeValue, HEADER_NAME, id, integer, invalid, keyValueList, list, oneOf } from '../shared/checks';
import { TRANSFER_TYPE_OPTIONS, WEBHOOK_EVENTS } from '../shared/constants';
import { INTEGRATION_BY_NAME } from '../shared/integrationLocator';
import { RESERVED_HEADERS } from './registrations';

export interface ExtraHeader {
	key: string;
	value: string;
}

export interface TriggerConfig {
	integrationId: string;
	/** the selected events, each once, in the order of WEBHOOK_EVENTS */
	events: string[];
	transferType: string;
	delayMinutes: number;
	headers: ExtraHeader[];
	/** hashHeaders(headers): the headers' part of the fingerprint */
	headersHash: string;
}

const headerPairs = keyValueList('header');

/** The API's header rules (keyValueList), plus the trigger's: a valid name, not ours, given once. */
const extraHeaders: Check = (raw, at) => {
	const headers = (headerPairs(raw, at) ?? []) as ExtraHeader[];
	const seen = new Set<string>();
	headers.forEach(({ key }, index) => {
		const entry = `entry ${index + 1}`;
		const lower = key.toLowerCase();
		if (!HEADER_NAME.test(key)) {
			throw invalid(
				at,
				`${entry} must be an HTTP header name: letters, digits and - _ . ! # $ % & ' * + ^ \` | ~ only`,
				describeValue(key),
				'Write the name without spaces or colons, e.g. x-source.',
			);
		}
		if (RESERVED_HEADERS.includes(lower)) {
			throw invalid(
				at,
				`${entry} is reserved by the trigger, which sends ${RESERVED_HEADERS.join(', ')} itself`,
				describeValue(key),
				'Use another header name.',
			);
		}
		if (seen.has(lower)) {
			throw invalid(
				at,
				`${entry} repeats a header name (names are case-insensitive)`,
				describeValue(key),
				'Give each header once.',
			);
		}
		seen.add(lower);
	});
	return headers;
};

/** Each setting's label (its display name in the panel) and check. */
export const SETTINGS = {
	integrationId: { label: 'Integration', check: id({ required: true, byName: INTEGRATION_BY_NAME }) },
	events: { label: 'Events', check: list({ required: true, values: WEBHOOK_EVENTS, send: 'array' }) },
	transferType: { label: 'Transfer Type', check: oneOf(TRANSFER_TYPE_OPTIONS, { required: true }) },
	delayMinutes: { label: 'Delay Minutes', check: integer({ min: 0 }) },
	/** under Options */
	extraHeaders: { label: 'Extra Headers', check: extraHeaders },
} satisfies Record<string, { label: string; check: Check }>;

/** Order-independent hash of the user's extra headers (values never stored in clear). */
export function hashHeaders(headers: ExtraHeader[]): string {
	const canonical = headers
		.map((header) => [header.key.toLowerCase(), header.value])
		.sort((a, b) => (a[0] === b[0] ? a[1].localeCompare(b[1]) : a[0].localeCompare(b[0])));
	return createHash('sha256').update(JSON.stringify(canonical), 'utf8').digest('hex');
}

/** Reads and checks the trigger's settings; a wrong value throws before any request is sent. */
export function readConfig(this: IHookFunctions | IWebhookFunctions): TriggerConfig {
	const node = this.getNode();
	const checked = (name: keyof typeof SETTINGS, raw: unknown): unknown => {
		const at: Subject = { node, label: SETTINGS[name].label, itemText: '' };
		return SETTINGS[name].check(raw, at);
	};
	const integrationId = checked(
		'integrationId',
		this.getNodeParameter('integrationId', '', { extractValue: true }),
	) as string;
	const events = checked('events', this.getNodeParameter('events', [])) as string[];
	const transferType = checked('transferType', this.getNodeParameter('transferType', 'ALL')) as string;
	// Blank (an expression giving nothing) has always meant no delay.
	const delayMinutes =
		(checked('delayMinutes', this.getNodeParameter('delayMinutes', 0)) as number | undefined) ?? 0;
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;
	const headers = checked('extraHeaders', options.extraHeaders) as ExtraHeader[];
	return {
		integrationId,
		events: WEBHOOK_EVENTS.filter((event) => events.includes(event)),
		transferType,
		delayMinutes,
		headers,
		headersHash: hashHeaders(headers),
	};
}
