/**
 * The trigger's registration reads the API's answer with the one reader of answers
 * (nodes/shared/reading.ts), in n8n-core's real HookContext against the sandbox switched to other
 * answer shapes (test/sandbox/shapes.ts): any 2xx the API sends (another shape, an empty body, a
 * 204) is registered and recorded, and never registered again; an error in any shape shows the
 * API's whole explanation.
 */
import { randomUUID } from 'node:crypto';
import { NodeApiError } from 'n8n-workflow';

import type { AnswerShape } from '../sandbox';
import { ERROR_SHAPES, SECOND_REASON } from '../sandbox';
import { TriggerInstance } from '../helpers/trigger-harness';
import { sandboxForFile, triggerParameters, UNKNOWN_INTEGRATION, webhooksFor } from './setup';

const fixture = sandboxForFile();
const REGISTER = '/integration/webhook/create';

beforeEach(() => fixture.sandbox.reset());

function trigger(parameters = triggerParameters({ events: ['MESSAGE_RECEIVED', 'MESSAGE_SENT'] })): TriggerInstance {
	return new TriggerInstance({
		parameters,
		credentials: fixture.credentials,
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		webhookId: randomUUID(),
	});
}

const registered = (instance: TriggerInstance): unknown[] =>
	((instance.nodeStaticData() as { registrations?: unknown[] }).registrations ?? []);

async function activationError(instance: TriggerInstance): Promise<NodeApiError> {
	const error = await instance.activate().then(
		() => undefined,
		(caught: unknown) => caught,
	);
	expect(error).toBeInstanceOf(NodeApiError);
	return error as NodeApiError;
}

describe('the trigger\'s registration under other answer shapes', () => {
	test.each(['noSuccess', 'otherEnvelope'] as AnswerShape[])('%s: both events registered and recorded', async (shape) => {
		fixture.sandbox.setVariants({ shapes: { [REGISTER]: shape } });
		const instance = trigger();
		await instance.activate();
		expect(webhooksFor(fixture.sandbox, instance.webhookUrl()).map((webhook) => webhook.type).sort()).toEqual(['MESSAGE_RECEIVED', 'MESSAGE_SENT']);
		expect(registered(instance)).toHaveLength(2);
	});

	/** The registrations the sandbox received. */
	const registrationsReceived = (): number =>
		fixture.sandbox.requests.filter((request) => request.method === 'POST' && request.path === `/v2${REGISTER}`).length;

	test.each(['empty', 'noContent', 'nested'] as AnswerShape[])(
		'%s: a 2xx is registered: recorded, and never registered again (re-activation reuses it)',
		async (shape) => {
			fixture.sandbox.setVariants({ shapes: { [REGISTER]: shape } });
			const first = trigger();
			await first.activate();
			expect(registrationsReceived()).toBe(2);
			expect(webhooksFor(fixture.sandbox, first.webhookUrl()).map((webhook) => webhook.type).sort()).toEqual(['MESSAGE_RECEIVED', 'MESSAGE_SENT']);
			expect(registered(first)).toHaveLength(2);

			// Deactivated, then activated again from what n8n saved: nothing more is registered.
			await first.deactivate();
			const again = new TriggerInstance({ ...first.setup, staticData: first.persistedStaticData(), webhookId: first.node.webhookId });
			const calls = await again.activate();
			expect(calls.filter((call) => call.hook === 'create')).toEqual([]);
			expect(registrationsReceived()).toBe(2);
			expect(webhooksFor(fixture.sandbox, again.webhookUrl())).toHaveLength(2);
		},
	);

	test('success:false under 200 is not registered: an error, nothing recorded', async () => {
		fixture.sandbox.addFault({ kind: 'success-false', path: REGISTER });
		const instance = trigger();
		const error = await activationError(instance);
		expect(error.message).toMatch(/did not succeed \(HTTP 200\)/);
		expect(registered(instance)).toEqual([]);
	});

	test.each([...ERROR_SHAPES])('an unknown integration answered with %s: the API\'s explanation in full', async (shape) => {
		fixture.sandbox.setVariants({ shapes: { [REGISTER]: shape } });
		const error = await activationError(trigger(triggerParameters({ integrationId: UNKNOWN_INTEGRATION, integrationMode: 'id' })));
		expect(error.httpCode).toBe('404');
		expect(error.message).toMatch(new RegExp(`\\(HTTP 404\\): integrationId: .*${UNKNOWN_INTEGRATION}`));
		// The list shapes carry a second text: it is shown too.
		expect(error.message.endsWith(`; ${SECOND_REASON}`)).toBe(shape === 'messageList' || shape === 'errorsList');
		expect(String(error.description)).not.toContain('sent no message');
	});
});
