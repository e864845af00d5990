# shellcheck shell=bash
# Source this file (". scripts/env.sh") to get graphport's build environment:
#
#   NODE_PATH             includes /usr/share/nodejs (Debian's emscripten 3.1.6 needs node-acorn from there)
#   GRAPHPORT_CACHE       cache root outside the clone (default: $HOME/.cache/graphport)
#   PROTOBUF_VERSION      upstream protobuf version of Debian's libprotobuf-dev (e.g. 3.21.12)
#   PROTOBUF_WASM_PREFIX  install prefix of libprotobuf built for WebAssembly by build-protobuf-wasm.sh
#   SNAPPY_VERSION        upstream snappy version of Debian's libsnappy-dev (e.g. 1.1.9)
#   SNAPPY_WASM_PREFIX    install prefix of libsnappy built for WebAssembly by build-snappy-wasm.sh
#   PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1  tests drive Debian's /usr/bin/chromium, never a downloaded one
#
# Safe to source repeatedly and from any directory; it changes no shell options.

case ":${NODE_PATH:-}:" in
  *:/usr/share/nodejs:*) ;;
  *) NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}" ;;
esac
export NODE_PATH

export GRAPHPORT_CACHE="${GRAPHPORT_CACHE:-${HOME:-/root}/.cache/graphport}"

if [ -z "${PROTOBUF_VERSION:-}" ]; then
  # Debian version "3.21.12-3+deb12u1" -> upstream "3.21.12" (strip epoch and Debian revision).
  PROTOBUF_VERSION="$(dpkg-query -W -f='${Version}' libprotobuf-dev 2>/dev/null || true)"
  PROTOBUF_VERSION="${PROTOBUF_VERSION#*:}"
  PROTOBUF_VERSION="${PROTOBUF_VERSION%-*}"
  PROTOBUF_VERSION="${PROTOBUF_VERSION%%+*}"
  PROTOBUF_VERSION="${PROTOBUF_VERSION:-3.21.12}"
fi
export PROTOBUF_VERSION

# Bumped whenever scripts/build-protobuf-wasm.sh changes what it builds, so a cached build made
# by an older recipe is not reused. 2: descriptor.cc without std::stringstream. 3: the sources
# that run once per process at -Oz. 4: libprotobuf-lite alone (the module links nothing else).
export PROTOBUF_WASM_RECIPE=4
export PROTOBUF_WASM_PREFIX="${PROTOBUF_WASM_PREFIX:-$GRAPHPORT_CACHE/protobuf-wasm-$PROTOBUF_VERSION-r$PROTOBUF_WASM_RECIPE}"

if [ -z "${SNAPPY_VERSION:-}" ]; then
  # Debian version "1.1.9-3" -> upstream "1.1.9".
  SNAPPY_VERSION="$(dpkg-query -W -f='${Version}' libsnappy-dev 2>/dev/null || true)"
  SNAPPY_VERSION="${SNAPPY_VERSION#*:}"
  SNAPPY_VERSION="${SNAPPY_VERSION%-*}"
  SNAPPY_VERSION="${SNAPPY_VERSION%%+*}"
  SNAPPY_VERSION="${SNAPPY_VERSION:-1.1.9}"
fi
export SNAPPY_VERSION
# Bumped whenever scripts/build-snappy-wasm.sh changes what it builds.
export SNAPPY_WASM_RECIPE=1
export SNAPPY_WASM_PREFIX="${SNAPPY_WASM_PREFIX:-$GRAPHPORT_CACHE/snappy-wasm-$SNAPPY_VERSION-r$SNAPPY_WASM_RECIPE}"

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
