#!/usr/bin/env bash
# One-shot set-up of everything graphport needs on Debian bookworm. Idempotent; a second run only
# checks and finishes in about a second.
#
#   1. system packages from Debian (apt-get runs only when something is missing)
#   2. libprotobuf and libsnappy for WebAssembly (scripts/build-protobuf-wasm.sh,
#      scripts/build-snappy-wasm.sh, cached outside the clone)
#   3. npm dependencies, when package.json exists (only when node_modules is missing or stale;
#      GRAPHPORT_SETUP_NPM=0 leaves them, as npm pack's prepack needs)
#
# Afterwards: `. scripts/env.sh` for NODE_PATH, GRAPHPORT_CACHE, PROTOBUF_WASM_PREFIX and
# SNAPPY_WASM_PREFIX.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=setup
# shellcheck source=SCRIPTDIR/env.sh
. "$here/env.sh"
# shellcheck source=SCRIPTDIR/common.sh
. "$here/common.sh"

packages=(
  build-essential cmake ninja-build pkg-config
  protobuf-compiler libprotobuf-dev
  flatbuffers-compiler libflatbuffers-dev
  emscripten node-acorn
  libxxhash-dev nlohmann-json3-dev
  libsnappy-dev       # TensorFlow checkpoints: snappy-compressed index blocks (src/tf/checkpoint)
  libgtest-dev libgmock-dev
  clang-format        # tests/style: the C++ files follow .clang-format
  clang libclang-rt-14-dev  # tests/fuzz: libFuzzer targets under ASan + UBSan (scripts/fuzz.sh)
  dpkg-dev            # dpkg-source, needed by `apt-get source` in build-protobuf-wasm.sh
  chromium            # browser tests (driven by playwright-core; never a downloaded browser)
  zip gzip
  ccache              # native rebuilds in a second clone (CI) reuse the compiled objects
)

# ---------------------------------------------------------------------------------------------
# 1. Debian packages
installed="$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2>/dev/null || true)"
missing=()
for p in "${packages[@]}"; do
  grep -qE "^$p ii" <<<"$installed" || missing+=("$p")
done

if [ "${#missing[@]}" -gt 0 ]; then
  log "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt_retry as_root apt-get update -q || die "apt-get update failed"
  apt_retry as_root apt-get install -y -q --no-install-recommends \
    -o DPkg::Lock::Timeout=600 "${missing[@]}" || die "apt-get install failed"
else
  log "all ${#packages[@]} Debian packages already installed"
fi

command -v node >/dev/null 2>&1 || die "node not found (Node 20 is expected from nodesource)"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 18 ] || log "warning: node $(node --version) is older than expected (20)"

# ---------------------------------------------------------------------------------------------
# 2. libprotobuf and libsnappy for WebAssembly (snappy's reuses the deb-src entry protobuf's adds)
prefix="$("$here/build-protobuf-wasm.sh")"
log "libprotobuf (wasm): $prefix"
prefix="$("$here/build-snappy-wasm.sh")"
log "libsnappy (wasm): $prefix"

# ---------------------------------------------------------------------------------------------
# 3. npm dependencies
if [ -f "$repo/package.json" ] && [ "${GRAPHPORT_SETUP_NPM:-1}" != 0 ]; then
  command -v npm >/dev/null 2>&1 || die "npm not found"
  npm_stamp="$repo/node_modules/.graphport-npm.stamp"
  npm_hash() {
    # What node_modules was installed from: lockfile + manifest + node major version.
    { cat "$repo/package.json"; cat "$repo/package-lock.json" 2>/dev/null || true; echo "node $node_major"; } \
      | sha256sum | cut -d' ' -f1
  }
  want="$(npm_hash)"
  have="$(cat "$npm_stamp" 2>/dev/null || true)"
  if [ -d "$repo/node_modules" ] && [ "$want" = "$have" ]; then
    log "node_modules up to date"
  else
    if [ -f "$repo/package-lock.json" ]; then
      log "npm ci"
      (cd "$repo" && npm ci --no-audit --no-fund)
    else
      log "npm install (no package-lock.json yet; it will be created)"
      (cd "$repo" && npm install --no-audit --no-fund)
    fi
    npm_hash >"$npm_stamp"
  fi
fi

log "done"
