#!/usr/bin/env bash
# Gets this machine ready for the tests or the demo, and does nothing when it already is:
#
#   scripts/prepare-machine.sh test   npm packages, the Debian packages the x11, console,
#                                     audit-sink and scale-out tests drive, PostgreSQL and Redis
#                                     (`npm test` runs it first, pretest)
#   scripts/prepare-machine.sh demo   npm packages, PostgreSQL and Redis (scripts/demo.sh)
#
# npm packages: `npm ci` when node_modules lacks the pinned Node.js (never installed, or installed
# before the pin). PostgreSQL and Redis: the machine's own on 127.0.0.1, started when they do not
# answer, and left alone when WARDEN_TEST_PG_URL / WARDEN_TEST_REDIS_URL (WARDEN_DEMO_PG_URL /
# WARDEN_DEMO_REDIS_URL for the demo) point elsewhere. What it cannot do (install packages when not
# root or without apt-get) it says in one line, with the command that does it, and exits 1.
#
# WARDEN_PREPARE_NO_INSTALL=1  never install Debian packages, only say what is missing
# WARDEN_PREPARE_STARTED=FILE  the services it started are written to FILE, one name a line
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/node.sh

purpose=${1:-}
case $purpose in
  test)
    pg_url=${WARDEN_TEST_PG_URL:-}
    redis_url=${WARDEN_TEST_REDIS_URL:-}
    # Xvfb, xauth and xdotool with a Tk program (python3-tk) for the x11 backend; x11-utils for
    # its tools; Debian's chromium for the console (unless WARDEN_TEST_CHROMIUM names another);
    # rsyslog with its OpenSSL driver and openssl, the audit sinks' syslog receiver over TLS, and
    # rsyslog-relp (imrelp), their RELP receiver;
    # PostgreSQL's server binaries and redis-server with redis-cli, which the scale-out test runs
    # as its own instances (to restart them) next to the machine's; the real applications the x11
    # tests drive through the screen host: GnuCash, with python3-gnucash, its engine, which reads
    # the book it saved back, and LibreOffice Calc with its GTK 3 UI (libreoffice-gtk3, which
    # publishes its widgets on the accessibility bus), FeatherPad (Qt 5) and qt6ct (Qt 6); and
    # at-spi2-core and dbus-daemon, the accessibility bus the x11 host starts to read its outline,
    # with python3-dbus, the plain AT-SPI client (libdbus) the screen host's bench compares with.
    debian=(xvfb xauth xdotool x11-utils python3-tk rsyslog rsyslog-openssl rsyslog-relp openssl
      postgresql redis-server redis-tools gnucash python3-gnucash libreoffice-calc libreoffice-gtk3
      featherpad qt6ct at-spi2-core dbus-daemon python3-dbus)
    [ -n "${WARDEN_TEST_CHROMIUM:-}" ] || debian+=(chromium)
    ;;
  demo)
    pg_url=${WARDEN_DEMO_PG_URL:-}
    redis_url=${WARDEN_DEMO_REDIS_URL:-}
    debian=()
    ;;
  *)
    echo "usage: $0 test|demo" >&2
    exit 2
    ;;
esac

fail() {
  echo "$*" >&2
  exit 1
}

# npm packages, installed by the node that lib/node.sh put first on PATH.
pinned=$(node -p "require('./package.json').devDependencies.node")
if [ "$(node_modules/.bin/node -v 2>/dev/null)" != "v$pinned" ]; then
  echo "Installing packages (npm ci), once…"
  npm ci --no-audit --no-fund --loglevel=error
fi

# Debian packages: those not installed (a removed package's left-over config does not count).
missing=()
if [ ${#debian[@]} -gt 0 ] && command -v dpkg-query >/dev/null; then
  for pkg in "${debian[@]}"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)" = installed ] || missing+=("$pkg")
  done
elif [ ${#debian[@]} -gt 0 ]; then
  echo "No dpkg here: not checking for ${debian[*]} (the x11, console, audit-sink and scale-out tests need them)." >&2
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && [ "${WARDEN_PREPARE_NO_INSTALL:-}" != 1 ]; then
    echo "Installing Debian packages the x11, console, audit-sink and scale-out tests drive: ${missing[*]}…"
    # Quiet unless it fails: then apt-get's own words, and the exit.
    log=$(mktemp)
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
      cat "$log" >&2
      rm -f "$log"
      fail "Installing ${missing[*]} failed (apt-get's output above)."
    fi
    rm -f "$log"
  else
    sudo=
    [ "$(id -u)" = 0 ] || sudo='sudo '
    fail "npm $purpose needs Debian packages that are not installed: ${missing[*]}. Install them with: ${sudo}apt-get update && ${sudo}apt-get install -y --no-install-recommends ${missing[*]}"
  fi
fi

# PostgreSQL and Redis, started with the commands that start them on this kind of machine.
started() { [ -z "${WARDEN_PREPARE_STARTED:-}" ] || echo "$1" >>"$WARDEN_PREPARE_STARTED"; }
answers() {
  for _ in $(seq 1 30); do
    "$@" && return 0
    sleep 1
  done
  return 1
}
pg_up() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
redis_up() { redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; }

if [ -z "$pg_url" ] && ! pg_up; then
  echo "Starting PostgreSQL…"
  { pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start && answers pg_up; } ||
    fail "PostgreSQL does not answer on 127.0.0.1:5432 and could not be started: start it, or set WARDEN_${purpose^^}_PG_URL."
  started PostgreSQL
fi
if [ -z "$redis_url" ] && ! redis_up; then
  echo "Starting Redis…"
  { redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log && answers redis_up; } ||
    fail "Redis does not answer on 127.0.0.1:6379 and could not be started: start it, or set WARDEN_${purpose^^}_REDIS_URL."
  started Redis
fi
