/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The heap measurement of memory-figures.test.ts, run in a process of its own (a jest worker runs
 * other test files before it, whose leftovers the garbage collector frees while this measures):
 *
 *   node --expose-gc -r ts-node/register/transpile-only test/reliability/memory-figures.measure.ts
 *
 * Prints { fact, executionOfOneWrite, removeHeld, unknownHeld } in bytes per write, as JSON.
 */
import type { IDataObject, INode } from 'n8n-workflow';

import { apiError } from '../../nodes/shared/errors';
import type { WriteOutcome } from '../../nodes/shared/writes';
import { forgetAllWrites, heldWrites, limits, writeOnce } from '../../nodes/shared/writes';
import { DEMO } from '../sandbox';

const gc = (globalThis as { gc?: () => void }).gc!;
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
	const held = heldWrites();
	if (held.facts !== WRITES || held.answers !== Math.min(maxAnswers, WRITES)) throw new Error(`held ${JSON.stringify(held)}, not ${WRITES} facts`);
	forgetAllWrites();
	return bytes;
}

async function main(): Promise<void> {
	const fact = await bytesPerWrite(0, false, removeAnswer);
	const executionOfOneWrite = await bytesPerWrite(0, true, removeAnswer);
	const removeHeld = (await bytesPerWrite(WRITES, false, removeAnswer)) - fact;
	const unknownHeld = (await bytesPerWrite(WRITES, false, unknown502)) - fact;
	process.stdout.write(JSON.stringify({ fact, executionOfOneWrite, removeHeld, unknownHeld }));
}

void main();
