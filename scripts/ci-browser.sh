#!/usr/bin/env bash
# Installs Debian's Chromium for the browser test of the API reference page (test/docs/browser.test.ts)
# when it is missing. .ci/run calls this before the test suite; under CI=true that test fails
# without /usr/bin/chromium instead of skipping.
set -euo pipefail

if [ -x /usr/bin/chromium ]; then
  echo "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium is missing and apt-get is not available: install Chromium at /usr/bin/chromium" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "chromium is missing and installing it needs root (or sudo)" >&2
    exit 1
  fi
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y chromium
/usr/bin/chromium --version
