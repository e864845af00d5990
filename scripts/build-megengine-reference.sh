#!/usr/bin/env bash
# Build MegEngine v1.13.4's C++ core (CPU only, no Python) outside the clone, as the reference
# that golden dumps of optimize_for_inference would come from (issue 33; research
# megengine_optimize.md §7). Never run by CI or the tests: it takes hours on 2 cores.
#
#   scripts/build-megengine-reference.sh [SOURCES]
#
# SOURCES is where the git repositories are read from: a URL prefix (default
# https://github.com, reading MegEngine/MegEngine, MegEngine/flatbuffers, MegEngine/midout and
# gflags/gflags under it) or a folder holding them as OWNER+NAME/repo (a local mirror). The
# checkouts and the build go to $GRAPHPORT_CACHE/megengine-v1.13.4/; ninja resumes an
# interrupted build. Prints the build folder on stdout.
#
# Configuration (research §7.1): MGE_ARCH=fallback (no BLAS, the CPU kernels the constant
# folding uses), inference only, no CUDA, JIT, MKL-DNN, Lite, tests or distributed, cpuinfo off.
# RelWithDebInfo keeps RTTI, which FBS_V2's Operator.type strings need (a Release build of a
# non-x86_64 arch turns it off), compiled -O2 without debug info.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=SCRIPTDIR/env.sh
. "$here/env.sh"
exec 3>&1 1>&2
log_tag=build-megengine-reference
# shellcheck source=SCRIPTDIR/common.sh
. "$here/common.sh"

sources="${1:-https://github.com}"
root="$GRAPHPORT_CACHE/megengine-v1.13.4"
mkdir -p "$root"

# The commits MegEngine v1.13.4 pins its submodules to (git ls-tree v1.13.4 third_party).
# gflags' pinned commit is not in every mirror: its newest release builds the same way.
repo_of() {  # OWNER/NAME -> where to clone it from
  if [ -d "$sources" ]; then echo "$sources/${1/\//+}/repo"; else echo "$sources/$1"; fi
}
checkout() {  # OWNER/NAME DEST REF
  if [ ! -d "$2/.git" ] && [ ! -f "$2/.git" ]; then
    # No checkout of the default branch: a mirror may lack its largest files (newer than the tag).
    git clone --quiet --no-checkout "$(repo_of "$1")" "$2"
  fi
  git -C "$2" -c advice.detachedHead=false checkout --quiet "$3"
}

src="$root/MegEngine"
checkout MegEngine/MegEngine "$src" v1.13.4
checkout MegEngine/flatbuffers "$src/third_party/flatbuffers" ff6b9a7df1f10a596c253dcb9ef5071e051a3a17
checkout MegEngine/midout "$src/third_party/midout" 3b8ae875a9e5c95031aca5edcc4233051d774eb5
checkout gflags/gflags "$src/third_party/gflags" HEAD

build="$root/build"
# Configured every time (cmake keeps its cache; ninja then rebuilds only what changed).
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_CXX_COMPILER_LAUNCHER="$(command -v ccache || true)" \
  -DMGE_ARCH=fallback -DMGE_INFERENCE_ONLY=ON -DMGE_BUILD_IMPERATIVE_RT=OFF \
  -DMGE_WITH_CUDA=OFF -DMGE_WITH_TRT=OFF -DMGE_WITH_LITE=OFF -DMGE_WITH_TEST=OFF \
  -DMGE_WITH_MKLDNN=OFF -DMGE_WITH_JIT=OFF -DMGE_WITH_DISTRIBUTED=OFF -DMGE_ENABLE_CPUINFO=OFF
log "building $build (ninja resumes where an earlier run stopped)"
ninja -C "$build" megengine_shared

# The driver, compiled as MegEngine compiles its serializer, linked with MegEngine's shared
# library (which holds every operator's loader and dumper, registered as it loads).
log "building $build/network_dump"
flags="$(python3 - "$build/compile_commands.json" <<'PY'
import json, shlex, sys
for entry in json.load(open(sys.argv[1])):
    if entry["file"].endswith("src/serialization/impl/serializer.cpp"):
        args = shlex.split(entry["command"])[1:]
        keep, skip = [], False
        for a in args:
            if skip:
                skip = False
            elif a in ("-o", "-c", "-MF", "-MT"):
                skip = True
            elif not a.endswith(".cpp") and a not in ("-MD",):
                keep.append(a)
        print(" ".join(shlex.quote(a) for a in keep))
        break
PY
)"
eval "c++ $flags -c '$here/megengine-reference/network_dump.cpp' -o '$build/network_dump.o'"
c++ -o "$build/network_dump" "$build/network_dump.o" -L"$build/src" -lmegengine_shared \
  -Wl,-rpath,"$build/src" -ldl -lpthread
echo "$build" >&3
