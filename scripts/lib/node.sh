# shellcheck shell=bash
# Puts the Node.js that Warden runs on first on PATH. Sourced (`. scripts/lib/node.sh`) by every
# script that installs packages or runs Warden outside an npm script (.ci/run, scripts/demo.sh,
# scripts/prepare-machine.sh), so that `npm ci` itself runs on it and prints no engine warning.
#
# The version is the `node` package pinned in package.json's devDependencies (the npm registry
# serves Node.js itself), which `npm ci` puts at node_modules/.bin/node, first on PATH in every
# npm script. A machine whose own node is older gets the same package once in .node/ (git-ignored).
_warden_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "Warden needs node and npm on PATH to start (any version; it installs the one it runs on)." >&2
  return 1
fi
_warden_node="$(node -p "require('$_warden_root/package.json').devDependencies.node")"
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt "${_warden_node%%.*}" ]; then
  if [ "$("$_warden_root/.node/node_modules/.bin/node" -v 2>/dev/null)" != "v$_warden_node" ]; then
    echo "Installing Node.js $_warden_node into .node/ (this machine has $(node -v)), once…" >&2
    mkdir -p "$_warden_root/.node"
    # The `node` package's preinstall fetches the binary for this platform: allow it by name.
    echo '{ "private": true, "allowScripts": { "node": true } }' >"$_warden_root/.node/package.json"
    npm install --prefix "$_warden_root/.node" --no-save --no-package-lock --no-audit --no-fund \
      --loglevel=error --silent "node@$_warden_node" >&2
  fi
  PATH="$_warden_root/.node/node_modules/.bin:$PATH"
  export PATH
fi
unset _warden_root _warden_node
