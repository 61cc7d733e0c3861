import type { IDataObject } from 'n8n-workflow';

import { id, integer, keyValueList, url } from '../../../shared/checks';
import {
	HTTP_METHOD_OPTIONS,
	TRANSFER_TYPE_OPTIONS,
	WEBHOOK_EVENT_OPTIONS,
} from '../../../shared/constants';
import { INTEGRATION_BY_NAME } from '../../../shared/integrationLocator';
import { additionalFields, body, choice, INTEGRATION, requiredText, URL_FIELD } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import type { Unwrap } from '../../helpers/output';
import { AssumptionFailed, pick } from '../../helpers/output';
import { WIRE } from '../../../shared/wireNames';

const ECHOED = [WIRE.webhookCreate.method, WIRE.webhookCreate.eventType, WIRE.webhookCreate.transferType];

/**
 * The webhook as created. The record carries `method`, `type` and `transferType` (spec), so a field
 * the API did not read under the node's assumed name shows as a different value: the webhook then
 * exists with settings the user did not choose, and the node says so instead of passing it on.
 */
const createdWebhook: Unwrap = (body, request) => {
	const [webhook] = pick('response.webhook')(body, request);
	const sent = (request.body ?? {}) as IDataObject;
	const differing = ECHOED.filter(
		(key) => sent[key] !== undefined && webhook[key] !== undefined && webhook[key] !== sent[key],
	);
	if (differing.length === 0) return [webhook];
	const what = differing.map((key) => `${key} ${String(webhook[key])} instead of ${String(sent[key])}`).join(', ');
	throw new AssumptionFailed(
		`The webhook was created with ${what}: the API did not read ${differing.map((key) => `"${key}"`).join(', ')}`,
		`The API description does not name these request fields; the node assumes ${ECHOED.map((key) => `"${key}"`).join(', ')} (README → Assumptions about the API). The webhook ${String(webhook.id ?? '')} now exists on the platform with the settings above (the API cannot delete webhooks). Set the API's names under Options → Rename Sent Fields before creating it again.`,
	);
};

export const webhookCreate = defineOperation({
	resource: 'webhook',
	operation: 'create',
	name: 'Create',
	action: 'Create a webhook for integration events',
	description:
		'Register a URL that the platform calls on one kind of event (e.g. message received) of a channel integration. The API cannot list or delete webhooks afterwards. Returns the webhook.',
	method: 'POST',
	path: '/integration/webhook/create',
	wireNames: WIRE.webhookCreate,
	fields: [
		body(
			INTEGRATION,
			id({ required: true, byName: INTEGRATION_BY_NAME }),
		),
		body(requiredText({
			displayName: 'URL',
			name: 'url',
			placeholder: URL_FIELD.placeholder,
			description: URL_FIELD.description,
		}), url({ required: true })),
		choice('body', {
			displayName: 'Event Type',
			name: 'type',
			required: true,
			options: WEBHOOK_EVENT_OPTIONS,
			default: 'MESSAGE_RECEIVED',
			description: 'Which event calls the webhook',
		}, { required: true, key: WIRE.webhookCreate.eventType }),
		choice('body', {
			displayName: 'Method',
			name: 'method',
			required: true,
			options: HTTP_METHOD_OPTIONS,
			default: 'POST',
			description: 'HTTP method of the call',
		}, { required: true, key: WIRE.webhookCreate.method }),
		additionalFields([
			body({
				displayName: 'Delay Minutes',
				name: 'delayMinutes',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description: 'Minutes to wait after the event before calling (0 = at once)',
			}, integer({ min: 0 })),
			body({
				displayName: 'Headers',
				name: 'headers',
				type: 'fixedCollection',
				placeholder: 'Add Header',
				typeOptions: { multipleValues: true },
				default: {},
				description: 'Extra HTTP headers sent with every call, e.g. a shared secret',
				options: [
					{
						displayName: 'Header',
						name: 'header',
						values: [
							{
								displayName: 'Key',
								name: 'key',
								type: 'string',
								default: '',
								placeholder: 'e.g. X-Api-Key',
							},
							{
								displayName: 'Value',
								name: 'value',
								type: 'string',
								default: '',
								placeholder: 'e.g. my-shared-secret',
							},
						],
					},
				],
			}, keyValueList('header')),
			choice('body', {
				displayName: 'Transfer Type',
				name: 'transferType',
				options: TRANSFER_TYPE_OPTIONS,
				default: 'ALL',
				description: 'Which transfers fire the webhook',
			}, { key: WIRE.webhookCreate.transferType }),
		]),
	],
	output: { kind: 'single', unwrap: createdWebhook },
});
