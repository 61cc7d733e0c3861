/**
 * The trigger's saved static data (nodes/ConversationInboxTrigger/registrations.ts) as n8n gives it
 * back: which stored registrations are reused, and which damaged entries are dropped. Mutation
 * testing (issue 29) found these cases unguarded: a registration without a secret tag reused when no
 * version-1 secret exists (or the secret is empty) would be deaf (its deliveries carry a secret the
 * trigger rejects); a damaged entry kept would be taken for a registration, or crash activation.
 * Through the trigger harness (n8n-core's HookContext) against the sandbox, which counts the
 * registrations it receives. Each re-activation runs in a restarted n8n (`restartedN8n`: the
 * module loaded again), so static data is all the node knows, not its process record.
 */
import { randomUUID } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

import { restartedN8n, TriggerInstance } from '../helpers/trigger-harness';
import { sandboxForFile, triggerParameters } from './setup';

const fixture = sandboxForFile();
const REGISTER = '/v2/integration/webhook/create';
const parameters = triggerParameters({ events: ['MESSAGE_RECEIVED'] });

beforeEach(() => fixture.sandbox.reset());

const registrationsReceived = (): number =>
	fixture.sandbox.requests.filter((request) => request.method === 'POST' && request.path === REGISTER).length;

function trigger(
	staticData?: IDataObject,
	webhookId: string = randomUUID(),
	nodeClass?: ReturnType<typeof restartedN8n>,
): TriggerInstance {
	return new TriggerInstance({
		nodeClass,
		parameters,
		credentials: fixture.credentials,
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		webhookId,
		staticData,
	});
}

/** What a first activation saved: the node's static data (JSON), and the node's webhook ID. */
async function savedByFirstActivation(): Promise<{ node: IDataObject; webhookId: string; workflow: IDataObject }> {
	const first = trigger();
	await first.activate();
	const workflow = first.persistedStaticData();
	const node = first.nodeStaticData();
	fixture.sandbox.clearRequests();
	return { node: JSON.parse(JSON.stringify(node)) as IDataObject, webhookId: first.node.webhookId!, workflow };
}

/**
 * The workflow's static data with the node's part replaced, as the builds before issue 42 saved it:
 * the node's part only, nothing of the trigger in the global part (where today's builds keep the
 * registrations too; the same loader reads both).
 */
function withNodeData(workflow: IDataObject, nodeData: IDataObject): IDataObject {
	const copy = JSON.parse(JSON.stringify(workflow)) as IDataObject;
	const key = Object.keys(copy).find((name) => name.startsWith('node:'));
	if (key === undefined) throw new Error(`no node static data in ${JSON.stringify(copy)}`);
	copy[key] = nodeData;
	delete copy.global;
	return copy;
}

type Entry = IDataObject & { url: string; event: string; fingerprint: string; secretTag?: string };
const entriesOf = (data: IDataObject): Entry[] => (data.registrations as Entry[]) ?? [];
const withoutTag = (entry: Entry): Entry => {
	const copy = { ...entry };
	delete copy.secretTag;
	delete copy.secretHash;
	return copy;
};

async function reactivate(workflow: IDataObject, webhookId: string): Promise<TriggerInstance> {
	const again = trigger(workflow, webhookId, restartedN8n());
	await again.activate();
	return again;
}

describe('stored registrations without a secret tag (made with the version-1 secret)', () => {
	test('with the version-1 secret stored: reused, nothing registered', async () => {
		const { node, webhookId, workflow } = await savedByFirstActivation();
		const stored = { secret: 'a'.repeat(64), registrations: entriesOf(node).map(withoutTag) };
		await reactivate(withNodeData(workflow, stored), webhookId);
		expect(registrationsReceived()).toBe(0);
	});

	test('without any version-1 secret: registered again (reusing it would be a deaf trigger)', async () => {
		const { node, webhookId, workflow } = await savedByFirstActivation();
		const stored = { registrations: entriesOf(node).map(withoutTag) };
		await reactivate(withNodeData(workflow, stored), webhookId);
		expect(registrationsReceived()).toBe(1);
	});

	test('with an empty version-1 secret: registered again (an empty secret accepts nothing)', async () => {
		const { node, webhookId, workflow } = await savedByFirstActivation();
		const stored = { secret: '', registrations: entriesOf(node).map(withoutTag) };
		await reactivate(withNodeData(workflow, stored), webhookId);
		expect(registrationsReceived()).toBe(1);
	});

	test('with a secret tag of a secret made under another token: reused, nothing registered (its deliveries match the tag)', async () => {
		const { node, webhookId, workflow } = await savedByFirstActivation();
		const stored = {
			registrations: entriesOf(node).map((entry) => {
				const copy: IDataObject = { ...entry, secretTag: '0'.repeat(16) };
				delete copy.secretHash;
				return copy;
			}),
		};
		await reactivate(withNodeData(workflow, stored), webhookId);
		expect(registrationsReceived()).toBe(0);
	});

	test('with a secret tag that is not 16 hex characters: registered again (no delivery could match it)', async () => {
		const { node, webhookId, workflow } = await savedByFirstActivation();
		const stored = {
			registrations: entriesOf(node).map((entry) => {
				const copy: IDataObject = { ...entry, secretTag: 'not-a-tag' };
				delete copy.secretHash;
				return copy;
			}),
		};
		await reactivate(withNodeData(workflow, stored), webhookId);
		expect(registrationsReceived()).toBe(1);
	});

	test.each([
		['63 hex characters', 'ab'.repeat(31) + 'a'],
		['64 characters with one that is not hex inside', 'a'.repeat(32) + 'z' + 'a'.repeat(31)],
	])('with a secret hash of %s and no tag: registered again (no delivery could match it)', async (_, hash) => {
		const { node, webhookId, workflow } = await savedByFirstActivation();
		const stored = {
			registrations: entriesOf(node).map((entry) => ({ ...withoutTag(entry), secretHash: hash })),
		};
		await reactivate(withNodeData(workflow, stored), webhookId);
		expect(registrationsReceived()).toBe(1);
	});
});

describe('damaged entries in the saved registrations: dropped, never thrown on, never reused', () => {
	test('null, text, numbers and lists among the entries: activation works, the good entry is reused', async () => {
		const { node, webhookId, workflow } = await savedByFirstActivation();
		const [good] = entriesOf(node);
		await reactivate(withNodeData(workflow, { registrations: [null, 'text', 7, ['a'], good] }), webhookId);
		expect(registrationsReceived()).toBe(0);
	});

	test('only damaged entries: registered again, and the damaged entries are not saved again', async () => {
		const { webhookId, workflow } = await savedByFirstActivation();
		const again = await reactivate(withNodeData(workflow, { registrations: [null, 'text', 7, ['a']] }), webhookId);
		expect(registrationsReceived()).toBe(1);
		const saved = entriesOf(again.nodeStaticData());
		expect(saved).toHaveLength(1);
		expect(saved[0].event).toBe('MESSAGE_RECEIVED');
	});

	test.each(['url', 'event', 'fingerprint'])('an entry whose %s is missing is not a registration: registered again, the entry dropped', async (field) => {
		const { node, webhookId, workflow } = await savedByFirstActivation();
		const [good] = entriesOf(node);
		const damaged = { ...good };
		delete damaged[field];
		const again = await reactivate(withNodeData(workflow, { registrations: [damaged] }), webhookId);
		expect(registrationsReceived()).toBe(1);
		const saved = entriesOf(again.nodeStaticData());
		expect(saved).toHaveLength(1);
		expect(saved[0]).toMatchObject({ url: good.url, event: good.event, fingerprint: good.fingerprint });
	});

	test.each(['url', 'event', 'fingerprint'])('an entry whose %s is not text is dropped', async (field) => {
		const { node, webhookId, workflow } = await savedByFirstActivation();
		const [good] = entriesOf(node);
		const damaged = { ...good, [field]: 42 };
		const again = await reactivate(withNodeData(workflow, { registrations: [damaged] }), webhookId);
		expect(registrationsReceived()).toBe(1);
		expect(entriesOf(again.nodeStaticData())).toHaveLength(1);
	});

	test('registrations that are not a list: none, activation registers', async () => {
		const { webhookId, workflow } = await savedByFirstActivation();
		const again = await reactivate(withNodeData(workflow, { registrations: { 0: 'x' } }), webhookId);
		expect(registrationsReceived()).toBe(1);
		expect(entriesOf(again.nodeStaticData())).toHaveLength(1);
	});
});
