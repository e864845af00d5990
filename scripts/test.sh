#!/usr/bin/env bash
# Runs every test: set-up (idempotent), both builds, the native suite (ctest), the same suite
# built with clang, ASan + UBSan (build/asan, which holds the fuzz targets too), each libFuzzer
# target for a minute, two at a time (scripts/fuzz.sh; any finding fails), then the node:test
# suite against the built WebAssembly package. This is what `npm test` and CI run.
#
#   GRAPHPORT_FUZZ_SECONDS=N   seconds per fuzz target (default 60; 0 skips fuzzing)
#   GRAPHPORT_LONG=1           also the long tests (tests/js/long_weights.test.mjs: a 1.5 GiB
#                              GraphDef through WebAssembly; .ci/run sets it)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=test
. "$here/env.sh"
. "$here/common.sh"

"$here/setup.sh"
"$here/build.sh" all

log "native tests (ctest)"
ctest --test-dir "$repo/build/native" --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"

log "native tests under ASan + UBSan (ctest on build/asan)"
GRAPHPORT_SANITIZE=ON "$here/build.sh" native
# Debian's libprotobuf is not instrumented; everything graphport compiles is. A report fails.
# The corpus sweep runs natively and in WebAssembly, not here (tests/cpp/CMakeLists.txt).
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  ctest --test-dir "$repo/build/asan" --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"

fuzz_seconds="${GRAPHPORT_FUZZ_SECONDS:-60}"
if [ "$fuzz_seconds" -gt 0 ]; then
  log "fuzz targets, ${fuzz_seconds}s each (ASan + UBSan)"
  "$here/fuzz.sh" all "$fuzz_seconds"
fi

log "JavaScript tests (node:test): the WebAssembly build, the page in Chromium, the packed npm package"
cd "$repo"
node --test tests/js/ tests/e2e/ tests/package/
