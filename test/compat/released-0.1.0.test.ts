/**
 * The version contract: every workflow saved with the released 0.1.0 (test/fixtures/0.1.0/action,
 * recorded once from the 0.1.0 build and frozen) sends exactly what 0.1.0 sent, through the current
 * node at the typeVersion the workflow saved. The expected requests are the recorded ones, never
 * anything computed by the code under test.
 */
import { runNode, useSandbox } from '../helpers/node-runner';
import { actionFixtures, asRecorded, cameFor, endOfListProbes } from './fixtures';

describe('workflows saved with 0.1.0 send exactly what 0.1.0 sent', () => {
	const env = useSandbox();
	const fixtures = actionFixtures();

	it('covers every operation 0.1.0 had (19)', () => {
		const operations = new Set(fixtures.map((f) => f.name.split('.').slice(0, 2).join('.')));
		expect(operations.size).toBe(19);
		expect(fixtures.every((f) => f.node.typeVersion === 1)).toBe(true);
	});

	it.each(fixtures.map((f) => [f.name, f] as const))('%s', async (_name, fixture) => {
		await runNode(env.sandbox, { parameters: fixture.node.parameters, typeVersion: fixture.node.typeVersion });
		const received = [...env.sandbox.requests];
		const sent = received.map(asRecorded);
		// Every request 0.1.0 sent, exactly and in order; then, for a list without a total, at most the
		// one read that finds the list's end (see endOfListProbes).
		expect(sent.slice(0, fixture.requests.length)).toEqual(fixture.requests);
		expect(endOfListProbes(fixture, received.slice(fixture.requests.length), await cameFor(fixture, env.sandbox))).toEqual([]);
	});
});
