/**
 * Issue 12, defect 5: the node enforces the rules the spec states, and only them (DESIGN.md). Each
 * test here was refused before anything was sent on the code before the fix; now the request
 * reaches the API, which decides.
 */
import { DEMO } from '../sandbox';
import { onlyRequest, runNode, runNodeError, useSandbox } from '../helpers/node-runner';

const ctx = useSandbox();

describe('Stop in Chat: the phone number is "8-30, any format"', () => {
	/** Version 2's Chat in mode Phone, or version 1's Phone Number (0.1.0). */
	const byPhone = (version: 1 | 2, phoneNumber: string) => ({
		typeVersion: version,
		parameters:
			version === 2
				? { resource: 'automation', operation: 'stopInChat', chat: { __rl: true, mode: 'phoneNumber', value: phoneNumber } }
				: { resource: 'automation', operation: 'stopInChat', phoneNumber },
	});

	test.each([
		['a LID', DEMO.contacts.lid.lid, 2],
		['a JID', DEMO.chats.botFlow.chatId, 2],
		['a LID', DEMO.contacts.lid.lid, 1],
		['a JID', DEMO.chats.botFlow.chatId, 1],
	] as const)('%s is sent as it is (version %s)', async (_label, phoneNumber, version) => {
		const out = await runNode(ctx.sandbox, byPhone(version, phoneNumber));
		expect(onlyRequest(ctx.sandbox).body).toEqual({ phoneNumber });
		expect(out[0].json).toHaveProperty('stopped');
	});

	test.each([[2, 'Chat (Phone)'], [1, 'Phone Number']] as const)('the stated length still holds: 31 characters are refused, nothing sent (version %s)', async (version, label) => {
		const error = await runNodeError(ctx.sandbox, byPhone(version, '1'.repeat(31)));
		expect(error.message).toBe(`Invalid ${label}: must be 8-30 characters, got 31 characters`);
		expect(ctx.sandbox.requests).toHaveLength(0);
	});
});

describe('a tag name is exact: a text is one name, a list gives several', () => {
	test('"Cliente, VIP" from an expression is one name (not split at the comma)', async () => {
		ctx.sandbox.state.addTag({ id: 'c0000000000000000000000c1', name: 'Cliente, VIP', color: '#000000', createdAt: '', updatedAt: '' });
		await runNode(ctx.sandbox, {
			parameters: {
				resource: 'tag',
				operation: 'removeFromContact',
				phoneNumber: DEMO.contacts.alice.phoneNumber,
				tagNames: '={{ $json.tag }}',
			},
			items: [{ tag: 'Cliente, VIP' }],
		});
		expect(onlyRequest(ctx.sandbox).body).toMatchObject({ tagNames: ['Cliente, VIP'] });
	});

	test('a typed text with a comma is one name too', async () => {
		await runNodeError(ctx.sandbox, {
			parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: DEMO.contacts.alice.phoneNumber, tagNames: 'VIP, Lead' },
		});
		expect(onlyRequest(ctx.sandbox).body).toMatchObject({ tagNames: ['VIP, Lead'] });
	});
});

const webhookWithHeaders = (header: Array<{ key: string; value: string }>) => ({
	resource: 'webhook',
	operation: 'create',
	integrationId: DEMO.integrations.whatsapp.id,
	url: 'https://example.com/hook',
	type: 'MESSAGE_RECEIVED',
	method: 'POST',
	additionalFields: { headers: { header } },
});

describe('limits the spec does not state are not invented', () => {
	test('a webhook with 60 headers is sent (no "at most 50")', async () => {
		const header = Array.from({ length: 60 }, (_, i) => ({ key: `X-H${i}`, value: String(i) }));
		const out = await runNode(ctx.sandbox, { parameters: webhookWithHeaders(header) });
		expect((onlyRequest(ctx.sandbox).body as { headers: unknown[] }).headers).toHaveLength(60);
		expect((out[0].json.headers as unknown[]).length).toBe(60);
	});

	test('a header name the node would not have guessed is the API\'s to judge: sent, and its 400 shown', async () => {
		const error = await runNodeError(ctx.sandbox, { parameters: webhookWithHeaders([{ key: 'Bad Header', value: 'x' }]) });
		expect(ctx.sandbox.requests).toHaveLength(1);
		expect(error.message).toMatch(/HTTP 400.*header/);
	});

	test('an automation trigger\'s delay has no lower bound in the spec: -1 is sent', async () => {
		await runNode(ctx.sandbox, {
			parameters: {
				resource: 'automation',
				operation: 'update',
				automationTriggerId: DEMO.triggers.firstMessage.id,
				updateFields: { delayMinutes: -1 },
			},
		});
		expect(onlyRequest(ctx.sandbox).body).toEqual({ automationTriggerId: DEMO.triggers.firstMessage.id, delayMinutes: -1 });
	});

	test('a group JID is only required to end in @g.us', async () => {
		// Sent; whether such a group exists is the API's answer (here a 404).
		await runNodeError(ctx.sandbox, {
			parameters: {
				resource: 'group',
				operation: 'getInviteUrl',
				integrationId: DEMO.integrations.whatsapp.id,
				groupJid: 'a@120363025874125896@g.us',
			},
		});
		expect(onlyRequest(ctx.sandbox).query).toMatchObject({ groupJid: 'a@120363025874125896@g.us' });
	});
});
