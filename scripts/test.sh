#!/usr/bin/env bash
# Runs every test: set-up (idempotent), the WebAssembly build and the native build with clang,
# ASan + UBSan (build/asan: the library, the CLI, the unit tests and the fuzz targets), ctest on
# that build (the unit tests, the CLI end to end, the recorded exports, the style and schema
# checks), each libFuzzer target for a while, two at a time (scripts/fuzz.sh; any finding
# fails), then the node:test suite against the WebAssembly package, with the instrumented CLI
# as the native one. One native build: the optimized one (scripts/build.sh native) is for
# developers and the benchmarks; a cold run that built both spent a third of its time there and
# tested the same code twice. This is what `npm test` and CI run.
#
#   GRAPHPORT_FUZZ_SECONDS=N   seconds per fuzz target (default 30; .ci/run sets 60; 0 skips)
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
next_phase "WebAssembly build"
"$here/build.sh" wasm

next_phase "ASan + UBSan build"
GRAPHPORT_SANITIZE=ON "$here/build.sh" native

next_phase "native tests (ASan + UBSan)"
log "ctest on build/asan: unit tests, CLI end to end, recorded exports, style, schemas"
# Debian's libprotobuf is not instrumented; everything graphport compiles is. A report fails.
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  ctest --test-dir "$repo/build/asan" --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"

fuzz_seconds="${GRAPHPORT_FUZZ_SECONDS:-30}"
if [ "$fuzz_seconds" -gt 0 ]; then
  next_phase "fuzz, ${fuzz_seconds}s per target"
  log "fuzz targets, ${fuzz_seconds}s each (ASan + UBSan)"
  "$here/fuzz.sh" all "$fuzz_seconds"
fi

next_phase "JavaScript tests"
log "JavaScript tests (node:test): the WebAssembly build, the page in Chromium, the packed npm package"
cd "$repo"
# The native CLI the suites compare the WebAssembly one with is the instrumented one.
export GRAPHPORT_NATIVE_BUILD="$repo/build/asan"
node --test tests/js/ tests/e2e/ tests/package/
