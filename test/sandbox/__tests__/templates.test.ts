import { DEMO, TEMPLATE_STATUSES } from '../index';
import { type ApiClient, type Json, expectError, useSandbox } from './helpers';

const { api, sandbox } = useSandbox();
const official = DEMO.integrations.official.id;

/** Follows paging.after while hasNext; returns the pages' templates. */
async function walk(client: ApiClient, query: Record<string, string | number>): Promise<Json[][]> {
	const pages: Json[][] = [];
	let after: string | undefined;
	for (;;) {
		const r = await client.get('/provider-template/list', { integrationId: official, ...query, ...(after ? { after } : {}) });
		expect(r.status).toBe(200);
		pages.push(r.body.response.templates);
		if (!r.body.response.paging.hasNext) return pages;
		after = r.body.response.paging.after;
		expect(typeof after).toBe('string');
		if (pages.length > 1000) throw new Error('pagination does not end');
	}
}
const idsOf = (pages: Json[][]) => pages.flat().map((t) => t.id);

describe('GET /provider-template/list', () => {
	it('answers 25 templates by default with an opaque cursor, wrapped in response', async () => {
		const r = await api().get('/provider-template/list', { integrationId: official });
		expect(r.status).toBe(200);
		const { templates, paging } = r.body.response;
		expect(templates).toHaveLength(25);
		expect(paging).toEqual({ after: expect.any(String), hasNext: true });
		expect(paging.after).not.toContain(templates[24].id);
		expect(templates[0]).toEqual({
			id: expect.any(String),
			name: expect.any(String),
			language: expect.any(String),
			status: expect.any(String),
			category: expect.any(String),
			sub_category: expect.any(String),
			parameter_format: expect.stringMatching(/^(NAMED|POSITIONAL)$/),
			components: expect.any(Array),
			quality_score: { score: expect.any(String) },
		});
	});

	it('visits every template exactly once with the default page size (short last page)', async () => {
		const pages = await walk(api(), {});
		expect(pages.map((p) => p.length)).toEqual([25, 25, 10]);
		const ids = idsOf(pages);
		expect(new Set(ids).size).toBe(DEMO.defaults.templates);
	});

	it('visits every template exactly once with page size 250', async () => {
		sandbox().reset({ templates: 2000 });
		const pages = await walk(api(), { limit: 250 });
		expect(pages).toHaveLength(8);
		expect(pages.every((p) => p.length === 250)).toBe(true);
		expect(new Set(idsOf(pages)).size).toBe(2000);
	});

	it('keeps the status filter across pages', async () => {
		sandbox().reset({ templates: 700 });
		const expected = sandbox().state.templates.get(official)?.list.filter((t) => t.status === 'PAUSED').map((t) => t.id);
		const pages = await walk(api(), { status: 'PAUSED', limit: 30 });
		expect(pages.length).toBeGreaterThan(1);
		expect(idsOf(pages)).toEqual(expected);
		expect(pages.flat().every((t) => t.status === 'PAUSED')).toBe(true);
	});

	it('searches name or component text, case-insensitively, and combines with status', async () => {
		const list = sandbox().state.templates.get(official)?.list ?? [];
		const byText = idsOf(await walk(api(), { search: DEMO.templates.searchWord.toUpperCase(), limit: 3 }));
		expect(byText).toEqual(list.filter((t) => t.name.startsWith('shipping_notice')).map((t) => t.id));
		expect(byText.length).toBeGreaterThan(3);
		const byName = idsOf(await walk(api(), { search: 'Welcome_00' }));
		expect(byName).toEqual(list.filter((t) => t.name.startsWith('welcome_00')).map((t) => t.id));
		const both = idsOf(await walk(api(), { search: 'welcome', status: 'APPROVED' }));
		expect(both).toEqual(list.filter((t) => t.name.startsWith('welcome') && t.status === 'APPROVED').map((t) => t.id));
		const none = await api().get('/provider-template/list', { integrationId: official, search: 'no such words' });
		expect(none.body.response).toEqual({ templates: [], paging: { after: '', hasNext: false } });
	});

	it('seeds every status and every component kind', async () => {
		const all = (await walk(api(), { limit: 250 })).flat();
		expect(new Set(all.map((t) => t.status))).toEqual(new Set(TEMPLATE_STATUSES));
		const components = all.flatMap((t) => t.components);
		expect(new Set(components.map((c: Json) => c.type))).toEqual(new Set(['HEADER', 'BODY', 'FOOTER', 'BUTTONS']));
		expect(new Set(components.filter((c: Json) => c.type === 'HEADER').map((c: Json) => c.format))).toEqual(new Set(['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION']));
		expect(new Set(components.flatMap((c: Json) => c.buttons ?? []).map((b: Json) => b.type))).toEqual(new Set(['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP']));
		expect(all.some((t) => t.category === 'AUTHENTICATION')).toBe(true);
	});

	it.each([
		['integrationId is required', {}],
		['integrationId must be an id', { integrationId: 'official' }],
		['limit must be an integer between 1 and 250', { integrationId: official, limit: '0' }],
		['limit must be an integer between 1 and 250', { integrationId: official, limit: '251' }],
		['limit must be an integer between 1 and 250 (a string of digits)', { integrationId: official, limit: 'ten' }],
		['status must be one of APPROVED, PENDING, REJECTED, DISABLED, PAUSED, IN_APPEAL, PENDING_DELETION', { integrationId: official, status: 'approved' }],
		['search must be at most 255 characters', { integrationId: official, search: 's'.repeat(256) }],
		['after must be a cursor taken from paging.after', { integrationId: official, after: 'garbage' }],
		['is not an official-channel integration', { integrationId: DEMO.integrations.whatsapp.id }],
	])('400: %s', async (message, query) => {
		expectError(await api().get('/provider-template/list', query), 400, message);
	});

	it('accepts the page-size bounds 1 and 250, and search of exactly 255 characters', async () => {
		expect((await api().get('/provider-template/list', { integrationId: official, limit: '1' })).body.response.templates).toHaveLength(1);
		expect((await api().get('/provider-template/list', { integrationId: official, limit: '250' })).body.response.templates).toHaveLength(60);
		expect((await api().get('/provider-template/list', { integrationId: official, search: 's'.repeat(255) })).status).toBe(200);
	});

	it('404 for an unknown integration', async () => {
		expectError(await api().get('/provider-template/list', { integrationId: 'c'.repeat(25) }), 404, 'integrationId');
	});
});
