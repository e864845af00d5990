#!/usr/bin/env bash
# The main job (`npm start`): set up and build what is missing, then serve the page on
# localhost and print its URL. Stays in the foreground until Ctrl-C.
#
#   scripts/main.sh [port]      default 8080 (or $PORT); a port in use falls back to a free one
#
# The page needs only the WebAssembly build; scripts/demo.sh runs the command-line demo.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=main
. "$here/env.sh"
. "$here/common.sh"

"$here/setup.sh"
# Incremental: a second run only checks that the module is up to date.
"$here/build.sh" wasm

[ -f "$repo/bindings/js/wasm/graphport_web.wasm" ] || die "the WebAssembly build did not produce bindings/js/wasm/graphport_web.wasm"
[ -f "$repo/node_modules/fflate/esm/browser.js" ] || die "node_modules/fflate is missing: run npm ci"

log "serving the page; open the URL below in a browser (Ctrl-C stops the server)"
exec node "$here/serve.mjs" "${1:-${PORT:-8080}}"
