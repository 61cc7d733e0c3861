/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * The Timeout's timer (clock.ts, afterLoopFreeMs): it fires once its time has passed with n8n's loop
 * free, looks again when it fired late (the loop was busy, an answer may wait unread), and leaves no
 * timer behind once stopped. Real timers: the loop is held by a busy wait, and the order is Node's
 * (due timers run in the order they are due), not the machine's speed.
 */
import { afterLoopFreeMs, LOOP_BUSY_MS } from '../../nodes/shared/clock';

function holdLoop(ms: number): void {
	const until = performance.now() + ms;
	while (performance.now() < until) {
		// busy on purpose
	}
}

/** Resolves after the timers due now have run (a timer due later than theirs runs after them). */
const afterDueTimers = async (): Promise<void> => await new Promise((resolve) => setTimeout(resolve, 1));

async function until(check: () => boolean, ms = 30_000): Promise<void> {
	for (const deadline = Date.now() + ms; !check(); ) {
		if (Date.now() > deadline) throw new Error(`not reached in ${ms} ms`);
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}

const activeTimers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

test('the loop held past the time (the timer fires late): it looks again instead of firing, then fires once', async () => {
	const fire = jest.fn();
	afterLoopFreeMs(20, fire);
	holdLoop(20 + LOOP_BUSY_MS * 3);
	await afterDueTimers();
	expect(fire).not.toHaveBeenCalled();
	await until(() => fire.mock.calls.length > 0);
	await afterDueTimers();
	expect(fire).toHaveBeenCalledTimes(1);
});

test('stopped: nothing fires and no timer is left (also after it looked again)', async () => {
	// Counted within one synchronous step each time: nothing else runs in between.
	const before = activeTimers();
	const fire = jest.fn();
	const timer = afterLoopFreeMs(20, fire);
	expect(activeTimers()).toBe(before + 1);
	timer.stop();
	expect(activeTimers()).toBe(before);

	const late = afterLoopFreeMs(20, fire);
	holdLoop(20 + LOOP_BUSY_MS * 3);
	await afterDueTimers();
	// It looked again: stop() clears the timer it armed then. Counted within one synchronous step
	// (the process's other timers come and go between awaits; none can between these two lines).
	const during = activeTimers();
	late.stop();
	expect(activeTimers()).toBe(during - 1);
	expect(fire).not.toHaveBeenCalled();
});
