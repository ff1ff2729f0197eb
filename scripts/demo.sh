#!/usr/bin/env bash
# `npm run demo`, the first command of the README. Gets this machine ready (packages, build,
# PostgreSQL, Redis), then runs scripts/demo.ts, which starts the screen host, the API and the worker
# as real processes, shows one governed run, and stops them again.
#
# Environment (all optional): WARDEN_DEMO_DB (default warden_demo), WARDEN_DEMO_PG_URL (a database
# to connect to for CREATE DATABASE), WARDEN_DEMO_REDIS_URL, WARDEN_DEMO_QUEUE_PREFIX,
# WARDEN_DEMO_PORT (the API's; default a free one), WARDEN_DEMO_FROM_SOURCE=1 (run the entry points
# from their TypeScript sources and skip the build).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '%s\n' "$*"; }

# Node.js 24 first on PATH (installed into .node/ when the machine's node is older).
. scripts/lib/node.sh
if [ ! -x node_modules/.bin/node ]; then
  say "Installing packages (npm ci), once…"
  npm ci --no-audit --no-fund --loglevel=error
fi

# True when $1 is missing or any source after it (files or folders) changed since it was built.
stale() {
  local out=$1
  shift
  [ -f "$out" ] || return 0
  [ -n "$(find "$@" -type f -newer "$out" ! -name '*.spec.ts' -print -quit 2>/dev/null)" ]
}
if [ "${WARDEN_DEMO_FROM_SOURCE:-}" != 1 ]; then
  if stale dist/src/main.js src migrations config tsconfig.json tsconfig.build.json; then
    say "Building Warden (dist/ is missing or older than the sources)…"
    node_modules/.bin/nest build
  fi
  if stale screen-host/dist/main.js screen-host/src screen-host/tsconfig.json screen-host/tsconfig.build.json; then
    say "Building the screen host…"
    npm run build -w screen-host --silent
  fi
fi

# PostgreSQL and Redis on this machine, started as .ci/run starts them when they do not answer.
# They are the machine's services: the demo leaves them running (and its database in PostgreSQL).
started=()
if [ -z "${WARDEN_DEMO_PG_URL:-}" ] && ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  say "Starting PostgreSQL…"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
  started+=(PostgreSQL)
fi
if [ -z "${WARDEN_DEMO_REDIS_URL:-}" ] && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  say "Starting Redis…"
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/demo.log
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
  started+=(Redis)
fi
export WARDEN_DEMO_STARTED_SERVICES="${started[*]:-}"

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
node -r @swc-node/register scripts/demo.ts
