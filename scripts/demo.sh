#!/usr/bin/env bash
# The command-line demo: set up, build, then load the sample graph that ships with the
# project, print its summary and export it three ways into out/sample/, and check that the
# npm package's WebAssembly build writes the same bytes as the native tool.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=demo
. "$here/env.sh"
. "$here/common.sh"

"$here/setup.sh"
"$here/build.sh" all

cli="$repo/build/native/graphport"
sample="$repo/web/samples/half_plus_two.pbtxt"
out="$repo/out/sample"
mkdir -p "$out"

"$cli" inspect "$sample"
"$cli" export "$sample" -o "$out/model.meta"
"$cli" export "$sample" -o "$out/model.pbtxt" --as-text
"$cli" export "$sample" -o "$out/saved_model.pb" --to saved-model
# The same export through the npm package's WebAssembly build gives the same bytes.
node "$repo/bindings/js/cli.mjs" export "$sample" -o "$out/model.wasm.meta"
cmp "$out/model.meta" "$out/model.wasm.meta"
log "native and WebAssembly outputs are identical; outputs are in ${out#$repo/}/"
