/**
 * The bench's reference client: the same Return All walks as the node, written as bare `fetch` +
 * JSON in a separate Node process (the Node n8n runs on), nothing else. What it takes is what the
 * API and the network allow any client; the node's overhead is what n8n and the node add to it.
 *
 *   node scripts/bench/bare-client.mjs <tag|chats|messages|templates> <baseUrl> <token> <runs> <json params>
 *
 * params: {pageSize, concurrency} and tag {tagId}, chats {category}, messages {chatInternalId},
 * templates {integrationId} (a cursor list: always one page after the other).
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

/** Runs task(1), task(2), … `concurrency` at a time (a worker takes the next as soon as it is free), none from stop() on. */
async function pool(concurrency, stop, task) {
	let next = 1;
	const worker = async () => {
		while (next < stop()) await task(next++);
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Offset page i (pages of params.pageSize): its list of elements. */
const offsetPage = (path, query, listOf) => async (i) =>
	listOf(await get(path, { ...query, offset: String(i * params.pageSize), limit: String(params.pageSize) }));

/**
 * Offset pages without a total, until the first short (or empty) page: the first page alone, then
 * speculative pages `concurrency` at a time, none started past the first short page; kept in API
 * order. 1 = one after the other.
 */
async function untilShort(page) {
	const pages = [await page(0)];
	let requests = 1;
	let end = pages[0].length < params.pageSize ? 0 : Infinity;
	await pool(params.concurrency, () => end, async (i) => {
		pages[i] = await page(i);
		requests++;
		if (pages[i].length < params.pageSize) end = Math.min(end, i);
	});
	return { pages: requests, items: pages.slice(0, end + 1).reduce((n, p) => n + p.length, 0) };
}

const walks = {
	/** first page (with the total), then the rest `concurrency` at a time, kept in API order */
	async tag() {
		const query = { tagId: params.tagId };
		const first = await get('/tag/list-contacts', { ...query, offset: '0', limit: String(params.pageSize) });
		const count = Math.ceil(first.data.total / params.pageSize);
		const pages = [first.data.contacts];
		const page = offsetPage('/tag/list-contacts', query, (body) => body.data.contacts);
		await pool(params.concurrency, () => count, async (i) => {
			pages[i] = await page(i);
		});
		return { pages: Math.max(count, 1), items: pages.reduce((n, p) => n + p.length, 0) };
	},
	/** cursor pages, one after the other (each needs the one before) */
	async templates() {
		let after;
		let pages = 0;
		let items = 0;
		for (;;) {
			const query = { integrationId: params.integrationId, limit: String(params.pageSize) };
			if (after) query.after = after;
			const body = await get('/provider-template/list', query);
			pages++;
			items += body.response.templates.length;
			if (body.response.paging.hasNext !== true) return { pages, items };
			after = body.response.paging.after;
		}
	},
	chats: () => untilShort(offsetPage('/inbox/find-all-chats', { category: params.category }, (body) => body.response.chats)),
	messages: () => untilShort(offsetPage('/inbox/find-messages-from-inbox', { chatInternalId: params.chatInternalId }, (body) => body.response.messages)),
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
