/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The floor of a declarative node (issue 44; DESIGN.md "Cost per item", The floor): a community
 * package of two minimal declarative nodes, written into the n8n user folder the bench starts, that
 * send the same requests as our node in the stall case (POST /tag/remove-from-contact with
 * `{ phoneNumber, tagIds: [<the big tag>] }`, the phone mapped per item) and the list case (Tag →
 * Get Contacts of the big tag, Return All, pages of 100 through n8n's own offset pagination), and
 * nothing else:
 *   - Floor (2 properties): an Operation selector (its one option carries the request) and Phone
 *     Number (the list's: Tag ID): the floor of any declarative node;
 *   - Floor (our shape): the same two and as many more top-level properties as our node has in all,
 *     read from the built node when the bench runs (so the bench follows any change of our shape),
 *     each a text field no operation shows: what n8n's RoutingNode costs for a node of our shape.
 * Its credential is ours in kind: a token applied by a function-style `authenticate` (the same
 * cost per request as ours); the base URL is the sandbox's, written into `requestDefaults`
 * (ours reads it once per run from the credential, never per item).
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { DEMO } from '../../test/sandbox';
import { REPO_ROOT } from '../../test/e2e/harness/provision';

export const FLOOR_PACKAGE = 'n8n-nodes-bench-floor';
export const FLOOR_CREDENTIAL_TYPE = 'benchFloorApi';

/** How many top-level properties our built node has (all versions: RoutingNode resolves each for every item). */
export function ourTopLevelProperties(): number {
	const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { n8n: { nodes: string[] } };
	const file = manifest.n8n.nodes.find((path) => path.endsWith('ConversationInbox.node.js'));
	if (!file || !existsSync(join(REPO_ROOT, file))) throw new Error('the built action node is missing: run npm run build');
	const { ConversationInbox } = require(join(REPO_ROOT, file)) as { ConversationInbox: new () => { description: { properties: unknown[] } } };
	return new ConversationInbox().description.properties.length;
}

const CREDENTIAL = `
class BenchFloorApi {
	constructor() {
		this.name = '${FLOOR_CREDENTIAL_TYPE}';
		this.displayName = 'Bench Floor API';
		this.properties = [{ displayName: 'API Token', name: 'apiToken', type: 'string', typeOptions: { password: true }, default: '' }];
		this.authenticate = async (credentials, requestOptions) => ({
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: \`Bearer \${String(credentials.apiToken)}\` },
		});
	}
}
module.exports = { BenchFloorApi };
`;

/** What a floor node sends: the stall case's write, or the list case's Return All. */
export type FloorWork = 'remove' | 'list';

/** The two properties that do the work, for one case. */
function working(work: FloorWork): object[] {
	if (work === 'remove') {
		return [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Remove From Contact',
						value: 'removeFromContact',
						routing: { request: { method: 'POST', url: '/tag/remove-from-contact', body: { tagIds: [DEMO.tags.big.id] } } },
					},
				],
				default: 'removeFromContact',
			},
			{ displayName: 'Phone Number', name: 'phoneNumber', type: 'string', default: '', routing: { send: { type: 'body', property: 'phoneNumber' } } },
		];
	}
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Get Contacts',
					value: 'getContacts',
					// n8n's own offset pagination: pages of 100 one after the other until a short page.
					routing: {
						request: { method: 'GET', url: '/tag/list-contacts' },
						send: { paginate: true },
						operations: {
							pagination: {
								type: 'offset',
								properties: { limitParameter: 'limit', offsetParameter: 'offset', pageSize: 100, rootProperty: 'data.contacts', type: 'query' },
							},
						},
					},
				},
			],
			default: 'getContacts',
		},
		{ displayName: 'Tag ID', name: 'tagId', type: 'string', default: '', routing: { send: { type: 'query', property: 'tagId' } } },
	];
}

/** A floor node's source: the two working properties, then `padding` more that no operation shows. */
function nodeSource(className: string, displayName: string, work: FloorWork, baseUrl: string, padding: number): string {
	const name = className.charAt(0).toLowerCase() + className.slice(1);
	const description = {
		displayName,
		name,
		group: ['transform'],
		version: 1,
		description: 'The floor of a declarative node (bench only)',
		defaults: { name: displayName },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: FLOOR_CREDENTIAL_TYPE, required: true }],
		requestDefaults: { baseURL: baseUrl, json: true, headers: { Accept: 'application/json', 'Content-Type': 'application/json' } },
		properties: [
			...working(work),
			...Array.from({ length: padding }, (_, index) => ({
				displayName: `Unused ${index + 1}`,
				name: `unused${index + 1}`,
				type: 'string',
				default: '',
				displayOptions: { show: { operation: ['never'] } },
			})),
		],
	};
	return `class ${className} {\n\tconstructor() {\n\t\tthis.description = ${JSON.stringify(description, null, '\t')};\n\t}\n}\nmodule.exports = { ${className} };\n`;
}

/** The floor node types, by case and shape. */
export const FLOOR_NODES = {
	remove: { two: `${FLOOR_PACKAGE}.benchFloorRemoveTwo`, shape: `${FLOOR_PACKAGE}.benchFloorRemoveShape` },
	list: { two: `${FLOOR_PACKAGE}.benchFloorListTwo`, shape: `${FLOOR_PACKAGE}.benchFloorListShape` },
} as const;

/**
 * Writes the floor package into `<userFolder>/.n8n/nodes` the way n8n's installer leaves a package
 * (node_modules/<name>, listed in nodes/package.json). Our node's count of top-level properties
 * decides the padding of the shape floor; returns both counts.
 */
export function installFloor(userFolder: string, baseUrl: string): { two: number; shape: number } {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const dir = join(nodesDir, 'node_modules', FLOOR_PACKAGE);
	mkdirSync(dir, { recursive: true });
	const shape = ourTopLevelProperties();
	const files: string[] = [];
	for (const [work, label] of [['remove', 'Remove'], ['list', 'List']] as const) {
		for (const [kind, padding] of [['Two', 0], ['Shape', shape - 2]] as const) {
			const className = `BenchFloor${label}${kind}`;
			writeFileSync(join(dir, `${className}.node.js`), nodeSource(className, `Floor ${label} (${kind === 'Two' ? '2 properties' : `${shape} properties`})`, work, baseUrl, padding));
			files.push(`${className}.node.js`);
		}
	}
	writeFileSync(join(dir, 'BenchFloorApi.credentials.js'), CREDENTIAL);
	writeFileSync(
		join(dir, 'package.json'),
		JSON.stringify({ name: FLOOR_PACKAGE, version: '1.0.0', n8n: { n8nNodesApiVersion: 1, nodes: files, credentials: ['BenchFloorApi.credentials.js'] } }),
	);
	const manifestPath = join(nodesDir, 'package.json');
	const manifest = (existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : { name: 'installed-nodes', private: true }) as { dependencies?: Record<string, string> };
	writeFileSync(manifestPath, JSON.stringify({ ...manifest, dependencies: { ...manifest.dependencies, [FLOOR_PACKAGE]: '1.0.0' } }, null, 2));
	return { two: 2, shape };
}
