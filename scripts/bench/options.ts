/* eslint-disable -- development tooling, not shipped: n8n's node rules (eslint.config.mjs, n8n-node lint) are for nodes/ and credentials/ */
/** `--name N` from the command line of a bench script, or the fallback. */
export function option(name: string, fallback: number): number {
	const at = process.argv.indexOf(`--${name}`);
	const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
	if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number >= 0`);
	return value;
}

/** `--name value` as text, or undefined when absent. */
export function textOption(name: string): string | undefined {
	const at = process.argv.indexOf(`--${name}`);
	if (at < 0) return undefined;
	const value = process.argv[at + 1];
	if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
	return value;
}
