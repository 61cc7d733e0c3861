/**
 * The counterexamples lifecycle-model.test.ts shrank to, each a plain test (issues 35 and 42). Each
 * was found with one fix removed: the process record (1, 5), the hash check on delivery (2), the
 * constant-time hash comparison refusing other secrets (3), the reuse of registrations made under
 * an earlier token (4); issue 42: the check that a delivery comes from the current registration
 * of its kind (6), the registrations kept under the webhook ID in the workflow's global static
 * data (7), a registration answered 502 kept as possibly made, never reused (8) and kept at all
 * (9). The commands and invariants are the model's (lifecycle-model.ts).
 */
import { Activate, Deliver, Forge, lifecycleWorld, Rename, Restart, RotateToken, runLifecycle } from './lifecycle-model';

lifecycleWorld();

test('1: an activation refused on its second kind, then the same activation again (static data saved on success only): one registration per kind', async () => {
	await runLifecycle('saved-on-success', [
		new Activate(['MESSAGE_SENT', 'MESSAGE_RECEIVED'], 'MESSAGE_RECEIVED'),
		new Activate(['MESSAGE_SENT', 'MESSAGE_RECEIVED'], undefined),
	]);
});

test('2: activate, rotate the token, a real MESSAGE_RECEIVED: answered 200, the workflow runs once', async () => {
	await runLifecycle('saved-on-success', [new Activate(['MESSAGE_RECEIVED'], undefined), new RotateToken(), new Deliver('MESSAGE_RECEIVED')]);
});

test('3: activate, a forged delivery with a 64-hex secret: 401, nothing runs', async () => {
	await runLifecycle('saved-on-success', [new Activate(['MESSAGE_RECEIVED'], undefined), new Forge(`aa000a0a${'0'.repeat(56)}`)]);
});

test('4: activate, rotate the token, restart n8n (it activates the workflow again): no second registration', async () => {
	await runLifecycle('saved-on-success', [new Activate(['MESSAGE_RECEIVED'], undefined), new RotateToken(), new Restart('restart')]);
});

test('5: an activation refused part-way, the same activation again, restart n8n: the registration of the failed activation was saved with the second one, none is made again', async () => {
	await runLifecycle('saved-on-success', [
		new Activate(['MESSAGE_SENT', 'MESSAGE_RECEIVED'], 'MESSAGE_RECEIVED'),
		new Activate(['MESSAGE_SENT', 'MESSAGE_RECEIVED'], undefined),
		new Restart('restart'),
	]);
});

test('6: a registration the API made but answered 502, then the activation again: registered anew, and an event runs the workflow once, not once per registration', async () => {
	await runLifecycle('saved-on-success', [
		new Activate(['MESSAGE_RECEIVED'], undefined, { kind: 'MESSAGE_RECEIVED', answer: 502, carriedOut: true }),
		new Activate(['MESSAGE_RECEIVED'], undefined),
		new Deliver('MESSAGE_RECEIVED'),
	]);
});

test('7: a failed activation saved anyway (2.41.1\'s publication service), the node renamed, n8n restarted, activated again: nothing registered twice', async () => {
	await runLifecycle('saved-always', [
		new Activate(['MESSAGE_RECEIVED', 'CONNECTION_STATUS_UPDATE'], undefined, { kind: 'CONNECTION_STATUS_UPDATE', answer: 502, carriedOut: false }),
		new Rename('Inbox events'),
		new Restart('restart'),
		new Activate(['MESSAGE_RECEIVED'], undefined),
	]);
});

test('8: a registration answered 502 that the API did not make, then the activation again: asked for again (reusing it would be a deaf trigger)', async () => {
	await runLifecycle('saved-on-success', [
		new Activate(['MESSAGE_RECEIVED'], undefined, { kind: 'MESSAGE_RECEIVED', answer: 502, carriedOut: false }),
		new Activate(['MESSAGE_RECEIVED'], 'MESSAGE_RECEIVED'),
	]);
});

test('9: a registration the API made but answered 502, the token rotated, another event activated: that registration\'s deliveries are still recognised (answered 200, run nothing)', async () => {
	await runLifecycle('saved-on-success', [
		new Activate(['CONNECTION_STATUS_UPDATE', 'MESSAGE_SENT', 'MESSAGE_RECEIVED'], undefined, { kind: 'MESSAGE_SENT', answer: 502, carriedOut: true }),
		new RotateToken(),
		new Activate(['MESSAGE_RECEIVED'], undefined),
		new Deliver('MESSAGE_SENT'),
	]);
});
