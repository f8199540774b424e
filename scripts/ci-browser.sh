#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests of the API reference page (test/docs/browser.test.ts)
# when no Chromium is on PATH. .ci/run calls this before the test suite; under CI=true those tests fail
# without a browser instead of skipping. They also find playwright-core's own download
# (npx playwright-core install chromium), which needs no root but fetches from Playwright's servers.
set -euo pipefail

for name in chromium chromium-browser google-chrome google-chrome-stable; do
  if command -v "$name" >/dev/null 2>&1; then
    echo "$name: $("$name" --version 2>/dev/null || echo present)"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "no Chromium on PATH and apt-get is not available: install chromium, or run npx playwright-core install chromium" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "no Chromium on PATH and installing it needs root (or sudo); npx playwright-core install chromium needs neither" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y chromium
chromium --version
