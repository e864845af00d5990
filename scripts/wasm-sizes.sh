#!/usr/bin/env bash
# Builds the WebAssembly module with each set of families (GRAPHPORT_FAMILY_*) into its own
# build folder and prints the .wasm size, raw and gzip -9: what a user who needs fewer families
# saves. Takes a few minutes per set on 2 cores.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=wasm-sizes
. "$here/env.sh"
. "$here/common.sh"

printf '%-28s %12s %12s\n' "families" "raw bytes" "gzip -9"
for set in "OFF OFF" "ON OFF" "OFF ON" "ON ON"; do
  read -r mge tfjs <<<"$set"
  name="tf"
  [ "$mge" = ON ] && name="$name+mge"
  [ "$tfjs" = ON ] && name="$name+tfjs"
  dir="$repo/build/wasm-$name"
  emcmake cmake -S "$repo" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DGRAPHPORT_PROTOBUF_WASM_PREFIX="$PROTOBUF_WASM_PREFIX" \
    -DGRAPHPORT_FAMILY_MGE="$mge" -DGRAPHPORT_FAMILY_TFJS="$tfjs" \
    -DGRAPHPORT_PACKAGE_WASM_DIR="$dir/package" >/dev/null
  cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
  wasm="$dir/package/graphport_web.wasm"
  printf '%-28s %12s %12s\n' "$name" "$(stat -c %s "$wasm")" "$(gzip -9 -c "$wasm" | wc -c)"
done
