#!/usr/bin/python3
"""Mutation fuzzer for `mlc-translate --import-relax-json` (docs/RelaxJSON.md).

Seeds are the graphs of test/Target/RelaxJSON/*.test (split-file sections)
and one graph per relax op line of the relax tests (test/**/*.mlir: each
`%r = relax.OP %a, %b {attrs} : (types) -> types` becomes a graph whose
inputs have the operand types, with the op's attributes as MLIR attribute
text). Each run mutates a seed either structurally (a value's JSON type,
missing keys, shapes with 0/negative/huge/fractional/symbolic dims, dtypes,
op names, arguments referring to undefined or later values, odd literals and
constants, attribute texts, result counts, outputs, names and locations,
deep nesting, a bind_params file that is missing, a directory or a damaged
.npz) or as text. Every run must import or fail with a diagnostic
(docs/Fuzzing.md); attribute texts that would hit the known MLIR 22 parser
crash (array<index: ...>) are not generated.

usage (from the repository root, after building):
  /usr/bin/python3 utils/fuzz/fuzz-relax-json-import.py --runs 2000 --seed 1

Exit status: 0 if no run crashed, hung or failed silently, 1 otherwise.
"""

import copy
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402
from fuzzlib import ROOT  # noqa: E402

DTYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i16", "i32", "i64", "ui8", "index", "complex<f32>",
          "f8E4M3FN", "i0", "float32", "", "tensor<f32>", "!llvm.ptr", "none", "f32 ", "i4", "si8"]
ATTR_TEXTS = ["1 : i64", "-1 : i64", "0 : i64", "99 : i64", "9223372036854775807 : i64", "true", "false",
              "unit", "\"x\"", "1.5 : f32", "array<i64>", "array<i64: -1>", "array<i64: 0, 0>",
              "array<i64: 1, 0, 2>", "array<i64: 2, 2>", "array<i64: 1, 1, 1, 1>", "array<i64: 0, 0, -1>",
              "array<i64: -9223372036854775808>", "array<i32: 1>", "array<f32: 1.0>", "array<i1: true>",
              "[1, 2]", "[]", "{}", "dense<1> : tensor<2xi64>", "affine_map<(d0) -> (d0)>", "#relax.shape<[n]>",
              "\"NCHW\"", "\"OIHW\"", "\"nearest\"", "f32", "i64", "@main", "", "array<i64: 1,", "1 : i64 extra"]
CONSTANTS = ["dense<1.0> : tensor<f32>", "dense<[1.0, 2.0]> : tensor<2xf32>", "dense<> : tensor<0xf32>",
             "dense<1> : tensor<2x3xi64>", "dense<1.0> : tensor<*xf32>", "dense<1> : vector<2xi64>",
             "dense_resource<blob> : tensor<2xf32>", "sparse<[[0]], [1.0]> : tensor<2xf32>", "1 : i64",
             "unit", "dense<1.0> : tensor<?xf32>", "dense<0x7FC00000> : tensor<f32>", "dense<true> : tensor<i1>",
             "dense<1.0> : tensor<1000000000x1000000000xf32>", "dense<[1, 2]> : tensor<2xindex>",
             "dense<(1.0, 2.0)> : tensor<complex<f32>>", "#relax.shape<[n]>", "", "dense<", "\"str\""]
SCALARS = [0, 1, -1, 0.5, 1e308, -1e308, 2**63, -2**63 - 1, 2**64, "inf", "-inf", "nan", "one", None, True,
           [1], {"x": 1}, 1e-320]
STRUCT_OPS = ["call_tir", "call_dps_packed", "match_cast", "dataflow", "output", "constant", "relax.add", "",
              "add ", "nn", "nn.", ".add", "frobnicate", "func.return", "../add", "ADD"]


def _split_signature(rest):
    """operands+attrs text, input types, result types of an op's tail."""
    i = fuzzlib.find_top_level(rest, lambda t, k: t[k] == ":" and t[k - 1:k] == " ")
    if i < 0:
        return None
    head, sig = rest[:i], rest[i + 1:]
    parts = sig.split("->")
    if len(parts) < 2:
        return None
    ins, outs = parts[0].strip(), "->".join(parts[1:]).strip()
    if ins.startswith("(") and ins.endswith(")"):
        ins = ins[1:-1]
    if outs.startswith("(") and outs.endswith(")"):
        outs = outs[1:-1]
    ins = [fuzzlib._dec(t).strip() for t in fuzzlib.split_top_level(fuzzlib._enc(ins)) if t.strip()]
    outs = [fuzzlib._dec(t).strip() for t in fuzzlib.split_top_level(fuzzlib._enc(outs)) if t.strip()]
    return head, ins, outs


def graphs_from_mlir(text):
    """One graph per relax op line of an MLIR test file."""
    graphs = []
    for m in re.finditer(r"^\s*%[\w.$-]+(?::(\d+))?\s*=\s*relax\.([\w.]+)\s+(.*)$", text, re.M):
        op = m.group(2)
        if op in ("call_tir", "call_dps_packed", "match_cast", "constant", "dataflow", "output"):
            continue
        split = _split_signature(m.group(3))
        if not split:
            continue
        head, in_types, out_types = split
        attrs = {}
        if "{" in head:
            body = head[head.index("{") + 1:head.rindex("}")] if "}" in head else ""
            head = head[:head.index("{")]
            for entry in fuzzlib.split_top_level(fuzzlib._enc(body)):
                entry = fuzzlib._dec(entry).strip()
                if not entry:
                    continue
                if "=" in entry:
                    k, v = entry.split("=", 1)
                    attrs[k.strip()] = v.strip()
                else:
                    attrs[entry] = "unit"
        operands = re.findall(r"%[\w.$-]+(?:#\d+)?", head)
        if len(operands) != len(in_types):
            continue
        inputs, index = [], {}
        args = []
        for name, ty in zip(operands, in_types):
            if name not in index:
                shape, dtype = fuzzlib._parse_type(ty)
                if shape is None:
                    break
                sm = re.search(r"#relax\.shape<\[(.*)\]>", ty)
                syms = [s.strip() for s in sm.group(1).split(",")] if sm else []
                dims = []
                for i, d in enumerate(shape):
                    if d != "?":
                        dims.append(int(d))
                    else:
                        dims.append(syms[i] if i < len(syms) and re.fullmatch(r"[A-Za-z_]\w*", syms[i]) else "n%d" % i)
                index[name] = len(inputs)
                inputs.append({"name": name[1:], "shape": dims, "dtype": dtype})
            args.append(index[name])
        else:
            node = {"op": op, "args": args}
            if attrs:
                node["attrs"] = attrs
            if len(out_types) != 1:
                node["results"] = len(out_types)
            graphs.append({"format": "mlc-relax-graph", "version": 1, "inputs": inputs, "nodes": [node],
                           "outputs": [len(inputs) + i for i in range(len(out_types))]})
    return graphs


def _list(value):
    return value if isinstance(value, list) else []


def json_paths(value, path=()):
    """Every (path, value) in a JSON tree."""
    yield path, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from json_paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from json_paths(v, path + (i,))


def set_path(root, path, value):
    if not path:
        return value
    parent = root
    for p in path[:-1]:
        parent = parent[p]
    parent[path[-1]] = value
    return root


def delete_path(root, path):
    parent = root
    for p in path[:-1]:
        parent = parent[p]
    del parent[path[-1]]


class RelaxJSONImportFuzzer(fuzzlib.Fuzzer):
    tools = ["mlc-translate"]
    work_prefix = "fuzz-relax-json-"

    def add_arguments(self, parser):
        parser.add_argument("--text-fraction", type=float, default=0.15,
                            help="share of runs that mutate the JSON text instead of its structure")

    def setup(self, args, runner, rng):
        self.text_fraction = args.text_fraction
        self.seeds = []
        for path in sorted(glob.glob(os.path.join(ROOT, "test", "Target", "RelaxJSON", "*.test"))):
            text = open(path).read()
            for m in re.finditer(r"^//--- (\S+)\n(.*?)(?=^//--- |\Z)", text, re.M | re.S):
                try:
                    graph = json.loads(m.group(2))
                except ValueError:
                    self.seeds.append((m.group(1), m.group(2)))   # not-json.json: text only
                    continue
                self.seeds.append((m.group(1), graph))
        for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True)):
            text = open(path, encoding="utf-8", errors="surrogateescape").read()
            if "relax." not in text:
                continue
            for i, g in enumerate(graphs_from_mlir(text)):
                self.seeds.append(("%s#%d" % (os.path.relpath(path, ROOT), i), g))
        self.ops = sorted({n["op"] for _, g in self.seeds if isinstance(g, dict)
                           for n in g.get("nodes", []) if isinstance(n, dict) and isinstance(n.get("op"), str)})
        self.attr_names = sorted({k for _, g in self.seeds if isinstance(g, dict)
                                  for n in g.get("nodes", []) if isinstance(n, dict)
                                  for k in n.get("attrs", {})})

    # -- mutations ---------------------------------------------------------------

    def random_value(self, rng):
        return rng.choice([0, 1, -1, 2**63, 1.5, "", "x", "n", None, True, [], {}, [0], {"a": 1},
                           [[[[[]]]]], "f32", 1e400 if False else 1e308])

    def mutate_graph(self, rng, g):
        paths = list(json_paths(g))
        kind = rng.choices(["dim", "dtype", "op", "arg", "attr", "results", "outputs", "drop_key", "type",
                            "bind", "nest", "dup", "loc", "function", "add_node", "inputs"],
                           weights=[12, 8, 8, 12, 14, 4, 5, 6, 8, 4, 1, 3, 3, 2, 4, 3])[0]
        if not isinstance(g, dict):
            return self.random_value(rng)
        inputs = [i for i in _list(g.get("inputs")) + _list(g.get("params")) if isinstance(i, dict)]
        nodes = [n for n in _list(g.get("nodes")) if isinstance(n, dict)]
        if kind == "dim" and inputs:
            i = rng.choice(inputs)
            shape = i.get("shape")
            if isinstance(shape, list):
                r = rng.random()
                if shape and r < 0.6:
                    shape[rng.randrange(len(shape))] = rng.choice(
                        [0, 1, 2, 3, 1000000, 2**31, 2**40, 2**62, 2**63 - 1, 2**63, 2**64, -1, -2**63, 1.5, "n", "m",
                         "2n", "", "_", "n n", None, True, [2], "a" * 300, "i64", "?"])
                elif shape and r < 0.8:
                    del shape[rng.randrange(len(shape))]
                else:
                    shape.extend([rng.choice([1, 2, "n"])] * rng.choice([1, 1, 3, 40]))
        elif kind == "dtype" and inputs:
            rng.choice(inputs)["dtype"] = rng.choice(DTYPES)
        elif kind == "op" and nodes:
            rng.choice(nodes)["op"] = rng.choice(self.ops * 2 + STRUCT_OPS)
        elif kind == "arg" and nodes:
            n = rng.choice(nodes)
            args = n.get("args")
            if not isinstance(args, list):
                n["args"] = [0]
                return g
            new = rng.choice([-1, 0, 1, 2, 5, 100, 2**31, 2**63, -2**63, 1.5, "0", None, True, [0],
                              {"scalar": rng.choice(SCALARS), "dtype": rng.choice(DTYPES)},
                              {"scalar": 1.0}, {"constant": rng.choice(CONSTANTS)}, {"constant": 1},
                              {"scalar": 1, "constant": "dense<1> : tensor<i64>"}, {}, {"x": 1}])
            r = rng.random()
            if args and r < 0.6:
                args[rng.randrange(len(args))] = new
            elif args and r < 0.8:
                del args[rng.randrange(len(args))]
            else:
                args.append(new)
        elif kind == "attr" and nodes:
            n = rng.choice(nodes)
            attrs = n.setdefault("attrs", {}) if isinstance(n.get("attrs", {}), dict) else None
            if not isinstance(attrs, dict):
                n["attrs"] = {}
                return g
            r = rng.random()
            if attrs and r < 0.5:
                k = rng.choice(sorted(attrs))
                attrs[k] = rng.choice(ATTR_TEXTS) if rng.random() < 0.8 else self.random_value(rng)
            elif attrs and r < 0.65:
                del attrs[rng.choice(sorted(attrs))]
            elif attrs and r < 0.8 and isinstance(next(iter(attrs.values())), str):
                k = rng.choice(sorted(attrs))
                if isinstance(attrs[k], str):
                    attrs[k] = fuzzlib._dec(fuzzlib.mutate_mlir(fuzzlib._enc(attrs[k]), rng))
            else:
                attrs[rng.choice(self.attr_names + ["", "x", "axis"])] = rng.choice(ATTR_TEXTS)
        elif kind == "results" and nodes:
            rng.choice(nodes)["results"] = rng.choice([0, 2, 3, -1, 1000, 2**40, 2**63, "2", None, 1.0])
        elif kind == "outputs":
            total = len(inputs) + sum(n.get("results", 1) if isinstance(n.get("results", 1), int) and
                                      0 <= n.get("results", 1) < 100 else 1 for n in nodes)
            g["outputs"] = rng.choice([[], [-1], [total], [total - 1] * 3, [0], [2**63], ["0"], None, 0,
                                       [{"scalar": 1.0, "dtype": "f32"}], [{"constant": "dense<1.0> : tensor<f32>"}],
                                       list(range(total))])
        elif kind == "drop_key":
            keyed = [(p, v) for p, v in paths if p and not isinstance(p[-1], int)]
            if keyed:
                delete_path(g, rng.choice(keyed)[0])
        elif kind == "type":
            p, _ = rng.choice(paths)
            g = set_path(g, p, self.random_value(rng))
        elif kind == "bind":
            g["bind_params"] = rng.choice(["p.npz"] * 4 + ["p.safetensors"] * 2 + ["missing.npz", "dir", "/dev/null",
                                                                                    "../p.npz", "", 1, None])
        elif kind == "nest":
            # Written out by generate: [[[...0...]]] or {"a": {"a": ...}}.
            p, _ = rng.choice(paths)
            # 100000 levels overflow the stack of llvm::json::parse (docs/Fuzzing.md):
            # tried rarely, so that the other mutations get their turn.
            depth = rng.choices([10, 100, 1000, 10000, 100000], weights=[30, 30, 20, 17, 3])[0]
            g = set_path(g, p, "__NEST_%s_%d__" % (rng.choice("LD"), depth))
        elif kind == "dup":
            if nodes and rng.random() < 0.5:
                g["nodes"].append(copy.deepcopy(rng.choice(nodes)))
            elif inputs and isinstance(g.get("inputs", []), list):
                g.setdefault("inputs", []).append(copy.deepcopy(rng.choice(inputs)))
        elif kind == "loc" and nodes:
            n = rng.choice(nodes)
            n[rng.choice(["name", "file", "line"])] = rng.choice(
                ["", "x", "a\"b", "a\nb", "\xe9", 0, -1, 2**63, 2**31, 1.5, None, "model.py", [1]])
        elif kind == "function":
            g["function"] = rng.choice(["", "main", "f", "a b", "@", "0", "\"", "x" * 1000, None, 1])
        elif kind == "add_node":
            total = len(inputs) + len(nodes)
            if not isinstance(g.get("nodes", []), list):
                return g
            g.setdefault("nodes", []).append({"op": rng.choice(self.ops), "args": [rng.randrange(max(total, 1))
                                                                                   for _ in range(rng.randint(1, 3))]})
        elif kind == "inputs":
            g[rng.choice(["inputs", "params"])] = rng.choice([[], None, {}, [1], [{}], [{"name": "x"}],
                                                              [{"name": "x", "shape": [2], "dtype": "f32"}] * 2])
        return g

    def params_files(self, rng, g):
        arrays = {}
        params = g.get("params", []) if isinstance(g, dict) else []
        for p in params if isinstance(params, list) else []:
            try:
                shape = [str(d) if isinstance(d, int) and 0 <= d < 64 else "?" for d in p["shape"]]
                arrays[str(p["name"])] = fuzzlib.random_array(rng, shape, p.get("dtype", "f32"))
            except (TypeError, KeyError, ValueError, AttributeError):
                continue
        if not arrays:
            arrays = {"w": fuzzlib.random_array(rng, ["2", "3"], "f32")}
        files = {"dir": None}
        if rng.random() < 0.6:
            files["p.npz"] = fuzzlib.npz_bytes(arrays)
            files["p.safetensors"] = fuzzlib.safetensors_bytes(arrays)
        else:
            files["p.npz"] = fuzzlib.damage_npz(arrays, rng)
            files["p.safetensors"] = fuzzlib.damage_safetensors(arrays, rng)
        return files

    def generate(self, rng, index):
        origin, seed = rng.choice(self.seeds)
        files = {}
        for _ in range(10):
            if isinstance(seed, str) or rng.random() < self.text_fraction:
                text = seed if isinstance(seed, str) else json.dumps(seed, indent=rng.choice([None, 1]))
                data = fuzzlib.mutate_text(text.encode(), rng, fuzzlib.GENERIC_FRAGMENTS + [
                    b"{\"scalar\": 1}", b"[", b"]", b"null", b"true", b"\"nodes\"", b"\"args\": [0]", b"1e999"])
            else:
                g = copy.deepcopy(seed)
                for _ in range(rng.choices([1, 2, 3], weights=[6, 3, 1])[0]):
                    g = self.mutate_graph(rng, g)
                try:
                    data = json.dumps(g, ensure_ascii=rng.random() < 0.8).encode("utf-8", "surrogateescape")
                except (ValueError, RecursionError):
                    data = b"{}"
                data = re.sub(rb'"__NEST_([LD])_(\d+)__"', lambda m: (
                    b"[" * int(m.group(2)) + b"0" + b"]" * int(m.group(2)) if m.group(1) == b"L"
                    else b'{"a": ' * int(m.group(2)) + b"0" + b"}" * int(m.group(2))), data)
                if isinstance(g, dict) and ("params" in g or "bind_params" in g):
                    if "bind_params" not in g and rng.random() < 0.5:
                        g["bind_params"] = "p.npz"
                        data = json.dumps(g).encode()
                    files.update(self.params_files(rng, g))
            if not fuzzlib.upstream_known(data):
                break
        files["graph.json"] = data
        return fuzzlib.Case("mlc-translate", ["--import-relax-json", "graph.json", "-o", os.devnull], files,
                            origin=origin, label="mlc-translate --import-relax-json", mlir=data)


if __name__ == "__main__":
    sys.exit(fuzzlib.main(RelaxJSONImportFuzzer(), __doc__))
