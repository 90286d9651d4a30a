#!/usr/bin/env python3
"""Counts the op schemas an extension tree defines, by text search alone, and holds aoti-analyze's
op inventory against them (issue 31: the inventory must cover >= 95% of them).

    bench/count_schemas.py [--binary build/aoti-analyze] TREE

The count is independent of the analyzer: regular expressions over the files' text, multi-line.
A C++ schema is a `.def(` whose first argument is a string literal (or several, concatenated) with
a `(`, inside a TORCH_LIBRARY / TORCH_LIBRARY_FRAGMENT / *_EXPAND block whose namespace qualifies
it; a Python one is `torch.library.define("ns::op", ...)`, `<lib>.define("op(...)")` on a
`Library("ns", "DEF" | "FRAGMENT")`, or `@custom_op("ns::op")`. Prints both counts, the coverage,
and every op the text search found that the inventory lacks (and the reverse).
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

CPP_SUFFIXES = {".cpp", ".cc", ".cxx", ".cu", ".cuh", ".h", ".hpp"}
# The namespace is a name, or a token-pasting CONCAT(a, b) of two (vLLM): a + b.
BLOCK = re.compile(r"\b(?:STABLE_)?TORCH_LIBRARY(?:_FRAGMENT)?(?:_EXPAND)?\s*\(\s*"
                   r"(?:(\w+)|\w*CONCAT\(\s*(\w+)\s*,\s*(\w+)\s*\))\s*,")
# `.def("schema")`, also wrapped as torch does for selective builds: `.def(TORCH_SELECTIVE_SCHEMA("..."))`.
DEF = re.compile(r"\.def\(\s*(?:TORCH_SELECTIVE_SCHEMA\(\s*)?((?:\"(?:[^\"\\\n]|\\.)*\"\s*)+)")
LITERAL = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"")
PY_DEFINE = re.compile(r"torch\.library\.define\(\s*[\"']([\w.]+::[\w.]+)[\"']")
PY_LIBRARY = re.compile(r"(\w+)\s*=\s*(?:torch\.library\.)?Library\(\s*[\"'](\w+)[\"']\s*,\s*[\"'](?:DEF|FRAGMENT)[\"']")
PY_LIB_DEFINE = re.compile(r"(\w+)\.define\(\s*(?:[\"']{1,3})([\w.]+)\s*\(")
PY_CUSTOM_OP = re.compile(r"@(?:torch\.library\.)?custom_op\(\s*[\"']([\w.]+::[\w.]+)[\"']")


def cpp_schemas(text):
    """(qualified op name, line) for each .def schema, qualified by the block it follows."""
    blocks = [(m.start(), m.group(1) or m.group(2) + m.group(3)) for m in BLOCK.finditer(text)]
    out = []
    for m in DEF.finditer(text):
        schema = "".join(LITERAL.findall(m.group(1)))
        if "(" not in schema:
            continue
        name = schema[: schema.index("(")].strip()
        before = [ns for start, ns in blocks if start < m.start()]
        if "::" not in name:
            if not before:
                continue  # a .def outside any registration block (pybind11's m.def)
            name = f"{before[-1]}::{name}"
        out.append((name, text.count("\n", 0, m.start()) + 1))
    return out


def python_schemas(text):
    out = [(m.group(1), text.count("\n", 0, m.start()) + 1) for m in PY_DEFINE.finditer(text)]
    out += [(m.group(1), text.count("\n", 0, m.start()) + 1) for m in PY_CUSTOM_OP.finditer(text)]
    libraries = {m.group(1): m.group(2) for m in PY_LIBRARY.finditer(text)}
    for m in PY_LIB_DEFINE.finditer(text):
        if m.group(1) in libraries:
            out.append((f"{libraries[m.group(1)]}::{m.group(2)}", text.count("\n", 0, m.start()) + 1))
    return out


def text_count(tree):
    found = {}
    for path in sorted(pathlib.Path(tree).rglob("*")):
        if not path.is_file() or path.suffix not in CPP_SUFFIXES | {".py"}:
            continue
        text = path.read_text(errors="replace")
        for name, line in (python_schemas(text) if path.suffix == ".py" else cpp_schemas(text)):
            found.setdefault(name.split(".")[0] if "::" in name else name, f"{path}:{line}")
    return found


def inventory(binary, tree):
    run = subprocess.run([binary, "--format", "json", tree], capture_output=True, text=True)
    ops = json.loads(run.stdout).get("ops", [])
    return {op["name"].split(".")[0]: op for op in ops if op.get("defined_in")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="build/aoti-analyze")
    parser.add_argument("tree")
    args = parser.parse_args()
    counted = text_count(args.tree)
    listed = inventory(args.binary, args.tree)
    covered = sorted(set(counted) & set(listed))
    share = 100.0 * len(covered) / len(counted) if counted else 100.0
    print(f"{args.tree}: {len(counted)} op schemas by text search, {len(listed)} defined in the "
          f"inventory, {len(covered)} of the text search's in it ({share:.1f}%)")
    for name in sorted(set(counted) - set(listed)):
        print(f"  not in the inventory: {name}  ({counted[name]})")
    for name in sorted(set(listed) - set(counted)):
        print(f"  only in the inventory: {name}  ({listed[name]['defined_in']}:{listed[name]['defined_line']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
