#!/usr/bin/env bash
# The freeze benchmarks' generator stays a SavedModel graphport freezes, run by CTest:
#   make_savedmodel_test.sh MAKE_SAVEDMODEL_EXE GRAPHPORT_EXE
# Small versions of both models are generated and exported to TF.js (freeze + optimize); the
# model.json must hold no variable op, one fused contraction per layer, and weights equal to
# the checkpoint's bytes, bit for bit.
set -u

MAKE="$1"
GP="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
status=0

check() {  # check KIND ARGS CONVS DENSES
  local kind="$1" args="$2" convs="$3" denses="$4"
  # shellcheck disable=SC2086
  if ! "$MAKE" "$kind" "$tmp/$kind" $args >"$tmp/$kind.log" 2>&1; then
    echo "FAIL: $kind: the generator failed"; cat "$tmp/$kind.log"; status=1; return
  fi
  if ! "$GP" export "$tmp/$kind" -o "$tmp/$kind.tfjs" --to tfjs >"$tmp/$kind.export" 2>&1; then
    echo "FAIL: $kind: graphport export --to tfjs failed"; cat "$tmp/$kind.export"; status=1
    return
  fi
  if python3 - "$tmp/$kind" "$tmp/$kind.tfjs" "$convs" "$denses" <<'EOF'; then
import collections, json, os, sys
saved, tfjs, convs, denses = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
model = json.load(open(os.path.join(tfjs, "model.json")))
ops = collections.Counter(n["op"] for n in model["modelTopology"]["node"])
want = {"_FusedConv2D": convs, "_FusedMatMul": denses, "Mean": 1, "Placeholder": 1}
for op, n in want.items():
    assert ops[op] == n, f"{op} x{ops[op]}, expected {n}: {dict(ops)}"
for op in ("VarHandleOp", "ReadVariableOp", "StatefulPartitionedCall", "Conv2D", "MatMul",
           "BiasAdd", "Relu"):
    assert ops[op] == 0, f"{op} x{ops[op]} left: {dict(ops)}"
manifest = model["weightsManifest"][0]
shards = b"".join(open(os.path.join(tfjs, p), "rb").read() for p in manifest["paths"])
# Each weight's bytes, in manifest (node) order. The variables are the weights the converter
# names after the folded read (sequential/conv2d/Conv2D/ReadVariableOp), layer by layer: the
# order of the checkpoint's data file.
weights, at = {}, 0
for w in manifest["weights"]:
    n = 1
    for d in w["shape"]:
        n *= d
    size = n * 4
    weights[w["name"]] = shards[at:at + size]
    at += size
assert at == len(shards), f"the manifest covers {at} of {len(shards)} shard bytes"
variables = 2 * (convs + denses)
names = [name for name in weights if name.endswith("/ReadVariableOp")]
assert len(names) == variables, f"{len(names)} variable weights, expected {variables}"
frozen = b"".join(weights[name] for name in names)
data = open(os.path.join(saved, "variables", "variables.data-00000-of-00001"), "rb").read()
assert data[:len(frozen)] == frozen, "the frozen weights differ from the checkpoint's bytes"
print(f"{len(names)} variables, {len(frozen)} bytes as in the checkpoint; ops {dict(ops)}")
EOF
    echo "ok   $kind $args"
  else
    echo "FAIL: $kind $args"
    status=1
  fi
}

# freeze200 at 8 MiB: conv2d 3->64, two wider convolutions, then the two Dense layers.
check freeze200 "--mib 8" 3 2
# keras5k at 40 layers: 20 Conv2D, then 20 Dense.
check keras5k "--layers 40" 20 20
exit $status
