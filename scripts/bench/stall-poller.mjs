/**
 * The poller of the bench's `stall` case (scripts/bench/stall.ts), run as its own process so that
 * it keeps its clock and its requests going while n8n (and anything in the bench process) is busy.
 *
 *   node scripts/bench/stall-poller.mjs <healthz URL> <webhook URL> <interval ms> <max lifetime ms>
 *
 * Per URL one request in flight at most: the next one leaves `interval` ms after the previous one
 * left, or at once when its answer came later than that (so a frozen n8n is not buried under a pile
 * of queued requests, and a webhook poll cannot start hundreds of executions after a freeze).
 * Every answer (any HTTP status) is recorded with its send and answer time (Date.now(), the clock
 * the bench and the sandbox read too). On the message "stop" from the parent (IPC), or when the
 * lifetime is over, it sends back { probes: [{ target, sentAt, answeredAt, status }] } and exits.
 * It says { ready: true } once both targets have answered.
 */
const [healthzUrl, webhookUrl, intervalText, lifetimeText] = process.argv.slice(2);
const interval = Number(intervalText);
const lifetime = Number(lifetimeText);
if (!healthzUrl || !webhookUrl || !(interval > 0) || !(lifetime > 0)) {
	console.error('usage: stall-poller.mjs <healthz URL> <webhook URL> <interval ms> <max lifetime ms>');
	process.exit(2);
}

const probes = [];
let stopping = false;
/** targets that answered at least once; the parent hears "ready" when both have */
const answeredOnce = new Set();
let announced = false;

async function poll(target, url, init) {
	while (!stopping) {
		const sentAt = Date.now();
		try {
			// bounded: an answer that takes longer than the lifetime is no answer
			const res = await fetch(url, { ...init, signal: AbortSignal.timeout(lifetime) });
			await res.arrayBuffer();
			probes.push({ target, sentAt, answeredAt: Date.now(), status: res.status });
			answeredOnce.add(target);
			if (answeredOnce.size === 2 && !announced && process.send) {
				announced = true;
				process.send({ ready: true });
			}
		} catch (error) {
			probes.push({ target, sentAt, answeredAt: undefined, status: 0, error: String(error).slice(0, 120) });
		}
		const wait = sentAt + interval - Date.now();
		if (wait > 0 && !stopping) await new Promise((resolve) => setTimeout(resolve, wait));
	}
}

const loops = Promise.all([
	poll('healthz', healthzUrl, {}),
	poll('webhook', webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"poll":true}' }),
]);

let reported = false;
function report() {
	if (reported) return;
	reported = true;
	stopping = true;
	const send = () => (process.send ? process.send({ probes }, () => process.exit(0)) : (console.log(JSON.stringify({ probes })), process.exit(0)));
	send();
}

process.on('message', (message) => {
	if (message === 'stop') report();
});
// Stops by itself: never outlives its bound, and never outlives the bench (IPC closed).
setTimeout(report, lifetime).unref();
process.on('disconnect', () => process.exit(0));
void loops;
