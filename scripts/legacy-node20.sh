#!/usr/bin/env bash
# The legacy path: Node 20.19+ (end of life since April 2026; Node 24 is the primary). The
# lockfile's better-sqlite3 13 needs Node 22 (on 20 it installs with a warning, then crashes the
# process), so on Node 20 the install takes better-sqlite3 12, which package.json's range
# allows: `npm ci` then `npm install --no-save better-sqlite3@12` (the README's steps). This
# script does exactly that in a clean copy of the repository, with the Node given as
# LEGACY_NODE (default: the machine's /usr/bin/node), and runs the parts of the suite that
# exercise the native modules and the contracts on it: both REST contracts, the database layer,
# the CLI, the builds, the install checks, and the start-stop cycles. It says so and exits 0
# when that Node is not 20.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
node20="${LEGACY_NODE:-/usr/bin/node}"
if ! [ -x "$node20" ]; then echo "legacy-node20: skipped (no Node at $node20)"; exit 0; fi
major="$("$node20" -p 'process.versions.node.split(".")[0]')"
if [ "$major" != 20 ]; then echo "legacy-node20: skipped ($node20 is Node $("$node20" --version), not 20)"; exit 0; fi
work="$(mktemp -d "${TMPDIR:-/tmp}/gateway-node20.XXXXXX")"
trap 'rm -rf "$work"' EXIT
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
  | grep -zv -E '^(node_modules|dist|dist-[^/]*|data|src/generated|coverage|test-output)(/|$)' \
  | tar --null -T - -cf -) | tar -xf - -C "$work"
cd "$work"
export PATH="$(dirname "$node20"):$PATH"
echo "== legacy-node20: $(node --version), npm $(npm --version)"
started=$SECONDS
npm ci --no-audit --no-fund --loglevel=error
npm install --no-save --no-audit --no-fund --loglevel=error better-sqlite3@12
echo "== installed in $((SECONDS - started)) s: better-sqlite3 $(node -p "require('better-sqlite3/package.json').version")"
npm run -s codegen >/dev/null
npx --no-install tsc --noEmit
npx --no-install vitest run test/rest-compat test/contract test/db test/cli test/scripts test/install test/e2e/start-stop-cycles.test.ts
echo "== legacy-node20: green in $((SECONDS - started)) s"
