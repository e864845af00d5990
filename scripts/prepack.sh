#!/usr/bin/env bash
# `npm pack` / `npm publish` run this first: the tarball must hold the WebAssembly module, which
# git does not (bindings/js/wasm/ is a build output). It installs what the build needs
# (scripts/setup.sh, idempotent) and builds the module (incremental: nothing to do when it is
# current). With GRAPHPORT_PREPACK_BUILD=0 it only checks, and refuses to pack without it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=prepack
. "$here/env.sh"
. "$here/common.sh"

if [ "${GRAPHPORT_PREPACK_BUILD:-1}" != 0 ]; then
  # npm is running us inside the package folder: leave node_modules to it. Everything goes to
  # stderr, as `npm pack --json` prints its report on stdout.
  GRAPHPORT_SETUP_NPM=0 "$here/setup.sh" >&2
  "$here/build.sh" wasm >&2
fi
for file in graphport_node.cjs graphport_web.mjs graphport_web.wasm; do
  [ -s "$repo/bindings/js/wasm/$file" ] ||
    die "bindings/js/wasm/$file is missing: the package would have no WebAssembly module. Build it with 'bash scripts/build.sh wasm' (after 'bash scripts/setup.sh'), then pack again."
done
[ -s "$repo/LICENSE" ] || die "LICENSE is missing"
log "the WebAssembly module is built; packing"
