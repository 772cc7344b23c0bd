#!/usr/bin/env bash
# Replays the Dockerfile without a Docker engine: each stage gets a directory standing in
# for its filesystem, COPY/RUN/WORKDIR/ENV are performed there in order, then the final
# stage's CMD is started as the container would start it (clean environment, the image's
# ENV, a free PORT) and polled with the image's own HEALTHCHECK command, the shipped import
# command is run against the demo catalog (--dry-run), and the server is stopped.
# Nothing outside a temporary directory is written: HOME is one of its own (so RUN --mount
# cache targets live there too); only the host's npm configuration, user and global
# (registry, CA file, Node headers), is read, as a build machine's network settings would be.
# Not reproduced: the base image (the local node runs, with a warning on another major
# version), USER and --chown (steps run as the current user), EXPOSE.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
npm_userconfig=$(npm config get userconfig 2>/dev/null)
npm_globalconfig=$(npm config get globalconfig 2>/dev/null)
work=$(mktemp -d "${TMPDIR:-/tmp}/vetrina-dockerfile-XXXXXX")
mkdir -p "$work/home"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT

declare -A stage_env=()   # stage -> "K=V" words, as the image's ENV sets them
stage="" root="" workdir="" cmd="" healthcheck=""

fail() { echo "check-dockerfile-steps: $*" >&2; exit 1; }
json_words() { node -e 'for (const word of JSON.parse(process.argv[1])) console.log(word)' "$1"; }
exec_in_stage() { # becomes "$@", in the stage's workdir with a container-like environment
  cd "$workdir" && exec env -i PATH="$PATH" HOME="$work/home" ${stage_env[$stage]:-} "$@"
}
in_stage() { (exec_in_stage "$@"); }
run_step() { # RUN [--mount=...] command: the mounts are caches, and HOME already persists across steps
  local command=$1
  while [[ "$command" == --mount=* ]]; do command=${command#* }; done
  in_stage npm_config_userconfig="$npm_userconfig" npm_config_globalconfig="$npm_globalconfig" bash -c "$command"
}
stage_path() { # an absolute path inside the stage's filesystem, or one relative to WORKDIR
  case "$2" in /*) echo "$work/stages/$1$2" ;; *) echo "$workdir/$2" ;; esac
}

copy() {
  local from="" args=()
  for arg in "$@"; do
    case "$arg" in
      --from=*) from=${arg#--from=} ;;
      --chown=*) ;;
      *) args+=("$arg") ;;
    esac
  done
  local dest=${args[-1]} sources=("${args[@]:0:${#args[@]}-1}")
  dest=$(stage_path "$stage" "$dest")
  for source in "${sources[@]}"; do
    local path
    if [ -n "$from" ]; then
      path="$work/stages/$from$source"
    else
      grep -qxF "!${source%/}" "$repo/.dockerignore" || fail "COPY $source: not admitted by .dockerignore"
      path="$repo/$source"
    fi
    [ -e "$path" ] || fail "COPY $source: not found"
    if [ -d "$path" ]; then
      mkdir -p "$dest" && cp -R "$path/." "$dest/"
    elif [ "${#sources[@]}" -gt 1 ] || [[ "$dest" == */ ]]; then
      mkdir -p "$dest" && cp "$path" "$dest/"
    else
      mkdir -p "$(dirname "$dest")" && cp "$path" "$dest"
    fi
  done
}

instruction=""
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in ''|'#'*) [ -z "$instruction" ] && continue ;; esac
  if [[ "$line" == *'\' ]]; then instruction+="${line%\\} "; continue; fi
  instruction+="$line"
  keyword=${instruction%% *} args=${instruction#* }
  instruction=""
  echo "== $keyword $args"
  case "$keyword" in
    FROM)
      read -r image _ stage <<<"$args"
      [ -n "$stage" ] || fail "name every stage: FROM image AS name"
      root="$work/stages/$stage" workdir="$root" && mkdir -p "$root"
      wanted=$(sed -n 's/^node:\([0-9]*\).*/\1/p' <<<"$image")
      [ "$wanted" = "$(node -p 'process.versions.node.split(".")[0]')" ] || echo "   warning: the image has node $wanted, this check runs $(node --version)"
      ;;
    WORKDIR) workdir=$(stage_path "$stage" "$args") && mkdir -p "$workdir" ;;
    ENV) stage_env[$stage]+=" $args" ;;
    COPY) read -r -a words <<<"$args" && copy "${words[@]}" ;;
    RUN) run_step "$args" ;;
    CMD) cmd=$args ;;
    HEALTHCHECK) healthcheck=${args#*CMD } ;;
    USER|EXPOSE) echo "   (not reproduced)" ;;
    *) fail "unsupported instruction $keyword" ;;
  esac
done <"$repo/Dockerfile"

[ -n "$cmd" ] && [ -n "$healthcheck" ] || fail "the Dockerfile needs a CMD and a HEALTHCHECK"
# The typed client is the storefronts' (clients/typescript, an npm workspace): neither it
# nor what only it depends on is in the image.
while read -r package; do
  [ ! -e "$workdir/node_modules/$package" ] || fail "the image has $package, which only the typed client (clients/typescript) needs"
done < <(node -e 'const client = require(process.argv[1]); for (const name of [client.name, ...Object.keys(client.dependencies)]) console.log(name)' "$repo/clients/typescript/package.json")
echo "== the typed client is not in the image"
mapfile -t cmd_words < <(json_words "$cmd")
mapfile -t health_words < <(json_words "$healthcheck")
port=$(node -e 'const s = require("node:net").createServer().listen(0, () => { console.log(s.address().port); s.close(); })')
stage_env[$stage]+=" PORT=$port"

echo "== starting ${cmd_words[*]} on port $port"
# The background subshell becomes the server itself, so $! is the process the signals are for.
exec_in_stage "${cmd_words[@]}" >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 120); do
  if in_stage "${health_words[@]}"; then
    echo "== HEALTHCHECK passed"
    in_stage node -e "fetch('http://127.0.0.1:$port/public/v1/products?limit=1').then(async (r) => { const body = await r.json(); if (!r.ok || body.count < 1) throw new Error('no demo catalog: ' + r.status); console.log('== demo catalog served: ' + body.count + ' products'); })"
    # The shipped import command runs from dist/ with production dependencies only (no tsx).
    in_stage node dist/cli/import-catalog.js --dry-run catalog/demo.json
    kill -TERM "$server_pid"
    wait "$server_pid" || fail "the server exited with $? on SIGTERM"
    server_pid=""
    echo "== stopped cleanly"
    exit 0
  fi
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; fail "the server exited"; }
  sleep 0.5
done
cat "$work/server.log" >&2
fail "HEALTHCHECK did not pass within 60 s"
