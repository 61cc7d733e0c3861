/**
 * The counterexamples lifecycle-model.test.ts shrank to, each a plain test (issue 35). Each was
 * found with one fix removed: the process record (1, 5), the hash check on delivery (2), the
 * constant-time hash comparison refusing other secrets (3), the reuse of registrations made under
 * an earlier token (4). The commands and invariants are the model's (lifecycle-model.ts).
 */
import { Activate, Deliver, Forge, lifecycleWorld, Restart, RotateToken, runLifecycle } from './lifecycle-model';

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
