#!/usr/bin/env bash
# Installs Debian's Chromium for the browser e2e check (test/e2e/suites/browser.ts), which drives it
# with playwright-core (no browser download). Idempotent: does nothing when /usr/bin/chromium exists.
# Needs root (or sudo) and apt; prints where the browser is.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
	echo "chromium: $CHROMIUM (already installed)"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
		echo "install-chromium.sh: not root and no sudo; install it with: apt-get update && apt-get install -y chromium" >&2
		exit 1
	fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-chromium.sh: apt-get not found (Debian/Ubuntu only); install Chromium at $CHROMIUM yourself" >&2
	exit 1
fi

echo "install-chromium.sh: apt-get update && apt-get install -y chromium" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq --no-install-recommends chromium >&2

if [ ! -x "$CHROMIUM" ]; then
	echo "install-chromium.sh: apt installed chromium but $CHROMIUM is missing" >&2
	exit 1
fi
echo "chromium: $CHROMIUM ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
