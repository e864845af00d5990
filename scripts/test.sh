#!/usr/bin/env bash
# Runs every test: set-up (idempotent), the optimized native build and the WebAssembly build,
# the native checks on the optimized build (ctest: the CLI end to end, the corpus sweep, the
# style and schema checks), the unit tests (GoogleTest) built with clang, ASan + UBSan
# (build/asan, which holds the fuzz targets too), each libFuzzer target for a minute, two at a
# time (scripts/fuzz.sh; any finding fails), then the node:test suite against the built
# WebAssembly package. The unit tests are compiled and run once, in the instrumented build: a
# second, optimized copy of them was a quarter of a cold run's compile time. This is what
# `npm test` and CI run.
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

# Each phase's wall time, printed at the end (also when a phase fails), so a slow machine
# shows where its time went.
phases=()
phase_start=$SECONDS
phase_name="set-up"
next_phase() {
  phases+=("$(printf '%6ds  %s' $((SECONDS - phase_start)) "$phase_name")")
  phase_start=$SECONDS
  phase_name="$1"
}
print_phases() {
  local rc=$?
  next_phase ""
  log "time per phase (total ${SECONDS}s):"
  printf '%s\n' "${phases[@]}" >&2
  return "$rc"
}
trap print_phases EXIT

"$here/setup.sh"
next_phase "builds: native (no unit tests) + WebAssembly"
GRAPHPORT_UNIT_TESTS=OFF "$here/build.sh" all

next_phase "native checks"
log "native checks on the optimized build (ctest: CLI, corpus sweep, style, schemas)"
ctest --test-dir "$repo/build/native" --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"

next_phase "ASan + UBSan build"
log "unit tests under ASan + UBSan (ctest on build/asan)"
GRAPHPORT_SANITIZE=ON "$here/build.sh" native
next_phase "ASan + UBSan unit tests"
# Debian's libprotobuf is not instrumented; everything graphport compiles is. A report fails.
# The corpus sweep runs natively and in WebAssembly, not here (tests/cpp/CMakeLists.txt).
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  ctest --test-dir "$repo/build/asan" --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"

fuzz_seconds="${GRAPHPORT_FUZZ_SECONDS:-60}"
if [ "$fuzz_seconds" -gt 0 ]; then
  next_phase "fuzz, ${fuzz_seconds}s per target"
  log "fuzz targets, ${fuzz_seconds}s each (ASan + UBSan)"
  "$here/fuzz.sh" all "$fuzz_seconds"
fi

next_phase "JavaScript tests"
log "JavaScript tests (node:test): the WebAssembly build, the page in Chromium, the packed npm package"
cd "$repo"
node --test tests/js/ tests/e2e/ tests/package/
