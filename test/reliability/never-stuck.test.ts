/**
 * Issue 29, "Never stuck" (DESIGN.md "The API's pace", its last bullet): the rows of the issue's
 * table, through n8n-core's real RoutingNode against the sandbox over real HTTP. What is asserted
 * is counted by the sandbox (requests, their order and answers) or is the node's output; the order
 * of events is arranged with the sandbox's holds and faults, never read from the clock. Only the
 * exponential backoff is shortened (fast-retry.ts); Retry-After is real.
 */
jest.mock('../../nodes/shared/retry', () => jest.requireActual('./fast-retry').fastRetryModule());

import { loadOptionsContext, node as actionNode } from '../editor/helpers';
import { useSandbox } from '../helpers/node-runner';
import { DEMO } from '../sandbox';
import { BIG_TAG_CONTACTS, REMOVAL_PATH, itemsFor, membersOf, paceOfSandbox as pace, phoneOf, reached, removalsOf, removeBigTag } from './bulk';
import { run, runError } from './helpers';

const ctx = useSandbox({ seed: { contactsOnBigTag: BIG_TAG_CONTACTS } });

const members = (): string[] => membersOf(ctx.sandbox);
const removals = () => removalsOf(ctx.sandbox);

describe('a Retry-After longer than the node waits (60 s)', () => {
	test('Retry-After: 86400 on every answer, 40 items: each item failed at once, naming the wait and the clock time to try again; the quota seen spent, at most 11 sent (spent-quota.test.ts)', async () => {
		const { sandbox } = ctx;
		const phones = members().slice(0, 40);
		sandbox.addFault({ path: '/tag/remove-from-contact', kind: 'status', status: 429, retryAfterSeconds: 86400, times: Infinity });
		const out = await run(sandbox, { parameters: removeBigTag, items: itemsFor(phones), continueOnFail: true });
		expect(out).toHaveLength(40);
		const tryAgain = /Try again after (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}) UTC\.$/;
		const sent = new Set(removals().map(phoneOf));
		for (const item of out) {
			const phone = phones[(item.pairedItem as { item: number }).item];
			const description = String(item.json.description);
			if (sent.has(phone)) {
				expect(item.json.error).toBe('The API is receiving too many requests (HTTP 429): Too many requests, retry later');
				expect(description).toContain('The API asked to wait 86400 s before trying again, longer than the node waits (60 s), so it was not retried.');
			} else {
				// The quota spent (DESIGN.md, decided 2026-11-26): failed unsent.
				expect(String(item.json.error)).toMatch(/^The API asked to wait 86400 s \(until .* UTC\) and accepted nothing since: not sent$/);
			}
			// The clock time is an answer's time plus the day the API asked for (UTC, to the second).
			const named = Date.parse(`${/Try again after (\S+ \S+) UTC/.exec(description)?.[1]}Z`);
			expect(Number.isFinite(named)).toBe(true);
			expect(removals().some((r) => Math.abs(named - (r.answeredAt! + 86_400_000)) < 60_000)).toBe(true);
			if (sent.has(phone)) expect(description).toMatch(tryAgain);
		}
		// Each item sent at most once: the 10 in flight at first and the one probe.
		expect(removals().length).toBeLessThanOrEqual(11);
		expect(removals().length).toBe(sent.size);
		expect(pace(sandbox).holding).toBe(false);
	});
});

describe('one request refused, the API accepting the others', () => {
	test('200 items, one refused with Retry-After: 60: the 199 others are all done while the refused one still waits out its minute', async () => {
		const { sandbox } = ctx;
		const phones = members().slice(0, 200);
		const refusedPhone = phones[5];
		sandbox.addFault({ path: '/tag/remove-from-contact', match: refusedPhone, kind: 'status', status: 429, retryAfterSeconds: 60, times: Infinity });
		const controller = new AbortController();
		const running = runError(sandbox, { parameters: removeBigTag, items: itemsFor(phones), signal: controller.signal });
		// The 199 others accepted: had the refusal held them for its minute, the refused item's own
		// retry (after the same minute) would come first, or this would not be reached in 30 s.
		await sandbox.waitForRequests((requests) => requests.filter((r) => r.path === REMOVAL_PATH && r.status === 200).length === 199, 30_000);
		expect(removals().filter((r) => phoneOf(r) === refusedPhone).map((r) => r.status)).toEqual([429]);
		expect(new Set(removals().filter((r) => r.status === 200).map(phoneOf))).toEqual(new Set(phones.filter((p) => p !== refusedPhone)));
		// A cancel ends the refused item's wait at once (a wait of 60 s would time the test out).
		controller.abort();
		await running;
		await reached(() => pace(sandbox).inFlight === 0);
		expect(removals().filter((r) => phoneOf(r) === refusedPhone)).toHaveLength(1);
	}, 60_000);
});

describe('an interactive call: time spent queued counts toward Settings → Request Options → Timeout', () => {
	test('a manual run of one item, Timeout 500 ms, while the API holds a 30-item run for 5 s (the first 10 and the probe refused with Retry-After: 5): it fails as timed out in the queue, never sent; the bulk run is done', async () => {
		const { sandbox } = ctx;
		const phones = members().slice(0, 31);
		sandbox.addFault({ path: '/tag/remove-from-contact', kind: 'status', status: 429, retryAfterSeconds: 5, times: 11 });
		const wave = sandbox.hold({ path: '/tag/remove-from-contact' });
		const bulk = run(sandbox, { parameters: removeBigTag, items: itemsFor(phones.slice(0, 30)), mode: 'trigger' });
		await wave.waitFor(10);
		wave.release();
		// The 10 and the hold's probe refused: the API holds every queued send for 5 s.
		await sandbox.waitForRequests((requests) => requests.filter((r) => r.status === 429 && r.answeredSeq !== undefined).length === 11);
		const error = await runError(sandbox, { parameters: removeBigTag, items: itemsFor([phones[30]]), mode: 'manual', timeoutMs: 500 });
		expect(error.message).toBe("The API's turn did not come within 500 ms (timeout): nothing was sent");
		expect(String(error.description)).toContain('raise Timeout under the node\'s Settings → Request Options');
		expect(removals().filter((r) => phoneOf(r) === phones[30])).toEqual([]);
		// A bulk run's sends are not timed out in the queue: all 30 are done after the hold.
		const out = await bulk;
		expect(out.filter((item) => item.error === undefined)).toHaveLength(30);
	}, 60_000);
});

describe('interactive calls never wait behind a bulk run', () => {
	const bulkOf = (count: number): string[] => members().slice(0, count);

	test('a picker opened while items of a 400-item run wait on a 20/s API is answered before the bulk run has sent half of what was queued before it', async () => {
		const { sandbox } = ctx;
		sandbox.setRateLimit({ perSecond: 20 });
		const controller = new AbortController();
		const bulk = runError(sandbox, { parameters: removeBigTag, items: itemsFor(bulkOf(400)), signal: controller.signal, mode: 'trigger' });
		// n8n prepares 400 items for a while on a busy machine: waited for by what is queued, not by time.
		await reached(() => pace(sandbox).rate !== undefined && pace(sandbox).waiting >= 60, 60_000);
		const queued = pace(sandbox).waiting;
		const before = removals().length;
		const picker = loadOptionsContext(sandbox, { resource: 'integration', operation: 'disconnect' }, 'integrationId');
		const found = await actionNode.methods.listSearch.searchIntegrations.call(picker);
		const sentMeanwhile = removals().length - before;
		expect(found.results.map((entry) => entry.value)).toEqual(expect.arrayContaining([DEMO.integrations.whatsapp.id]));
		// Queued behind the bulk run it would have waited for every send queued before it (3 s and
		// more at 20/s); going first, it waits for one free turn.
		expect(sentMeanwhile).toBeLessThan(queued / 2);
		controller.abort();
		await bulk;
		// What was on the wire at the cancel is answered before the next test resets the sandbox.
		await reached(() => pace(sandbox).inFlight === 0);
	}, 120_000);

	test('a manual run of one item while 400 items of a trigger run wait on a 20/s API: done before the bulk run has sent half of what was queued before it', async () => {
		const { sandbox } = ctx;
		sandbox.setRateLimit({ perSecond: 20 });
		const phones = bulkOf(401);
		const controller = new AbortController();
		const bulk = runError(sandbox, { parameters: removeBigTag, items: itemsFor(phones.slice(0, 400)), signal: controller.signal, mode: 'trigger' });
		// n8n prepares 400 items for a while on a busy machine: waited for by what is queued, not by time.
		await reached(() => pace(sandbox).rate !== undefined && pace(sandbox).waiting >= 60, 60_000);
		const queued = pace(sandbox).waiting;
		const before = removals().length;
		const out = await run(sandbox, { parameters: removeBigTag, items: itemsFor([phones[400]]), mode: 'manual' });
		const sentMeanwhile = removals().length - before;
		expect((out[0].json.contact as { phoneNumber: string }).phoneNumber).toBe(phones[400]);
		expect(sentMeanwhile).toBeLessThan(queued / 2);
		controller.abort();
		await bulk;
		// What was on the wire at the cancel is answered before the next test resets the sandbox.
		await reached(() => pace(sandbox).inFlight === 0);
	}, 120_000);
});
