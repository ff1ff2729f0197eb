#!/usr/bin/env bash
# The first command of the README: shows Warden working on this machine, then stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund
exec node -r @swc-node/register scripts/demo.ts
