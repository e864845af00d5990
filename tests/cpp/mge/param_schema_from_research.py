#!/usr/bin/env python3
"""Checks graphport's MegEngine operator-param schemas against the research notes.

The schemas in src/mge/schema (dtype.fbs, opr_params.fbs, mgb_opr_params.fbs, cpp_opr_params.fbs,
operator_param_v1.fbs, operator_param_v2.fbs) are the source the build compiles with flatc; a
clone needs nothing else. The research notes `megengine_params.md` (beside the clone, like the
corpus: sections 2-5, the OperatorParam union, every param table with its fields in slot order,
every enum, the hand-written tables, dtype.fbs) restate MegEngine's schemas as facts. This script
makes the schemas' text from the notes and compares (ctest mge.schema_matches_research):
    python3 tests/cpp/mge/param_schema_from_research.py \
        ../shared/research/megengine_params.md src/mge/schema --check
exits 1 naming each file that differs. Without --check it writes them, for when the notes are
corrected.
"""

import re
import sys
from pathlib import Path

HEADER = """\
// graphport's MegEngine param schema, from the research notes on MegEngine's schemas
// (megengine_params.md {section}), which tests/cpp/mge/param_schema_from_research.py checks.
// {what}
"""

# Only ExecutionPolicy.workspace_limit (and its legacy V0) has an unsigned 64-bit default
# above INT64_MAX; flatc 2.0.8 stores such a default as 0 in the binary schema, so the real
# value is repeated in this attribute for readers that decode through reflection.
U64_DEFAULT_ATTRIBUTE = "graphport_u64_default"

SCALARS = {"bool", "byte", "ubyte", "short", "ushort", "int", "uint", "long", "ulong",
           "float", "double"}


def code_blocks(text, heading):
    """The ``` blocks under the heading that starts with `heading`, up to the next heading."""
    start = text.index("\n" + heading)
    rest = text[start + 1:]
    end = re.search(r"\n#{2,3} ", rest[len(heading):])
    body = rest[:len(heading) + end.start()] if end else rest
    return re.findall(r"```\n(.*?)```", body, re.S)


def parse_enums(block):
    enums = []
    for line in block.strip().splitlines():
        m = re.fullmatch(r"(\w+) \((\w+)(, bit_flags)?\): (.*)", line.strip())
        if not m:
            raise SystemExit(f"unparsed enum line: {line}")
        members = [tuple(item.split("=")) for item in m.group(4).split(", ")]
        enums.append((m.group(1), m.group(2), bool(m.group(3)),
                      [(name, int(value)) for name, value in members]))
    return enums


def parse_fields(spec):
    if spec.strip() == "-":
        return []
    fields = []
    for item in split_top(spec):
        m = re.fullmatch(r"(\w+):([\w\[\]:]+)(?:=(.*))?", item.strip())
        if not m:
            raise SystemExit(f"unparsed field: {item}")
        fields.append((m.group(1), m.group(2), m.group(3)))
    return fields


def split_top(spec):
    """Splits at ', ' outside brackets ([ubyte:4] holds no comma, but stay safe)."""
    parts, depth, cur = [], 0, ""
    for ch in spec:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return [p.strip() for p in parts if p.strip()]


def parse_tables(block):
    tables = []
    for line in block.strip().splitlines():
        m = re.fullmatch(r"(?:(struct) )?(\w+)(?: \[U(\d+)\])?: (.*)", line.strip())
        if not m:
            raise SystemExit(f"unparsed table line: {line}")
        tables.append({"struct": bool(m.group(1)), "name": m.group(2),
                       "union": int(m.group(3)) if m.group(3) else None,
                       "fields": parse_fields(m.group(4))})
    return tables


def default_text(ftype, default, enums):
    """The default as written in the schema, or None when it is FlatBuffers' own zero."""
    if default is None:
        return None
    if ftype in enums:
        name, _, bit_flags, members = enums[ftype]
        if re.fullmatch(r"-?\d+", default):
            value = int(default)
            if bit_flags:  # a combination of flags: name it when it is a single one
                names = [n for n, v in members if v == value]
                if names:
                    return names[0]
            return default
        if default not in dict(members):
            raise SystemExit(f"default {default} is no member of {ftype}")
        return default
    return default


def field_line(name, ftype, default, enums):
    text = f"  {name}:{ftype}"
    value = default_text(ftype, default, enums)
    attrs = ""
    if value is not None:
        if ftype == "ulong" and int(value) > 2**63 - 1:
            attrs = f' ({U64_DEFAULT_ATTRIBUTE}: "{value}")'
        text += f" = {value}"
    return text + attrs + ";"


def enum_text(enum):
    name, base, bit_flags, members = enum
    flags = " (bit_flags)" if bit_flags else ""
    lines = [f"enum {name} : {base}{flags} {{"]
    for i, (member, value) in enumerate(members):
        # bit_flags enums declare the bit position; flatc turns it into 1 << position.
        written = value.bit_length() - 1 if bit_flags else value
        if bit_flags and value != 1 << written:
            raise SystemExit(f"{name}.{member} = {value} is not a single bit")
        sep = "," if i + 1 < len(members) else ""
        lines.append(f"  {member} = {written}{sep}")
    lines.append("}")
    return "\n".join(lines)


def table_text(table, enums):
    kind = "struct" if table["struct"] else "table"
    if not table["fields"]:
        return f"{kind} {table['name']} {{}}"
    lines = [f"{kind} {table['name']} {{"]
    for name, ftype, default in table["fields"]:
        if table["struct"]:
            lines.append(f"  {name}:{ftype};")
        else:
            lines.append(field_line(name, ftype, default, enums))
    lines.append("}")
    return "\n".join(lines)


CHECK_ONLY = False
DIFFERING = []


def write(path, text):
    if CHECK_ONLY:
        if not path.exists() or path.read_text() != text:
            DIFFERING.append(path)
        return
    path.write_text(text)
    print(f"wrote {path}")


def main():
    global CHECK_ONLY
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--check"):
        raise SystemExit("usage: param_schema_from_research.py <megengine_params.md> <schema dir> [--check]")
    research, out = Path(sys.argv[1]), Path(sys.argv[2])
    CHECK_ONLY = len(sys.argv) == 4
    if not research.is_file():
        raise SystemExit(f"research notes not found: {research}")
    text = research.read_text()

    opr_enums = parse_enums(code_blocks(text, "### 4.1")[0])
    mgb_enums = parse_enums(code_blocks(text, "### 4.2")[0])
    cpp_blocks = code_blocks(text, "### 5.1")
    dtype_block = code_blocks(text, "### 5.2")[0]
    opr_tables = parse_tables(code_blocks(text, "### 3.1")[0])
    mgb_tables = parse_tables(code_blocks(text, "### 3.2")[0])
    cpp_tables = parse_tables(cpp_blocks[0])
    cpp_structs = parse_tables(cpp_blocks[1])
    cpp_enums = parse_enums(cpp_blocks[2])

    # dtype.fbs: DTypeEnum, the DTypeParam union and the two tables.
    dtype_lines = dtype_block.strip().splitlines()
    dtype_enum = parse_enums(dtype_lines[0])[0]
    union_line = re.fullmatch(r"union (\w+): (\w+)=(\d+)", dtype_lines[1].strip())
    dtype_tables = parse_tables("\n".join(dtype_lines[2:]))

    all_enums = {e[0]: e for e in opr_enums + mgb_enums + cpp_enums + [dtype_enum]}

    dtype_fbs = HEADER.format(section="§5.2", what="Data types, shared by FBS v1 and FBS_V2.")
    dtype_fbs += "\nnamespace mgb.serialization.fbs;\n\n"
    dtype_fbs += "// Append-only: a value, once given to a dtype, never changes.\n"
    dtype_fbs += enum_text(dtype_enum) + "\n\n"
    quant = dtype_tables[0]
    dtype_fbs += table_text(quant, all_enums) + "\n\n"
    dtype_fbs += f"union {union_line.group(1)} {{\n  {union_line.group(2)} = {union_line.group(3)}\n}}\n\n"
    dtype_fbs += "// Float32 with no param is the empty table (Float32 = 0 is the default).\n"
    dtype = dtype_tables[1]
    dtype_fbs += "table DType {\n"
    for name, ftype, default in dtype["fields"]:
        dtype_fbs += field_line(name, ftype, default, all_enums) + "\n"
    dtype_fbs += "}\n"
    write(out / "dtype.fbs", dtype_fbs)

    def param_file(section, what, enums, tables, structs=()):
        body = HEADER.format(section=section, what=what)
        body += '\ninclude "dtype.fbs";\n\nnamespace mgb.serialization.fbs.param;\n\n'
        if any(f[2] is not None and f[1] == "ulong" and int(f[2]) > 2**63 - 1
               for t in tables for f in t["fields"]):
            body += ("// flatc 2.0.8 writes 0 into the binary schema for an unsigned 64-bit\n"
                     "// default above INT64_MAX; the attribute repeats it for reflection.\n")
            body += f'attribute "{U64_DEFAULT_ATTRIBUTE}";\n\n'
        for enum in enums:
            body += enum_text(enum) + "\n\n"
        for struct in structs:
            body += table_text(struct, all_enums) + "\n\n"
        for table in tables:
            body += table_text(table, all_enums) + "\n\n"
        return body.rstrip() + "\n"

    write(out / "opr_params.fbs", param_file(
        "§3.1, §4.1", "Params of the megdnn operators (MegEngine's opr_param_defs), one table per\n"
        "// definition, legacy versions included; field order is slot order.", opr_enums, opr_tables))
    write(out / "mgb_opr_params.fbs", param_file(
        "§3.2, §4.2", "Params of the graph-level operators (MegEngine's mgb_opr_param_defs).",
        mgb_enums, mgb_tables))
    write(out / "cpp_opr_params.fbs", param_file(
        "§5.1", "Params MegEngine writes by hand (mgb_cpp_opr): vectors and structs, not scalars.",
        cpp_enums, cpp_tables, cpp_structs))

    # The union, numbered as MegEngine numbers it (§2); v2 lacks the members marked absent.
    union_block = code_blocks(text, "## 2. OperatorParam union")[0]
    members = []
    for line in union_block.strip().splitlines():
        m = re.fullmatch(r"(\d+) ([\w.]+)(\s+\(v2: absent\))?", line.strip())
        if not m:
            raise SystemExit(f"unparsed union line: {line}")
        members.append((int(m.group(1)), m.group(2), bool(m.group(3))))
    numbers = [n for n, _, _ in members]
    if numbers != list(range(1, len(numbers) + 1)):
        raise SystemExit("union members are not numbered 1..n without gaps")
    known = {t["name"] for t in opr_tables + mgb_tables + cpp_tables}
    for _, name, _ in members:
        if name.startswith("param.") and name[6:] not in known:
            raise SystemExit(f"union member {name} has no table")

    def union_file(version, namespace, includes_v2):
        body = HEADER.format(
            section="§2",
            what=f"The OperatorParam union of FBS {version}: every member at MegEngine's number, so\n"
                 "// that type bytes read and written mean what they mean to MegEngine.")
        body += '\ninclude "dtype.fbs";\ninclude "opr_params.fbs";\ninclude "mgb_opr_params.fbs";\n'
        body += 'include "cpp_opr_params.fbs";\n\n'
        body += f"namespace {namespace};\n\n"
        body += "// Placeholders keep numbers 21 (once Winograd) and 57 taken.\n"
        body += "table Reserved0 {}\ntable DeprecatedParam {}\n\n"
        body += "union OperatorParam {\n"
        chosen = [m for m in members if includes_v2 or not m[2]]
        for i, (number, name, _) in enumerate(chosen):
            sep = "," if i + 1 < len(chosen) else ""
            body += f"  {name} = {number}{sep}\n"
        body += "}\n"
        return body

    write(out / "operator_param_v1.fbs", union_file("v1", "mgb.serialization.fbs", True))
    write(out / "operator_param_v2.fbs", union_file("V2", "mgb.serialization.fbs.v2", False))

    if DIFFERING:
        for path in DIFFERING:
            print(f"differs from the research: {path} (re-run without --check)")
        raise SystemExit(1)
    if CHECK_ONLY:
        print("all generated schemas match the research")


if __name__ == "__main__":
    main()
