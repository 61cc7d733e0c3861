import { badRequest } from './errors';
import { type AnswerShapes, parseShapes } from './shapes';

/**
 * Variant switches: the sandbox answering as a real API might where the spec is silent and the node
 * assumes (README → Assumptions about the API, and "Variant sandbox"). Off by default: the sandbox
 * then implements exactly the node's assumptions. Each switch changes how requests are READ (names,
 * paging) or how answers are WRITTEN (error text, list contents); the handlers stay as they are.
 *
 * - renamed: per endpoint, the API's own name for a field we name otherwise (`{ ours: theirs }`).
 *   Strict, as a validating API is: our name is refused with 400 "unknown field", theirs is read.
 *   Paging names are not here (an API ignores unknown query parameters): see `pagingNames`.
 * - lenient: with `renamed`, our names are silently ignored instead of refused.
 * - pagingNames: the list endpoints read the offset / page size / cursor under these names and
 *   ignore ours (so they page from the start with their default size).
 * - offsetIgnored / cursorIgnored: the list endpoints always answer the first page.
 * - pageSizeCap: the list endpoints answer at most this many elements, whatever was asked.
 * - endlessChats: find-all-chats invents chats for every offset: the list never ends.
 * - editFullReplace: automation/edit replaces the whole trigger, so every field is required.
 * - sharedPhones: list-contacts lists a contact once per chat (one number on two lines gives two
 *   entries) and has LID-only contacts with an empty phone number.
 * - defaultErrorText: every error answers with the default text `Erro ao enviar mensagem`.
 * - extraFieldShape 'fieldKey': extra custom-field inputs are `{fieldKey, value}`, not
 *   `{sourceType, key, valueJson}`.
 * - shapes: per endpoint, answers in another shape (empty, 204, other error bodies, the other
 *   envelope, …): see shapes.ts.
 */
export interface Variants {
	renamed?: Record<string, Record<string, string>>;
	lenient?: boolean;
	pagingNames?: { offset?: string; limit?: string; cursor?: string };
	offsetIgnored?: boolean;
	cursorIgnored?: boolean;
	pageSizeCap?: number;
	endlessChats?: boolean;
	editFullReplace?: boolean;
	sharedPhones?: boolean;
	defaultErrorText?: boolean;
	extraFieldShape?: 'fieldKey';
	/** per endpoint, the shape answers are written in (shapes.ts) */
	shapes?: AnswerShapes;
}

/** The list endpoints and the names the sandbox reads their paging under. */
const PAGED: Record<string, { offset?: string; limit: string; cursor?: string }> = {
	'/v2/tag/list-contacts': { offset: 'offset', limit: 'limit' },
	'/v2/inbox/find-all-chats': { offset: 'offset', limit: 'limit' },
	'/v2/inbox/find-messages-from-inbox': { offset: 'offset', limit: 'limit' },
	'/v2/provider-template/list': { limit: 'limit', cursor: 'after' },
};

/**
 * The query and body as the handlers expect them (our names), after the variant's reading rules;
 * throws 400 for a field the variant API does not know.
 */
export function readRequest(
	variants: Variants,
	path: string,
	params: URLSearchParams,
	body: Record<string, unknown>,
): { params: URLSearchParams; body: Record<string, unknown> } {
	const query = new URLSearchParams(params);
	const fields = { ...body };
	const renamed = variants.renamed?.[path.replace(/^\/v2/, '')] ?? variants.renamed?.[path];
	for (const [ours, theirs] of Object.entries(renamed ?? {})) {
		if (query.has(ours) || Object.prototype.hasOwnProperty.call(fields, ours)) {
			if (!variants.lenient) throw badRequest(`${ours}: unknown field (this API calls it ${theirs})`);
			query.delete(ours);
			delete fields[ours];
		}
		if (query.has(theirs)) {
			query.set(ours, query.get(theirs) as string);
			query.delete(theirs);
		}
		if (Object.prototype.hasOwnProperty.call(fields, theirs)) {
			fields[ours] = fields[theirs];
			delete fields[theirs];
		}
	}
	const paged = PAGED[path];
	if (paged) {
		const names = variants.pagingNames ?? {};
		const take = (ours: string | undefined, theirs: string | undefined): void => {
			if (!ours || !theirs || theirs === ours) return;
			const value = query.get(theirs);
			query.delete(ours);
			query.delete(theirs);
			if (value !== null) query.set(ours, value);
		};
		take(paged.offset, names.offset);
		take(paged.limit, names.limit);
		take(paged.cursor, names.cursor);
		if (variants.offsetIgnored && paged.offset) query.delete(paged.offset);
		if (variants.cursorIgnored && paged.cursor) query.delete(paged.cursor);
		if (variants.pageSizeCap !== undefined) {
			const asked = Number(query.get(paged.limit) ?? variants.pageSizeCap);
			if (Number.isFinite(asked) && asked > variants.pageSizeCap) query.set(paged.limit, String(variants.pageSizeCap));
		}
	}
	return { params: query, body: fields };
}

/** Checks variants given in code or to the control endpoint. */
export function parseVariants(value: unknown): Variants {
	if (value === undefined || value === null) return {};
	if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('variants must be an object');
	const v = value as Variants;
	if (v.pageSizeCap !== undefined && (!Number.isInteger(v.pageSizeCap) || v.pageSizeCap < 1)) {
		throw badRequest('variants.pageSizeCap must be an integer >= 1');
	}
	if (v.extraFieldShape !== undefined && v.extraFieldShape !== 'fieldKey') {
		throw badRequest('variants.extraFieldShape must be "fieldKey"');
	}
	const shapes = parseShapes(v.shapes);
	return shapes === undefined ? { ...v } : { ...v, shapes };
}
