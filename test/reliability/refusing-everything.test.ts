/**
 * Issue 42, Build 4 (row 7): an API that refuses everything ends the run within the node's ceiling,
 * with or without Retry-After; an API at a per-minute limit still completes a bulk run. Through
 * n8n-core's RoutingNode against the sandbox over real HTTP, 400 items of Tag → Remove From Contact.
 *
 * The minute is the node's monotonic clock (clock.ts), moved by the test: 2 s for each refusal
 * the sandbox sends (a refusal event each, as at real time, where the holds last seconds), then a
 * jump, so "a minute with nothing accepted" is arranged, not waited for, and what follows is
 * counted by the sandbox. The exponential backoff is shortened
 * (fast-retry.ts); the 60 s the node waits at most (`maxRetryAfterMs`) is the shipped one. The same
 * runs at real time: scripts/tools/refusing-everything.ts. The runs are a trigger's (not a manual run,
 * whose first item would go as an interactive call with its Timeout counted in the queue).
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());
jest.mock('../../nodes/shared/clock', () => {
	const actual = jest.requireActual('../../nodes/shared/clock');
	return { ...actual, monotonicNow: () => actual.monotonicNow() + mockClock.offset() };
});

import type { INodeExecutionData } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { useSandbox } from '../helpers/node-runner';
import type { RecordedRequest } from '../sandbox';
import { DEMO } from '../sandbox';
import { BIG_TAG_CONTACTS, itemsFor, membersOf, phoneOf, removalsOf, removeBigTag } from './bulk';
import { run } from './helpers';

/** The node's clock's lead over the real monotonic clock (ms), set by the test. */
const mockClock = { offset: (): number => 0 };

const ctx = useSandbox({ seed: { contactsOnBigTag: BIG_TAG_CONTACTS } });
const MINUTE = 60_000;
const ITEMS = 400;
const removals = (): RecordedRequest[] => removalsOf(ctx.sandbox);

/** Every removal refused 429 while `refusing.on`, with this Retry-After (none when undefined). */
function refuseAll(retryAfter?: string): { on: boolean } {
	const refusing = { on: true };
	ctx.sandbox.answerWith = (request) =>
		refusing.on && request.path === '/v2/tag/remove-from-contact' ? { answer: { status: 429, ...(retryAfter !== undefined && { retryAfter }) } } : undefined;
	return refusing;
}

/** Each item failed naming the API's answer (HTTP 429): sent and refused, or not sent since. */
function expectEachNames429(out: INodeExecutionData[]): { sent: number; unsent: number } {
	let sent = 0;
	let unsent = 0;
	for (const item of out) {
		const message = String(item.json.error);
		expect(message).toMatch(/HTTP 429/);
		if (/not sent$/.test(message)) unsent++;
		else sent++;
	}
	return { sent, unsent };
}

/** 2 s of the node's clock per refusal the sandbox sent, up to `upTo` of them; `after` ms more from then on. */
function clockByRefusals(upTo: number, after = 0): void {
	mockClock.offset = () => {
		const refusals = ctx.sandbox.requests.filter((r) => r.status === 429).length;
		return Math.min(refusals, upTo) * 2000 + (refusals >= upTo ? after : 0);
	};
}

beforeEach(() => {
	mockClock.offset = () => 0;
});

describe('the API answers every request 429 (nothing accepted)', () => {
	test.each([
		['without Retry-After', undefined],
		['with Retry-After: 0', '0'],
	])('%s, 400 items (Continue On Fail): a minute after the first refusal the queued items fail unsent, naming the 429; a handful of requests after that minute', async (_label, retryAfter) => {
		refuseAll(retryAfter);
		const phones = membersOf(ctx.sandbox).slice(0, ITEMS);
		// 15 refusals take 30 s of the node's clock; then a minute has passed since the first.
		clockByRefusals(15);
		const running = run(ctx.sandbox, { parameters: removeBigTag, items: itemsFor(phones), continueOnFail: true, mode: 'trigger' });
		await ctx.sandbox.waitForRequests((requests) => requests.filter((r) => r.status === 429).length >= 15, 60_000);
		const beforeTheMinute = removals().length;
		clockByRefusals(15, MINUTE);
		const out = await running;

		expect(out.map((item) => (item.pairedItem as { item: number }).item)).toEqual(phones.map((_, i) => i));
		const { unsent } = expectEachNames429(out);
		// After the minute: what was on the wire (the cap is down to 1 by then, with a hold's probe).
		expect(removals().length - beforeTheMinute).toBeLessThanOrEqual(2);
		expect(unsent).toBeGreaterThanOrEqual(ITEMS - removals().length);
		expect(removals().every((r) => r.status === 429)).toBe(true);
		// Nothing was done: every phone keeps the tag.
		expect(membersOf(ctx.sandbox)).toEqual(expect.arrayContaining(phones));
	}, 120_000);

	test('the unsent items say what the API answered and that nothing was sent', async () => {
		refuseAll();
		const phones = membersOf(ctx.sandbox).slice(0, 40);
		clockByRefusals(15);
		const running = run(ctx.sandbox, { parameters: removeBigTag, items: itemsFor(phones), continueOnFail: true, mode: 'trigger' });
		await ctx.sandbox.waitForRequests((requests) => requests.filter((r) => r.status === 429).length >= 15, 60_000);
		clockByRefusals(15, MINUTE);
		const out = await running;
		const unsent = out.filter((item) => /not sent$/.test(String(item.json.error)));
		expect(unsent.length).toBeGreaterThan(0);
		for (const item of unsent) {
			expect(item.json.error).toBe('The API refused every request for 60 s (HTTP 429) and accepted none: not sent');
			expect(String(item.json.description)).toContain('was not sent, so nothing was done on the platform');
		}
	}, 120_000);
});

describe('an API at a per-minute limit: everything refused for 50 s without Retry-After, then accepted', () => {
	test('400 items (Continue On Fail): all done, each removal received accepted once', async () => {
		const refusing = refuseAll();
		const phones = membersOf(ctx.sandbox).slice(0, ITEMS);
		// 2 s of the node's clock per refusal up to the 20th: 40 s, then 8 s more; with the few real
		// seconds of the run, 50 s or so with nothing accepted (under the minute), and refusals go on.
		clockByRefusals(20);
		const running = run(ctx.sandbox, { parameters: removeBigTag, items: itemsFor(phones), continueOnFail: true, mode: 'trigger' });
		await ctx.sandbox.waitForRequests((requests) => requests.filter((r) => r.status === 429).length >= 20, 60_000);
		clockByRefusals(20, 8_000);
		const refusedBefore = removals().length;
		await ctx.sandbox.waitForRequests(() => removals().length >= refusedBefore + 5, 60_000);
		// The new minute: the API accepts again.
		refusing.on = false;
		const out = await running;

		expect(out).toHaveLength(ITEMS);
		expect(out.filter((item) => item.json.error !== undefined).map((item) => item.json.error)).toEqual([]);
		const accepted = removals().filter((r) => r.status === 200).map(phoneOf).sort();
		expect(accepted).toEqual([...phones].sort());
	}, 120_000);
});

describe('one request refused every time (moved here from faults.test.ts: it ends with the minute)', () => {
	test('Webhook → Create, 429 with Retry-After: 0 on every attempt: sent again (a 429 is no failed attempt) until the API accepted nothing for a minute; then our error (not n8n\'s batching override), nothing created', async () => {
		const { sandbox } = ctx;
		const url = 'https://example.com/hooks/always-429';
		const path = '/v2/integration/webhook/create';
		sandbox.answerWith = (request) => (request.path === path ? { answer: { status: 429, retryAfter: '0' } } : undefined);
		clockByRefusals(5);
		const running = run(sandbox, {
			parameters: { resource: 'webhook', operation: 'create', integrationId: DEMO.integrations.whatsapp.id, url, type: 'MESSAGE_RECEIVED', method: 'POST' },
			mode: 'trigger',
		}).then(
			() => undefined,
			(error: unknown) => error as Error & { httpCode?: string; description?: string },
		);
		await sandbox.waitForRequests((requests) => requests.filter((r) => r.status === 429).length >= 5, 60_000);
		clockByRefusals(5, MINUTE);
		const error = await running;
		expect(error).toBeInstanceOf(NodeApiError);
		expect(error?.message).toBe('The API is receiving too many requests (HTTP 429): the scripted answer of the API');
		expect(error?.httpCode).toBe('429');
		expect(String(error?.description)).toContain("The API has accepted none of this credential's requests for 60 s or more (the longest the node waits), so it was not sent again.");
		const sent = sandbox.requests.filter((r) => r.path === path);
		// More than the 3 attempts of a failed send: a 429 is none.
		expect(sent.length).toBeGreaterThanOrEqual(5);
		expect(sent.every((r) => r.status === 429)).toBe(true);
		expect([...sandbox.state.webhooks.values()].filter((webhook) => webhook.url === url)).toHaveLength(0);
	}, 120_000);
});
