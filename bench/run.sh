#!/usr/bin/env bash
# Runs graphport's benchmarks: builds what is missing, generates the synthetic graphs (cached
# in bench/out/), runs the native then the WebAssembly benchmark on each, and prints one table
# of ratios (native vs wasm vs memcpy). Figures, not a test: nothing here fails on a timing.
#
#   bench/run.sh                      both graphs: weights-heavy (>= 200 MiB) and node-heavy (200k)
#   BENCH_GRAPHS=nodes bench/run.sh   only some of them (weights, nodes)
#   BENCH_REPEAT=5 bench/run.sh       best of N for each timing (default 3)
#   GRAPHPORT_BENCH_PROTOBUFJS=DIR    also time protobufjs (a directory holding its package;
#                                     graphport does not depend on it)
#
# About 1-2 minutes on a 2-core machine once built.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=bench
# shellcheck source=../scripts/env.sh
. "$repo/scripts/env.sh"
# shellcheck source=../scripts/common.sh
. "$repo/scripts/common.sh"

graphs="${BENCH_GRAPHS:-weights nodes}"
repeat="${BENCH_REPEAT:-3}"
out="$here/out"
results="$out/results"
native="$repo/build/native"
mkdir -p "$results"

# --- build (only the two bench targets natively, so unrelated targets never hold it up) -----
if [ ! -f "$native/build.ninja" ]; then
  log "configuring the native build"
  cmake -S "$repo" -B "$native" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
log "building graphport_bench and graphport_make_graph (incremental)"
if ! cmake --build "$native" -j "$(nproc 2>/dev/null || echo 2)" \
    --target graphport_bench graphport_make_graph >"$out/build-native.log" 2>&1; then
  [ -x "$native/bench/graphport_bench" ] && [ -x "$native/bench/graphport_make_graph" ] ||
    die "native build failed; see ${out#$repo/}/build-native.log"
  log "WARNING: native build failed (see ${out#$repo/}/build-native.log); using the binaries already built"
fi

# The module is rebuilt when libprotobuf for wasm is at hand; a failed rebuild falls back to
# the module already in bindings/js/wasm/, with a warning.
module="$repo/bindings/js/wasm/graphport_node.cjs"
if [ -f "$PROTOBUF_WASM_PREFIX/.graphport-protobuf-wasm.stamp" ] || [ ! -f "$module" ]; then
  log "building the WebAssembly module (incremental)"
  if ! { bash "$repo/scripts/build-protobuf-wasm.sh" && bash "$repo/scripts/build.sh" wasm; } \
      >"$out/build-wasm.log" 2>&1; then
    [ -f "$module" ] || die "WebAssembly build failed; see ${out#$repo/}/build-wasm.log"
    log "WARNING: WebAssembly build failed (see ${out#$repo/}/build-wasm.log); using the module already built"
  fi
else
  log "using the existing WebAssembly module (libprotobuf for wasm is not built here to rebuild it)"
fi

# --- graphs (regenerated only when the generator is newer than the file) -------------------
generator="$native/bench/graphport_make_graph"
for g in $graphs; do
  file="$out/$g.pb"
  if [ ! -f "$file" ] || [ "$generator" -nt "$file" ]; then
    log "generating $file"
    "$generator" "$g" "$file" >&2
  fi
done

# --- run ------------------------------------------------------------------------------------
rm -f "$results"/*.json
for g in $graphs; do
  "$native/bench/graphport_bench" "$out/$g.pb" --label "$g" --repeat "$repeat" \
    --json "$results/native-$g.json"
  echo
done
for g in $graphs; do
  peer=()
  [ -n "${GRAPHPORT_BENCH_PROTOBUFJS:-}" ] && peer=(--protobufjs "$GRAPHPORT_BENCH_PROTOBUFJS")
  node --expose-gc "$here/wasm_bench.mjs" "$out/$g.pb" --label "$g" --repeat "$repeat" \
    --json "$results/wasm-$g.json" "${peer[@]}"
  echo
done

echo "=== graphport benchmark: $(nproc 2>/dev/null || echo '?') cores, $(node --version)," \
  "$(date -u +%Y-%m-%dT%H:%MZ) ==="
node "$here/report.mjs" "$results"
