#!/usr/bin/env bash
# End-to-end checks of the native CLI, run by CTest:
#   cli_test.sh GRAPHPORT_EXE SOURCE_DIR CORPUS_DIR PROTOC PROTO_STD_INCLUDE
# Fails (never skips) when the corpus is missing.
set -u

GP="$1"
SRC="$2"
CORPUS="$3"
PROTOC="$4"
STD_INCLUDE="$5"

status=0
checks=0
fail() {
  echo "FAIL: $*"
  status=1
}
ok() {
  echo "ok   $*"
  checks=$((checks + 1))
}

if [ ! -d "$CORPUS/tf" ]; then
  echo "FAIL: the shared corpus was not found at $CORPUS (it must sit beside the clone as ../shared/corpus)"
  exit 1
fi
if ! command -v python3 >/dev/null; then
  echo "FAIL: python3 is needed to parse the JSON output"
  exit 1
fi

META="$CORPUS/tf/serving/session_bundle/testdata/half_plus_two/00000123/export.meta"
FROZEN="$CORPUS/tfjs/tfjs-to-tf/simple/frozen_graph.pb"
SAVED="$CORPUS/tf/serving/batching/testdata/matrix_half_plus_two/1/saved_model.pb"
KERAS="$CORPUS/tf/serving/servables/tensorflow/testdata/tf_text_regression/01/keras_metadata.pb"

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

decode() {  # decode MESSAGE FILE
  local schema
  case "$1" in
    GraphDef) schema=graph.proto ;;
    MetaGraphDef) schema=meta_graph.proto ;;
    SavedModel) schema=saved_model.proto ;;
  esac
  "$PROTOC" --decode="tensorflow.$1" -I "$SRC/src/tf/proto" -I "$STD_INCLUDE" \
    "tensorflow/$schema" < "$2"
}

# No partial file may be left behind in a directory.
no_partials() {
  local left
  left="$(find "$1" -name '*.graphport-partial' 2>/dev/null)"
  [ -z "$left" ] || fail "$2: partial files left behind: $left"
}

# --- --help ---------------------------------------------------------------------------------
help="$("$GP" --help)"
rc=$?
[ "$rc" -eq 0 ] && ok "--help exits 0" || fail "--help exited $rc"
# Every flag of every family's option schema (graphport schema), plus the fixed ones, is listed.
# A boolean that is on by default is listed by its --no- form.
options="$("$GP" schema | python3 -c '
import json, sys
for family in json.load(sys.stdin):
    for schema in (family["load"], family["export"]):
        for o in schema["options"]:
            if o["cli"]:
                off = o["type"] == "bool" and o["default"] is True
                print(("--no-" if off else "--") + o["cli"])
' | sort -u)"
[ -n "$options" ] || fail "could not read the flags from graphport schema"
for opt in $(printf '%s\n' $options --json -o --output --from --tags --to --as-text --help --target | sort -u); do
  if grep -qE -- "(^|[^-a-z])$opt([^-a-z]|$)" <<<"$help"; then
    ok "--help lists $opt"
  else
    fail "--help does not list $opt"
  fi
done
for cmd in inspect export check; do
  grep -qE "graphport $cmd INPUT" <<<"$help" && ok "--help shows the $cmd command" ||
    fail "--help does not show the $cmd command"
done
"$GP" -h >/dev/null && ok "-h exits 0" || fail "-h failed"
"$GP" >/dev/null 2>&1
rc=$?
[ "$rc" -ne 0 ] && ok "no arguments exits non-zero ($rc)" || fail "no arguments exited 0"

# --- check -----------------------------------------------------------------------------------
# A TF.js model: TF.js runs it (exit 0); TensorFlow's registry lacks its _FusedMatMul (exit 3)
# until unfuseOps; nothing is written.
PRELU="$CORPUS/tfjs/tfjs-to-tf/prelu"
out="$(cd "$tmp" && "$GP" check "$PRELU" --target tfjs)"
rc=$?
[ "$rc" -eq 0 ] && grep -qE '^all 5 ops \(10 nodes\) run in TF\.js 4\.22$' <<<"$out" &&
  ok "check --target tfjs of the prelu model exits 0" || fail "check --target tfjs: exit $rc, $out"
out="$(cd "$tmp" && "$GP" check "$PRELU" --target tensorflow)"
rc=$?
[ "$rc" -eq 3 ] && grep -qE '^  _FusedMatMul x2 \(.*\): unfuseOps fixes this$' <<<"$out" &&
  ok "check --target tensorflow of the prelu model exits 3 naming _FusedMatMul" ||
  fail "check --target tensorflow: exit $rc, $out"
(cd "$tmp" && "$GP" check "$PRELU" --target tensorflow --unfuse-ops >/dev/null)
rc=$?
[ "$rc" -eq 0 ] && ok "check --target tensorflow --unfuse-ops exits 0" || fail "check --unfuse-ops: exit $rc"
[ -z "$(ls -A "$tmp")" ] && ok "check wrote nothing" || fail "check wrote $(ls -A "$tmp")"

# --- inspect ---------------------------------------------------------------------------------
out="$("$GP" inspect "$META")"
rc=$?
[ "$rc" -eq 0 ] || fail "inspect export.meta exited $rc"
# research/tensorflow.md §3.4: the session bundle export.meta has 57 nodes and 13 ops.
grep -qE '^nodes: +57 \(13 ops\)$' <<<"$out" && ok "inspect prints 57 nodes for export.meta" ||
  fail "inspect export.meta: no 'nodes: 57 (13 ops)' line in:
$out"

# The frozen graph's node count, counted in protoc's decoding of it.
expected="$(decode GraphDef "$FROZEN" | grep -c '^node {$')"
out="$("$GP" inspect "$FROZEN")"
grep -qE "^nodes: +$expected " <<<"$out" && ok "inspect prints $expected nodes for frozen_graph.pb" ||
  fail "inspect frozen_graph.pb: no 'nodes: $expected' line in:
$out"

# --- inspect --json ----------------------------------------------------------------------------
if "$GP" inspect --json "$META" >"$tmp/inspect.json"; then
  if python3 - "$tmp/inspect.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["family"] == "tensorflow", d["family"]
assert d["format"] == "meta-graph", d["format"]
assert d["nodeCount"] == 57, d["nodeCount"]
assert sum(d["ops"].values()) == d["nodeCount"]
assert len(d["collections"]) == 7, d["collections"]
PY
  then ok "inspect --json parses and holds the node count"; else fail "inspect --json output is wrong"; fi
else
  fail "inspect --json exited non-zero"
fi

# --- export ------------------------------------------------------------------------------------
mkdir -p "$tmp/out"
if "$GP" export "$META" -o "$tmp/out/model.meta" 2>"$tmp/export.err"; then
  [ -s "$tmp/out/model.meta" ] && ok "export writes the output" || fail "export wrote no model.meta"
  decode MetaGraphDef "$tmp/out/model.meta" >/dev/null 2>&1 && ok "the export decodes as a MetaGraphDef" ||
    fail "protoc cannot decode the exported model.meta"
  grep -qF "wrote $tmp/out/model.meta" "$tmp/export.err" && ok "export says what it wrote" ||
    fail "export did not report the path: $(cat "$tmp/export.err")"
else
  fail "export exited non-zero: $(cat "$tmp/export.err")"
fi
no_partials "$tmp/out" "export"
[ "$(ls "$tmp/out")" = "model.meta" ] && ok "export writes nothing else" ||
  fail "export left: $(ls "$tmp/out")"

# graph-def to graph-def, binary and text: protoc reads the same graph from input and output.
"$GP" export "$FROZEN" --to graph-def -o "$tmp/out/graph.pb" 2>/dev/null &&
  [ "$(decode GraphDef "$tmp/out/graph.pb")" = "$(decode GraphDef "$FROZEN")" ] &&
  ok "export --to graph-def keeps the graph" || fail "export --to graph-def changed the graph"
"$GP" export "$FROZEN" --to graph-def --as-text -o "$tmp/out/graph.pbtxt" 2>/dev/null &&
  cmp -s "$tmp/out/graph.pbtxt" <(decode GraphDef "$FROZEN") &&
  ok "export --as-text prints what protoc --decode prints" || fail "export --as-text differs from protoc"
"$GP" export "$SAVED" --to saved-model --tags serve -o "$tmp/out/sm" 2>/dev/null &&
  [ "$(decode SavedModel "$tmp/out/sm/saved_model.pb")" = "$(decode SavedModel "$SAVED")" ] &&
  ok "export --to saved-model keeps the SavedModel" || fail "export --to saved-model changed it"
# A SavedModel folder in, a whole SavedModel folder out: the variables byte for byte.
saved_dir="$CORPUS/tf/serving/servables/tensorflow/testdata/saved_model_half_plus_two_cpu/00000123"
"$GP" export "$saved_dir" --to saved-model --clear-devices -o "$tmp/out/whole" 2>/dev/null &&
  diff -r "$saved_dir/variables" "$tmp/out/whole/variables" >/dev/null &&
  [ -f "$tmp/out/whole/saved_model.pb" ] &&
  ok "a SavedModel folder exports whole, variables byte for byte" ||
  fail "the SavedModel folder export lost or changed its variables"
"$GP" inspect "$saved_dir" | grep -q "^format:      saved-model" &&
  ok "inspect reads a SavedModel folder" || fail "inspect of a SavedModel folder failed"
no_partials "$tmp/out" "exports"

# --- failures ----------------------------------------------------------------------------------
mkdir -p "$tmp/bad"
"$GP" export "$KERAS" -o "$tmp/bad/out.meta" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
[ "$rc" -ne 0 ] && ok "unknown format exits non-zero ($rc)" || fail "keras_metadata.pb export exited 0"
grep -q "graphport: error UNKNOWN_FORMAT" "$tmp/bad.err" && ok "stderr says UNKNOWN_FORMAT" ||
  fail "stderr lacks 'graphport: error UNKNOWN_FORMAT': $(cat "$tmp/bad.err")"
grep -qF "keras_metadata.pb" "$tmp/bad.err" && grep -q "at byte [0-9]" "$tmp/bad.err" &&
  ok "the error names the file and a byte offset" || fail "the error lacks file or offset: $(cat "$tmp/bad.err")"
[ -z "$(ls -A "$tmp/bad")" ] && ok "a failed export writes no file" || fail "a failed export left: $(ls -A "$tmp/bad")"

"$GP" inspect "$KERAS" >/dev/null 2>"$tmp/bad.err" && fail "inspect keras_metadata.pb exited 0"
grep -q "graphport: error UNKNOWN_FORMAT" "$tmp/bad.err" && ok "inspect reports UNKNOWN_FORMAT" ||
  fail "inspect stderr: $(cat "$tmp/bad.err")"

"$GP" inspect "$META" --no-such-option >/dev/null 2>"$tmp/bad.err" && fail "an unknown option exited 0"
grep -q "graphport: error INVALID_OPTION" "$tmp/bad.err" && grep -qF -- "--no-such-option" "$tmp/bad.err" &&
  ok "an unknown option is INVALID_OPTION naming it" || fail "unknown option stderr: $(cat "$tmp/bad.err")"

"$GP" export "$SAVED" --tags nope -o "$tmp/bad/x.pb" >/dev/null 2>"$tmp/bad.err" && fail "--tags nope exited 0"
grep -q "graphport: error NOT_FOUND" "$tmp/bad.err" && grep -qF "[serve]" "$tmp/bad.err" &&
  ok "unknown tags are NOT_FOUND listing [serve]" || fail "--tags nope stderr: $(cat "$tmp/bad.err")"
[ -z "$(ls -A "$tmp/bad")" ] || fail "a failed export left: $(ls -A "$tmp/bad")"

: >"$tmp/empty.pb"
"$GP" inspect "$tmp/empty.pb" >/dev/null 2>"$tmp/bad.err" && fail "empty input exited 0"
grep -q "graphport: error EMPTY_INPUT" "$tmp/bad.err" && ok "empty input is EMPTY_INPUT" ||
  fail "empty input stderr: $(cat "$tmp/bad.err")"

"$GP" inspect "$tmp/does-not-exist.pb" >/dev/null 2>"$tmp/bad.err" && fail "a missing file exited 0"
grep -q "graphport: error IO_ERROR" "$tmp/bad.err" && ok "a missing file is IO_ERROR" ||
  fail "missing file stderr: $(cat "$tmp/bad.err")"

"$GP" export "$META" -o "$tmp/no/such/dir/model.meta" >/dev/null 2>"$tmp/bad.err" &&
  fail "export into a missing directory exited 0"
grep -q "graphport: error IO_ERROR" "$tmp/bad.err" && ok "export into a missing directory is IO_ERROR" ||
  fail "missing dir stderr: $(cat "$tmp/bad.err")"

if [ "$status" -eq 0 ]; then
  echo "PASS: $checks checks"
else
  echo "FAILED (see above)"
fi
exit "$status"
