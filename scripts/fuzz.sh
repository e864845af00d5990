#!/usr/bin/env bash
# Runs one libFuzzer target of tests/fuzz for a while, under ASan + UBSan:
#
#   scripts/fuzz.sh TARGET SECONDS     e.g. scripts/fuzz.sh fuzz_tf_binary 60
#   scripts/fuzz.sh all SECONDS        every target, two at a time (FUZZ_JOBS=N to change)
#
# Builds the targets with Debian's clang in the sanitizer build (build/asan, scripts/build.sh),
# seeds each with the real files it reads (../shared/corpus, ../shared/savedmodels and the
# TF.js devDependency's models in node_modules/@vladmandic/human/models: binary files as they
# are, their text form from protoc --decode, the TensorFlow.js model.json files, SavedModel and
# TensorFlow.js folders packed into one input by fuzz_pack_inputs, graph file first) and from
# tests/fuzz/regressions/, with dictionaries of each format's field names and magics. Each
# target's -max_len holds its largest seed; the log says how many seeds it got.
# Exits non-zero on any finding; the input is kept in build/fuzz/findings/TARGET/, and should
# be added to tests/fuzz/regressions/TARGET/ with the fix (ctest fuzz.* replays them).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
log_tag=fuzz
. "$here/env.sh"
. "$here/common.sh"

target="${1:?usage: scripts/fuzz.sh TARGET|all SECONDS}"
seconds="${2:?usage: scripts/fuzz.sh TARGET|all SECONDS}"
targets=(fuzz_tf_binary fuzz_tf_text fuzz_tf_json fuzz_tf_export fuzz_tf_saved_model_folder
  fuzz_mge fuzz_tfjs fuzz_tf_checkpoint fuzz_tf_freeze)
corpus="$repo/../shared/corpus"
savedmodels="$repo/../shared/savedmodels"
tfjs_models="$repo/node_modules/@vladmandic/human/models"
[ -d "$corpus/tf" ] || die "the corpus is missing: $corpus"
[ -d "$savedmodels" ] || die "the SavedModels are missing: $savedmodels"
[ -d "$tfjs_models" ] || die "the TF.js models are missing: $tfjs_models (npm ci installs them)"
command -v clang++ >/dev/null || die "clang++ is missing (scripts/setup.sh installs it)"

# The targets live in the sanitizer build, beside the tests (a no-op when scripts/test.sh has
# just built it); what the runs make goes to build/fuzz.
GRAPHPORT_SANITIZE=ON "$here/build.sh" native >/dev/null
bin="$repo/build/asan/tests/fuzz"
dir="$repo/build/fuzz"
mkdir -p "$dir"

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
# A SavedModel folder's file names (each with the length byte the input container puts
# before a name), on top of the binary dictionary.
{
  cat "$dir/dict/binary.dict"
  for n in saved_model.pb saved_model.pbtxt fingerprint.pb variables/variables.index \
    variables/variables.data-00000-of-00001 assets/vocab.txt assets.extra/x; do
    printf 'file_%s="\\x%02x%s"\n' "${n//[^A-Za-z0-9]/_}" "${#n}" "$n"
  done
  printf 'size0="\\x00\\x00\\x00\\x00"\nsize_small="\\x10\\x00\\x00\\x00"\n'
} >"$dir/dict/saved_model.dict"
# MegEngine: the magics and FlatBuffers identifiers of each dump format, and operator names.
{
  for m in mgv2 mgb1 MGBS MGBC mgbtest0 mgb0001 mgb0000a; do printf 'magic_%s="%s"\n' "$m" "$m"; done
  grep -ohE '"[A-Z][A-Za-z0-9]+"' "$repo/src/mge/opr_registry.cc" | sort -u | tr -d '"' |
    while read -r n; do printf 'opr_%s="%s"\n' "$n" "$n"; done
  printf 'u32_1="\\x01\\x00\\x00\\x00"\nu32_max="\\xff\\xff\\xff\\xff"\n'
} >"$dir/dict/mge.dict"
# TensorFlow.js: model.json's keys, dtype names, quantization keys, a shard's file name.
{
  for k in format generatedBy convertedBy modelTopology weightsManifest paths weights name \
    shape dtype quantization scale min original_dtype group1-shard1of1.bin signature \
    userDefinedMetadata modelInitializer initializerSignature resourceId node op input attr \
    versions library; do
    printf 'key_%s="\\"%s\\":"\n' "${k//[^A-Za-z0-9]/_}" "$k"
  done
  for d in float32 int32 bool string complex64 float16 uint8 uint16 int8 int16; do
    printf 'dtype_%s="\\"%s\\""\n' "$d" "$d"
  done
  printf 'file_model="\\x0amodel.json"\nfile_shard="\\x14group1-shard1of1.bin"\n'
  printf 'obj="{}"\narr="[]"\nnum="1e9"\nneg="-1"\n'
} >"$dir/dict/tfjs.dict"

# --- Seeds.
seed_for() {
  local t="$1" out="$dir/seeds/$1"
  rm -rf "$out"
  mkdir -p "$out"
  case "$t" in
    fuzz_tf_binary | fuzz_tf_export)
      find "$corpus/tf" "$corpus/tfjs" -type f \( -name '*.pb' -o -name '*.meta' \) -exec cp -t "$out" --backup=numbered {} +
      find "$savedmodels" -type f -name saved_model.pb -exec cp -t "$out" --backup=numbered {} +
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
      done < <(find "$corpus/tf" "$corpus/tfjs" "$savedmodels" -type f | sort)
      ;;
    fuzz_tf_json)
      local f
      find "$corpus/tfjs" "$savedmodels" -name '*.json' -exec cp -t "$out" --backup=numbered {} +
      while IFS= read -r f; do cp -t "$out" --backup=numbered "$f"; done < <(tfjs_model_jsons)
      ;;
    fuzz_tf_saved_model_folder)
      local i=0 f
      while IFS= read -r f; do
        i=$((i + 1))
        "$bin/fuzz_pack_inputs" "$(dirname "$f")" "$out/folder$i"
      done < <(find "$corpus/tf" "$savedmodels" -name 'saved_model.pb*' | sort)
      ;;
    fuzz_tf_checkpoint)
      find "$corpus/tf" "$savedmodels" -name variables.index -exec cp -t "$out" --backup=numbered {} +
      ;;
    fuzz_tf_freeze)
      # Every SavedModel with its checkpoint: the corpus's and ../shared/savedmodels'.
      local i=0 f
      while IFS= read -r f; do
        [ -f "$(dirname "$(dirname "$f")")/saved_model.pb" ] || continue
        i=$((i + 1))
        "$bin/fuzz_pack_inputs" "$(dirname "$(dirname "$f")")" "$out/folder$i"
      done < <(find "$corpus/tf" "$savedmodels" -name variables.index | sort)
      ;;
    fuzz_mge)
      find "$corpus/mge" -type f -exec cp -t "$out" --backup=numbered {} +
      # The corpus holds FBS v1 only: its FBS_V2 re-dumps, made by the CLI of the same build,
      # seed the other reader.
      local cli="$repo/build/asan/graphport" f
      while IFS= read -r f; do
        "$cli" export "$f" -o "$out/fbs-v2-$(basename "$f")" --dump-format FBS_V2 >/dev/null 2>&1 ||
          log "WARNING: no FBS_V2 seed from ${f#$corpus/}"
      done < <(find "$corpus/mge" -type f -name '*.mge' | sort)
      ;;
    fuzz_tfjs)
      # model.json and its shards only (the corpus folders also hold TensorFlow's graph).
      local i=0 f stage="$dir/seeds/.stage"
      while IFS= read -r f; do
        i=$((i + 1))
        rm -rf "$stage" && mkdir -p "$stage"
        cp -t "$stage" "$f" "$(dirname "$f")"/*.bin
        "$bin/fuzz_pack_inputs" "$stage" "$out/model$i"
      done < <(find "$corpus/tfjs" "$savedmodels" -name model.json | sort)
      # The devDependency's models share one folder: each JSON with the shards it names.
      while IFS= read -r f; do
        i=$((i + 1))
        rm -rf "$stage" && mkdir -p "$stage"
        cp -t "$stage" "$f"
        shard_paths "$f" | while IFS= read -r shard; do cp -t "$stage" "$tfjs_models/$shard"; done
        "$bin/fuzz_pack_inputs" "$stage" "$out/model$i"
      done < <(tfjs_model_jsons)
      rm -rf "$stage"
      ;;
  esac
  if [ -d "$repo/tests/fuzz/regressions/$t" ]; then cp -t "$out" --backup=numbered "$repo/tests/fuzz/regressions/$t"/* 2>/dev/null || true; fi
  local count largest
  count="$(find "$out" -type f | wc -l)"
  largest="$(find "$out" -type f -printf '%s\n' | sort -n | tail -1)"
  log "$t: $count seeds, the largest ${largest:-0} bytes"
}

# The devDependency's graph models (model.json files under other names; models.json is
# their list, not a model).
tfjs_model_jsons() {
  grep -l '"weightsManifest"' "$tfjs_models"/*.json | sort
}

# The shard files a model.json's weightsManifest names, one a line.
shard_paths() {
  grep -o '"paths" *: *\[[^]]*\]' "$1" | grep -o '"[^"]*\.bin"' | tr -d '"'
}

# The size of the largest seed of a target, and at least 64 KB: libFuzzer cuts a longer seed to
# its -max_len, and the real models' graphs (up to 0.8 MB) and TF.js shards (up to 7 MB) must
# reach the target whole.
max_len_for() {
  local largest
  largest="$(find "$dir/seeds/$1" -type f -printf '%s\n' | sort -n | tail -1)"
  echo $((${largest:-0} > 65536 ? largest : 65536))
}

run_one() {
  local t="$1" dict
  case "$t" in
    fuzz_tf_text) dict=text ;;
    fuzz_tf_json) dict=json ;;
    fuzz_tf_saved_model_folder | fuzz_tf_freeze) dict=saved_model ;;
    fuzz_mge) dict=mge ;;
    fuzz_tfjs) dict=tfjs ;;
    *) dict=binary ;;
  esac
  seed_for "$t"
  mkdir -p "$dir/work/$t" "$dir/findings/$t"
  log "$t for ${seconds}s"
  local status=0
  local max_len
  max_len="$(max_len_for "$t")"
  # -timeout: a real model's seed takes up to ~6 s under ASan on an idle core (a 3.9 MB text
  # graph), and several times that while the other target and the build share the machine; a
  # hang still stops the run.
  "$bin/$t" -max_total_time="$seconds" -max_len="$max_len" -timeout=60 -rss_limit_mb=4096 \
    -dict="$dir/dict/$dict.dict" -artifact_prefix="$dir/findings/$t/" -print_final_stats=1 \
    "$dir/work/$t" "$dir/seeds/$t" >"$dir/$t.log" 2>&1 || status=$?
  local runs cov
  runs="$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$dir/$t.log" | tail -1)"
  cov="$(grep -oE 'cov: [0-9]+' "$dir/$t.log" | tail -1)"
  log "$t: ${runs:-?} executions, ${cov:-cov: ?}, -max_len=$max_len, exit status $status"
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$dir/$t.log" >&2
    log "$t: FINDING; the input is in build/fuzz/findings/$t/"
    return 1
  fi
}

if [ "$target" = all ]; then
  # Two at a time (the machine has two cores), so the time all of them take does not grow
  # with each target added. A target that fails leaves a file in build/fuzz/status/.
  jobs_max="${FUZZ_JOBS:-2}"
  rm -rf "$dir/status" && mkdir -p "$dir/status"
  for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
    (run_one "$t" || touch "$dir/status/$t") &
  done
  wait
  failed=("$dir/status"/*)
  [ -e "${failed[0]}" ] || exit 0
  log "findings in: $(cd "$dir/status" && echo *)"
  exit 1
fi
printf '%s\n' "${targets[@]}" | grep -qx "$target" || die "unknown target '$target' (${targets[*]})"
run_one "$target"
