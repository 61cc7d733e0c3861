/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/**
 * A long step that shows it is alive: what it is doing and the time elapsed, at least every 10 s,
 * and how long it took at the end. On a terminal one line is rewritten in place; otherwise (CI,
 * a log file, jest's global setup) a line is written at each tick: a progress line, not a flood.
 *
 * Used for the first install of n8n (scripts/provision-n8n.sh, several minutes behind one line
 * before), by `npm run dev` and the e2e global setup alike.
 */
import { spawn } from 'node:child_process';

export const PROGRESS_EVERY_MS = 10_000;

export interface ProgressOutput {
	isTTY?: boolean;
	write(text: string): unknown;
}

/** Calls `tick` every `everyMs` until the returned stop function is called. */
export type Ticker = (everyMs: number, tick: () => void) => () => void;

export const intervalTicker: Ticker = (everyMs, tick) => {
	const timer = setInterval(tick, everyMs);
	// The ticker never keeps the process alive on its own.
	timer.unref();
	return () => clearInterval(timer);
};

export interface ProgressOptions {
	/** the tag of every line, e.g. 'provision-n8n' */
	tag: string;
	out?: ProgressOutput;
	now?: () => number;
	ticker?: Ticker;
}

/** "8 s", "1 min 05 s". */
export function formatElapsed(ms: number): string {
	const seconds = Math.max(0, Math.floor(ms / 1000));
	if (seconds < 60) return `${seconds} s`;
	return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
}

const CLEAR_LINE = '\r\x1b[2K';

export class Progress {
	private readonly out: ProgressOutput;
	private readonly now: () => number;
	private readonly started: number;
	private readonly stop: () => void;
	private doing: string | undefined;
	/** a TTY progress line is shown and not yet ended */
	private open = false;

	constructor(private readonly options: ProgressOptions) {
		this.out = options.out ?? process.stderr;
		this.now = options.now ?? Date.now;
		this.started = this.now();
		this.stop = (options.ticker ?? intervalTicker)(PROGRESS_EVERY_MS, () => this.tick());
	}

	/** A line of the step's own output, shown as it is (after the progress line, if any). */
	line(text: string): void {
		this.closeLine();
		this.out.write(`${text}\n`);
	}

	/** What the step does now, in a few words ("installing n8n-2.41.1 with npm"). */
	step(doing: string): void {
		this.doing = doing;
	}

	/** The time elapsed and what is being done: rewritten in place on a TTY, a line otherwise. */
	tick(): void {
		if (this.doing === undefined) return;
		const text = `[${this.options.tag}] still ${this.doing}: ${formatElapsed(this.now() - this.started)} elapsed`;
		if (this.out.isTTY) {
			this.out.write(`${CLEAR_LINE}${text}`);
			this.open = true;
		} else {
			this.out.write(`${text}\n`);
		}
	}

	/** Stops the ticks and says how long the whole took: "[tag] <what> in 5 min 12 s". */
	finish(what: string): void {
		this.stop();
		this.closeLine();
		this.out.write(`[${this.options.tag}] ${what} in ${formatElapsed(this.now() - this.started)}\n`);
	}

	/** Stops the ticks without a closing line (the caller reports the failure). */
	abandon(): void {
		this.stop();
		this.closeLine();
	}

	private closeLine(): void {
		if (!this.open) return;
		this.out.write(CLEAR_LINE);
		this.open = false;
	}
}

/**
 * What a stderr line of a step says it is doing: a tagged line that starts with a verb in -ing
 * (`[provision-n8n] installing n8n-2.41.1 with npm (…)`), up to its first parenthesis. Other lines
 * ("installed … in 312 s") report and leave the current step as it is.
 */
export function doingOf(line: string, tag: string): string | undefined {
	const prefix = `[${tag}] `;
	if (!line.startsWith(prefix)) return undefined;
	const text = line.slice(prefix.length).split(' (')[0].trim();
	return /^[a-z]+ing\b/.test(text) ? text : undefined;
}

export interface StepResult {
	status: number | null;
	stdout: string;
}

/**
 * Runs a command whose stderr narrates its steps (tagged lines), passing every stderr line on and
 * keeping the progress line going with the latest step; resolves with its exit status and stdout.
 */
export function runWithProgress(
	command: string,
	args: string[],
	settings: { cwd?: string; env?: NodeJS.ProcessEnv; progress: Progress; tag: string },
): Promise<StepResult> {
	const { progress, tag } = settings;
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, { cwd: settings.cwd, env: settings.env, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let pending = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
		const take = (line: string): void => {
			progress.line(line);
			const doing = doingOf(line, tag);
			if (doing !== undefined) progress.step(doing);
		};
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
			pending += chunk;
			const lines = pending.split('\n');
			pending = lines.pop() ?? '';
			for (const line of lines) take(line);
		});
		child.on('error', reject);
		child.on('close', (status) => {
			if (pending !== '') take(pending);
			resolve({ status, stdout });
		});
	});
}
