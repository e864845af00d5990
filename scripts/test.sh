#!/usr/bin/env bash
# Runs every test: set-up (idempotent), both builds, the native suite (ctest), then the
# node:test suite against the built WebAssembly package. This is what `npm test` and CI run.
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

log "JavaScript tests (node:test): the WebAssembly build, the page in Chromium, the packed npm package"
cd "$repo"
node --test tests/js/ tests/e2e/ tests/package/
