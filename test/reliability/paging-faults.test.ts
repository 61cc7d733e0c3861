/**
 * Faults of the API during Return All on an API that pages differently from the node's assumptions
 * (the variant sandbox's paging switches, test/sandbox/variants.ts): an offset or a cursor the API
 * ignores while it answers 429s, pages capped below the size asked, one number listed twice, under
 * 429 storms, 5xx and timeouts. Each case: nothing lost, nothing doubled, nothing endless — the
 * output is compared with the sandbox's state, and every request count is read from the sandbox's
 * log and asserted exactly (the figures are in docs/reliability.md). Through n8n-core's real
 * RoutingNode over real HTTP; only the exponential backoff is shortened (fast-retry.ts).
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../helpers/node-runner';
import type { Fault, RecordedRequest, Sandbox, Variants } from '../sandbox';
import { DEMO } from '../sandbox';
import { run, runError } from './helpers';

const CONTACTS = 450;
const ctx = useSandbox({ seed: { contactsOnBigTag: CONTACTS } });

const OFFICIAL = DEMO.integrations.official.id;
const TIMEOUT_MS = 2000;

type Walk = 'contacts' | 'chats' | 'messages' | 'templates';
const WALKS: Record<Walk, { path: string; parameters: INodeParameters; expected: (sandbox: Sandbox) => string[]; key: string }> = {
	contacts: {
		path: '/v2/tag/list-contacts',
		parameters: { resource: 'tag', operation: 'getContacts', tagId: DEMO.tags.big.id, returnAll: true },
		expected: (sandbox) => sandbox.state.tagMembers(DEMO.tags.big.id).map((member) => member.phoneNumber),
		key: 'phoneNumber',
	},
	chats: {
		path: '/v2/inbox/find-all-chats',
		parameters: { resource: 'chat', operation: 'getAll', returnAll: true },
		expected: (sandbox) => sandbox.state.chatsIn('attendance').map((chat) => chat.id),
		key: 'id',
	},
	messages: {
		path: '/v2/inbox/find-messages-from-inbox',
		parameters: { resource: 'message', operation: 'getAll', chatInternalId: DEMO.chats.alice.id, returnAll: true },
		expected: (sandbox) => [...sandbox.state.chats.get(DEMO.chats.alice.id)!.messages].reverse().map((message) => message.id),
		key: 'id',
	},
	templates: {
		path: '/v2/provider-template/list',
		parameters: { resource: 'template', operation: 'getAll', integrationId: OFFICIAL, returnAll: true },
		expected: (sandbox) => sandbox.state.templates.get(OFFICIAL)!.list.map((template) => template.id),
		key: 'id',
	},
};

/** A 429 storm on a walk: every other request refused (Retry-After 0), each retry answered. */
const storm = (walk: Walk): Fault => ({ path: WALKS[walk].path, kind: 'status', status: 429, retryAfterSeconds: 0, every: 2, times: Infinity });

const pageCalls = (walk: Walk): RecordedRequest[] => ctx.sandbox.requests.filter((r) => r.path === WALKS[walk].path);
const statuses = (walk: Walk): number[] => pageCalls(walk).map((r) => r.status);
const count = (walk: Walk, status: number): number => statuses(walk).filter((s) => s === status).length;
const values = (walk: Walk, out: INodeExecutionData[]): string[] => out.map((item) => String(item.json[WALKS[walk].key]));

/** Runs a walk under the variant and faults; the output must be the sandbox's list, once each. */
async function complete(walk: Walk, variants: Variants, faults: Fault[], extra: INodeParameters = {}, timeoutMs?: number): Promise<string[]> {
	ctx.sandbox.setVariants(variants);
	faults.forEach((fault) => ctx.sandbox.addFault(fault));
	const out = await run(ctx.sandbox, { parameters: { ...WALKS[walk].parameters, ...extra }, timeoutMs });
	const got = values(walk, out);
	expect(got).toEqual(WALKS[walk].expected(ctx.sandbox));
	expect(new Set(got).size).toBe(got.length);
	expect(ctx.sandbox.inFlight).toBe(0);
	return got;
}

/** Runs a walk that must stop with an error naming the paging parameter the API ignores. */
async function refused(walk: Walk, variants: Variants, faults: Fault[], parameter: string, option: RegExp): Promise<void> {
	ctx.sandbox.setVariants(variants);
	faults.forEach((fault) => ctx.sandbox.addFault(fault));
	const error = await runError(ctx.sandbox, { parameters: WALKS[walk].parameters });
	const text = `${error.message}\n${String(error.description)}`;
	expect(text).toContain(`ignore the query parameter "${parameter}"`);
	expect(text).toMatch(option);
	expect(ctx.sandbox.inFlight).toBe(0);
}

describe('an API that ignores the offset, during a 429 storm: a clear error after the second page, not a doubled or endless list', () => {
	test.each<[Walk, number]>([
		['contacts', 100],
		['chats', 10],
		['messages', 2],
	])('%s (pages capped at %i): 2 pages, each refused once and retried once → 4 requests, then the error', async (walk, cap) => {
		await refused(walk, { offsetIgnored: true, pageSizeCap: cap }, [storm(walk)], 'offset', /Options → Offset Parameter Name/);
		expect(statuses(walk)).toEqual([429, 200, 429, 200]);
		// The retry of a refused page asks for the same page again (the storm did not shift the walk).
		const calls = pageCalls(walk);
		expect([calls[1].query.offset, calls[3].query.offset]).toEqual([calls[0].query.offset, calls[2].query.offset]);
	});

	test('contacts: and 5xx on the second page (retried) before the repeat is seen: the same error, 4 requests', async () => {
		await refused('contacts', { offsetIgnored: true, pageSizeCap: 100 }, [
			{ path: WALKS.contacts.path, kind: 'status', status: 429, retryAfterSeconds: 0 },
			{ path: WALKS.contacts.path, kind: 'status', status: 503, query: { offset: '100' } },
		], 'offset', /Options → Offset Parameter Name/);
		expect(statuses('contacts')).toEqual([429, 200, 503, 200]);
	});
});

describe('an API that repeats a cursor, during a 429 storm: a clear error, not a loop', () => {
	test('templates (cursor ignored, pages of 25): 2 pages, each refused once → 4 requests, then the error', async () => {
		await refused('templates', { cursorIgnored: true, pageSizeCap: 25 }, [storm('templates')], 'after', /Options → Cursor Parameter Name/);
		expect(statuses('templates')).toEqual([429, 200, 429, 200]);
		const calls = pageCalls('templates');
		// The retried second page sends the same (repeated) cursor again; then the walk stops.
		expect(calls[2].query.after).toBeDefined();
		expect(calls[3].query.after).toBe(calls[2].query.after);
	});

	test('templates: the repeated cursor answered by a 500 first (a GET, retried): the same error, 4 requests', async () => {
		await refused('templates', { cursorIgnored: true, pageSizeCap: 25 }, [
			{ path: WALKS.templates.path, kind: 'status', status: 500, skip: 1 },
		], 'after', /Options → Cursor Parameter Name/);
		expect(statuses('templates')).toEqual([200, 500, 200]);
	});
});

describe('pages capped below the size asked (pageSizeCap), under 429s, 5xx and timeouts: every element once', () => {
	test('contacts capped at 30, a 429 storm: all 450, each once; every request refused once and retried once', async () => {
		await complete('contacts', { pageSizeCap: 30 }, [storm('contacts')], { options: { concurrentPageRequests: 1 } });
		const ok = count('contacts', 200);
		expect(count('contacts', 429)).toBe(ok);
		expect(ok).toBe(CONTACTS / 30);
	});

	test('contacts capped at 30 (concurrency 4 asked), a 429 and a 503 on two pages: all 450, each once; 15 pages + 2 retries', async () => {
		await complete('contacts', { pageSizeCap: 30 }, [
			{ path: WALKS.contacts.path, kind: 'status', status: 429, retryAfterSeconds: 0, query: { offset: '60' } },
			{ path: WALKS.contacts.path, kind: 'status', status: 503, query: { offset: '300' } },
		]);
		// Every page of 30 answered once; the two faulted pages sent once more (order: the pool's).
		const byOffset: Record<string, number[]> = {};
		for (const r of pageCalls('contacts')) (byOffset[r.query.offset] ??= []).push(r.status);
		const expected: Record<string, number[]> = {};
		for (let offset = 0; offset < CONTACTS; offset += 30) expected[String(offset)] = [200];
		expect(byOffset).toEqual({ ...expected, '60': [429, 200], '300': [503, 200] });
		expect(ctx.sandbox.maxInFlight).toBeLessThanOrEqual(4);
	});

	test('contacts capped at 30: one page gets no answer in time (held by the sandbox), retried: all 450, each once', async () => {
		const hold = ctx.sandbox.hold({ path: WALKS.contacts.path, query: { offset: '30', limit: '100' } });
		const running = complete('contacts', { pageSizeCap: 30 }, [], { options: { concurrentPageRequests: 1 } }, TIMEOUT_MS);
		await hold.waitFor(2);
		hold.release();
		await running;
		// Offset 30 sent twice (timed out, then retried), every other page once: 15 pages + 1 retry.
		expect(hold.held.map((r) => r.query.offset)).toEqual(['30', '30']);
		expect(pageCalls('contacts').map((r) => r.query.offset)).toEqual(['0', '30', ...Array.from({ length: 14 }, (_, i) => String((i + 1) * 30))]);
	});

	test.each<[Walk, number]>([
		['chats', 7],
		['messages', 2],
		['templates', 25],
	])('%s capped at %i, a 429 storm: the whole list, each once; every request refused once and retried once', async (walk, cap) => {
		// One page after the other (concurrent pages would share the storm's refusals unevenly).
		const got = await complete(walk, { pageSizeCap: cap }, [storm(walk)], walk === 'templates' ? {} : { options: { concurrentPageRequests: 1 } });
		const ok = count(walk, 200);
		expect(count(walk, 429)).toBe(ok);
		expect(ok).toBe(Math.ceil(got.length / cap) + (got.length % cap === 0 ? 1 : 0));
	});
});

describe('chats and messages fetched ahead (offset, no total), pages capped below the size asked', () => {
	// 12 chats in pages of 2, 5 messages in pages of 1: the faulted pages come after the first two,
	// which go one after the other.
	test.each<[Walk, number]>([
		['chats', 2],
		['messages', 1],
	])('%s capped at %i (concurrency 4), a 429 and a 503 on two pages: the whole list, each once, in order; each faulted page sent twice', async (walk, cap) => {
		const faulted = [String(2 * cap), String(3 * cap)];
		const got = await complete(walk, { pageSizeCap: cap }, [
			{ path: WALKS[walk].path, query: { offset: faulted[0] }, kind: 'status', status: 429, retryAfterSeconds: 0 },
			{ path: WALKS[walk].path, query: { offset: faulted[1] }, kind: 'status', status: 503 },
		]);
		const byOffset: Record<string, number[]> = {};
		for (const r of pageCalls(walk)) (byOffset[r.query.offset] ??= []).push(r.status);
		expect(byOffset[faulted[0]]).toEqual([429, 200]);
		expect(byOffset[faulted[1]]).toEqual([503, 200]);
		// Every page of the list once (its last, short or empty, page included), and at most 3
		// (concurrency - 1) requested past the end.
		const pages = Math.floor(got.length / cap) + 1;
		const offsets = Object.keys(byOffset).map(Number).sort((a, b) => a - b);
		expect(offsets.slice(0, pages)).toEqual(Array.from({ length: pages }, (_, i) => i * cap));
		expect(offsets.length - pages).toBeLessThanOrEqual(3);
		expect(Object.entries(byOffset).filter(([offset]) => !faulted.includes(offset)).every(([, list]) => list.length === 1)).toBe(true);
	});
});

describe('one number listed twice (sharedPhones), under a 429 and a 5xx: the API\'s list as it is, no entry lost or added', () => {
	test('lead tag: the number on two lines twice, the two LID-only contacts, after a 429 and a 500 → 3 requests', async () => {
		ctx.sandbox.setVariants({ sharedPhones: true });
		ctx.sandbox.addFault({ path: WALKS.contacts.path, kind: 'status', status: 429, retryAfterSeconds: 0 });
		ctx.sandbox.addFault({ path: WALKS.contacts.path, kind: 'status', status: 500 });
		const out = await run(ctx.sandbox, { parameters: { resource: 'tag', operation: 'getContacts', tagId: DEMO.tags.lead.id, returnAll: true } });
		const phones = out.map((item) => item.json.phoneNumber);
		expect(phones.filter((phone) => phone === DEMO.contacts.twoLines.phoneNumber)).toHaveLength(2);
		expect(phones.filter((phone) => phone === '')).toHaveLength(2);
		expect(out).toHaveLength(ctx.sandbox.state.tagMembers(DEMO.tags.lead.id).length + 3);
		expect(statuses('contacts')).toEqual([429, 500, 200]);
	});
});
