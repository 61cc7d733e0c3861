// Publishing happens only in .github/workflows/publish.yml, on the tag `npm run release` made:
// that is where npm signs the provenance statement n8n's verification requires. This check is
// publish.yml's first job and package.json's prepublishOnly, so a `npm publish` from a laptop
// (or from any CI run that is not a version tag) stops here, before anything is packed.
// Passes only when GITHUB_ACTIONS=true, the ref is a tag, the tag is `v` + package.json's version,
// and CHANGELOG.md has a section for that version.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '..', '..');
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const expectedTag = `v${version}`;

function refuse(reason) {
	console.error(`Refusing to publish: ${reason}.

This package is published only by GitHub Actions (.github/workflows/publish.yml), from a version tag,
so that npm records a provenance statement (n8n requires it for verified community nodes):
  1. npm run release -- <patch|minor|major|x.y.z>   (bumps the version, updates CHANGELOG.md, commits, tags)
  2. git push --follow-tags                          (the tag starts the publish workflow)
To see what would be published: npm pack --dry-run`);
	process.exit(1);
}

const { GITHUB_ACTIONS, GITHUB_REF = '' } = process.env;
if (GITHUB_ACTIONS !== 'true') refuse('not running in GitHub Actions (GITHUB_ACTIONS is not "true")');
if (!GITHUB_REF.startsWith('refs/tags/')) refuse(`the workflow did not start from a tag (GITHUB_REF=${GITHUB_REF || 'unset'})`);

const tag = GITHUB_REF.slice('refs/tags/'.length);
if (tag !== expectedTag) refuse(`the tag ${tag} is not package.json's version ${version} (expected the tag ${expectedTag})`);

const changelog = readFileSync(join(repo, 'CHANGELOG.md'), 'utf8');
if (!changelog.split('\n').some((line) => line.startsWith(`## [${version}]`))) {
	refuse(`CHANGELOG.md has no "## [${version}]" section`);
}

console.log(`Tag ${tag} is package.json's version ${version}, and CHANGELOG.md has its section: publishing.`);
