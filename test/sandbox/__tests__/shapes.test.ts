import { DEMO } from '../index';
import type { AnswerShape } from '../shapes';
import { expectError, useSandbox } from './helpers';

const { sandbox, api } = useSandbox();

describe('answer shapes (variants.shapes): how answers are written, not what the handler does', () => {
	it('noContent / empty: 204 without a body, 200 with an empty JSON body; the delete still happens', async () => {
		sandbox().setVariants({ shapes: { '/automation/delete': 'noContent', '/integration/delete': 'empty' } });
		const deleted = await api().post('/automation/delete', { automationTriggerId: DEMO.triggers.webhook.id });
		expect([deleted.status, deleted.text]).toEqual([204, '']);
		expect(sandbox().state.triggers.has(DEMO.triggers.webhook.id)).toBe(false);
		const queued = await api().post('/integration/delete', { integrationId: DEMO.integrations.whatsapp.id });
		expect([queued.status, queued.text, queued.headers.get('content-type')]).toEqual([200, '', 'application/json; charset=utf-8']);
		expect(sandbox().requests.map((request) => request.status)).toEqual([204, 200]);
	});

	it('noSuccess, otherEnvelope, nested, noHasNext rewrite the success body', async () => {
		const invite = { integrationId: DEMO.integrations.whatsapp.id, groupJid: DEMO.group.jid };
		const plain = (await api().get('/group/get-invite-url', invite)).body;
		sandbox().setVariants({ shapes: { '/group/get-invite-url': 'noSuccess' } });
		expect((await api().get('/group/get-invite-url', invite)).body).toEqual({ response: plain.response });
		sandbox().setVariants({ shapes: { '/group/get-invite-url': 'otherEnvelope' } });
		expect((await api().get('/group/get-invite-url', invite)).body).toEqual({ success: true, data: plain.response });
		sandbox().setVariants({ shapes: { '*': 'nested' } });
		expect((await api().get('/group/get-invite-url', invite)).body).toEqual({ success: true, response: { result: plain.response } });
		sandbox().setVariants({ shapes: { '/v2/provider-template/list': 'noHasNext' } });
		const paging = (await api().get('/provider-template/list', { integrationId: DEMO.integrations.official.id, limit: 2 })).body.response.paging;
		expect(Object.keys(paging)).toEqual(['after']);
	});

	it('the error shapes rewrite error bodies (the sandbox\'s own and faults), never success bodies', async () => {
		const duplicate = () => api().post('/tag/create', { name: DEMO.tags.vip.name });
		const text = `name: a tag named "${DEMO.tags.vip.name}" already exists`;
		const second = 'a second reason the API gives';
		const bodies: unknown[] = [];
		for (const shape of ['messageList', 'errorObject', 'errorText', 'errorsList'] as AnswerShape[]) {
			sandbox().setVariants({ shapes: { '/tag/create': shape } });
			const reply = await duplicate();
			expect(reply.status).toBe(409);
			bodies.push(reply.body);
		}
		expect(bodies).toEqual([
			{ success: false, message: [text, second] },
			{ success: false, error: { message: text, code: 'REQUEST_ERROR' } },
			{ success: false, error: text },
			{ success: false, errors: [{ message: text }, second] },
		]);
		sandbox().addFault({ path: '/tag/create', kind: 'success-false', message: 'refused' });
		expect((await duplicate()).body).toEqual({ success: false, errors: [{ message: 'refused' }, second] });
		expect((await api().post('/tag/create', { name: 'Fresh' })).body.success).toBe(true);
	});

	it('the body shapes write error answers as text, problem details or a proxy\'s page, never success bodies', async () => {
		const duplicate = () => api().post('/tag/create', { name: DEMO.tags.vip.name });
		const text = `name: a tag named "${DEMO.tags.vip.name}" already exists`;
		const written: unknown[] = [];
		for (const shape of ['textPlain', 'problemJson', 'htmlPage'] as AnswerShape[]) {
			sandbox().setVariants({ shapes: { '/tag/create': shape } });
			const reply = await duplicate();
			written.push([reply.status, reply.headers.get('content-type'), reply.text]);
		}
		expect(written).toEqual([
			[409, 'text/plain; charset=utf-8', text],
			[409, 'application/problem+json', JSON.stringify({ type: 'about:blank', title: 'Request rejected', detail: text })],
			[409, 'text/html; charset=utf-8', expect.stringContaining('<title>Sign in - Corporate Proxy</title>')],
		]);
		// success:false under 200 keeps its status; a success is written as JSON.
		sandbox().addFault({ path: '/tag/create', kind: 'success-false' });
		const page = await duplicate();
		expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
		expect((await api().post('/tag/create', { name: 'Fresh' })).body.success).toBe(true);
	});

	it('an unknown shape is refused', async () => {
		expectError(await api().control('POST', '/variants', { shapes: { '/tag/create': 'teapot' } }), 400, 'variants.shapes["/tag/create"] must be one of');
		expectError(await api().control('POST', '/variants', { shapes: 'empty' }), 400, 'variants.shapes must be an object');
	});
});
