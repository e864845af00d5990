#!/usr/bin/env bash
# Decode every TensorFlow file of the shared corpus with protoc against the
# project's own schema and fail if any field is unknown to it (protoc prints
# unknown fields with a bare number instead of a name, e.g. "  7: 1").
# Also checks that the text op registry ops.pbtxt encodes as an OpList.
# Run from the repository root.
set -u

PROTO_DIR="src/tf/proto"
CORPUS="../shared/corpus"
PROTOC="${PROTOC:-protoc}"
INCLUDES=(-I "$PROTO_DIR")
# Well-known types (any.proto, wrappers.proto) from libprotobuf's include dir.
if [ -f /usr/include/google/protobuf/any.proto ]; then
  INCLUDES+=(-I /usr/include)
fi

status=0
checked=0

# decode <message type> <schema file> <input file>
decode() {
  local type="$1" schema="$2" file="$3" out unknown
  if ! out=$("$PROTOC" --decode="$type" "${INCLUDES[@]}" "$PROTO_DIR/tensorflow/$schema" < "$file" 2>&1); then
    echo "FAIL $file: protoc could not decode it as $type:"
    printf '%s\n' "$out" | head -n 5
    status=1
    return
  fi
  unknown=$(printf '%s\n' "$out" | grep -nE '^[[:space:]]*[0-9]+(:| \{)' || true)
  if [ -n "$unknown" ]; then
    echo "FAIL $file: unknown fields when decoded as $type:"
    printf '%s\n' "$unknown" | head -n 10
    status=1
  else
    echo "ok   $file ($type)"
  fi
  checked=$((checked + 1))
}

if [ ! -d "$CORPUS/tf" ]; then
  echo "corpus not found at $CORPUS (run from the repository root)" >&2
  exit 2
fi

while IFS= read -r f; do
  decode tensorflow.SavedModel saved_model.proto "$f"
done < <(find "$CORPUS/tf" -type f -name saved_model.pb | sort)

while IFS= read -r f; do
  decode tensorflow.MetaGraphDef meta_graph.proto "$f"
done < <(find "$CORPUS/tf" -type f -name '*.meta' | sort)

while IFS= read -r f; do
  decode tensorflow.GraphDef graph.proto "$f"
done < <(find "$CORPUS/tfjs" -type f -name frozen_graph.pb | sort)

ops="$CORPUS/tf/ops.pbtxt"
if [ -f "$ops" ]; then
  if err=$("$PROTOC" --encode=tensorflow.OpList "${INCLUDES[@]}" "$PROTO_DIR/tensorflow/op_def.proto" < "$ops" 2>&1 >/dev/null); then
    echo "ok   $ops (text tensorflow.OpList encodes)"
  else
    echo "FAIL $ops: not accepted as a text tensorflow.OpList:"
    printf '%s\n' "$err" | head -n 5
    status=1
  fi
  checked=$((checked + 1))
fi

if [ "$status" -eq 0 ]; then
  echo "PASS: $checked files, no unknown fields"
else
  echo "FAILED (see above)"
fi
exit "$status"
