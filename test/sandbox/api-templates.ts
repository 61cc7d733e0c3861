import { badRequest } from './errors';
import { requireIntegration } from './lookups';
import type { ApiContext, Route } from './routes';
import type { TemplateCatalog } from './state';
import { TEMPLATE_STATUSES } from './types';

const DEFAULT_PAGE_SIZE = 25;
const CURSOR_PREFIX = 'tpl:';

// The cursor names the last template of the page (base64url), so a walk stays exact even when the
// filters of the next call differ; it is opaque to callers.
const encodeCursor = (templateId: string): string => Buffer.from(CURSOR_PREFIX + templateId).toString('base64url');

function decodeCursor(cursor: string, catalog: TemplateCatalog): number {
	const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
	const position = decoded.startsWith(CURSOR_PREFIX) ? catalog.position.get(decoded.slice(CURSOR_PREFIX.length)) : undefined;
	if (position === undefined) throw badRequest('after must be a cursor taken from paging.after of a previous page');
	return position;
}

/**
 * Query: integrationId (required), limit (1-250, default 25), after, status, search (name or
 * component/button text, case-insensitive, at most 255). paging.after is the cursor of the page's
 * last template (the one sent in `after` when the page is empty); paging.hasNext says whether more
 * matching templates follow.
 */
function listTemplates({ state, query }: ApiContext) {
	const integrationId = query.id('integrationId', { required: true });
	const limit = query.integer('limit', { min: 1, max: 250, default: DEFAULT_PAGE_SIZE });
	const after = query.string('after', { max: 1024 });
	const status = query.enumOf('status', TEMPLATE_STATUSES);
	const search = query.string('search', { max: 255 })?.toLowerCase();
	const integration = requireIntegration(state, integrationId);
	const catalog = state.templates.get(integration.id);
	if (integration.provider !== 'WHATSAPP_OFFICIAL' || !catalog) {
		throw badRequest(`integrationId: integration ${integration.id} is not an official-channel integration; only official channels have provider templates`);
	}

	const { list, haystack } = catalog;
	const templates = [];
	let hasNext = false;
	for (let i = after === undefined ? 0 : decodeCursor(after, catalog) + 1; i < list.length; i++) {
		if (status && list[i].status !== status) continue;
		if (search && !haystack[i].includes(search)) continue;
		if (templates.length === limit) {
			hasNext = true;
			break;
		}
		templates.push(list[i]);
	}
	const last = templates[templates.length - 1];
	return {
		success: true,
		response: { templates, paging: { after: last ? encodeCursor(last.id) : (after ?? ''), hasNext } },
	};
}

export const templateRoutes: Route[] = [{ method: 'GET', path: '/v2/provider-template/list', handler: listTemplates }];
