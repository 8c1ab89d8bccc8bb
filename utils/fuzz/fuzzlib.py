"""The shared part of mlc's fuzzers (docs/Fuzzing.md).

A fuzzer is a subclass of `Fuzzer`: it builds its seeds in `setup` and
returns one `Case` per run from `generate` (the tool to run, its arguments,
the files it reads); `main` parses the common options, and a `Runner` runs
each case on a private copy of the tool, classifies the run, and saves each
distinct failure with the exact command that reproduces it.

Every run must end either successfully or with a clean error (exit code 1
and an `error:` diagnostic, or llvm::cl's complaint about an option value:
"TOOL: for the --X option: ..." or "<Pass-Options-Parser>: ..."). Anything
else is a failure:
  crash    a signal (segfault, assertion, abort), an exit code >= 128, a
           sanitizer report, `LLVM ERROR:` (report_fatal_error, whatever the
           exit code), an assertion or an uncaught exception in stderr;
  timeout  the run took longer than --timeout;
  silent   a nonzero exit without a diagnostic.
Crashes in inputs that hit the known crashes of MLIR 22's own parser
(`upstream_known`, docs/Fuzzing.md) are counted apart and not as failures;
the mutators do not generate such inputs on purpose.
"""

import argparse
import io
import json
import os
import random
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ---------------------------------------------------------------------------
# Values

# Integers at the edges of the types mlc and MLIR store sizes, indices and
# attributes in.
BOUNDARY_INTS = [0, 1, -1, 2, 3, 7, 8, 16, 255, 256, 1024, 4096, 65535, 65536,
                 2**31 - 1, -2**31, 2**31, 2**32 - 1, 2**32, 2**62,
                 2**63 - 1, -2**63, 2**64, 10**30]


def boundary_int(rng):
    if rng.random() < 0.2:
        return rng.randint(-10, 300)
    return rng.choice(BOUNDARY_INTS)


# ---------------------------------------------------------------------------
# Generic text and binary mutations

TOKEN_RE = re.compile(
    rb"\s+|//[^\n]*|/\*.*?\*/|%[\w.:$#-]+|@[\w.$]+|\^[\w.]+|#[\w.]+|[A-Za-z_][\w.]*|"
    rb"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?[fiu]?\d*|\"[^\"\n]*\"|.",
    re.S)

# Fragments that reach parsers' less common paths (any text format).
GENERIC_FRAGMENTS = [
    b"(", b")", b"[", b"]", b"{", b"}", b"<", b">", b",", b";", b"=", b".",
    b":", b"?", b"->", b"\"", b"\\", b"-", b"/*", b"*/", b"\x00", b"\xff",
    b"\xc3\xa9", b"\t", b"\n", b"1e999", b"-0", b"nan", b"inf",
    b"99999999999999999999", b"-9223372036854775808", b"0x7FC00000",
]


def tokens(data):
    return [m.group(0) for m in TOKEN_RE.finditer(data)]


TEXT_EDITS = ["flip", "delete", "duplicate", "swap", "insert", "truncate", "splice"]


def mutate_text(data, rng, fragments=GENERIC_FRAGMENTS, edits=(1, 4), kinds=TEXT_EDITS):
    """Random byte- and token-level edits of a text input (bytes)."""
    for _ in range(rng.randint(*edits)):
        kind = rng.choice(kinds)
        if not data:
            data = rng.choice(fragments)
            continue
        if kind == "flip":
            data = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(data))
                data[i] = rng.randrange(256) if rng.random() < 0.5 else data[i] ^ (1 << rng.randrange(8))
            data = bytes(data)
        elif kind == "truncate":
            data = data[: rng.randrange(len(data))]
        else:
            toks = tokens(data)
            if not toks:
                continue
            i = rng.randrange(len(toks))
            if kind == "delete":
                del toks[i:i + rng.randint(1, 3)]
            elif kind == "duplicate":
                n = rng.randint(1, 6)
                toks[i:i] = toks[i:i + n] * rng.randint(1, 3)
            elif kind == "swap":
                j = rng.randrange(len(toks))
                toks[i], toks[j] = toks[j], toks[i]
            elif kind == "insert":
                toks.insert(i, rng.choice(fragments))
            elif kind == "splice":
                # Repeat a span many times: deep nesting, long lists.
                j = min(len(toks), i + rng.randint(1, 4))
                toks[i:i] = toks[i:j] * rng.randint(10, 400)
            data = b"".join(toks)
    return data


def mutate_binary(data, rng, edits=(1, 3)):
    """Damage a binary file: flips, truncation, chunk duplication/deletion,
    boundary integers written over sizes and offsets."""
    data = bytearray(data)
    for _ in range(rng.randint(*edits)):
        kind = rng.choice(["flip", "flip", "truncate", "delete", "duplicate", "int"])
        if not data:
            break
        i = rng.randrange(len(data))
        if kind == "flip":
            data[i] = rng.randrange(256)
        elif kind == "truncate":
            del data[i:]
        elif kind == "delete":
            del data[i:i + rng.randint(1, 64)]
        elif kind == "duplicate":
            data[i:i] = data[i:i + rng.randint(1, 64)]
        elif kind == "int":
            value = rng.choice([0, 1, 0x7F, 0x80, 0xFF, 0xFFFF, 0xFFFFFFFF, 0x7FFFFFFF,
                                0xFFFFFFFFFFFFFFFF, 1 << 40])
            width = rng.choice([1, 2, 4, 8])
            data[i:i + width] = (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
    return bytes(data)


# ---------------------------------------------------------------------------
# MLIR-aware mutations

# Crashes of MLIR 22's own parser that mlc cannot fix (docs/Fuzzing.md): a
# dense array of `index` elements; a linalg.generic whose iterator_types
# list holds anything but strings; a linalg.reduce/broadcast/transpose whose
# `dimensions =` / `permutation =` is anything but a `[...]` list.
ARRAY_INDEX_RE = re.compile(rb"array\s*<\s*index\b")
LINALG_DIMS_RE = re.compile(rb"linalg\.(?:reduce|broadcast|transpose)\b[^=]{0,600}?"
                            rb"\b(?:dimensions|permutation)\s*=(?!\s*\[)", re.S)
# ... or a [...] list that is not plain integers int64_t can hold: the
# parser reports its error ("expected ']'", "integer value too large") and
# then crashes the same way.
LINALG_DIMS_LIST_RE = re.compile(rb"linalg\.(?:reduce|broadcast|transpose)\b[^=]{0,600}?"
                                 rb"\b(?:dimensions|permutation)\s*=\s*\[", re.S)
LINALG_DIMS_WELL_FORMED_RE = re.compile(rb"\s*(?:-?\d{1,18}\s*(?:,\s*-?\d{1,18}\s*)*)?\]")
ITERATOR_TYPES_RE = re.compile(rb"iterator_types\s*=\s*\[")
# nvgpu.device_async_copy of a zero-width element type: its verifier divides
# by the bit width (SIGFPE), upstream mlir-opt too; of an element type
# without a bit width (complex, index), it reads one (SIGSEGV).
NVGPU_COPY_I0_RE = re.compile(rb"nvgpu\.device_async_copy\b[^\n]*x(?:i0\b|complex<|index\b)")
# gpu.launch with other than three block, thread or cluster ids: its parser
# writes past a fixed array of three (ASan stack-buffer-underflow; upstream
# mlir-opt crashes too).
GPU_LAUNCH_RE = re.compile(rb"gpu\.launch\b([^{]*)")
GPU_LAUNCH_IDS_RE = re.compile(rb"\b(?:blocks|threads|clusters)\s*\(([^()]*)\)")
# tensor.from_elements whose result type has billions of elements: its
# parser makes a list of one operand type per element before it counts the
# operands (LLVM ERROR "SmallVector unable to grow" from 2^32 elements, out of
# memory well before; upstream mlir-opt aborts too).
FROM_ELEMENTS_RE = re.compile(rb"tensor\.from_elements\b[^\n]*?:\s*tensor<((?:\d+x)*)")
FROM_ELEMENTS_MAX = 2**28
STRING_ENTRY_RE = re.compile(rb"\s*\"[^\"]*\"\s*")


def _bracket_body(data, start):
    """The text between the `[` before `start` and its matching `]`."""
    depth = 1
    i = start
    while i < len(data) and depth:
        c = data[i:i + 1]
        if c in (b"[", b"<", b"(", b"{"):
            depth += 1
        elif c in (b"]", b">", b")", b"}"):
            depth -= 1
        elif c == b"\"":
            j = data.find(b"\"", i + 1)
            i = j if j >= 0 else len(data)
        i += 1
    return data[start:i - 1]


def find_top_level(text, is_target, opens="<([{", closes=">)]}"):
    """Index of the first character outside brackets for which
    is_target(text, i) holds, or -1 (str in)."""
    depth = 0
    for i, c in enumerate(text):
        if c in opens:
            depth += 1
        elif c in closes:
            depth -= 1
        elif depth == 0 and is_target(text, i):
            return i
    return -1


def split_top_level(body, sep=b","):
    """Splits on `sep` outside brackets and strings (bytes in, list out)."""
    parts, depth, cur, i = [], 0, bytearray(), 0
    while i < len(body):
        c = body[i:i + 1]
        if c == b"\"":
            j = body.find(b"\"", i + 1)
            j = len(body) - 1 if j < 0 else j
            cur += body[i:j + 1]
            i = j + 1
            continue
        if c in (b"[", b"<", b"(", b"{"):
            depth += 1
        elif c in (b"]", b">", b")", b"}"):
            depth -= 1
        if c == sep and depth == 0:
            parts.append(bytes(cur))
            cur = bytearray()
        else:
            cur += c
        i += 1
    parts.append(bytes(cur))
    return parts


def upstream_known(data):
    """Names the known MLIR 22 parser or verifier crash that `data` (MLIR
    text, bytes) would hit, or returns None."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if ARRAY_INDEX_RE.search(data):
        return "array<index: ...> (MLIR parseDenseArrayAttr)"
    for m in ITERATOR_TYPES_RE.finditer(data):
        body = _bracket_body(data, m.end())
        if body.strip() and not all(STRING_ENTRY_RE.fullmatch(e) for e in split_top_level(body)):
            return "linalg.generic iterator_types with a non-string entry (MLIR GenericOp::parse)"
    if LINALG_DIMS_RE.search(data):
        return "linalg.reduce/broadcast/transpose dimensions/permutation not a [...] list (MLIR parser)"
    for m in LINALG_DIMS_LIST_RE.finditer(data):
        if not LINALG_DIMS_WELL_FORMED_RE.match(data, m.end()):
            return ("linalg.reduce/broadcast/transpose dimensions/permutation list that does "
                    "not parse, e.g. an integer too large for int64 (MLIR parser)")
    if NVGPU_COPY_I0_RE.search(data):
        return ("nvgpu.device_async_copy of i0, complex or index elements "
                "(MLIR DeviceAsyncCopyOp::verify)")
    for m in FROM_ELEMENTS_RE.finditer(data):
        count = 1
        for dim in m.group(1).split(b"x")[:-1]:
            count *= int(dim)
        if count >= FROM_ELEMENTS_MAX:
            return ("tensor.from_elements of 2^28 or more elements "
                    "(MLIR FromElementsOp::parse)")
    for launch in GPU_LAUNCH_RE.finditer(data):
        for ids in GPU_LAUNCH_IDS_RE.finditer(launch.group(1)):
            if len(ids.group(1).split(b",")) != 3:
                return "gpu.launch with other than three block/thread ids (MLIR LaunchOp::parse)"
    return None


MLIR_FRAGMENTS = GENERIC_FRAGMENTS + [
    b"%0", b"%arg0", b"%x", b"^bb0", b"@main", b"index", b"i1", b"i64", b"f16",
    b"bf16", b"complex<f32>", b"tensor<?xf32>", b"tensor<0xf32>", b"tensor<*xf32>",
    b"tensor<f32>", b"memref<?x?xf32>", b"memref<0xi8>", b"vector<4xf32>",
    b"dense<1.0>", b"dense<>", b"dense<[1, 2]>", b"array<i64>", b"array<i64: -1>",
    b"array<i32: 0, 0>", b"affine_map<(d0) -> (d0)>", b"affine_map<() -> ()>",
    b"#relax.shape<[n]>", b"#relax.shape<[n, m]>", b"#relax.shape<[]>",
    b"loc(unknown)", b"// -----", b"return", b"func.return", b"relax.output",
    b"{axis = -1 : i64}", b"{}", b"unit", b"true", b"false", b"\"parallel\"",
    b"\"reduction\"", b"spatial(", b"reduce(", b"0 to 0", b"0 to -1",
]

ELEMENT_TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64",
                 "index", "ui8", "si32", "complex<f32>", "f8E4M3FN", "i0", "i3"]
# An element type on its own (`: f32`), in a shaped type (`tensor<2x3xf32>`,
# `tensor<f32>`) or a type list, not inside a name (`%xf32`, `@f32`).
ELEMENT_TYPE_PREFIX = r"(?:(?<=[<\s(,:\[])|(?<=[\d?]x))"
ELEMENT_TYPE_RE = re.compile(ELEMENT_TYPE_PREFIX + r"(f16|f32|f64|bf16|i1|i8|i16|i32|i64|index)(?![\w])")
SHAPED_RE = re.compile(r"\b(tensor|memref|vector)<((?:(?:\d+|\?)x)*)")
INT_RE = re.compile(r"(?<![\w%#@.^$\"-])-?\d+(?![\w.])")
FLOAT_RE = re.compile(r"(?<![\w%#@.^$])-?\d+\.\d+(?:e[+-]?\d+)?(?![\w.])")
DENSE_ARRAY_RE = re.compile(r"array<(i1|i8|i16|i32|i64|f32|f64)(?::([^>]*))?>")
AXIS_RE = re.compile(r"\b(axis|axes|dim|dims|dimensions|permutation|perm|axes_order|"
                     r"indices_or_sections|keepdims|pool_size|strides|padding|dilation|"
                     r"groups|shape|begin|end|sizes|begins|ends|pad_width|new_shape|"
                     r"output_size|kernel_size|channels|units)\s*=\s*")
SSA_RE = re.compile(r"%[\w.$-]+(?:#\d+)?")
FLOAT_VALUES = ["0.0", "-0.0", "1.0", "-1.0", "1.0e+38", "3.5e+38", "1.0e+300",
                "1.0e-45", "0x7F800000", "0xFF800000", "0x7FC00000", "65504.0", "1.0e+5"]
DIM_VALUES = ["0", "1", "?", "2", "3", "1000000", "2147483648", "9223372036854775807",
              "4294967296", "65536"]


def _dec(data):
    return data.decode("utf-8", "surrogateescape")


def _enc(text):
    return text.encode("utf-8", "surrogateescape")


def _replace_match(text, m, new, group=0):
    return text[:m.start(group)] + new + text[m.end(group):]


def _dense_array_contents(rng, elem):
    n = rng.choice([0, 0, 1, 2, 3, 4, 5, 8, 30])
    if elem.startswith("f"):
        vals = [rng.choice(["0.0", "-1.0", "1.5", "1.0e+30", "-0.0"]) for _ in range(n)]
    elif elem == "i1":
        vals = [rng.choice(["true", "false", "0", "1"]) for _ in range(n)]
    else:
        vals = [str(boundary_int(rng)) for _ in range(n)]
    return ", ".join(vals)


def _mutate_shape_dims(dims, rng):
    dims = list(dims)
    kind = rng.choice(["set", "set", "add", "drop"])
    if kind == "set" and dims:
        dims[rng.randrange(len(dims))] = rng.choice(DIM_VALUES)
    elif kind == "drop" and dims:
        del dims[rng.randrange(len(dims))]
    else:
        dims.insert(rng.randint(0, len(dims)), rng.choice(DIM_VALUES))
    return dims


def _defs_and_uses(text):
    """SSA name occurrences split into definitions and uses (heuristic)."""
    defs, uses = [], []
    for line_m in re.finditer(r"[^\n]*", text):
        line, base = line_m.group(0), line_m.start()
        head_end = -1
        hm = re.match(r"\s*((?:%[\w.$-]+(?::\d+)?\s*,\s*)*%[\w.$-]+(?::\d+)?)\s*=", line)
        if hm:
            head_end = hm.end(1)
        for m in SSA_RE.finditer(line):
            after = line[m.end():m.end() + 2]
            if m.start() < head_end or after.startswith(":") or after.startswith(" ="):
                defs.append((base + m.start(), base + m.end()))
            else:
                uses.append((base + m.start(), base + m.end()))
    return defs, uses


def mutate_mlir_once(text, rng):
    """One MLIR-aware edit of `text` (str); returns the new text."""
    kind = rng.choices(
        ["int", "shape", "shape_all", "type_one", "type_all", "dense_array", "axis",
         "ssa", "line_delete", "line_dup", "line_swap", "float", "attr_drop", "tokens"],
        weights=[10, 5, 9, 3, 9, 7, 7, 5, 4, 3, 2, 3, 4, 5])[0]
    if kind == "int":
        ms = list(INT_RE.finditer(text))
        if ms:
            m = rng.choice(ms)
            return _replace_match(text, m, str(boundary_int(rng)))
    elif kind == "shape":
        ms = [m for m in SHAPED_RE.finditer(text)]
        if ms:
            m = rng.choice(ms)
            dims = [d for d in m.group(2).split("x") if d]
            dims = _mutate_shape_dims(dims, rng)
            return _replace_match(text, m, "".join(d + "x" for d in dims), 2)
    elif kind == "shape_all":
        # The same size changed everywhere: the program often stays valid.
        sizes = sorted({d for m in SHAPED_RE.finditer(text) for d in m.group(2).split("x") if d.isdigit()})
        if sizes:
            old = rng.choice(sizes)
            new = rng.choice([d for d in DIM_VALUES if d != old] + [str(int(old) + 1), str(max(int(old) - 1, 0))])
            pat = re.compile(r"(?<=[<x])" + old + r"(?=x)")
            return pat.sub(new, text)
    elif kind in ("type_one", "type_all"):
        ms = list(ELEMENT_TYPE_RE.finditer(text))
        if ms:
            m = rng.choice(ms)
            new = rng.choice([t for t in ELEMENT_TYPES if t != m.group(1)])
            if kind == "type_one":
                return _replace_match(text, m, new)
            return re.sub(ELEMENT_TYPE_PREFIX + re.escape(m.group(1)) + r"(?![\w])", new, text)
    elif kind == "dense_array":
        ms = list(DENSE_ARRAY_RE.finditer(text))
        if ms:
            m = rng.choice(ms)
            elem = m.group(1)
            if rng.random() < 0.2:
                elem = rng.choice(["i1", "i8", "i16", "i32", "i64", "f32", "f64"])  # never index
            body = _dense_array_contents(rng, elem)
            return _replace_match(text, m, "array<%s%s>" % (elem, ": " + body if body else ""))
    elif kind == "axis":
        ms = list(AXIS_RE.finditer(text))
        if ms:
            m = rng.choice(ms)
            rest = text[m.end():]
            vm = re.match(r"-?\d+(\s*:\s*i\d+)?|array<[^>]*>|\[[^\]]*\]|true|false|\"[^\"]*\"", rest)
            choices = ["%d : i64" % v for v in (-100, -3, -2, -1, 0, 1, 2, 3, 5, 2**62)]
            choices += ["array<i64>", "array<i64: -1>", "array<i64: 0, 0>", "array<i64: 1, 0, 2>",
                        "array<i64: 9223372036854775807>", "array<i32: 1>", "[]", "[1, 2]",
                        "true", "\"x\"", "unit", "1.5 : f32", "dense<1> : tensor<1xi64>"]
            new = rng.choice(choices)
            end = m.end() + (vm.end() if vm else 0)
            return text[:m.end()] + new + text[end:]
    elif kind == "ssa":
        defs, uses = _defs_and_uses(text)
        if len(uses) >= 2:
            (a0, a1), (b0, b1) = sorted(rng.sample(uses, 2))
            x, y = text[a0:a1], text[b0:b1]
            if rng.random() < 0.5:   # swap two operands
                return text[:a0] + y + text[a1:b0] + x + text[b1:]
            return text[:a0] + y + text[a1:]   # a use of another value
        if uses and defs:
            (a0, a1) = rng.choice(uses)
            d0, d1 = rng.choice(defs)
            return text[:a0] + text[d0:d1].split(":")[0] + text[a1:]
    elif kind in ("line_delete", "line_dup", "line_swap"):
        lines = text.split("\n")
        if len(lines) > 1:
            i = rng.randrange(len(lines))
            if kind == "line_delete":
                del lines[i]
            elif kind == "line_dup":
                lines.insert(i, lines[i])
            else:
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            return "\n".join(lines)
    elif kind == "float":
        ms = list(FLOAT_RE.finditer(text))
        if ms:
            return _replace_match(text, rng.choice(ms), rng.choice(FLOAT_VALUES))
    elif kind == "attr_drop":
        # Drop one entry of an attribute dictionary.
        ms = list(re.finditer(r"\b[\w.]+\s*=\s*[^,{}]+(?:,\s*)?(?=[\w.]+\s*=|\})", text))
        if ms:
            return _replace_match(text, rng.choice(ms), "")
    kinds = ["delete", "duplicate", "swap", "insert", "insert", "splice", "flip", "truncate"]
    return _dec(mutate_text(_enc(text), rng, MLIR_FRAGMENTS, edits=(1, 1), kinds=kinds))


def mutate_mlir(data, rng, avoid_upstream=True):
    """One to three MLIR-aware edits of `data` (bytes), mostly one. Unless
    told otherwise, retries so that the result does not hit a known MLIR
    parser crash (upstream_known)."""
    text = _dec(data)
    for _ in range(10):
        out = text
        for _ in range(rng.choices([1, 2, 3], weights=[6, 3, 1])[0]):
            out = mutate_mlir_once(out, rng)
        out = _enc(out)
        if not avoid_upstream or not upstream_known(out):
            return out
    return data


# ---------------------------------------------------------------------------
# GPU targets (mlc-gpu-pipeline's chip and features options)

GPU_CHIPS = ["sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72", "sm_75",
             "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_101",
             "sm_101a", "sm_103", "sm_103a", "sm_120", "sm_120a", "sm_121", "sm_121a"]
BAD_CHIPS = ["sm_20", "sm_30", "sm_35", "sm_1", "sm_", "sm_999", "sm_100f", "sm_90b", "SM_90",
             "compute_90", "gfx90a", "", "sm_90 ", "sm_-1", "sm_0x5A", "sm_90aa", "\xe9"]
PTX_VERSIONS = [32, 40, 41, 42, 43, 50, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77,
                78, 80, 81, 82, 83, 84, 85, 86, 87, 88, 90]


def gpu_chip(rng):
    return rng.choice(GPU_CHIPS) if rng.random() < 0.85 else rng.choice(BAD_CHIPS)


def ptx_feature(rng):
    r = rng.random()
    if r < 0.25:
        return ""
    if r < 0.85:
        return "+ptx%d" % rng.choice(PTX_VERSIONS)
    return rng.choice(["ptx80", "+ptx", "+ptx999", "+ptx79", "+ptx78,+ptx80", "-ptx78", "+sm_90",
                       "+ptx-1", "+ptx4294967376", "+ptx0", "+PTX80", "+ptx80 "])


# ---------------------------------------------------------------------------
# MLIR signatures: what tensors an entry function takes

FUNC_RE = re.compile(r"\b(func\.func|tensorir\.prim_func)\s+(?:(public|private|nested)\s+)?@([\w.$-]+)\s*\(")


def _parse_type(text):
    """(shape, dtype) of `tensor<2x?xf32, ...>`, `memref<...>` or a scalar
    type; shape None for unranked; dims '?' stay '?'."""
    text = text.strip()
    m = re.match(r"(tensor|memref)<(.*)>$", text, re.S)
    if not m:
        return (), text
    body = _dec(split_top_level(_enc(m.group(2)))[0]).strip()
    if body.startswith("*x"):
        return None, body[2:]
    parts = body.split("x")
    dims = []
    while parts and (parts[0].isdigit() or parts[0] == "?"):
        dims.append(parts.pop(0))
    return dims, "x".join(parts)


def parse_functions(text):
    """Functions of an MLIR module (str): dicts with kind, name, visibility,
    params [(name, shape, dtype, attr_name)], results [type text]."""
    funcs = []
    for m in FUNC_RE.finditer(text):
        body = _bracket_body(_enc(text), m.end())
        args = []
        for i, arg in enumerate(split_top_level(body)):
            arg = _dec(arg).strip()
            am = re.match(r"(%[\w.$-]+)\s*:\s*(.*)$", arg, re.S)
            if not am:
                continue
            ty, attrs = am.group(2), ""
            j = find_top_level(ty, lambda t, k: t[k] == "{", "<([", ">)]")
            if j >= 0:
                ty, attrs = ty[:j], ty[j:]
            nm = re.search(r"(?:relay|relax|tensorir)\.name\s*=\s*\"([^\"]*)\"", attrs)
            shape, dtype = _parse_type(ty)
            name = nm.group(1) if nm else (am.group(1)[1:] if m.group(1) == "tensorir.prim_func" else "arg%d" % i)
            args.append({"name": name, "shape": shape, "dtype": dtype.strip(), "type": ty.strip(),
                         "named": bool(nm)})
        funcs.append({"kind": m.group(1), "name": m.group(3), "visibility": m.group(2) or "public",
                      "params": args})
    return funcs


# ---------------------------------------------------------------------------
# Tensor files: npz and safetensors, written deterministically, and damaged

NUMPY_DTYPES = {"f32": "<f4", "f16": "<f2", "f64": "<f8", "bf16": "<u2", "i1": "|b1",
                "i8": "|i1", "i16": "<i2", "i32": "<i4", "i64": "<i8", "index": "<i8",
                "ui8": "|u1", "si32": "<i4", "u8": "|u1"}


def npy_bytes(array, header_edit=None):
    import numpy as np
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.asanyarray(array), allow_pickle=False)
    data = buf.getvalue()
    if header_edit:
        # Rewrite the header dict text (v1.0: magic, version, u16 length).
        hlen = struct.unpack("<H", data[8:10])[0]
        header = data[10:10 + hlen].decode("latin1")
        header = header_edit(header)
        pad = (64 - (10 + len(header) + 1) % 64) % 64
        header = header + " " * pad + "\n"
        data = data[:8] + struct.pack("<H", len(header) & 0xFFFF) + header.encode("latin1") + data[10 + hlen:]
    return data


def zip_bytes(entries, compress=False):
    """A zip of (name, bytes) entries, deterministic (fixed dates);
    duplicate names allowed."""
    buf = io.BytesIO()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(buf, "w") as z:
            for name, data in entries:
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
                z.writestr(info, data)
    return buf.getvalue()


def npz_bytes(arrays, compress=False):
    return zip_bytes([(k + ".npy", npy_bytes(v)) for k, v in arrays.items()], compress)


def safetensors_bytes(arrays, metadata=None):
    import numpy as np
    names = {"<f4": "F32", "<f2": "F16", "<f8": "F64", "|i1": "I8", "<i2": "I16", "<i4": "I32",
             "<i8": "I64", "|u1": "U8", "|b1": "BOOL", "<u2": "BF16"}
    header, blobs, off = {}, [], 0
    for k, v in arrays.items():
        v = np.ascontiguousarray(v)
        raw = v.tobytes()
        header[k] = {"dtype": names.get(v.dtype.str, "F32"), "shape": list(v.shape),
                     "data_offsets": [off, off + len(raw)]}
        blobs.append(raw)
        off += len(raw)
    if metadata is not None:
        header["__metadata__"] = metadata
    h = json.dumps(header).encode()
    return struct.pack("<Q", len(h)) + h + b"".join(blobs)


def random_array(rng, shape, dtype):
    """A small array of `shape` (dims '?' become small sizes) and MLIR
    element type `dtype` (numpy dtype string)."""
    import numpy as np
    dims = [(rng.choice([1, 2, 3]) if d == "?" else int(d)) for d in shape]
    n = 1
    for d in dims:
        n *= d
    if n > 1 << 22:
        dims = [1] * len(dims)
    np_dtype = NUMPY_DTYPES.get(dtype, "<f4")
    a = np.arange(int(np.prod(dims)) if dims else 1).reshape(dims)
    return (a % 7 - 3).astype(np_dtype)


WRONG_DTYPES = ["<f8", "<f2", "|i1", "<i4", "<i8", "|u1", "|b1", ">f4", "<c8", "<U3", "<M8[s]", "|V4"]


def damage_npz(arrays, rng, other_names=()):
    """An .npz built from `arrays` (dict name -> ndarray) with one or two
    structural faults, or binary damage of a valid one."""
    import numpy as np
    entries = [(k + ".npy", npy_bytes(v)) for k, v in arrays.items()]
    compress = rng.random() < 0.3
    for _ in range(rng.randint(1, 2)):
        kind = rng.choice(["binary", "binary", "dtype", "shape", "header", "dup", "name",
                           "extra", "drop", "fortran", "empty", "notzip", "npy_trunc"])
        if kind == "binary" or not entries:
            return mutate_binary(zip_bytes(entries, compress), rng)
        i = rng.randrange(len(entries))
        name, data = entries[i]
        key = name[:-4]
        arr = arrays.get(key)
        if kind == "dtype" and arr is not None:
            try:
                entries[i] = (name, npy_bytes(np.zeros(arr.shape, rng.choice(WRONG_DTYPES))))
            except (TypeError, ValueError):
                pass
        elif kind == "shape" and arr is not None:
            shape = list(arr.shape)
            if shape and rng.random() < 0.5:
                shape[rng.randrange(len(shape))] = rng.choice([0, 1, 5])
            else:
                shape.append(rng.choice([1, 2]))
            entries[i] = (name, npy_bytes(np.zeros(shape, arr.dtype)))
        elif kind == "header" and arr is not None:
            edit = rng.choice([
                lambda h: re.sub(r"'shape': \([^)]*\)", "'shape': (%d,)" % rng.choice([-1, 2**40, 2**62, 0]), h),
                lambda h: re.sub(r"'shape': \([^)]*\)", "'shape': (1, 2, 3, 4, 5, 6, 7, 8, 9)", h),
                lambda h: h.replace("'descr': '", "'descr': '>" if rng.random() < 0.5 else "'descr': 'x"),
                lambda h: h.replace("False", "True"),
                lambda h: h.replace("{", "{'extra': 1, "),
                lambda h: h[:rng.randrange(max(len(h), 1))],
                lambda h: "",
            ])
            entries[i] = (name, npy_bytes(arr, edit))
        elif kind == "dup":
            entries.append((name, data))
        elif kind == "name":
            entries[i] = (rng.choice([key, key + ".npy.npy", "dir/" + name, "", ".npy",
                                      "\xe9.npy", name.upper(), "../" + name, key + " .npy"]), data)
        elif kind == "extra":
            extra = rng.choice(list(other_names) or ["zz"]) if other_names and rng.random() < 0.6 else "zz"
            entries.append((extra + ".npy", npy_bytes(np.ones(rng.choice([(), (1,), (2, 3)]), np.float32))))
        elif kind == "drop":
            del entries[i]
        elif kind == "fortran" and arr is not None and arr.ndim >= 2:
            entries[i] = (name, npy_bytes(np.asfortranarray(arr)))
        elif kind == "empty":
            return zip_bytes([])
        elif kind == "notzip":
            return rng.choice([b"", b"PK", b"PK\x03\x04", data, b"\x93NUMPY"])
        elif kind == "npy_trunc":
            entries[i] = (name, data[:rng.randrange(max(len(data), 1))])
    return zip_bytes(entries, compress)


def damage_safetensors(arrays, rng):
    data = safetensors_bytes(arrays, metadata={"format": "pt"} if rng.random() < 0.5 else None)
    if rng.random() < 0.5:
        return mutate_binary(data, rng)
    hlen = struct.unpack("<Q", data[:8])[0]
    header = json.loads(data[8:8 + hlen])
    body = data[8 + hlen:]
    keys = [k for k in header if k != "__metadata__"]
    if keys:
        k = rng.choice(keys)
        field = rng.choice(["dtype", "shape", "data_offsets"])
        header[k][field] = rng.choice({
            "dtype": ["F8", "X", "", 3, "BF16", "I64", "C64", None],
            "shape": [[], [0], [-1], [2**62, 2**62], [1] * 40, "2", [1.5]],
            "data_offsets": [[0, 2**40], [10, 0], [-1, 4], [0], [0, 0], "0", [0, len(body) + 1]],
        }[field])
    h = json.dumps(header).encode()
    hl = len(h) if rng.random() < 0.8 else rng.choice([0, 2**63, len(h) + 10, 7])
    return struct.pack("<Q", hl & (2**64 - 1)) + h + body


# ---------------------------------------------------------------------------
# Classification and crash signatures

FRAME_RE = re.compile(r"^\s*#(\d+)\s+0x[0-9a-fA-F]+\s+(?:in\s+)?(.*)$", re.M)
SKIP_FRAME = re.compile(
    r"^(llvm::sys::|__sanitizer|__asan|__ubsan|__interceptor|___interceptor|__interception|"
    r"abort|raise|__GI_|gsignal|__pthread_kill|pthread_kill|__restore_rt|SignalHandler|"
    r"llvm::report_fatal_error|llvm::reportFatal|llvm::llvm_unreachable_internal|__assert_fail|"
    r"__libc_|__memcpy|__memmove|__memset|memcpy|memmove|memset|strlen|__strlen|__strcmp|"
    r"llvm::function_ref|std::|__gnu_cxx::|_start|operator_|_int_malloc|__libc_malloc|malloc|free|"
    r"__cxa|_Unwind|__cxx|llvm::raw_ostream::|llvm::errs|llvm::SmallVectorBase|"
    r"llvm::SmallVectorTemplate|mlir::Diagnostic::operator|__ubsan_handle|llvm::allocate_buffer|"
    r"llvm::deallocate_buffer)")
ASSERT_RE = re.compile(r"Assertion `(.*?)' failed")
FATAL_RE = re.compile(r"LLVM ERROR: ([^\n]*)")
UNREACHABLE_RE = re.compile(r"UNREACHABLE executed at ([^\n]*)")
ASAN_RE = re.compile(r"ERROR: (\w+Sanitizer): ([\w-]+)")
PROTOBUF_RE = re.compile(r"\[libprotobuf FATAL [^\]]*\] ([^\n]*)")
TERMINATE_RE = re.compile(r"terminate called after throwing an instance of '([^']*)'")
UBSAN_RE = re.compile(r"(\S+?:\d+:\d+): runtime error: ([^\n]*)")
# llvm::cl's complaint about an option value ("mlc-opt: for the --openmp
# option: 'maybe' is invalid value for boolean argument!"): a diagnostic
# without "error:", also for pass options given on the command line (as in
# upstream mlir-opt), and the pass-options parser's "<Pass-Options-Parser>:
# no such option X" for a pipeline's options on the command line (upstream
# mlir-opt's pipelines print the same, without "error:").
CL_ERROR_RE = re.compile(rb"^(?:[\w.-]+: for the -{1,2}[\w.-]+ option: |<Pass-Options-Parser>: )", re.M)
CRASH_MARKERS = (b"Sanitizer", b"runtime error:", b"LLVM ERROR:", b"PLEASE submit a bug report",
                 b"Assertion `", b"UNREACHABLE executed", b"terminate called after throwing")


def frame_name(text):
    text = text.strip()
    text = re.sub(r"\s+\((?:/|\.\./)[^()]*\+0x[0-9a-f]+\)$", "", text)   # (module+offset)
    text = re.sub(r"\s+(?:/|\./)\S+$", "", text)                           # file:line
    text = text.replace("(anonymous namespace)::", "{anon}::")
    text = re.sub(r"\boperator (new|delete)", r"operator_\1", text)
    if not text or text.startswith("(") or text.startswith("<unknown"):
        return None
    # The name ends at the parameter list; a return type (templates) and
    # the part after a space at template depth 0 before it are dropped.
    depth, start, end = 0, 0, len(text)
    for i, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth <= 0:
            end = i
            break
        elif c == " " and depth <= 0:
            start = i + 1
    name = text[start:end].strip()
    return name or None


def _normalize(msg):
    msg = re.sub(r"0x[0-9a-fA-F]+", "0x?", msg)
    msg = re.sub(r"\d{4,}", "N", msg)
    msg = re.sub(r"'[^']*/([^'/]*)'", r"'\1'", msg)   # paths in quotes: base name
    return msg.strip()[:200]


def crash_signature(stderr, rc):
    """A short text that tells distinct crashes apart: the assertion / LLVM
    ERROR / sanitizer text and the first frames that are not the signal
    handler, the C library or LLVM's error reporting."""
    text = stderr.decode("utf-8", "replace")
    parts = []
    for regex, fmt in ((ASSERT_RE, "assertion `%s'"), (FATAL_RE, "LLVM ERROR: %s"),
                       (UNREACHABLE_RE, "unreachable at %s"), (PROTOBUF_RE, "protobuf FATAL: %s"),
                       (TERMINATE_RE, "uncaught %s")):
        m = regex.search(text)
        if m:
            parts.append(fmt % _normalize(m.group(1)))
    m = ASAN_RE.search(text)
    if m:
        parts.append("%s %s" % (m.group(1), m.group(2)))
    m = UBSAN_RE.search(text)
    if m:
        parts.append("UBSan %s: %s" % (os.path.basename(m.group(1)), _normalize(m.group(2))))
    # A stack overflow: one frame repeated all over the (truncated) trace.
    keys = []
    for fm in FRAME_RE.finditer(text):
        name = frame_name(fm.group(2))
        if not name:
            mm = re.search(r"([\w.+-]+\+0x[0-9a-f]+)\)?$", fm.group(2).strip())
            name = mm.group(1) if mm else None
        if name:
            keys.append(name)
    if len(keys) >= 100:
        top = max(set(keys), key=keys.count)
        if keys.count(top) >= 30 and not parts:
            named = [re.sub(r"\+0x[0-9a-f]+", "", k) for k in keys if not SKIP_FRAME.match(k)]
            where = max(set(named), key=named.count) if named else top
            return "stack overflow (deep recursion in %s)" % where
    frames = []
    for fm in FRAME_RE.finditer(text):
        name = frame_name(fm.group(2))
        if name and not SKIP_FRAME.match(name) and name not in frames:
            frames.append(name)
    top = frames[:3]
    mlc = [f for f in frames if f.startswith("mlc::") or "{anon}" in f]
    if mlc and mlc[0] not in top:
        top.append(mlc[0])
    if top:
        parts.append(" <- ".join(top))
    if not parts:
        parts.append("signal %d" % -rc if rc is not None and rc < 0 else "exit %s" % rc)
    return "; ".join(parts)


# With allocator_may_return_null=1, ASan warns about an allocation it cannot
# serve and returns null: no report, and the tool's own error follows.
ASAN_ALLOCATION_WARNING_RE = re.compile(
    rb"^==\d+==WARNING: AddressSanitizer failed to allocate 0x[0-9a-f]+ bytes\n?", re.M)


def classify(rc, stderr):
    if rc is None:
        return "timeout"
    stderr = ASAN_ALLOCATION_WARNING_RE.sub(b"", stderr)
    if rc < 0 or rc >= 128 or any(m in stderr for m in CRASH_MARKERS):
        return "crash"
    if rc == 0:
        return "ok"
    if b"error:" in stderr or CL_ERROR_RE.search(stderr):
        return "error"
    return "silent"


# ---------------------------------------------------------------------------
# Running cases

class Case:
    """One run: `tool` (a key of the fuzzer's tools) with `args`, in a fresh
    directory holding `files` (relative name -> bytes, or None for an empty
    directory). `label` groups hangs and silent failures (e.g. the pass);
    `mlir` is the MLIR text the tool parses, checked for the known upstream
    parser crashes; `origin` says which seed it came from."""

    def __init__(self, tool, args, files=None, origin="", label="", mlir=None):
        self.tool, self.args, self.files = tool, list(args), dict(files or {})
        self.origin, self.label, self.mlir = origin, label or tool, mlir

    def size(self):
        return sum(len(v) for v in self.files.values() if v is not None)


class Runner:
    def __init__(self, tools, work_prefix, timeout=20, crash_dir=None, verbose=False):
        self.work = tempfile.mkdtemp(prefix=work_prefix)
        self.timeout, self.verbose = timeout, verbose
        # Private copies (a rebuild during a long campaign does not disturb
        # them), with the build's lib/ beside them for $ORIGIN/../lib.
        self.tools, self.tool_paths = {}, dict(tools)
        bindir = os.path.join(self.work, "bin")
        os.makedirs(bindir)
        libs_copied = set()
        for name, path in tools.items():
            path = self.tool_paths[name] = os.path.abspath(path)
            if not os.path.exists(path):
                sys.exit(f"error: {path} not found; build first")
            dest = os.path.join(bindir, name)
            shutil.copy2(path, dest)
            self.tools[name] = dest
            libdir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(path))), "lib")
            if libdir not in libs_copied and os.path.isdir(libdir):
                libs_copied.add(libdir)
                os.makedirs(os.path.join(self.work, "lib"), exist_ok=True)
                for f in os.listdir(libdir):
                    if ".so" in f and os.path.isfile(os.path.join(libdir, f)):
                        shutil.copy2(os.path.join(libdir, f), os.path.join(self.work, "lib", f))
        self.crash_dir = crash_dir or os.path.join(self.work, "crashes")
        os.makedirs(self.crash_dir, exist_ok=True)
        self.case_dir = os.path.join(self.work, "case")
        self.env = dict(os.environ)
        # Sanitizer reports (in a -DMLC_ENABLE_SANITIZERS=ON build) must be
        # crashes, not exit code 1. allow_user_poisoning=0: in that build
        # mlc's code is instrumented but Debian's libLLVM/libMLIR are not,
        # and LLVM's header-inline BumpPtrAllocator poisons its slabs only
        # in instrumented code, so libMLIR's own (uninstrumented) allocations
        # from the same slabs read as use-after-poison (docs/Fuzzing.md).
        # allocator_may_return_null=1: an allocation that cannot be had
        # returns null as it does without ASan, so that the tools' own
        # out-of-memory errors are what is tested.
        self.env.setdefault("ASAN_OPTIONS", "abort_on_error=1:detect_leaks=0:allow_user_poisoning=0:"
                            "allocator_may_return_null=1")
        self.env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1:print_stacktrace=1")
        self.env.setdefault("OMP_NUM_THREADS", "1")
        self.counts = {"ok": 0, "error": 0, "crash": 0, "timeout": 0, "silent": 0, "upstream": 0}
        self.failures = {}   # signature -> dict(kind, count, dir, size, first_run)
        self.upstream = {}   # which -> count
        self.runs = 0

    def write_files(self, directory, files):
        for rel, data in files.items():
            path = os.path.join(directory, rel)
            if data is None:
                os.makedirs(path, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)

    def execute(self, case):
        """Runs `case`; returns (rc or None on timeout, stderr)."""
        shutil.rmtree(self.case_dir, ignore_errors=True)
        os.makedirs(self.case_dir)
        self.write_files(self.case_dir, case.files)
        cmd = [self.tools[case.tool]] + case.args
        proc = subprocess.Popen(cmd, cwd=self.case_dir, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env=self.env, start_new_session=True)
        try:
            _, stderr = proc.communicate(timeout=self.timeout)
            return proc.returncode, stderr
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.communicate()
            return None, b""

    def repro_command(self, case):
        return " ".join(shlex.quote(a) for a in [self.tool_paths[case.tool]] + case.args)

    def run(self, case):
        self.runs += 1
        rc, stderr = self.execute(case)
        kind = classify(rc, stderr)
        if kind == "crash" and case.mlir is not None:
            which = upstream_known(case.mlir)
            if which:
                kind = "upstream"
                self.upstream[which] = self.upstream.get(which, 0) + 1
        self.counts[kind] += 1
        if kind in ("crash", "timeout", "silent"):
            self.record(kind, case, rc, stderr)
        return kind

    def record(self, kind, case, rc, stderr):
        if kind == "crash":
            sig = "crash: " + crash_signature(stderr, rc)
        elif kind == "timeout":
            sig = "timeout (> %gs): %s" % (self.timeout, case.label)
        else:
            first = next((l for l in stderr.decode("utf-8", "replace").splitlines() if l.strip()), "")
            sig = "silent rc=%s: %s: %s" % (rc, case.label, _normalize(first)[:100])
        entry = self.failures.get(sig)
        new = entry is None
        if new:
            entry = {"kind": kind, "count": 0, "size": None, "run": self.runs,
                     "dir": os.path.join(self.crash_dir, "%s-%03d" % (kind, len(self.failures) + 1))}
            self.failures[sig] = entry
        entry["count"] += 1
        if new or case.size() < entry["size"]:
            # Keep the smallest input per signature.
            entry["size"] = case.size()
            shutil.rmtree(entry["dir"], ignore_errors=True)
            os.makedirs(entry["dir"])
            self.write_files(entry["dir"], case.files)
            with open(os.path.join(entry["dir"], "repro.sh"), "w") as f:
                f.write("#!/bin/sh\n# %s\n# from %s (run %d), exit status %s\n"
                        'cd "$(dirname "$0")" && exec %s\n'
                        % (sig.replace("\n", " "), case.origin, self.runs, rc, self.repro_command(case)))
            os.chmod(os.path.join(entry["dir"], "repro.sh"), 0o755)
            with open(os.path.join(entry["dir"], "stderr.txt"), "wb") as f:
                f.write(stderr[-20000:])
        if new:
            print("%s: run %d (from %s): %s -> %s" % (kind, self.runs, case.origin, sig, entry["dir"]), flush=True)
            if self.verbose:
                sys.stdout.write(stderr.decode("utf-8", "replace")[-2000:] + "\n")
        elif self.verbose:
            print("%s: run %d (from %s): again %s" % (kind, self.runs, case.origin, sig), flush=True)

    def bad(self):
        return self.counts["crash"] + self.counts["timeout"] + self.counts["silent"]

    def summary(self, elapsed, seed):
        c = self.counts
        if self.failures:
            print("distinct failures:")
            for sig, e in self.failures.items():
                print("  %dx %s -> %s/repro.sh" % (e["count"], sig, e["dir"]))
        print(f"{self.runs} runs in {elapsed:.0f}s (seed {seed}): "
              f"{c['ok']} ok, {c['error']} clean errors, "
              f"{c['crash']} crashes, {c['timeout']} timeouts, "
              f"{c['silent']} failures without a diagnostic", flush=True)
        if self.upstream:
            print("not counted: %d crashes in inputs that hit known MLIR 22 parser bugs (%s)"
                  % (c["upstream"], "; ".join("%dx %s" % (n, w) for w, n in self.upstream.items())))

    def cleanup(self):
        """Removes the work directory unless it holds the saved failures."""
        keep = self.bad() and os.path.commonpath([self.crash_dir, self.work]) == self.work
        if keep:
            shutil.rmtree(self.case_dir, ignore_errors=True)
            shutil.rmtree(os.path.join(self.work, "bin"), ignore_errors=True)
            shutil.rmtree(os.path.join(self.work, "lib"), ignore_errors=True)
        else:
            shutil.rmtree(self.work, ignore_errors=True)
        if self.bad():
            print(f"failing inputs saved in {self.crash_dir}")


class Fuzzer:
    """Base class of a fuzzer: `tools` it runs, `add_arguments`, `setup`
    (build the seeds, once), `generate` (one Case per run)."""
    tools = []
    work_prefix = "fuzz-"
    default_timeout = 20

    def add_arguments(self, parser):
        pass

    def setup(self, args, runner, rng):
        raise NotImplementedError

    def generate(self, rng, index):
        raise NotImplementedError


def main(fuzzer, doc, argv=None):
    parser = argparse.ArgumentParser(description=doc.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n".join(doc.splitlines()[1:]))
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, "build", "bin"),
                        help="directory of the mlc tools (e.g. build-asan/bin)")
    for tool in fuzzer.tools:
        parser.add_argument("--" + tool, default=None, help=f"path of {tool} (default: BIN_DIR/{tool})")
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=600, help="stop after this long")
    parser.add_argument("--timeout", type=float, default=fuzzer.default_timeout, help="per run")
    parser.add_argument("--crash-dir", default=None, help="where to save failing inputs (default: a temp dir)")
    parser.add_argument("--stop-on-failure", action="store_true",
                        help="stop at the first crash, hang or silent failure (runs are a prefix of the "
                             "seed's sequence: the inputs do not depend on earlier results)")
    parser.add_argument("-v", "--verbose", action="store_true")
    fuzzer.add_arguments(parser)
    args = parser.parse_args(argv)

    tools = {}
    for tool in fuzzer.tools:
        tools[tool] = getattr(args, tool.replace("-", "_")) or os.path.join(args.bin_dir, tool)
    runner = Runner(tools, fuzzer.work_prefix, args.timeout, args.crash_dir, args.verbose)
    start = time.time()
    try:
        fuzzer.setup(args, runner, random.Random(args.seed ^ 0x5EED))
        rng = random.Random(args.seed)
        for index in range(args.runs):
            if time.time() - start > args.max_seconds:
                break
            case = fuzzer.generate(rng, index)
            kind = runner.run(case)
            if args.stop_on_failure and kind in ("crash", "timeout", "silent"):
                break
        runner.summary(time.time() - start, args.seed)
    finally:
        runner.cleanup()
    return 1 if runner.bad() else 0
