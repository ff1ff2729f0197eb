#!/usr/bin/env bash
# `npm run demo`, the first command of the README. Gets this machine ready (Node.js 24, packages,
# PostgreSQL, Redis), builds, then runs scripts/demo.ts, which starts the screen host, the API and
# the worker as real processes, shows one governed run, and stops them again.
#
# Environment (all optional): WARDEN_DEMO_DB (default warden_demo), WARDEN_DEMO_PG_URL (a database
# to connect to for CREATE DATABASE), WARDEN_DEMO_REDIS_URL, WARDEN_DEMO_QUEUE_PREFIX,
# WARDEN_DEMO_PORT (the API's; default a free one), WARDEN_DEMO_FROM_SOURCE=1 (run the entry points
# from their TypeScript sources and skip the build).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '%s\n' "$*"; }

# Arguments are checked before anything is installed or started.
for arg in "$@"; do
  if [ "$arg" != --keep ]; then
    printf 'demo: unknown argument %s\nusage: npm run demo [-- --keep]\n' "$arg" >&2
    exit 2
  fi
done

# The demo's work folder (certificate, logs, pids). Whatever the demo could not stop itself (it was
# killed with SIGKILL, say) is stopped here, by the pids it wrote down.
WARDEN_DEMO_WORK="$(mktemp -d "${TMPDIR:-/tmp}/warden-demo.XXXXXX")"
export WARDEN_DEMO_WORK
cleanup() {
  if [ -s "$WARDEN_DEMO_WORK/pids" ]; then
    while read -r pid; do kill -TERM "$pid" 2>/dev/null || true; done <"$WARDEN_DEMO_WORK/pids"
  fi
  rm -rf "$WARDEN_DEMO_WORK"
}
trap cleanup EXIT

# Node.js 24 first on PATH, then the npm packages, PostgreSQL and Redis (when they do not answer).
# Those are the machine's services: the demo leaves them running (and its database in PostgreSQL).
. scripts/lib/node.sh
WARDEN_PREPARE_STARTED="$WARDEN_DEMO_WORK/started" bash scripts/prepare-machine.sh demo
WARDEN_DEMO_STARTED_SERVICES="$(paste -sd' ' "$WARDEN_DEMO_WORK/started" 2>/dev/null || true)"
export WARDEN_DEMO_STARTED_SERVICES

# True when $1 is missing or any source after it (files or folders) changed since it was built.
stale() {
  local out=$1
  shift
  [ -f "$out" ] || return 0
  [ -n "$(find "$@" -type f -newer "$out" ! -name '*.spec.ts' -print -quit 2>/dev/null)" ]
}
if [ "${WARDEN_DEMO_FROM_SOURCE:-}" != 1 ]; then
  # The protocol package first: Warden's and the screen host's compiled code load its dist/.
  if stale packages/protocol/dist/index.js packages/protocol/src packages/protocol/tsconfig.json packages/protocol/tsconfig.build.json; then
    say "Building the protocol package…"
    npm run build -w packages/protocol --silent
  fi
  if stale dist/src/main.js src migrations config tsconfig.json tsconfig.build.json; then
    say "Building Warden (dist/ is missing or older than the sources)…"
    node_modules/.bin/nest build
  fi
  if stale screen-host/dist/main.js screen-host/src screen-host/tsconfig.json screen-host/tsconfig.build.json; then
    say "Building the screen host…"
    npm run build -w screen-host --silent
  fi
fi

# The console is served from dist/console/ however the entry points run.
if stale dist/console/app.js src/console/browser packages/protocol/src scripts/build-console.ts; then
  say "Building the console…"
  npm run build:console --silent
fi

node -r @swc-node/register scripts/demo.ts "$@"
