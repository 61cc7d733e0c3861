import { DEMO } from './demo';
import type { SandboxState } from './state';
import type { Chat, ChatCategory } from './types';

// Shapes the seeded state for the benchmark (scripts/bench/bench.ts), after the ordinary seed: lists whose
// sizes are exact multiples of the API's page sizes. Only used by the bench; tests never call it.

/**
 * Moves generated chats from other categories into `category` until it holds exactly `total` chats
 * (fixed DEMO chats stay where they are). The seed must have generated enough chats.
 */
export function fillCategory(state: SandboxState, category: ChatCategory, total: number): void {
	const demo = new Set<string>(Object.values(DEMO.chats).map((c) => c.id));
	let count = state.chatsIn(category).length;
	for (const chat of state.chats.values()) {
		if (count >= total) break;
		if (chat.category === category || demo.has(chat.id)) continue;
		state.setCategory(chat, category);
		count++;
	}
	if (count !== total) throw new Error(`seed-bench: ${category} holds ${count} chats, not ${total}: seed more chats`);
}

/** Adds messages to `chat` (copies of its seeded ones, one second apart, after them) until it has `total`. */
export function growChat(state: SandboxState, chat: Chat, total: number): void {
	const seeded = chat.messages.slice();
	if (seeded.length === 0) throw new Error('seed-bench: the chat has no seeded message to copy');
	const after = seeded[seeded.length - 1].createdAtMs;
	for (let m = seeded.length; m < total; m++) {
		state.addMessage(chat, { ...seeded[m % seeded.length], id: `${chat.id}-bench-${m}`, createdAtMs: after + (m - seeded.length + 1) * 1000 });
	}
}
