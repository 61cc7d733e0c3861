/**
 * The trigger's registration reads the API's answer with the one reader of answers
 * (nodes/shared/reading.ts), in n8n-core's real HookContext against the sandbox switched to other
 * answer shapes (test/sandbox/shapes.ts): a registration the API confirms in another shape is
 * recorded; one it answers with nothing is a loud error; an error in any shape shows the API's
 * whole explanation.
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

	test.each(['empty', 'noContent'] as AnswerShape[])('%s: a loud error that the API answered nothing, naming response.webhook', async (shape) => {
		fixture.sandbox.setVariants({ shapes: { [REGISTER]: shape } });
		const instance = trigger();
		const error = await activationError(instance);
		expect(error.message).toMatch(/^The API answered nothing \(HTTP 20[04]\)/);
		expect(String(error.description)).toContain('expected response.webhook');
		expect(String(error.description)).toContain('may have been carried out');
		expect(registered(instance)).toEqual([]);
	});

	test('nested: a loud error naming the key expected and the keys that came', async () => {
		fixture.sandbox.setVariants({ shapes: { [REGISTER]: 'nested' } });
		const error = await activationError(trigger());
		expect(error.message).toContain('has no response.webhook');
		expect(String(error.description)).toContain('expected response.webhook; the answer has success, response.result');
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
