/** `--name N` from the command line of a bench script, or the fallback. */
export function option(name: string, fallback: number): number {
	const at = process.argv.indexOf(`--${name}`);
	const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
	if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number >= 0`);
	return value;
}
