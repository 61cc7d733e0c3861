// Runs n8n's own verification scanner (@n8n/scan-community-package) locally, the way it
// checks a published package: its lint config over the sources (package.json, nodes/,
// credentials/) and over the packed tarball (compiled .js and the published package.json).
// Exits non-zero on any finding. Needs a fresh `npm run build`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const repo = resolve(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'scan-package-'));

try {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: repo, encoding: 'utf8' }),
	)[0];
	execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', work]);
	const tarballDir = join(work, 'package');

	// A scan of an empty or half-built tarball would pass: every file n8n loads must be in it.
	const { n8n } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
	const missing = [...n8n.nodes, ...n8n.credentials].filter((file) => !existsSync(join(tarballDir, file)));
	if (missing.length > 0) {
		throw new Error(`the tarball lacks ${missing.join(', ')}: run npm run build first`);
	}

	const legs = [
		['sources', await analyzePackage(repo, SOURCE_FILE_PATTERNS)],
		['tarball', await analyzePackage(tarballDir, ['**/*.js', 'package.json'])],
	];
	let failed = false;
	for (const [leg, result] of legs) {
		console.log(`${leg}: ${result.passed ? 'passed, 0 findings' : `FAILED: ${result.message}`}`);
		if (!result.passed) {
			failed = true;
			if (result.details) console.log(result.details);
		}
	}
	console.log(`tarball: ${packed.filename}, ${packed.size} bytes packed, ${packed.entryCount} files`);
	process.exitCode = failed ? 1 : 0;
} finally {
	rmSync(work, { recursive: true, force: true });
}
