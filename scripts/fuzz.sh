#!/usr/bin/env bash
# Runs one libFuzzer target of tests/fuzz for a while, under ASan + UBSan:
#
#   scripts/fuzz.sh TARGET SECONDS     e.g. scripts/fuzz.sh fuzz_tf_binary 60
#   scripts/fuzz.sh all SECONDS        every target, one after the other
#
# Builds the targets with Debian's clang in build/fuzz, seeds them from the corpus (binary
# files as they are, their text form from protoc --decode, the TensorFlow.js model.json files)
# and from tests/fuzz/regressions/, with dictionaries made from the .proto files' field names.
# Exits non-zero on any finding; the input is kept in build/fuzz/findings/TARGET/, and should
# be added to tests/fuzz/regressions/TARGET/ with the fix (the sweep test replays them).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=fuzz
. "$here/env.sh"
. "$here/common.sh"

target="${1:?usage: scripts/fuzz.sh TARGET|all SECONDS}"
seconds="${2:?usage: scripts/fuzz.sh TARGET|all SECONDS}"
targets=(fuzz_tf_binary fuzz_tf_text fuzz_tf_json fuzz_tf_export)
corpus="$repo/../shared/corpus"
[ -d "$corpus/tf" ] || die "the corpus is missing: $corpus"
command -v clang++ >/dev/null || die "clang++ is missing (scripts/setup.sh installs it)"

dir="$repo/build/fuzz"
log "building the fuzz targets (clang, ASan + UBSan) in build/fuzz"
CC=clang CXX=clang++ cmake -S "$repo" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGRAPHPORT_FUZZ=ON >/dev/null
cmake --build "$dir" -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}" >/dev/null

# --- Dictionaries: every field name of the schema, as text, JSON and (for binary) strings.
proto_dir="$repo/src/tf/proto"
names="$(sed -nE 's/^[[:space:]]*(repeated |optional )?(map<[^>]+>|[A-Za-z0-9_.]+)[[:space:]]+([a-z_0-9]+)[[:space:]]*=[[:space:]]*[0-9]+.*/\3/p' \
  "$proto_dir"/tensorflow/*.proto | sort -u)"
camel() { sed -E 's/_([a-z0-9])/\U\1/g'; }
mkdir -p "$dir/dict"
{
  for n in $names; do printf 'kw_%s="%s"\n' "$n" "$n"; done
  printf 'colon=": "\nopen=" {"\nclose="}"\nquote="\\""\noctal="\\\\377"\nany="[type.googleapis.com/tensorflow.GraphDef]"\n'
} >"$dir/dict/text.dict"
{
  for n in $names; do printf 'kw_%s="\\"%s\\":"\n' "$n" "$n"; printf 'cc_%s="\\"%s\\":"\n' "$n" "$(camel <<<"$n")"; done
  printf 'topology="\\"modelTopology\\":"\nobj="{}"\narr="[]"\nnull="null"\nb64="\\"AAAA\\""\n'
} >"$dir/dict/json.dict"
{
  for n in serve Const Placeholder NoOp dtype value shape _output_shapes save/Const; do
    printf 'str_%s="%s"\n' "${n//[^A-Za-z0-9]/_}" "$n"
  done
  # Tags of the fields every graph has: node, name, op, input, attr, tensor, meta_info_def.
  printf 'tag_1="\\x0a"\ntag_2="\\x12"\ntag_3="\\x1a"\ntag_4="\\x22"\ntag_5="\\x2a"\nvarint1="\\x08\\x01"\n'
  printf 'packed="\\x52\\x80\\x80\\x04"\nlong="\\xff\\xff\\xff\\xff\\x0f"\n'
} >"$dir/dict/binary.dict"

# --- Seeds.
seed_for() {
  local t="$1" out="$dir/seeds/$1"
  rm -rf "$out"
  mkdir -p "$out"
  case "$t" in
    fuzz_tf_binary | fuzz_tf_export)
      find "$corpus/tf" "$corpus/tfjs" -type f \( -name '*.pb' -o -name '*.meta' \) -exec cp -t "$out" --backup=numbered {} +
      ;;
    fuzz_tf_text)
      local i=0 f type
      while IFS= read -r f; do
        case "$f" in
          */saved_model.pb) type=SavedModel ;;
          *.meta) type=MetaGraphDef ;;
          */frozen_graph.pb) type=GraphDef ;;
          *) continue ;;
        esac
        i=$((i + 1))
        protoc --decode "tensorflow.$type" -I "$proto_dir" -I /usr/include \
          "$proto_dir"/tensorflow/*.proto <"$f" >"$out/seed$i.pbtxt" 2>/dev/null || rm -f "$out/seed$i.pbtxt"
      done < <(find "$corpus/tf" "$corpus/tfjs" -type f)
      ;;
    fuzz_tf_json)
      find "$corpus/tfjs" -name '*.json' -exec cp -t "$out" --backup=numbered {} +
      ;;
  esac
  if [ -d "$repo/tests/fuzz/regressions/$t" ]; then cp -t "$out" --backup=numbered "$repo/tests/fuzz/regressions/$t"/* 2>/dev/null || true; fi
}

run_one() {
  local t="$1" dict
  case "$t" in
    fuzz_tf_text) dict=text ;;
    fuzz_tf_json) dict=json ;;
    *) dict=binary ;;
  esac
  seed_for "$t"
  mkdir -p "$dir/work/$t" "$dir/findings/$t"
  log "$t for ${seconds}s"
  local status=0
  # Inputs up to 64 KB: the corpus's graphs fit; bigger ones only slow each run down.
  "$dir/tests/fuzz/$t" -max_total_time="$seconds" -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
    -dict="$dir/dict/$dict.dict" -artifact_prefix="$dir/findings/$t/" -print_final_stats=1 \
    "$dir/work/$t" "$dir/seeds/$t" >"$dir/$t.log" 2>&1 || status=$?
  local runs
  runs="$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$dir/$t.log" | tail -1)"
  log "$t: ${runs:-?} executions, exit status $status"
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$dir/$t.log" >&2
    log "$t: FINDING; the input is in build/fuzz/findings/$t/"
    return 1
  fi
}

if [ "$target" = all ]; then
  failed=0
  for t in "${targets[@]}"; do run_one "$t" || failed=1; done
  exit "$failed"
fi
printf '%s\n' "${targets[@]}" | grep -qx "$target" || die "unknown target '$target' (${targets[*]})"
run_one "$target"
