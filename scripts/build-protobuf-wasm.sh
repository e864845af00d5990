#!/usr/bin/env bash
# Build libprotobuf for WebAssembly (Emscripten) from Debian's own source package, at exactly the
# version of the installed libprotobuf-dev, so the wasm runtime matches Debian's protoc.
#
#   scripts/build-protobuf-wasm.sh            # prints the install prefix on stdout (logs go to stderr)
#
# Result: $GRAPHPORT_CACHE/protobuf-wasm-<version>-r<recipe>/{include,lib/libprotobuf-lite.a}:
#         the lite runtime, its headers and the well-known .proto files. No protoc: use Debian's
#         /usr/bin/protoc.
#
# Only the lite runtime is built: graphport's generated classes are lite, and what needed
# descriptors or reflection reads graphport's own schema tables (src/proto/schema.h), so the
# module links nothing of the full libprotobuf. Building that too took two thirds of this
# script's time on a fresh machine (118 compiles instead of 33).
#
# Cached by version and recipe (PROTOBUF_WASM_RECIPE in env.sh, bumped whenever this script
# changes what it builds): if the prefix already holds its stamp file the script exits at once.
# The build happens in a temporary directory next to the prefix and is renamed into place when
# finished, and the stamp is written last, so an interrupted build never leaves something that
# looks complete.
#
# Flags: -O2 -DNDEBUG, static, no exception catching (Emscripten's default; libprotobuf does not
# throw), no zlib, no threads, no protoc (code generation always uses Debian's native protoc).
# -O2 rather than -Os, measured on a 2000-tensor message linked into one module: -O2 parses text
# format ~1.7x and JSON ~2x faster; -Os saves ~270 KB raw / ~63 KB gzip of .wasm. Override the
# level with PROTOBUF_WASM_OPT=-Os (delete the prefix first: the cache is keyed by version and
# recipe).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=SCRIPTDIR/env.sh
. "$here/env.sh"

# stdout carries only the final prefix; everything else goes to stderr.
exec 3>&1 1>&2

log_tag=build-protobuf-wasm
# shellcheck source=SCRIPTDIR/common.sh
. "$here/common.sh"

version="$PROTOBUF_VERSION"
prefix="$PROTOBUF_WASM_PREFIX"
stamp="$prefix/.graphport-protobuf-wasm.stamp"
opt="${PROTOBUF_WASM_OPT:--O2}"

if [ -f "$stamp" ]; then
  echo "$prefix" >&3
  exit 0
fi

# ---------------------------------------------------------------------------------------------
# Preconditions
for tool in emcmake emcc cmake apt-get apt-cache dpkg-query dpkg-source dpkg-parsechangelog flock; do
  command -v "$tool" >/dev/null 2>&1 || die "'$tool' not found; run scripts/setup.sh first"
done
[ -f /usr/share/nodejs/acorn/package.json ] || [ -d /usr/share/nodejs/acorn ] \
  || die "node-acorn is missing (Debian's emscripten needs it); run scripts/setup.sh first"

deb_version="$(dpkg-query -W -f='${Version}' libprotobuf-dev 2>/dev/null || true)"
[ -n "$deb_version" ] || die "libprotobuf-dev is not installed; run scripts/setup.sh first"
deb_upstream="${deb_version#*:}"; deb_upstream="${deb_upstream%-*}"; deb_upstream="${deb_upstream%%+*}"
[ "$deb_upstream" = "$version" ] \
  || die "libprotobuf-dev is $deb_version (upstream $deb_upstream) but PROTOBUF_VERSION=$version"
protoc_version="$(protoc --version 2>/dev/null | awk '{print $2}' || true)"
[ -z "$protoc_version" ] || [ "$protoc_version" = "$version" ] \
  || die "protoc is $protoc_version but libprotobuf-dev is $version; generated code would not match"

mkdir -p "$GRAPHPORT_CACHE"
exec 9>"$GRAPHPORT_CACHE/.protobuf-wasm-$version.lock"
flock 9
if [ -f "$stamp" ]; then   # another run finished while we waited for the lock
  echo "$prefix" >&3
  exit 0
fi

# ---------------------------------------------------------------------------------------------
# deb-src entry (needed by apt-get source)
# shellcheck disable=SC1091
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[ -n "$codename" ] || die "cannot read VERSION_CODENAME from /etc/os-release"
src_file=/etc/apt/sources.list.d/graphport-deb-src.sources

have_source_version() {
  local srcs
  srcs="$(apt-cache showsrc protobuf 2>/dev/null || true)"
  grep -qxF "Version: $deb_version" <<<"$srcs"
}

if ! have_source_version; then
  if [ ! -f "$src_file" ]; then
    uris="" signed=""
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      # The deb822 stanza whose Suites include "$codename": take its URIs and Signed-By.
      IFS=$'\t' read -r uris signed < <(awk -v cn="$codename" '
        function flush() { if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " cn " ") && uris != "" && !found) { print uris "\t" (signed == "" ? "-" : signed); found = 1 } types = suites = uris = signed = "" }
        /^[ \t]*$/ { flush(); next }
        /^Types:/     { sub(/^Types:[ \t]*/, "");     types = $0 }
        /^Suites:/    { sub(/^Suites:[ \t]*/, "");    suites = $0 }
        /^URIs:/      { sub(/^URIs:[ \t]*/, "");      uris = $0 }
        /^Signed-By:/ { sub(/^Signed-By:[ \t]*/, ""); signed = $0 }
        END { flush() }' /etc/apt/sources.list.d/debian.sources) || true
    elif [ -f /etc/apt/sources.list ]; then
      uris="$(awk -v cn="$codename" '$1 == "deb" && $0 !~ /\[/ && $3 == cn { print $2; exit }' /etc/apt/sources.list)"
    fi
    [ -n "$uris" ] || uris="http://deb.debian.org/debian"
    if [ -z "$signed" ] || [ "$signed" = "-" ] || [ "${signed#/}" = "$signed" ]; then
      signed=/usr/share/keyrings/debian-archive-keyring.gpg
    fi
    log "adding $src_file (deb-src $uris $codename main)"
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
      "$uris" "$codename" "$signed" | as_root tee "$src_file" >/dev/null
  fi
  log "apt-get update (deb-src index only)"
  apt_retry as_root apt-get update -q \
    -o Dir::Etc::SourceList="$src_file" -o Dir::Etc::SourceParts=- -o APT::Get::List-Cleanup=0 \
    || die "apt-get update for $src_file failed"
  if ! have_source_version; then
    avail="$(apt-cache showsrc protobuf 2>/dev/null | sed -n 's/^Version: //p' | tr '\n' ' ')"
    die "Debian source protobuf=$deb_version (matching installed libprotobuf-dev) is not available from deb-src; available: ${avail:-none}"
  fi
fi

# ---------------------------------------------------------------------------------------------
# Fetch and build in a temporary directory on the same filesystem as the prefix.
rm -rf "$GRAPHPORT_CACHE/.tmp-protobuf-wasm-$version".*   # leftovers of interrupted runs
work="$(mktemp -d "$GRAPHPORT_CACHE/.tmp-protobuf-wasm-$version.XXXXXX")"
cleanup() { if [ -z "${GRAPHPORT_KEEP_BUILD:-}" ]; then rm -rf "$work"; else log "kept $work"; fi; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

start=$(date +%s)
log "apt-get source protobuf=$deb_version into $work"
(cd "$work" && apt_retry apt-get source -q --only-source -o APT::Sandbox::User=root "protobuf=$deb_version") \
  || die "apt-get source protobuf=$deb_version failed"
src="$work/protobuf-$version"
[ -f "$src/CMakeLists.txt" ] || die "unexpected source layout: $src/CMakeLists.txt missing"

# The unpacked source must be exactly what we expect.
src_deb_version="$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)"
[ "$src_deb_version" = "$deb_version" ] \
  || die "source package is $src_deb_version but libprotobuf-dev is $deb_version"
IFS=. read -r vmaj vmin vpat <<<"$version"
want_int=$((vmaj * 1000000 + vmin * 1000 + vpat))
src_int="$(sed -n 's/^#define PROTOBUF_VERSION \([0-9]*\).*/\1/p' "$src/src/google/protobuf/port_def.inc")"
[ "$src_int" = "$want_int" ] \
  || die "source says PROTOBUF_VERSION=$src_int, expected $want_int ($version)"

# Log messages name their source file (__FILE__): relative to the source tree, so the library is
# the same from one build to the next and no path of this machine reaches the module.
file_names="-ffile-prefix-map=$src=protobuf-$version"

generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi

log "configuring (emcmake cmake, $opt)"
emcmake cmake -S "$src" -B "$work/build" "${generator[@]}" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="$opt -DNDEBUG $file_names" \
  -DCMAKE_CXX_FLAGS_RELEASE="$opt -DNDEBUG $file_names" \
  -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -Dprotobuf_BUILD_TESTS=OFF \
  -Dprotobuf_BUILD_CONFORMANCE=OFF \
  -Dprotobuf_BUILD_EXAMPLES=OFF \
  -Dprotobuf_BUILD_PROTOC_BINARIES=OFF \
  -Dprotobuf_BUILD_LIBPROTOC=OFF \
  -Dprotobuf_BUILD_SHARED_LIBS=OFF \
  -Dprotobuf_WITH_ZLIB=OFF \
  -Dprotobuf_INSTALL=ON

log "building libprotobuf-lite with $(nproc) jobs"
cmake --build "$work/build" --target libprotobuf-lite -j "$(nproc)"

# Install with DESTDIR so files (and the .pc/.cmake files) name the final prefix, then move the
# whole tree into place with one rename.
stage="$work/stage"
# Only what was built: the lite library, the headers and the well-known .proto files (protobuf's
# own install components; a plain install would look for the full library).
for component in libprotobuf-lite protobuf-headers protobuf-protos; do
  DESTDIR="$stage" cmake --install "$work/build" --component "$component"
done
[ -f "$stage$prefix/lib/libprotobuf-lite.a" ] || die "install produced no lib/libprotobuf-lite.a"
[ -f "$stage$prefix/include/google/protobuf/any.proto" ] || die "install produced no well-known .proto files"

rm -rf "$prefix"
mkdir -p "$(dirname "$prefix")"
mv -T "$stage$prefix" "$prefix"

end=$(date +%s)
{
  echo "protobuf_version=$version"
  echo "debian_source_version=$deb_version"
  echo "emcc_version=$(emcc -dumpversion 2>/dev/null || true)"
  echo "recipe=$PROTOBUF_WASM_RECIPE"
  echo "flags=$opt -DNDEBUG static no-zlib no-protoc, libprotobuf-lite only, source paths relative"
  echo "build_seconds=$((end - start))"
  echo "built_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$prefix/.graphport-protobuf-wasm.stamp.tmp"
mv "$prefix/.graphport-protobuf-wasm.stamp.tmp" "$stamp"

log "built protobuf $version for wasm in $((end - start))s"
echo "$prefix" >&3
