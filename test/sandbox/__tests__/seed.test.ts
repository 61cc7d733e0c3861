import { parseArgs } from '../cli';
import { CHAT_CATEGORIES, DEMO, SEED_DEFAULTS, TEMPLATE_STATUSES, seedState, type SandboxState } from '../index';
import { ID } from './helpers';

/** Every string in DEMO under a key that names an id. */
function demoIds(value: unknown, path = 'DEMO'): Array<[string, string]> {
	if (typeof value !== 'object' || value === null) return [];
	return Object.entries(value).flatMap(([key, v]): Array<[string, string]> => {
		const here = `${path}.${key}`;
		if (typeof v === 'string' && /(^id$|Id$)/.test(key) && key !== 'chatId') return [[here, v]];
		if (typeof v === 'string' && path.endsWith('.fields')) return [[here, v]];
		if (typeof v === 'string' && path === 'DEMO.sectors') return [[here, v]];
		return demoIds(v, here);
	});
}

describe('seed', () => {
	it('is deterministic', () => {
		const a = seedState().snapshot();
		const b = seedState().snapshot();
		expect(JSON.stringify(a)).toBe(JSON.stringify(b));
	});

	it('gives every DEMO id the id pattern, and the ids are distinct where they name different records', () => {
		const ids = demoIds(DEMO);
		expect(ids.length).toBeGreaterThan(40);
		for (const [path, id] of ids) expect({ path, ok: ID.test(id) }).toEqual({ path, ok: true });
		const recordIds = ids.filter(([path]) => path.endsWith('.id')).map(([, id]) => id);
		expect(new Set(recordIds).size).toBe(recordIds.length);
	});

	it('holds every DEMO record', () => {
		const s = seedState();
		for (const u of Object.values(DEMO.users)) expect(s.users.find((x) => x.id === u.id)?.user.email).toBe(u.email);
		for (const i of Object.values(DEMO.integrations)) expect(s.integrations.get(i.id)).toMatchObject({ name: i.name, connectionStatus: i.connectionStatus, sectorId: i.sectorId });
		for (const t of Object.values(DEMO.tags)) expect(s.tags.get(t.id)).toMatchObject({ name: t.name, color: t.color });
		for (const b of Object.values(DEMO.bots)) expect(s.bots.get(b.id)?.url).toBe(b.url);
		for (const t of Object.values(DEMO.triggers)) {
			const trigger = s.triggers.get(t.id);
			expect(trigger?.triggerType).toBe(t.triggerType);
			expect(trigger?.automationBotId ? 'BOT' : 'SYSTEM').toBe(t.kind);
		}
		for (const c of Object.values(DEMO.chats)) expect(s.chats.get(c.id)).toMatchObject({ chatId: c.chatId, integrationId: c.integrationId, category: c.category });
		for (const c of Object.values(DEMO.contacts)) expect(s.findContact(c.phoneNumber)?.name).toBe(c.name);
		expect(s.findContact(DEMO.contacts.lid.lid)?.phoneNumber).toBe(DEMO.contacts.lid.phoneNumber);
		expect(s.chatsOfPhone(DEMO.contacts.noChat.phoneNumber)).toEqual([]);
		expect(s.findContact(DEMO.unknownPhoneNumber)).toBeUndefined();
		expect(s.triggers.get(DEMO.triggers.removeVip.id)?.tagId).toBe(DEMO.tags.vip.id);
		expect(s.chats.get(DEMO.chats.botFlow.id)?.automations.map((a) => a.type)).toEqual(['BOT']);
		expect(s.chats.get(DEMO.chats.systemAutomation.id)?.automations.map((a) => a.type)).toEqual(['SYSTEM']);
		for (const f of Object.values(DEMO.customFields.profile.fields)) expect(s.templateFields.get(f)?.templateId).toBe(DEMO.customFields.profile.id);
		expect(s.users.filter((u) => u.online === 'ONLINE')).toHaveLength(1);
	});

	it('uses the default sizes and covers every category and template status', () => {
		const s = seedState();
		expect(s.tagMembers(DEMO.tags.big.id)).toHaveLength(SEED_DEFAULTS.contactsOnBigTag);
		expect(s.templates.get(DEMO.integrations.official.id)?.list).toHaveLength(SEED_DEFAULTS.templates);
		expect(s.chats.size).toBe(SEED_DEFAULTS.chats + Object.keys(DEMO.chats).length);
		for (const c of CHAT_CATEGORIES) expect(s.chatsIn(c).length).toBeGreaterThan(0);
		expect(new Set(s.templates.get(DEMO.integrations.official.id)?.list.slice(0, 7).map((t) => t.status))).toEqual(new Set(TEMPLATE_STATUSES));
		const lastTimes = [...s.chats.values()].map((c) => c.lastMessageAtMs);
		expect(new Set(lastTimes).size).toBe(lastTimes.length);
		for (const chat of s.chats.values()) expect(chat.messages).toHaveLength(SEED_DEFAULTS.messagesPerChat);
	});

	const official = DEMO.integrations.official.id;
	it.each([
		['10 000 contacts', { contactsOnBigTag: 10_000 }, (s: SandboxState) => s.tagMembers(DEMO.tags.big.id).length, 10_000],
		['2 000 templates', { templates: 2_000 }, (s: SandboxState) => s.templates.get(official)?.list.length, 2_000],
		['5 000 chats', { chats: 5_000 }, (s: SandboxState) => s.chatsIn('attendance').length, 1_000 + 4],
	])('seeds %s', (_label, sizes, count, expected) => {
		// Seeding speed is a benchmark figure, not a test: a timed assertion fails on a busy machine.
		expect(count(seedState(sizes))).toBe(expected);
	});

	it('rejects bad sizes', () => {
		expect(() => seedState({ chats: -1 })).toThrow('chats must be an integer between 0 and 200000');
		expect(() => seedState({ templates: 1.5 })).toThrow('templates must be an integer');
	});
});

describe('cli arguments', () => {
	it('defaults to port 4010 and the sandbox token, logging on, a SaaS rate limit (10/s, bursts of 20, Retry-After)', () => {
		expect(parseArgs([], {})).toEqual({ port: 4010, token: 'sandbox-token', quiet: false, rateLimit: { perSecond: 10, burst: 20, retryAfter: true } });
	});

	it('rate limit flags: another rate, another burst, no Retry-After, none at all', () => {
		expect(parseArgs(['--rate-limit', '50'], {}).rateLimit).toEqual({ perSecond: 50, burst: 50, retryAfter: true });
		expect(parseArgs(['--rate-limit=50', '--rate-burst', '5', '--no-retry-after'], {}).rateLimit).toEqual({ perSecond: 50, burst: 5, retryAfter: false });
		expect(parseArgs(['--no-rate-limit'], {}).rateLimit).toBeUndefined();
	});

	it('reads flags (both --flag value and --flag=value) and env', () => {
		const o = parseArgs(['--port', '5000', '--token=abc', '--contacts', '10000', '--templates=2000', '--chats', '5000', '--latency', '20', '--minute-ms', '50', '--host', '0.0.0.0', '--demo'], { SANDBOX_PORT: '1' });
		expect(o).toEqual({ port: 5000, token: 'abc', host: '0.0.0.0', quiet: false, latencyMs: 20, minuteMs: 50, seed: { contactsOnBigTag: 10000, templates: 2000, chats: 5000 }, rateLimit: { perSecond: 10, burst: 20, retryAfter: true } });
		expect(parseArgs([], { SANDBOX_PORT: '4999', SANDBOX_TOKEN: 'env-token' })).toMatchObject({ port: 4999, token: 'env-token' });
	});

	it('refuses unknown flags and bad numbers', () => {
		expect(() => parseArgs(['--prot', '1'], {})).toThrow('unknown flag --prot');
		expect(() => parseArgs(['--latency', '-3'], {})).toThrow('--latency must be a non-negative integer');
		expect(() => parseArgs(['--port'], {})).toThrow('--port needs a value');
	});
});
