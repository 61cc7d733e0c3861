import { LIST_AT } from '../../../shared/answers';
import { id, text } from '../../../shared/checks';
import { NAME_MAX_LENGTH, PAGE_SIZE, TEMPLATE_STATUS_OPTIONS } from '../../../shared/constants';
import { INTEGRATION_BY_NAME, integrationLocatorProperty } from '../../../shared/integrationLocator';
import { choice, filters, query, returnAllAndLimit } from '../../helpers/fields';
import { defineOperation } from '../../helpers/operation';
import { AssumptionFailed } from '../../helpers/output';
import type { ListSpec } from '../../helpers/paging';
import { WIRE } from '../../../shared/wireNames';

const STATUS = WIRE.templateList.status;

/**
 * Templates carry their status (spec), so a Status filter the API did not apply shows: an API that
 * ignores the parameter under our assumed name would otherwise return every status silently.
 */
const verifyStatus: ListSpec['verify'] = (templates, query) => {
	const wanted = query[STATUS];
	if (typeof wanted !== 'string' || wanted === '') return;
	const other = templates.find((template) => template.status !== undefined && template.status !== wanted);
	if (!other) return;
	throw new AssumptionFailed(
		`The API returned templates whose status is not ${wanted} (e.g. ${String(other.status)}): it seems to ignore the query parameter "${STATUS}"`,
		`The API description does not name the status filter; the node assumes "${STATUS}" (README → Assumptions about the API). Set the API's name under Options → Rename Sent Fields and run again. No output was produced for this item.`,
	);
};

export const templateGetAll = defineOperation({
	resource: 'template',
	operation: 'getAll',
	name: 'Get Many',
	action: 'Get many message templates of a channel',
	description:
		'List the provider message templates (e.g. WhatsApp templates) of an official-channel integration, optionally only those in one review status or matching a search text; one item per template',
	method: 'GET',
	path: '/provider-template/list',
	wireNames: WIRE.templateList,
	fields: [
		query(
			integrationLocatorProperty({
				description: 'The official-channel integration that owns the templates',
				hint: 'Only official-channel integrations have message templates',
			}),
			id({ required: true, byName: INTEGRATION_BY_NAME }),
			{ key: WIRE.templateList.integrationId },
		),
		...returnAllAndLimit(),
		filters([
			query({
				displayName: 'Search',
				name: 'search',
				type: 'string',
				default: '',
				placeholder: 'e.g. order_confirmation',
				description: 'Only templates whose name or content contains this text',
				hint: 'At most 255 characters',
			}, text({ max: NAME_MAX_LENGTH }), { key: WIRE.templateList.search }),
			choice('qs', {
				displayName: 'Status',
				name: 'status',
				options: TEMPLATE_STATUS_OPTIONS,
				default: 'APPROVED',
				description: 'Only templates in this review status',
			}, { key: WIRE.templateList.status }),
		]),
	],
	output: {
		kind: 'list',
		list: {
			itemsPath: LIST_AT.templates,
			paging: {
				kind: 'cursor',
				pageSizeKey: WIRE.templateList.pageSize,
				cursorKey: WIRE.templateList.cursor,
				maxPageSize: PAGE_SIZE.templates.max,
				cursorPath: 'response.paging.after',
				hasNextPath: 'response.paging.hasNext',
			},
			verify: verifyStatus,
		},
	},
});
