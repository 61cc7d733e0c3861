// npm run release -- <patch|minor|major|x.y.z>
// Prepares a release locally; publishing is .github/workflows/publish.yml's job, on the tag:
//   1. checks: the working tree is clean, HEAD is on a branch, CHANGELOG.md's Unreleased section
//      has entries, the new version is higher and its tag does not exist yet;
//   2. bumps the version in package.json and package-lock.json (npm version, no git);
//   3. moves Unreleased into "## [x.y.z] - <today, UTC>" and updates the compare links, built from
//      package.json's repository address;
//   4. commits "Release x.y.z" and makes the annotated tag vx.y.z (message: the version's notes).
// It pushes nothing: `git push --follow-tags` then starts the publish workflow.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..', '..');
const changelogPath = join(repo, 'CHANGELOG.md');
const SEMVER = /^(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$/;

function fail(message) {
	console.error(`release: ${message}`);
	process.exit(1);
}

function git(...args) {
	return execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
}

/** The version after `current` for patch/minor/major, or an explicit x.y.z[-pre]. */
export function nextVersion(current, bump) {
	const [, major, minor, patch] = SEMVER.exec(current).map(Number);
	if (bump === 'major') return `${major + 1}.0.0`;
	if (bump === 'minor') return `${major}.${minor + 1}.0`;
	if (bump === 'patch') return `${major}.${minor}.${patch + 1}`;
	if (SEMVER.test(bump)) return bump;
	fail(`"${bump}" is neither patch, minor, major nor a version like 1.2.3`);
}

/** Whether version a is higher than b (a pre-release is lower than its release). */
function isHigher(a, b) {
	const pa = SEMVER.exec(a);
	const pb = SEMVER.exec(b);
	for (let i = 1; i <= 3; i++) if (Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) > Number(pb[i]);
	if (!pa[4] !== !pb[4]) return !pa[4];
	return (pa[4] ?? '') > (pb[4] ?? '');
}

/** CHANGELOG.md with Unreleased moved into `version`, and the new version's notes. */
export function releaseChangelog(text, version, previous, repository, date) {
	const lines = text.split('\n');
	const start = lines.findIndex((line) => /^## \[Unreleased\]\s*$/.test(line));
	if (start === -1) fail('CHANGELOG.md has no "## [Unreleased]" section');
	let end = lines.findIndex((line, i) => i > start && (/^## \[/.test(line) || /^\[[^\]]+\]: /.test(line)));
	if (end === -1) end = lines.length;
	const notes = lines.slice(start + 1, end).join('\n').trim();
	if (!/^- /m.test(notes)) fail('CHANGELOG.md: nothing under "## [Unreleased]"; add what changed first');

	const links = lines.slice(end).filter((line) => !/^\[Unreleased\]: /.test(line));
	const firstLink = links.findIndex((line) => /^\[[^\]]+\]: /.test(line));
	const newLinks = [`[Unreleased]: ${repository}/compare/v${version}...HEAD`, `[${version}]: ${repository}/compare/v${previous}...v${version}`];
	const tail = firstLink === -1 ? ['', ...newLinks, ...links] : [...links.slice(0, firstLink), ...newLinks, ...links.slice(firstLink)];

	const released = [...lines.slice(0, start), '## [Unreleased]', '', `## [${version}] - ${date}`, '', notes, '', ...tail];
	return { text: released.join('\n').replace(/\n{3,}/g, '\n\n'), notes };
}

function main() {
	const bump = process.argv[2];
	if (!bump) fail('usage: npm run release -- <patch|minor|major|x.y.z>');

	const status = git('status', '--porcelain');
	if (status) fail(`the working tree is not clean; commit or stash first:\n${status}`);
	const branch = git('rev-parse', '--abbrev-ref', 'HEAD');
	if (branch === 'HEAD') fail('HEAD is detached; release from a branch');

	const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
	const previous = pkg.version;
	const version = nextVersion(previous, bump);
	if (!isHigher(version, previous)) fail(`${version} is not higher than the current version ${previous}`);
	const tag = `v${version}`;
	if (git('tag', '--list', tag)) fail(`the tag ${tag} exists already`);
	const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

	const date = new Date().toISOString().slice(0, 10);
	const { text, notes } = releaseChangelog(readFileSync(changelogPath, 'utf8'), version, previous, repository, date);

	// Updates package.json and package-lock.json; runs no install.
	execFileSync('npm', ['version', version, '--no-git-tag-version', '--ignore-scripts'], { cwd: repo, stdio: 'ignore' });
	writeFileSync(changelogPath, text);

	git('add', 'package.json', 'package-lock.json', 'CHANGELOG.md');
	git('commit', '--quiet', '-m', `Release ${version}`);
	git('tag', '--annotate', '--cleanup=verbatim', tag, '--message', `${version}\n\n${notes}`);

	console.log(`Released ${previous} → ${version} on ${branch}: commit ${git('rev-parse', '--short', 'HEAD')} "Release ${version}", tag ${tag}.
CHANGELOG.md: "## [${version}] - ${date}".
Publish it: git push --follow-tags   (.github/workflows/publish.yml checks, builds and publishes ${tag} with provenance)`);
}

if (process.argv[1] === import.meta.filename) main();
