#!/usr/bin/env python3
"""Writes the hand-made seeds of the checkpoint and freeze fuzz targets into
tests/fuzz/regressions/: a TF1-style SavedModel computing y = 3x (Placeholder x, VariableV2 v,
v/read, Mul y, signature serving_default) with its checkpoint (v = 3.0), made here byte by byte
from the formats' facts (../shared/research/savedmodel_freeze.md §1, tensorflow.md §2), so the
replay test has inputs of the project's own when no fuzzing run has kept any.

    python3 tests/fuzz/make_freeze_seeds.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field(number, wire, payload):
    key = varint(number << 3 | wire)
    if wire == 0:
        return key + varint(payload)
    if wire == 2:
        return key + varint(len(payload)) + payload
    if wire == 5:
        return key + payload
    raise ValueError(wire)


def s(number, text):
    return field(number, 2, text.encode() if isinstance(text, str) else text)


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def masked(crc):
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def block(entries):
    """A table block: every entry a restart point (no shared prefix)."""
    body, restarts = b"", []
    for key, value in entries:
        restarts.append(len(body))
        body += varint(0) + varint(len(key)) + varint(len(value)) + key + value
    if not restarts:
        restarts = [0]
    for r in restarts:
        body += struct.pack("<I", r)
    return body + struct.pack("<I", len(restarts))


def table(entries):
    out = b""

    def put(contents):
        nonlocal out
        handle = (len(out), len(contents))
        out += contents + b"\x00" + struct.pack("<I", masked(crc32c(contents + b"\x00")))
        return handle

    data = put(block(entries))
    meta = put(block([]))
    index = put(block([(entries[-1][0], varint(data[0]) + varint(data[1]))]))
    footer = varint(meta[0]) + varint(meta[1]) + varint(index[0]) + varint(index[1])
    footer += b"\x00" * (40 - len(footer))
    return out + footer + bytes([0x57, 0xFB, 0x80, 0x8B, 0x24, 0x75, 0x47, 0xDB])


def checkpoint(value):
    data = struct.pack("<f", value)
    header = field(1, 0, 1) + s(3, field(1, 0, 1))  # num_shards 1, version {producer 1}
    entry = field(1, 0, 1) + s(2, b"") + field(5, 0, 4) + field(6, 5, struct.pack("<I", masked(crc32c(data))))
    return table([(b"", header), (b"v", entry)]), data


def attr(key, value):
    return s(5, s(1, key) + s(2, value))


def node(name, op, inputs=(), attrs=b""):
    return s(1, s(1, name) + s(2, op) + b"".join(s(3, i) for i in inputs) + attrs)


def saved_model():
    float_type = field(6, 0, 1)  # AttrValue.type = DT_FLOAT
    graph = (node("x", "Placeholder", attrs=attr("dtype", float_type))
             + node("v", "VariableV2", attrs=attr("dtype", float_type) + attr("shape", s(7, b"")))
             + node("v/read", "Identity", ["v"], attr("T", float_type))
             + node("y", "Mul", ["x", "v/read"], attr("T", float_type)))
    info = lambda name: s(1, name) + field(2, 0, 1)
    signature = (s(1, s(1, "x") + s(2, info("x:0"))) + s(2, s(1, "y") + s(2, info("y:0")))
                 + s(3, "tensorflow/serving/predict"))
    meta = s(1, s(4, "serve")) + s(2, graph) + s(5, s(1, "serving_default") + s(2, signature))
    return field(1, 0, 1) + s(2, meta)


def pack(files):
    out = b""
    for name, data in files:
        out += bytes([len(name)]) + name.encode() + struct.pack("<I", len(data)) + data
    return out


def write(target, name, data):
    folder = os.path.join(HERE, "regressions", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


index, data = checkpoint(3.0)
write("fuzz_tf_checkpoint", "seed-one-float", index)
write("fuzz_tf_freeze", "seed-tf1-times-three", pack([
    ("saved_model.pb", saved_model()),
    ("variables/variables.data-00000-of-00001", data),
    ("variables/variables.index", index),
]))
