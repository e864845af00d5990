#!/usr/bin/env bash
# Build libsnappy for WebAssembly (Emscripten) from Debian's own source package, at exactly the
# version of the installed libsnappy-dev, so the native and WebAssembly builds decode with the
# same code. graphport needs it for TensorFlow checkpoints whose index blocks are
# snappy-compressed (src/tf/checkpoint/).
#
#   scripts/build-snappy-wasm.sh            # prints the install prefix on stdout (logs go to stderr)
#
# Result: $GRAPHPORT_CACHE/snappy-wasm-<version>-r<recipe>/{include/snappy*.h,lib/libsnappy.a}.
#
# Cached by version and recipe (SNAPPY_WASM_RECIPE in env.sh, bumped whenever this script
# changes what it builds): when the prefix holds its stamp file the script exits at once. As in
# build-protobuf-wasm.sh, the build runs in a temporary directory, the prefix appears by one
# rename and the stamp is written last, so an interrupted build never looks complete.
#
# Flags: -O2 -DNDEBUG, static, no tests, no benchmarks. The library is small (one source file of
# note), so no size tuning: it adds a few KB to the module.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=SCRIPTDIR/env.sh
. "$here/env.sh"

# stdout carries only the final prefix; everything else goes to stderr.
exec 3>&1 1>&2

log_tag=build-snappy-wasm
# shellcheck source=SCRIPTDIR/common.sh
. "$here/common.sh"

version="$SNAPPY_VERSION"
prefix="$SNAPPY_WASM_PREFIX"
stamp="$prefix/.graphport-snappy-wasm.stamp"

if [ -f "$stamp" ]; then
  echo "$prefix" >&3
  exit 0
fi

for tool in emcmake emcc cmake apt-get apt-cache dpkg-query dpkg-source dpkg-parsechangelog flock; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found; run scripts/setup.sh first"
done
deb_version="$(dpkg-query -W -f='${Version}' libsnappy-dev 2>/dev/null || true)"
[ -n "$deb_version" ] || die "libsnappy-dev is not installed; run scripts/setup.sh first"

mkdir -p "$GRAPHPORT_CACHE"
exec 9>"$GRAPHPORT_CACHE/.snappy-wasm-$version.lock"
flock 9
if [ -f "$stamp" ]; then   # another run finished while we waited for the lock
  echo "$prefix" >&3
  exit 0
fi

# The deb-src entry is the one build-protobuf-wasm.sh adds (setup.sh runs it first).
src_file=/etc/apt/sources.list.d/graphport-deb-src.sources
have_source_version() {
  apt-cache showsrc snappy 2>/dev/null | grep -qxF "Version: $deb_version"
}
if ! have_source_version; then
  [ -f "$src_file" ] || die "no deb-src entry ($src_file): run scripts/build-protobuf-wasm.sh first"
  log "apt-get update (deb-src index only)"
  apt_retry as_root apt-get update -q \
    -o Dir::Etc::SourceList="$src_file" -o Dir::Etc::SourceParts=- -o APT::Get::List-Cleanup=0 \
    || die "apt-get update for $src_file failed"
  have_source_version || die "Debian source snappy=$deb_version is not available from deb-src"
fi

rm -rf "$GRAPHPORT_CACHE/.tmp-snappy-wasm-$version".*   # leftovers of interrupted runs
work="$(mktemp -d "$GRAPHPORT_CACHE/.tmp-snappy-wasm-$version.XXXXXX")"
cleanup() { if [ -z "${GRAPHPORT_KEEP_BUILD:-}" ]; then rm -rf "$work"; else log "kept $work"; fi; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

start=$(date +%s)
log "apt-get source snappy=$deb_version into $work"
(cd "$work" && apt_retry apt-get source -q --only-source -o APT::Sandbox::User=root "snappy=$deb_version") \
  || die "apt-get source snappy=$deb_version failed"
src="$work/snappy-$version"
[ -f "$src/CMakeLists.txt" ] || die "unexpected source layout: $src/CMakeLists.txt missing"
src_deb_version="$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)"
[ "$src_deb_version" = "$deb_version" ] \
  || die "source package is $src_deb_version but libsnappy-dev is $deb_version"

# Debian's build_static_lib.patch adds a second target, snappy-static, with the output name of
# the upstream library (libsnappy.a): in a static build two rules would make one file, which
# Ninja refuses. Upstream's `snappy` target (the one compiled with its config.h) is what is
# installed as libsnappy.a; the patch's twin is renamed at the end of the configure.
rename_twin="$work/graphport-rename-static-twin.cmake"
cat >"$rename_twin" <<'CMAKE'
cmake_language(DEFER CALL set_target_properties snappy-static PROPERTIES
               OUTPUT_NAME snappy_debian_static)
CMAKE

generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi

log "configuring (emcmake cmake, -O2)"
emcmake cmake -S "$src" -B "$work/build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DCMAKE_PROJECT_INCLUDE="$rename_twin" \
  -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DBUILD_SHARED_LIBS=OFF \
  -DSNAPPY_BUILD_TESTS=OFF \
  -DSNAPPY_BUILD_BENCHMARKS=OFF \
  -DSNAPPY_INSTALL=ON

log "building with $(nproc) jobs"
cmake --build "$work/build" -j "$(nproc)"

stage="$work/stage"
DESTDIR="$stage" cmake --install "$work/build"
[ -f "$stage$prefix/lib/libsnappy.a" ] || die "install produced no lib/libsnappy.a"
[ -f "$stage$prefix/include/snappy.h" ] || die "install produced no include/snappy.h"

rm -rf "$prefix"
mkdir -p "$(dirname "$prefix")"
mv -T "$stage$prefix" "$prefix"

end=$(date +%s)
{
  echo "snappy_version=$version"
  echo "debian_source_version=$deb_version"
  echo "emcc_version=$(emcc -dumpversion 2>/dev/null || true)"
  echo "recipe=$SNAPPY_WASM_RECIPE"
  echo "flags=-O2 -DNDEBUG static, no tests, no benchmarks, Debian's static twin renamed"
  echo "build_seconds=$((end - start))"
  echo "built_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$prefix/.graphport-snappy-wasm.stamp.tmp"
mv "$prefix/.graphport-snappy-wasm.stamp.tmp" "$stamp"

log "built snappy $version for wasm in $((end - start))s"
echo "$prefix" >&3
