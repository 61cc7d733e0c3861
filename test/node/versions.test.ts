/**
 * Each version of the action node is its own node type (n8n's VersionedNodeType, issue 44), so a
 * node runs with its version's description. n8n 1.x keeps one AI-tool variant per node type for its
 * whole process, whatever version asked first (n8n 2.x keys it by version, n8n-io/n8n#34850): a tool
 * node of the other version then runs with this version's description. Nothing may be sent then:
 * version 1's Automation → Update would send a whole trigger with defaults where version 2 sends only
 * what the user added. Through n8n-core's RoutingNode, the node type handed out being the other
 * version's, as n8n 1.x's cache hands it out.
 */
import { actionNode } from '../helpers/action-node';
import { runRoutingNode } from '../helpers/n8n-harness';
import { useSandbox } from '../helpers/node-runner';
import { VALID } from '../reliability/operations';

const ctx = useSandbox();

describe('a node run with the other version\'s node type (n8n 1.x\'s tool cache) sends nothing', () => {
	test.each([
		['version 2 node, version 1 node type', 2, 1],
		['version 1 node, version 2 node type', 1, 2],
	] as const)('%s: refused, naming both versions and what to do', async (_name, nodeVersion, typeVersion) => {
		const { sandbox } = ctx;
		// Automation → Update, whose form differs between the versions.
		const run = runRoutingNode('conversationInbox', actionNode(typeVersion), {
			parameters: VALID.automationUpdate,
			typeVersion: nodeVersion,
			credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
		});
		await expect(run).rejects.toThrow(`This node (version ${nodeVersion}) was given the parameters of node version ${typeVersion}: nothing was sent`);
		await run.catch((error: { description?: string }) => {
			expect(error.description).toMatch(/^n8n 1\.x keeps one AI-tool variant of a node for the whole n8n process.*Replace the older tool nodes with new ones/);
		});
		expect(sandbox.requests).toEqual([]);
	});

	test('an operation whose form both versions share runs either way: the same request (Automation → Delete)', async () => {
		const { sandbox } = ctx;
		await runRoutingNode('conversationInbox', actionNode(1), {
			parameters: VALID.automationDelete,
			typeVersion: 2,
			credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
		});
		expect(sandbox.requests.map((request) => [request.path, request.body])).toEqual([['/v2/automation/delete', { automationTriggerId: VALID.automationDelete.automationTriggerId }]]);
	});

	test('the node type of its own version runs as usual', async () => {
		const { sandbox } = ctx;
		for (const version of [1, 2]) {
			await runRoutingNode('conversationInbox', actionNode(version), {
				parameters: VALID.automationDelete,
				typeVersion: version,
				credentials: { baseUrl: sandbox.baseUrl, apiToken: sandbox.token },
				continueOnFail: true,
			});
		}
		expect(sandbox.requests.map((request) => request.path)).toEqual(['/v2/automation/delete', '/v2/automation/delete']);
	});
});
