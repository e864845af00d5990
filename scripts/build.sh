#!/usr/bin/env bash
# Builds graphport natively (CLI, tests, benchmarks) and for WebAssembly (the npm package's
# module in bindings/js/wasm/). Incremental: a second run only rebuilds what changed.
#
#   scripts/build.sh            both builds, Release
#   scripts/build.sh native     only the native build
#   scripts/build.sh wasm       only the WebAssembly build
#   GRAPHPORT_SANITIZE=ON scripts/build.sh native   ASan + UBSan (clang), tests and fuzz targets,
#                                                   in build/asan
#   GRAPHPORT_BUILD_TYPE=Debug scripts/build.sh     a debug build
#   GRAPHPORT_UNIT_TESTS=OFF scripts/build.sh native  without the GoogleTest executables (npm test
#                                                   runs them in build/asan only)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=build
. "$here/env.sh"
. "$here/common.sh"

what="${1:-all}"
build_type="${GRAPHPORT_BUILD_TYPE:-Release}"
sanitize="${GRAPHPORT_SANITIZE:-OFF}"
jobs="$(nproc 2>/dev/null || echo 2)"

# Both builds go through ccache when it is there (scripts/setup.sh installs it): a second
# clone on the same machine, as CI's is, then compiles only what changed. Paths are hashed
# relative to the clone, so two clones share the cache.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  export CCACHE_BASEDIR="$repo"
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

if [ "$what" = all ] || [ "$what" = native ]; then
  dir="$repo/build/native"
  flavour=(-DGRAPHPORT_SANITIZE=OFF -DGRAPHPORT_BUILD_BENCH=ON
           -DGRAPHPORT_UNIT_TESTS="${GRAPHPORT_UNIT_TESTS:-ON}")
  if [ "$sanitize" = ON ]; then
    # One instrumented build holds the tests and the libFuzzer targets (scripts/fuzz.sh), in
    # Debian's clang (libFuzzer is clang's) at -O1: the library is compiled once for both. In
    # a cold local run the two builds this replaced (g++ -O3, clang -O2) took 1,288 s, this 493 s.
    command -v clang++ >/dev/null || die "clang++ is missing (scripts/setup.sh installs it)"
    dir="$repo/build/asan"
    flavour=(-DCMAKE_CXX_COMPILER=clang++ -DGRAPHPORT_FUZZ=ON -DGRAPHPORT_BUILD_BENCH=OFF
             -DGRAPHPORT_UNIT_TESTS=ON)
    if [ "$build_type" = Release ]; then flavour+=("-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG"); fi
  fi
  log "native ($build_type, sanitize=$sanitize) in ${dir#$repo/}"
  cmake -S "$repo" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" "${flavour[@]}" \
    "${launcher[@]}" >/dev/null
  cmake --build "$dir" -j "$jobs"
fi

if [ "$what" = all ] || [ "$what" = wasm ]; then
  dir="$repo/build/wasm"
  log "wasm ($build_type) in ${dir#$repo/}"
  # ccache knows em++ too: the WebAssembly objects are cached like the native ones.
  emcmake cmake -S "$repo" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
    -DGRAPHPORT_PROTOBUF_WASM_PREFIX="$PROTOBUF_WASM_PREFIX" \
    -DGRAPHPORT_SNAPPY_WASM_PREFIX="$SNAPPY_WASM_PREFIX" "${launcher[@]}" >/dev/null
  cmake --build "$dir" -j "$jobs"
fi
