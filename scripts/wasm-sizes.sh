#!/usr/bin/env bash
# Builds the WebAssembly module with each set of families (GRAPHPORT_FAMILY_*) into its own
# build folder and prints the .wasm size, raw and gzip -9: what a user who needs fewer families
# saves. Only the module is built (no tests, no benchmarks), through ccache when it is there, so
# a set whose objects the main build already compiled costs little more than its link; a set
# compiled from nothing takes a few minutes on 2 cores.
#
#   scripts/wasm-sizes.sh                 every set: tf, tf+mge, tf+tfjs, tf+mge+tfjs
#   scripts/wasm-sizes.sh tf tf+mge+tfjs  only those
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=wasm-sizes
. "$here/env.sh"
. "$here/common.sh"

launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$repo"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(tf tf+mge tf+tfjs tf+mge+tfjs)

printf '%-28s %12s %12s\n' "families" "raw bytes" "gzip -9"
for name in "${sets[@]}"; do
  case "$name" in
    tf) mge=OFF tfjs=OFF ;;
    tf+mge) mge=ON tfjs=OFF ;;
    tf+tfjs) mge=OFF tfjs=ON ;;
    tf+mge+tfjs) mge=ON tfjs=ON ;;
    *) die "unknown family set '$name' (tf, tf+mge, tf+tfjs, tf+mge+tfjs)" ;;
  esac
  dir="$repo/build/wasm-$name"
  emcmake cmake -S "$repo" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DGRAPHPORT_PROTOBUF_WASM_PREFIX="$PROTOBUF_WASM_PREFIX" \
    -DGRAPHPORT_SNAPPY_WASM_PREFIX="$SNAPPY_WASM_PREFIX" "${launcher[@]}" \
    -DGRAPHPORT_FAMILY_MGE="$mge" -DGRAPHPORT_FAMILY_TFJS="$tfjs" \
    -DGRAPHPORT_PACKAGE_WASM_DIR="$dir/package" >/dev/null
  cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" --target graphport_wasm_web >/dev/null
  wasm="$dir/package/graphport_web.wasm"
  printf '%-28s %12s %12s\n' "$name" "$(stat -c %s "$wasm")" "$(gzip -9 -c "$wasm" | wc -c)"
done
