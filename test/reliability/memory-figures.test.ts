/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The memory of writes' figures in the README ("Retry On Fail": about 180 B a write, about 620 B an
 * execution of one write, about 0.9 kB a held Remove From Contact answer, about 260 B a held unknown
 * outcome, about 36 MB at the bound; issue 42, Build 8), held as the documented literals: the heap
 * measured after full garbage collections over 20 000 writes (scripts/tools/never-twice-at-size.ts
 * measures 100 000, at the shipped bounds, and prints the figures), each within a quarter above and
 * half below its literal. The outcomes are made by the node's own reader and error builder.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { IDataObject, INode } from 'n8n-workflow';

import { apiError } from '../../nodes/shared/errors';
import type { WriteOutcome } from '../../nodes/shared/writes';
import { forgetAllWrites, heldWrites, limits, SHIPPED_LIMITS, writeOnce } from '../../nodes/shared/writes';
import { DEMO } from '../sandbox';

/** The README's literals (bytes), and its figure at the bound (MB). */
const README = { fact: 180, executionOfOneWrite: 620, removeAnswer: 900, unknownAnswer: 260, atTheBoundMb: 36 };

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = (): number => {
	for (let i = 0; i < 4; i++) gc();
	return process.memoryUsage().heapUsed;
};

const WRITES = 20_000;
const NODE: INode = {
	id: '6f1c1a52-8d0f-4b7e-9d44-6a0f4d7c2b11',
	name: 'Remove VIP tag',
	type: 'n8n-nodes-conversation-inbox.conversationInbox',
	typeVersion: 2,
	position: [460, 300],
	parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}', tagIds: [DEMO.tags.vip.id] },
};
const phoneOf = (item: number): string => `5599${String(item).padStart(9, '0')}`;
const sentOf = (item: number) => ({ method: 'POST', baseURL: 'https://api.example.com/v2', url: '/tag/remove-from-contact', body: { phoneNumber: phoneOf(item), tagIds: [DEMO.tags.vip.id] } });

function removeAnswer(item: number): WriteOutcome {
	const phoneNumber = phoneOf(item);
	const value: IDataObject = {
		success: true,
		data: {
			contact: { chatId: `${phoneNumber}@s.whatsapp.net`, phoneNumber, chatInternalId: `c${String(item).padStart(24, '0')}`, name: `Contact ${item}` },
			removedTags: [{ id: DEMO.tags.vip.id, name: 'VIP', color: '#ff0000', createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z' }],
			notInContact: [],
			tags: [],
			automations: { requested: false, triggered: false, reason: 'not requested', chatInternalId: '', results: [] },
		},
	};
	return { kind: 'accepted', result: { ok: true, value } };
}

const unknown502 = (): WriteOutcome => ({
	kind: 'unknown',
	error: apiError({ ...NODE, parameters: structuredClone(NODE.parameters) }, { statusCode: 502, body: { success: false, message: 'Erro ao enviar mensagem' }, method: 'POST', path: '/tag/remove-from-contact', redact: [] }, 0),
});

/** Heap per write of WRITES writes, each of its own execution or all of one run, `maxAnswers` answers held. */
async function bytesPerWrite(maxAnswers: number, ownExecution: boolean, outcome: (item: number) => WriteOutcome): Promise<number> {
	forgetAllWrites();
	limits.maxAnswers = maxAnswers;
	const before = heap();
	for (let item = 0; item < WRITES; item++) {
		await writeOnce({ execution: ownExecution ? `execution ${item}` : 'one run', node: NODE.id, run: 0, item: ownExecution ? 0 : item }, sentOf(item), async () => outcome(item));
	}
	const bytes = (heap() - before) / WRITES;
	expect(heldWrites()).toMatchObject({ facts: WRITES, answers: Math.min(maxAnswers, WRITES) });
	forgetAllWrites();
	return bytes;
}

/** Within a quarter above and half below the literal. */
function expectAbout(measured: number, literal: number): void {
	expect({ measured: Math.round(measured), literal, within: measured <= literal * 1.25 && measured >= literal * 0.5 }).toEqual({ measured: Math.round(measured), literal, within: true });
}

afterAll(() => {
	Object.assign(limits, SHIPPED_LIMITS);
	forgetAllWrites();
});

describe('the memory of writes, measured against the README', () => {
	let fact = 0;
	let removeHeld = 0;

	test('a fact (a write done, its answer no longer held): about 180 B in a run of many writes; about 620 B an execution of one write', async () => {
		fact = await bytesPerWrite(0, false, removeAnswer);
		expectAbout(fact, README.fact);
		expectAbout(await bytesPerWrite(0, true, removeAnswer), README.executionOfOneWrite);
	}, 120_000);

	test('a held answer: about 0.9 kB a Remove From Contact answer; about 260 B an unknown outcome (the first try\'s message and HTTP code, not its error)', async () => {
		removeHeld = (await bytesPerWrite(WRITES, false, removeAnswer)) - fact;
		expectAbout(removeHeld, README.removeAnswer);
		expectAbout((await bytesPerWrite(WRITES, false, unknown502)) - fact, README.unknownAnswer);
	}, 120_000);

	test('at the bound, 100 000 writes of one run with the shipped 20 000 answers held: about 36 MB', () => {
		const atTheBound = (100_000 * fact + SHIPPED_LIMITS.maxAnswers * removeHeld) / 1024 / 1024;
		expectAbout(atTheBound, README.atTheBoundMb);
	});
});
