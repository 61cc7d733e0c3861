/**
 * The bench's reference client: the same Return All walks as the node, written as bare `fetch` +
 * JSON in a separate Node process (the Node n8n runs on), nothing else. What it takes is what the
 * API and the network allow any client; the node's overhead is what n8n and the node add to it.
 *
 *   node scripts/bench-bare-client.mjs <tag|templates|chats> <baseUrl> <token> <runs> <json params>
 *
 * params: tag {tagId, concurrency}, templates {integrationId}, chats {category}.
 * Prints one JSON line: {runs: [ms...], pages, items} (one warm-up run first, not counted).
 */
const [kind, baseUrl, token, runsText, paramsText] = process.argv.slice(2);
const params = JSON.parse(paramsText ?? '{}');
const headers = { authorization: `Bearer ${token}` };

async function get(path, query) {
	const res = await fetch(`${baseUrl}${path}?${new URLSearchParams(query)}`, { headers });
	if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
	return await res.json();
}

const walks = {
	/** first page, then the rest from the total, `concurrency` at a time, kept in API order */
	async tag() {
		const page = (offset) => get('/tag/list-contacts', { tagId: params.tagId, offset: String(offset), limit: '100' });
		const first = await page(0);
		const total = first.data.total;
		const offsets = [];
		for (let offset = 100; offset < total; offset += 100) offsets.push(offset);
		const bodies = new Array(offsets.length);
		let next = 0;
		const worker = async () => {
			while (next < offsets.length) {
				const i = next++;
				bodies[i] = await page(offsets[i]);
			}
		};
		await Promise.all(Array.from({ length: Math.min(params.concurrency, offsets.length) }, worker));
		const items = [...first.data.contacts];
		for (const body of bodies) items.push(...body.data.contacts);
		return { pages: 1 + offsets.length, items: items.length };
	},
	/** cursor pages, one after the other */
	async templates() {
		let after;
		let pages = 0;
		let items = 0;
		for (;;) {
			const query = { integrationId: params.integrationId, limit: '250' };
			if (after) query.after = after;
			const body = await get('/provider-template/list', query);
			pages++;
			items += body.response.templates.length;
			if (body.response.paging.hasNext !== true) return { pages, items };
			after = body.response.paging.after;
		}
	},
	/** offset pages without a total, until a short page */
	async chats() {
		let offset = 0;
		let pages = 0;
		for (;;) {
			const body = await get('/inbox/find-all-chats', { category: params.category, offset: String(offset), limit: '1000' });
			pages++;
			offset += body.response.chats.length;
			if (body.response.chats.length < 1000) return { pages, items: offset };
		}
	},
};

const walk = walks[kind];
if (!walk) throw new Error(`unknown case ${kind}`);
await walk(); // warm-up: connections, JIT
const runs = [];
let last;
for (let i = 0; i < Number(runsText); i++) {
	const started = performance.now();
	last = await walk();
	runs.push(Math.round((performance.now() - started) * 10) / 10);
}
console.log(JSON.stringify({ runs, ...last }));
