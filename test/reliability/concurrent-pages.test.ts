/**
 * Tag contacts fetched concurrently (Options → Concurrent Page Requests) under faults: a 429 on one
 * page holds back the others (one retry gate per item), a 5xx on a GET page is retried, a page that
 * keeps failing fails the item with that page's error — no partial output, no unhandled rejection,
 * nothing sent after the failure but what was already on the wire (that no rejection goes unhandled
 * is checked on the pool itself, in a child process: test/node/pool.test.ts). Through n8n-core's real
 * RoutingNode over real HTTP. What must be on the wire at the same time is arranged with the
 * sandbox's holds, and "sent after" is read from its sequence numbers (arrival vs answer), never from
 * clock readings: the outcome does not depend on how busy the machine is. Only the exponential
 * backoff is shortened (fast-retry.ts); Retry-After is real.
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { useSandbox } from '../helpers/node-runner';
import type { RecordedRequest } from '../sandbox';
import { DEMO } from '../sandbox';
import { itemIndexOf, run, runError } from './helpers';

/** requests that arrived after `answered`'s answer was written (sandbox sequence, not clock) */
const arrivedAfter = (requests: RecordedRequest[], answered: RecordedRequest): RecordedRequest[] =>
	requests.filter((r) => r.seq > answered.answeredSeq!);

const CONTACTS = 1050;
const LATENCY_MS = 20;
const ctx = useSandbox({ latencyMs: LATENCY_MS, seed: { contactsOnBigTag: CONTACTS } });

const BIG = DEMO.tags.big.id;
const PATH = '/tag/list-contacts';
const allContacts = (concurrency: number, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'tag',
	operation: 'getContacts',
	tagId: BIG,
	returnAll: true,
	options: { concurrentPageRequests: concurrency },
	...extra,
});
const members = (tagId = BIG): string[] => ctx.sandbox.state.tagMembers(tagId).map((member) => member.phoneNumber);
const phones = (out: INodeExecutionData[]): string[] => out.map((item) => String(item.json.phoneNumber));
const pageCalls = (): RecordedRequest[] => ctx.sandbox.requests.filter((r) => r.path === `/v2${PATH}`);
/** offset → statuses answered, in arrival order */
function statusesByOffset(): Record<string, number[]> {
	const byOffset: Record<string, number[]> = {};
	for (const r of pageCalls()) (byOffset[r.query.offset] ??= []).push(r.status);
	return byOffset;
}
const everyPageOnce = (except: Record<string, number[]> = {}): Record<string, number[]> => {
	const expected: Record<string, number[]> = {};
	for (let offset = 0; offset < CONTACTS; offset += 100) expected[String(offset)] = except[String(offset)] ?? [200];
	return expected;
};

describe('429 on a middle page: retried after Retry-After, the other pages wait too', () => {
	// The first two pages go one after the other (the second proves the API honours the offset),
	// so the first concurrent wave is pages 200-500.
	test('concurrency 4: page 300 gets 429 while 3 pages are on the wire; retried, nothing lost or doubled', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: PATH, query: { offset: '300' }, kind: 'status', status: 429, retryAfterSeconds: 1 });
		// The first concurrent wave (pages 200-500) is held until all four are on the wire; then the
		// 429 is answered, and only after it the other three: their workers want the next pages
		// only after the 429, whatever the machine's speed.
		const page300 = sandbox.hold({ path: PATH, query: { offset: '300' } });
		const others = sandbox.hold({ path: PATH, skip: 2 });
		const running = run(sandbox, { parameters: allContacts(4) });
		await Promise.all([page300.waitFor(1), others.waitFor(3)]);
		page300.release();
		const [limited] = page300.held;
		await sandbox.waitForRequests(() => limited.answeredSeq !== undefined);
		others.release();
		const out = await running;

		expect(phones(out)).toEqual(members());
		expect(statusesByOffset()).toEqual(everyPageOnce({ '300': [429, 200] }));
		expect(limited.status).toBe(429);
		// The requests that arrived after the 429 was answered (sandbox sequence numbers) are exactly
		// the retry of page 300 and the pages 600-1000 ...
		const later = arrivedAfter(pageCalls(), limited);
		expect(later.map((r) => r.query.offset).sort()).toEqual(['300', '1000', '600', '700', '800', '900'].sort());
		// ... and none of them came before Retry-After (1 s) was over: the other pages waited too.
		// A lower bound only: a busy machine can make it longer, never shorter.
		for (const r of later) expect(r.at - limited.answeredAt!).toBeGreaterThanOrEqual(950);
		expect(sandbox.maxInFlight).toBeLessThanOrEqual(4);
	});

	test('a 429 on each page of the first concurrent wave: each retried once, the list is complete and in order', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: PATH, kind: 'status', status: 429, retryAfterSeconds: 0, skip: 2, times: 4 });
		// The wave is held until all four pages arrived, so the four 429s go to them, not to a retry.
		const wave = sandbox.hold({ path: PATH, skip: 2 });
		const running = run(sandbox, { parameters: allContacts(4) });
		await wave.waitFor(4);
		wave.release();
		const out = await running;
		expect(phones(out)).toEqual(members());
		const statuses = statusesByOffset();
		expect(Object.values(statuses).flat().filter((s) => s === 429)).toHaveLength(4);
		for (const list of Object.values(statuses)) expect(list.filter((s) => s === 200)).toHaveLength(1);
		expect(Object.keys(statuses)).toHaveLength(11);
	});

	test('concurrency 1 (the old sequential walk): 429 on page 2, the same offset sent again, then on', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: PATH, kind: 'status', status: 429, retryAfterSeconds: 0, skip: 1 });
		const out = await run(sandbox, { parameters: allContacts(1) });
		expect(phones(out)).toEqual(members());
		expect(pageCalls().map((r) => `${r.query.offset}:${r.status}`)).toEqual([
			'0:200',
			'100:429',
			'100:200',
			...Array.from({ length: 9 }, (_, i) => `${(i + 2) * 100}:200`),
		]);
	});
});

describe('5xx on a middle page', () => {
	test('a 500 once on page 300 (a GET): retried, the list is complete and in order', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: PATH, query: { offset: '300' }, kind: 'status', status: 500 });
		const out = await run(sandbox, { parameters: allContacts(4) });
		expect(phones(out)).toEqual(members());
		expect(statusesByOffset()).toEqual(everyPageOnce({ '300': [500, 200] }));
	});

	test('a 500 every time on page 200: the item fails with that page\'s error after 3 sends; nothing is sent after it, nothing left running', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: PATH, query: { offset: '200' }, kind: 'status', status: 500, times: Infinity });
		// The other worker's page (300) is held until page 200 has failed for the third time, so
		// pages are still left when it fails.
		const page300 = sandbox.hold({ path: PATH, query: { offset: '300' } });
		const failing = runError(sandbox, { parameters: allContacts(2) });
		const lastFailure = (): RecordedRequest | undefined =>
			pageCalls().filter((r) => r.query.offset === '200' && r.answeredSeq !== undefined)[2];
		await sandbox.waitForRequests(() => lastFailure() !== undefined);
		page300.release();
		const error = await failing;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error.message).toBe('The API failed to process the request (HTTP 500): Erro ao enviar mensagem');
		expect(String(error.description)).toContain('Gave up after 3 attempts.');
		expect(itemIndexOf(error)).toBe(0);
		expect(statusesByOffset()['200']).toEqual([500, 500, 500]);

		// Nothing on the wire when the node reports the failure, and nothing sent afterwards.
		expect(sandbox.inFlight).toBe(0);
		// Page 300 was on the wire (held) when page 200 failed; nothing arrived after the third 500.
		expect(page300.held).toHaveLength(1);
		expect(arrivedAfter(pageCalls(), lastFailure()!)).toEqual([]);
		// Pages 0 and 100, page 200 three times, page 300 once.
		expect(sandbox.requests).toHaveLength(6);
		// A request of our own, sent once the node has reported the failure: when the sandbox has
		// answered it, what the node sent before it has arrived. Still the same six page requests.
		const marker = await fetch(`${sandbox.baseUrl}/user/list`, { headers: { Authorization: `Bearer ${sandbox.token}` } });
		expect(marker.status).toBe(200);
		expect(sandbox.requests.map((r) => r.path)).toEqual([...Array<string>(6).fill(`/v2${PATH}`), '/v2/user/list']);
	});

	test('the same under continueOnFail: one error item for that input item, paired; the next item is complete', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: PATH, query: { offset: '500' }, kind: 'status', status: 503, times: Infinity });
		const out = await run(sandbox, {
			continueOnFail: true,
			items: [{ tag: BIG }, { tag: DEMO.tags.vip.id }],
			parameters: allContacts(4, { tagId: '={{ $json.tag }}' }),
		});
		const vip = members(DEMO.tags.vip.id);
		expect(out).toHaveLength(1 + vip.length);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out[0].error).toBeInstanceOf(NodeApiError);
		expect(out[0].json).toEqual({
			error: 'The API failed to process the request (HTTP 503): Erro ao enviar mensagem',
			description: expect.stringContaining('Gave up after 3 attempts.'),
			httpCode: '503',
		});
		expect(phones(out.slice(1))).toEqual(vip);
		expect(out.slice(1).every((item) => (item.pairedItem as { item: number }).item === 1)).toBe(true);
	});

	test('two pages failing at once: the item fails once, with the 404; the 500 page is not retried after it', async () => {
		const { sandbox } = ctx;
		sandbox.addFault({ path: PATH, query: { offset: '200' }, kind: 'status', status: 404, message: 'no such page' });
		sandbox.addFault({ path: PATH, query: { offset: '300' }, kind: 'status', status: 500, times: Infinity });
		// Page 300 is held until page 200's 404 has been answered: its 500 comes second.
		const page300 = sandbox.hold({ path: PATH, query: { offset: '300' } });
		const failing = runError(sandbox, { parameters: allContacts(4) });
		await sandbox.waitForRequests((requests) => requests.some((r) => r.query.offset === '200' && r.answeredSeq !== undefined));
		page300.release();
		const error = await failing;
		expect(error.message).toContain('HTTP 404');
		expect(error.message).toContain('no such page');
		// Page 300's retry was waiting (backoff) or not yet decided when page 200 failed: not sent.
		expect(statusesByOffset()['300']).toEqual([500]);
	});
});
