#!/usr/bin/env bash
# The Dockerfile's stages without a container engine (none runs on the project's machines):
# each stage in a clean folder, its `RUN npm ...` commands read from the Dockerfile itself, its
# COPY lines mirrored below (keep them in step). Then the runtime folder is started as the image
# starts (CMD), /readyz must answer 200, and SIGTERM must stop it. Prints the production
# install's size. Uses the machine's Node, not the image's. Run from anywhere: it copies the
# repository's files (tracked and new, not ignored: the build context less .dockerignore).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/gateway-dockerfile.XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -9 "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The build context: what `docker build .` sends, less .dockerignore's entries.
context="$work/context"
mkdir -p "$context"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
  | grep -zv -E '^(node_modules|dist|dist-[^/]*|data|src/generated|coverage|test-output)(/|$)|^\.env$' \
  | tar --null -T - -cf -) | tar -xf - -C "$context"

# `RUN npm ...` lines of one stage (`FROM ... AS <stage>` to the next FROM), in order.
stage_npm_runs() {
  awk -v stage="$1" '
    /^FROM / { inside = (tolower($NF) == stage) }
    inside && /^RUN npm / { sub(/^RUN /, ""); print }
  ' "$repo/Dockerfile"
}
run_stage() {
  local stage="$1" dir="$2" cmds
  cmds="$(stage_npm_runs "$stage")"
  [ -n "$cmds" ] || { echo "no RUN npm lines for stage $stage in the Dockerfile" >&2; exit 1; }
  while IFS= read -r cmd; do
    echo "== [$stage] $cmd"
    (cd "$dir" && bash -c "$cmd")
  done <<<"$cmds"
}

started=$SECONDS
# Stage deps: the package files and the postinstall script.
deps="$work/deps"
mkdir -p "$deps/scripts"
cp "$context/package.json" "$context/package-lock.json" "$deps/"
cp "$context/scripts/prisma-generate.mjs" "$deps/scripts/"
run_stage deps "$deps"

# Stage build: a fresh image, COPY . . (the context), then its own commands.
build="$work/build"
mkdir -p "$build"
cp -a "$context/." "$build/"
run_stage build "$build"

# Stage runtime: the COPY lines of the Dockerfile's last stage.
app="$work/app"
mkdir -p "$app" "$work/data"
cp -a "$deps/node_modules" "$app/node_modules"
cp -a "$build/dist" "$app/dist"
rm -rf "$app"/dist/test-*
cp "$context/package.json" "$context/package-lock.json" "$app/"
cp -a "$context/bin" "$app/bin"
modules_mb=$(du -sm "$app/node_modules" | cut -f1)
dist_mb=$(du -sm "$app/dist" | cut -f1)
echo "== production install: ${modules_mb} MB in node_modules ($(ls "$app/node_modules" | grep -v '^\.' | tr '\n' ' ')), ${dist_mb} MB in dist, $((modules_mb + dist_mb)) MB together"
if [ $((modules_mb + dist_mb)) -gt 200 ]; then echo "the production install is over 200 MB" >&2; exit 1; fi
echo "== stages built in $((SECONDS - started)) s"

# The image runs as an unprivileged user who can write /data only; as root here, so can this.
as_user=()
if [ "$(id -u)" = 0 ]; then
  chmod 755 "$work"
  chown -R nobody "$work/data"
  as_user=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
  # The image's Node is in /usr/local/bin; this machine's may sit where nobody cannot reach
  # (CI's Node 24 under root's home): then a copy of it, as the image would have.
  if ! "${as_user[@]}" node -e '' 2>/dev/null; then
    mkdir -p "$work/node/bin"
    cp "$(node -p process.execPath)" "$work/node/bin/node"
    chmod -R a+rX "$work/node"
    export PATH="$work/node/bin:$PATH"
  fi
fi
echo "== CLI: $(cd "$app" && DATABASE_URL="file:$work/data/gateway.db" "${as_user[@]}" node bin/gateway.mjs --version)"

# CMD ["node", "dist/server.mjs"] with the image's ENV (the data folder is the volume's stand-in).
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
(cd "$app" && NODE_ENV=production PORT="$port" HOST=127.0.0.1 DATABASE_URL="file:$work/data/gateway.db" \
  exec "${as_user[@]}" node dist/server.mjs >"$work/server.log" 2>&1) &
server_pid=$!
ready=""
for _ in $(seq 1 120); do
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  # The image's HEALTHCHECK command, as written there.
  if (cd "$app" && PORT="$port" bash -c "$(sed -n 's/^ *CMD \(node -e .*readyz.*\)$/\1/p' "$repo/Dockerfile")") 2>/dev/null; then ready=1; break; fi
  sleep 0.5
done
if [ -z "$ready" ]; then
  echo "the runtime folder did not become ready; its output:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
echo "== /readyz: $(curl -fsS "http://127.0.0.1:$port/readyz")"
kill -TERM "$server_pid"
wait "$server_pid" && status=0 || status=$?
server_pid=""
if [ "$status" -ne 0 ]; then
  echo "the server exited $status after SIGTERM; its output:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
echo "== started, ready and stopped cleanly; total $((SECONDS - started)) s"
