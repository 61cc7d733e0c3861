/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Shared pieces of the reliability suite (not a test file). The node runs through n8n-core's real
 * RoutingNode via test/helpers/node-runner.ts, as n8n's loader prepares it (Request Options included).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';

import type { NodeRun } from '../helpers/node-runner';

export type ReliabilityRun = NodeRun;

/** The reliability suite runs the node exactly as the node suite does. */
export { loadedNode, runNode as run, runNodeError as runError } from '../helpers/node-runner';

export const itemIndexOf = (error: unknown): unknown =>
	(error as { context?: { itemIndex?: unknown } }).context?.itemIndex;

/** A local port nothing listens on (bound once, then released). */
export async function closedPort(): Promise<number> {
	const server = http.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** A tiny HTTP server that only counts what reaches it (a host pagination must never contact). */
export interface Decoy {
	url: string;
	hits: string[];
	close(): Promise<void>;
}

export async function startDecoy(): Promise<Decoy> {
	const hits: string[] = [];
	const server = http.createServer((req, res) => {
		hits.push(`${req.method} ${req.url}`);
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ success: true, response: { templates: [], paging: { hasNext: false } } }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		hits,
		close: async () =>
			await new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/**
 * Everything reachable from `value` as text, for searching a secret in it: a cycle-safe JSON dump
 * (own and inherited enumerable properties, errors with message, stack and cause), plus
 * util.inspect with hidden properties and getters, plus every error's `cause` chain inspected
 * on its own.
 */
export function dumpEverything(value: unknown): string {
	const seen = new WeakSet<object>();
	const replacer = (_key: string, entry: unknown): unknown => {
		if (typeof entry === 'bigint') return entry.toString();
		if (typeof entry === 'function') return `[function ${entry.name}]`;
		if (entry && typeof entry === 'object') {
			if (seen.has(entry)) return '[cycle]';
			seen.add(entry);
			if (entry instanceof Error) {
				const plain: Record<string, unknown> = {};
				for (const key of Object.getOwnPropertyNames(entry)) {
					plain[key] = (entry as unknown as Record<string, unknown>)[key];
				}
				plain.message = entry.message;
				plain.stack = entry.stack;
				plain.cause = (entry as { cause?: unknown }).cause;
				plain.__type = entry.constructor?.name;
				return plain;
			}
		}
		return entry;
	};
	const parts = [JSON.stringify(value, replacer) ?? ''];
	parts.push(inspect(value, { depth: Infinity, showHidden: true, getters: true, maxStringLength: Infinity, maxArrayLength: Infinity }));
	const causes: unknown[] = [];
	const collect = (entry: unknown, depth: number): void => {
		if (!entry || typeof entry !== 'object' || depth > 20) return;
		if (entry instanceof Error) {
			causes.push(entry);
			collect((entry as { cause?: unknown }).cause, depth + 1);
		} else if (Array.isArray(entry)) {
			for (const inner of entry) collect(inner, depth + 1);
		} else {
			for (const inner of Object.values(entry as Record<string, unknown>)) {
				if (inner instanceof Error) collect(inner, depth + 1);
			}
		}
	};
	collect(value, 0);
	for (const cause of causes) {
		parts.push(inspect(cause, { depth: Infinity, showHidden: true, getters: true, maxStringLength: Infinity }));
		parts.push(String((cause as Error).message), String((cause as { description?: unknown }).description));
	}
	return parts.join('\n');
}
