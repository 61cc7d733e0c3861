/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * Issue 44 item 5 (the shape): n8n-core's RoutingNode resolves every top-level property of a
 * declarative node's description for every item, shown or not, so a node's CPU per item grows with
 * its shape. In one process, through RoutingNode, 1 000 items of Tag → Remove From Contact with the
 * phone number mapped (`={{ $json.phone }}`) against a stand-in API in a child process that answers
 * at once (its CPU is not counted), alternating (each round starting with the next case), each run
 * with the node's limiter forgotten:
 *   - v2:    our node at version 2 (the version a new node gets; its own description);
 *   - v1:    our node at version 1 (a saved 0.1.0 workflow; version 1's description);
 *   - floor: a declarative node of two properties sending the same POST (n8n's own loop alone);
 *   - floor+v2, floor+v1: the same node given the other top-level properties of version 2's (or 1's)
 *     description, renamed, none shown for it: n8n's cost of that shape alone.
 * Prints the properties each description holds, CPU ms per item of each round (process.cpuUsage of
 * this process: n8n's loop, our request path, the HTTP client), the medians and their ratios.
 *
 *   npx ts-node --transpile-only scripts/bench/shape.ts [--rounds 7] [--items 1000]
 */
import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-bench-'));

import { DirectoryLoader } from 'n8n-core';
import type { INodeType } from 'n8n-workflow';

import { forgetPaces } from '../../nodes/shared/pace';
import { runRoutingNode } from '../../test/helpers/n8n-harness';

// By its full name: under plain Node resolution "ConversationInbox.node" finds the codex file first.
const { ConversationInbox } = require(join(__dirname, '../../nodes/ConversationInbox/ConversationInbox.node.ts')) as typeof import('../../nodes/ConversationInbox/ConversationInbox.node');

const argument = (name: string, fallback: number): number => {
	const at = process.argv.indexOf(`--${name}`);
	return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const ROUNDS = argument('rounds', 7);
const ITEMS = argument('items', 1000);
const TOKEN = 'bench-token-123456';
const ANSWER = JSON.stringify({ success: true, data: { contact: { chatId: 'x', phoneNumber: '5511987650001', chatInternalId: 'c0000000000000000000000c1', name: 'A' }, removedTags: [], notInContact: [], tags: [], automations: { requested: false, triggered: false } } });

/** The stand-in API (child process): every request answered 200 at once. */
function serve(): void {
	const server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			response.writeHead(200, { 'Content-Type': 'application/json' });
			response.end(ANSWER);
		});
	});
	server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
}

/** A declarative node of two properties sending the same request (and `extra` ones): n8n's own cost per item. */
function floorNode(baseUrl: string, extra: INodeType['description']['properties'] = []): INodeType {
	return {
		description: {
			displayName: 'Floor',
			name: 'floor',
			group: ['transform'],
			version: 1,
			description: 'Two properties, the same POST',
			defaults: { name: 'Floor' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'conversationInboxApi', required: true }],
			requestDefaults: { baseURL: baseUrl, json: true, headers: { Accept: 'application/json', 'Content-Type': 'application/json' } },
			properties: [
				{
					displayName: 'Operation',
					name: 'operation',
					type: 'options',
					noDataExpression: true,
					options: [{ name: 'Remove', value: 'remove', routing: { request: { method: 'POST', url: '/tag/remove-from-contact' } } }],
					default: 'remove',
				},
				{
					displayName: 'Phone Number',
					name: 'phoneNumber',
					type: 'string',
					default: '',
					routing: { send: { type: 'body', property: 'phoneNumber' } },
				},
				...extra,
			],
		},
	} as INodeType;
}

const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main(): Promise<void> {
	const child = fork(__filename, ['--serve'], { execArgv: ['-r', 'ts-node/register/transpile-only'] });
	const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(m as number)));
	const baseUrl = `http://127.0.0.1:${port}/v2`;
	const node = new ConversationInbox();
	for (const version of Object.values(node.nodeVersions)) DirectoryLoader.applyDeclarativeNodeOptionParameters(version);
	// Version N's top-level properties but those the floor has itself (Operation, Phone Number: one
	// more property of a mapped name would evaluate the mapping again) and Request Options, renamed
	// so none is shown for the floor (each keeps its display rules and texts).
	const others = (version: number) =>
		node
			.getNodeType(version)
			.description.properties.filter((p) => !['phoneNumber', 'requestOptions'].includes(p.name))
			.map((p) => ({ ...p, name: `shape_${p.name}` }));
	const floor = floorNode(baseUrl);
	const floorAsV2 = floorNode(baseUrl, others(2));
	const floorAsV1 = floorNode(baseUrl, others(1));
	for (const type of [floor, floorAsV2, floorAsV1]) DirectoryLoader.applyDeclarativeNodeOptionParameters(type);
	const items = Array.from({ length: ITEMS }, (_, i) => ({ phone: `55119${String(87650000 + i).padStart(8, '0')}` }));
	const cases = {
		v2: { type: node, name: 'conversationInbox', typeVersion: 2, parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}', tagIds: ['cec2e4a8d6b79afc07c3c2df0'] } },
		v1: { type: node, name: 'conversationInbox', typeVersion: 1, parameters: { resource: 'tag', operation: 'removeFromContact', phoneNumber: '={{ $json.phone }}', tagIds: ['cec2e4a8d6b79afc07c3c2df0'] } },
		floor: { type: floor, name: 'floor', typeVersion: 1, parameters: { operation: 'remove', phoneNumber: '={{ $json.phone }}' } },
		'floor+v2': { type: floorAsV2, name: 'floor', typeVersion: 1, parameters: { operation: 'remove', phoneNumber: '={{ $json.phone }}' } },
		'floor+v1': { type: floorAsV1, name: 'floor', typeVersion: 1, parameters: { operation: 'remove', phoneNumber: '={{ $json.phone }}' } },
	};
	const count = (type: INodeType) => type.description.properties.length;
	console.log(`top-level properties (Request Options included): v2 ${count(node.getNodeType(2))}, v1 ${count(node.getNodeType(1))}, floor ${count(floor)}, floor+v2 ${count(floorAsV2)}, floor+v1 ${count(floorAsV1)}`);
	const perItem: Record<keyof typeof cases, number[]> = { v2: [], v1: [], floor: [], 'floor+v2': [], 'floor+v1': [] };
	// One warm-up round of each, not counted (module loading, JIT).
	const order = Object.entries(cases) as Array<[keyof typeof cases, (typeof cases)[keyof typeof cases]]>;
	for (let round = -1; round < ROUNDS; round++) {
		// Each round starts with another case, so none always runs right after another's garbage.
		const rotated = [...order.slice((round + 1) % order.length), ...order.slice(0, (round + 1) % order.length)];
		for (const [key, c] of rotated) {
			forgetPaces();
			const before = process.cpuUsage();
			const out = await runRoutingNode(c.name, c.type, { parameters: c.parameters, items, typeVersion: c.typeVersion, credentials: { baseUrl, apiToken: TOKEN } });
			const used = process.cpuUsage(before);
			if (out.length !== ITEMS || out.some((item) => item.error)) throw new Error(`${key}: ${out.length} items out, ${out.filter((i) => i.error).length} errors`);
			if (round >= 0) perItem[key].push((used.user + used.system) / 1000 / ITEMS);
		}
	}
	child.kill();
	for (const [key, values] of Object.entries(perItem)) {
		console.log(`${key.padEnd(8)} CPU ms per item: ${values.map((v) => v.toFixed(3)).join(' ')}  median ${median(values).toFixed(3)}`);
	}
	const m = (key: keyof typeof cases) => median(perItem[key]);
	const ratio = (a: keyof typeof cases, b: keyof typeof cases) => `${a}/${b} ${(m(a) / m(b)).toFixed(2)}`;
	console.log(`ratios of the medians: ${[ratio('v2', 'floor'), ratio('v1', 'floor'), ratio('v2', 'v1'), ratio('v2', 'floor+v2'), ratio('v1', 'floor+v1'), ratio('floor+v1', 'floor+v2'), ratio('floor+v2', 'floor')].join(', ')}`);
}

if (process.argv.includes('--serve')) serve();
else void main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
