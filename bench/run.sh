#!/usr/bin/env bash
# Runs graphport's benchmarks: builds what is missing, generates the synthetic models (cached
# in bench/out/), runs the native then the WebAssembly benchmark on each, each beside its peers
# in the same process, and prints one table of ratios. Figures, not a test: nothing here fails
# on a timing.
#
#   bench/run.sh                      every model: weights (a 201 MiB GraphDef), nodes (200k
#                                     nodes), mge (MegEngine, 100k operators), tfjs (TF.js,
#                                     ~200 MB of shards, converted from weights by graphport),
#                                     freeze (two generated TF2 SavedModels frozen to TF.js:
#                                     freeze200, ~200 MiB of variables in a checkpoint, and
#                                     keras5k, a Keras-like SavedModel of ~5,000 nodes)
#   BENCH_GRAPHS=freeze bench/run.sh  only the freeze (about 2 minutes)
#   BENCH_GRAPHS="nodes mge" bench/run.sh   only some of them
#   BENCH_REPEAT=5 bench/run.sh       best of N for each timing (default 3)
#
# The peers: memcpy, plain libprotobuf (native, and compiled to WebAssembly from the project's
# libprotobuf build: bench/wasm/protobuf_anchor.cc) and protobufjs (a devDependency). About
# 4-6 minutes on a 2-core machine once built, the freeze under 2 of them (1 min 48 s alone,
# on a machine shared by four jobs).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=bench
# shellcheck source=../scripts/env.sh
. "$repo/scripts/env.sh"
# shellcheck source=../scripts/common.sh
. "$repo/scripts/common.sh"

graphs="${BENCH_GRAPHS:-weights nodes mge tfjs freeze}"
repeat="${BENCH_REPEAT:-3}"
out="$here/out"
results="$out/results"
native="$repo/build/native"
wasm_build="$repo/build/wasm"
mkdir -p "$results"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$repo"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

# --- build (only the bench targets natively, so unrelated targets never hold it up) ---------
targets=(graphport_bench graphport_make_graph graphport_family_bench graphport_make_mge
  graphport_make_tfjs graphport_make_savedmodel)
if [ ! -f "$native/build.ninja" ]; then
  log "configuring the native build"
  cmake -S "$repo" -B "$native" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
fi
log "building the native benchmarks (incremental)"
if ! cmake --build "$native" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}" \
    >"$out/build-native.log" 2>&1; then
  for t in "${targets[@]}"; do
    [ -x "$native/bench/$t" ] || die "native build failed; see ${out#$repo/}/build-native.log"
  done
  log "WARNING: native build failed (see ${out#$repo/}/build-native.log); using the binaries already built"
fi

# The module and the libprotobuf anchor are rebuilt when libprotobuf for wasm is at hand; a
# failed rebuild falls back to what is already built, with a warning.
module="$repo/bindings/js/wasm/graphport_node.cjs"
anchor="$wasm_build/bench/wasm/protobuf_anchor.cjs"
if [ -f "$PROTOBUF_WASM_PREFIX/.graphport-protobuf-wasm.stamp" ] || [ ! -f "$module" ]; then
  log "building the WebAssembly module and the libprotobuf anchor (incremental)"
  if ! { bash "$repo/scripts/build-protobuf-wasm.sh" && bash "$repo/scripts/build.sh" wasm &&
      cmake --build "$wasm_build" -j "$(nproc 2>/dev/null || echo 2)" \
        --target graphport_protobuf_anchor; } >"$out/build-wasm.log" 2>&1; then
    [ -f "$module" ] || die "WebAssembly build failed; see ${out#$repo/}/build-wasm.log"
    log "WARNING: WebAssembly build failed (see ${out#$repo/}/build-wasm.log); using the module already built"
  fi
else
  log "using the existing WebAssembly module (libprotobuf for wasm is not built here to rebuild it)"
fi

# --- models (regenerated only when the generator is newer than the file) -------------------
stale() { [ ! -e "$1" ] || [ "$2" -nt "$1" ]; }
need_weights=
for g in $graphs; do
  case "$g" in weights | tfjs) need_weights=1 ;; esac
done
for g in weights nodes; do
  case " $graphs " in *" $g "*) ;; *) [ "$g" = weights ] && [ -n "$need_weights" ] || continue ;; esac
  if stale "$out/$g.pb" "$native/bench/graphport_make_graph"; then
    log "generating $out/$g.pb"
    "$native/bench/graphport_make_graph" "$g" "$out/$g.pb" >&2
  fi
done
case " $graphs " in *" mge "*)
  if stale "$out/mge.mge" "$native/bench/graphport_make_mge"; then
    log "generating $out/mge.mge"
    "$native/bench/graphport_make_mge" "$out/mge.mge"
  fi ;;
esac
case " $graphs " in *" tfjs "*)
  if stale "$out/tfjs/model.json" "$native/bench/graphport_make_tfjs" ||
      [ "$out/weights.pb" -nt "$out/tfjs/model.json" ]; then
    log "generating $out/tfjs/ from weights.pb"
    rm -rf "$out/tfjs"
    "$native/bench/graphport_make_tfjs" "$out/weights.pb" "$out/tfjs"
  fi ;;
esac

case " $graphs " in *" freeze "*)
  for m in freeze200 keras5k; do
    if stale "$out/$m/saved_model.pb" "$native/bench/graphport_make_savedmodel"; then
      log "generating $out/$m/"
      "$native/bench/graphport_make_savedmodel" "$m" "$out/$m"
    fi
  done ;;
esac

# --- run ------------------------------------------------------------------------------------
# Each family's natural exports, as NAME=OPTIONS pairs for the family benchmarks.
family_exports() {
  case "$1" in
    mge) echo 'FBS_V2={"dumpFormat":"FBS_V2"}' 'FBS={"dumpFormat":"FBS"}' ;;
    tfjs) echo 'graph-def={"to":"graph-def"}' 'tfjs={"to":"tfjs"}' ;;
    # The freeze: to TF.js (freeze, the converter's optimizations, the writer); keras5k also
    # to a frozen GraphDef (the freeze alone, no optimization).
    freeze200) echo 'tfjs={"to":"tfjs"}' ;;
    keras5k) echo 'tfjs={"to":"tfjs"}' 'frozen={"to":"graph-def","freeze":true}' ;;
  esac
}
# exportScope for the "export with options" case: nodes lives under model/.
scope_of() { [ "$1" = nodes ] && echo model || true; }

# The freeze entry is two models.
models=
for g in $graphs; do
  case "$g" in freeze) models="$models freeze200 keras5k" ;; *) models="$models $g" ;; esac
done

rm -f "$results"/*.json
for side in native wasm; do
  for g in $models; do
    json="$results/$side-$g.json"
    case "$g" in
      weights | nodes)
        scope=()
        [ -n "$(scope_of "$g")" ] && scope=(--scope "$(scope_of "$g")")
        if [ "$side" = native ]; then
          "$native/bench/graphport_bench" "$out/$g.pb" --label "$g" --repeat "$repeat" \
            "${scope[@]}" --json "$json"
        else
          node --expose-gc "$here/wasm_bench.mjs" "$out/$g.pb" --label "$g" --repeat "$repeat" \
            "${scope[@]}" --anchor "$anchor" --json "$json"
        fi ;;
      mge | tfjs | freeze200 | keras5k)
        input="$out/mge.mge"
        case "$g" in tfjs | freeze200 | keras5k) input="$out/$g" ;; esac
        exports=()
        for e in $(family_exports "$g"); do exports+=(--export "$e"); done
        if [ "$side" = native ]; then
          "$native/bench/graphport_family_bench" "$input" --label "$g" --repeat "$repeat" \
            "${exports[@]}" --json "$json"
        else
          node --expose-gc "$here/wasm_family_bench.mjs" "$input" --label "$g" \
            --repeat "$repeat" "${exports[@]}" --json "$json"
        fi ;;
      *) die "unknown model '$g' in BENCH_GRAPHS (weights, nodes, mge, tfjs, freeze)" ;;
    esac
    echo
  done
done

# The first instantiation of the module in fresh processes (only a process's first one
# compiles it): phase by phase, and the package's createGraphport() whole.
for i in 1 2 3 4 5; do
  node "$here/wasm_instantiate.mjs" --json "$results/instantiate-$i.json" >/dev/null
  node "$here/wasm_instantiate.mjs" --package --json "$results/instantiate-package-$i.json" >/dev/null
done

# The module's size (gzip -9) as built, and those of scripts/wasm-sizes.sh's builds if made.
{
  printf '{"module":"%s","raw":%s,"gzip":%s' "all families" \
    "$(stat -c %s "$repo/bindings/js/wasm/graphport_web.wasm")" \
    "$(gzip -9 -c "$repo/bindings/js/wasm/graphport_web.wasm" | wc -c)"
  printf ',"sets":{'
  sep=
  for dir in "$repo"/build/wasm-*/package; do
    [ -f "$dir/graphport_web.wasm" ] || continue
    set_name="$(basename "$(dirname "$dir")")"
    printf '%s"%s":%s' "$sep" "${set_name#wasm-}" "$(gzip -9 -c "$dir/graphport_web.wasm" | wc -c)"
    sep=,
  done
  printf '}}\n'
} >"$results/module.json"

echo "=== graphport benchmark: $(nproc 2>/dev/null || echo '?') cores, $(node --version)," \
  "$(date -u +%Y-%m-%dT%H:%MZ) ==="
node "$here/report.mjs" "$results"
