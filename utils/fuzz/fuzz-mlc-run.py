#!/usr/bin/python3
"""Fuzzer for `mlc-run`: damaged .npz/.safetensors inputs and parameters,
and random command-line options.

Seeds are the mlc-run tests' models (test/Tools/mlc-run/*.mlir, the
mlc-compile tests' and test/Integration/Inputs' .mlir files) and a few
relay/relax/TensorIR programs written here. For each run the fuzzer picks an
entry function, makes valid inputs for its parameters from the signature
(names from relay.name/relax.name/tensorir.name, symbolic dims consistent),
splits them between --inputs and --params, then damages them: binary damage
(truncation, flips, boundary integers), a bad .npy header (negative, huge or
too many dims, big-endian or unknown descr, fortran order), wrong dtypes or
shapes, duplicate keys, odd entry names, extra names, names in both files,
missing names, a non-zip file, empty archives; and picks options: -O, --entry,
--bench, --threads, --outputs (a directory, a missing directory, /dev/full,
the input file), --pipeline-options, --target, --quiet. Sometimes the model
itself gets an MLIR-aware mutation. Every run must succeed or fail with a
diagnostic (docs/Fuzzing.md).

Entries with integer scalar parameters (loop bounds the program trusts) are
left out: out-of-range values would make the program itself write out of
bounds, which is no fault of mlc-run.

usage (from the repository root, after building):
  /usr/bin/python3 utils/fuzz/fuzz-mlc-run.py --runs 500 --seed 1

Exit status: 0 if no run crashed, hung or failed silently, 1 otherwise.
"""

import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402
from fuzzlib import ROOT  # noqa: E402

PROGRAMS = {
    "relay-mlp": """func.func @main(%x: tensor<2x8xf32> {relay.name = "x"}, %w: tensor<4x8xf32> {relay.name = "w"},
                %b: tensor<4xf32> {relay.name = "b"}) -> tensor<2x4xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  %1 = relay.add %0, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = relay.nn.relu %1 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = relay.nn.softmax %2 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %3 : tensor<2x4xf32>
}
""",
    "relay-conv": """func.func @main(%x: tensor<1x2x6x6xf32> {relay.name = "data"}, %w: tensor<3x2x3x3xf32> {relay.name = "weight"}) -> tensor<1x3x3x3xf32> {
  %0 = relay.nn.conv2d %x, %w {channels = 3 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  %1 = relay.nn.max_pool2d %0 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32>
  return %1 : tensor<1x3x3x3xf32>
}
""",
    "relax-symbolic": """func.func @main(%x: tensor<?x3xf32, #relax.shape<[n, 3]>> {relax.name = "x"},
                %y: tensor<?x3xf32, #relax.shape<[n, 3]>> {relax.name = "y"}) -> (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<3xf32>) {
  %0 = relax.multiply %x, %y : (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x3xf32, #relax.shape<[n, 3]>>
  %1 = relax.sum %0 {axis = array<i64: 0>} : (tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<3xf32>
  return %0, %1 : tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<3xf32>
}
""",
    "relax-types": """func.func @main(%a: tensor<4xi64> {relax.name = "a"}, %b: tensor<4xf16> {relax.name = "b"},
                %c: tensor<2x2xi8> {relax.name = "c"}) -> (tensor<4xi64>, tensor<4xf16>, tensor<2x2xi8>) {
  %0 = relax.add %a, %a : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %1 = relax.multiply %b, %b : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  %2 = relax.maximum %c, %c : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi8>
  return %0, %1, %2 : tensor<4xi64>, tensor<4xf16>, tensor<2x2xi8>
}
""",
    "relax-bool": """func.func @main(%x: tensor<5xf32> {relax.name = "x"}, %y: tensor<5xf32> {relax.name = "y"}) -> tensor<5xi1> {
  %0 = relax.less %x, %y : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
  return %0 : tensor<5xi1>
}
""",
    "scalar-f32": """func.func @main(%x: tensor<f32> {relax.name = "x"}, %y: tensor<1xf32> {relax.name = "y"}) -> tensor<1xf32> {
  %0 = relax.add %y, %x : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}
""",
}
CPU_PIPELINE_OPTIONS = ["hoist-result-allocs", "fuse-opt-level", "fold-constant", "plan-memory",
                        "default-schedule", "approximate-math", "openmp", "emulate-gpu-schedule"]


def symbols_of(type_text):
    m = re.search(r"#relax\.shape<\[(.*)\]>", type_text)
    return [s.strip() for s in m.group(1).split(",")] if m else None


class MlcRunFuzzer(fuzzlib.Fuzzer):
    tools = ["mlc-run"]
    work_prefix = "fuzz-mlc-run-"
    default_timeout = 30

    def add_arguments(self, parser):
        parser.add_argument("--inputs", nargs="*", default=sorted(
            glob.glob(os.path.join(ROOT, "test", "Tools", "mlc-run", "*.mlir")) +
            glob.glob(os.path.join(ROOT, "test", "Tools", "mlc-compile", "*.mlir")) +
            glob.glob(os.path.join(ROOT, "test", "Integration", "Inputs", "*.mlir"))))
        parser.add_argument("--mutation-rate", type=float, default=0.15,
                            help="share of runs whose model gets an MLIR mutation")

    def setup(self, args, runner, rng):
        self.mutation_rate = args.mutation_rate
        self.entries = []   # (origin, text, function)
        sources = []
        for path in args.inputs:
            text = open(path, encoding="utf-8", errors="surrogateescape").read()
            if "cuda" in os.path.basename(path):
                continue
            text = "\n".join(l for l in text.split("\n") if not re.match(r"\s*//", l)).strip() + "\n"
            sources.append((os.path.relpath(path, ROOT), text))
        sources += sorted(PROGRAMS.items())
        for origin, text in sources:
            for f in fuzzlib.parse_functions(text):
                if f["visibility"] == "private":
                    continue
                if any(p["shape"] == () and p["dtype"] in ("index", "i64", "i32", "i8", "i1")
                       for p in f["params"]):
                    continue   # loop bounds the program trusts
                if any(p["shape"] is None for p in f["params"]):
                    continue
                if f["kind"] == "func.func" and any(not p["type"].startswith("tensor<") for p in f["params"]):
                    continue   # mlc-run takes tensors (the tests check the message)
                self.entries.append((origin, text, f))
        if not self.entries:
            sys.exit("error: no entries")

    def valid_arrays(self, rng, func):
        sizes, arrays = {}, {}
        for p in func["params"]:
            syms = symbols_of(p["type"])
            dims = []
            for i, d in enumerate(p["shape"]):
                if d != "?":
                    dims.append(d)
                elif syms and i < len(syms) and re.fullmatch(r"\w+", syms[i]):
                    dims.append(str(sizes.setdefault(syms[i], rng.choice([1, 2, 3, 5]))))
                else:
                    dims.append(str(rng.choice([1, 2, 3])))
            dtype = p["dtype"]
            arrays[p["name"]] = fuzzlib.random_array(rng, dims, dtype)
        return arrays

    def tensor_file(self, rng, arrays, damage, other_names):
        if rng.random() < 0.2:
            data = (fuzzlib.damage_safetensors(arrays, rng) if damage
                    else fuzzlib.safetensors_bytes(arrays))
            return ".safetensors", data
        data = (fuzzlib.damage_npz(arrays, rng, other_names) if damage
                else fuzzlib.npz_bytes(arrays, compress=rng.random() < 0.3))
        return ".npz", data

    def generate(self, rng, index):
        origin, text, func = rng.choice(self.entries)
        data = text.encode("utf-8", "surrogateescape")
        if rng.random() < self.mutation_rate:
            data = fuzzlib.mutate_mlir(data, rng)
        arrays = self.valid_arrays(rng, func)
        inputs, params = {}, {}
        named = {p["name"] for p in func["params"] if p["named"] or func["kind"] != "func.func"}
        for name, a in arrays.items():
            r = rng.random()
            if name not in named and r < 0.95:
                inputs[name] = a   # only named parameters can be bound as --params
            elif r < 0.6:
                inputs[name] = a
            elif r < 0.95:
                params[name] = a
            elif r < 0.98:
                inputs[name] = params[name] = a   # given twice
            # else: missing
        files, args = {"model.mlir": data}, ["model.mlir"]
        opt_level = None
        damage_inputs = rng.random() < 0.45
        damage_params = rng.random() < 0.25
        names = list(arrays)
        if inputs or rng.random() < 0.3:
            ext, blob = self.tensor_file(rng, inputs, damage_inputs, names)
            files["in" + ext] = blob
            args.append("--inputs=in" + ext)
        if params or rng.random() < 0.1:
            ext, blob = self.tensor_file(rng, params, damage_params, names)
            files["params" + ext] = blob
            args.append("--params=params" + ext)
        # Options.
        if rng.random() < 0.9:
            entry = func["name"] if rng.random() < 0.9 else rng.choice(["nope", "", "main", "@main",
                                                                          func["name"] + " "])
            args.append("--entry=" + entry)
        if rng.random() < 0.3:
            opt_level = str(rng.choice([0, 1, 2, 3] * 5 + [4, 9, -1, 4294967296, "x"]))
        if rng.random() < 0.25:
            args.append("--bench=" + str(rng.choice([0, 1, 2, 3] * 4 + [-1, "x", 4294967296])))
        if rng.random() < 0.25:
            args.append("--threads=" + str(rng.choice([0, 1, 2, 3, 16] * 3 + [64, -1, 4294967295, 2**31, "x"])))
        r = rng.random()
        if r < 0.5:
            args.append("--outputs=out.npz")
        elif r < 0.65:
            out = rng.choice(["dir", "dir/", "missing/out.npz", "/dev/full", "/dev/null", "",
                              "in.npz", "model.mlir", "out.safetensors", "out"])
            args.append("--outputs=" + out)
            files["dir"] = None
        if rng.random() < 0.15:
            args.append("--quiet")
        if rng.random() < 0.15:
            opts = {o: rng.choice(["true", "false"] * 3 + ["0", "1", "2", "3", "-1", "x"])
                    for o in rng.sample(CPU_PIPELINE_OPTIONS, rng.randint(1, 3))}
            args.append("--pipeline-options=" + " ".join("%s=%s" % kv for kv in opts.items()))
        if rng.random() < 0.05:
            args.append("--target=" + rng.choice(["cpu", "cuda", "cuda:sm_80", "cpu:sm_90", "rocm", "", "cuda:"]))
        if rng.random() < 0.03:
            # Inputs that are not tensor files.
            i = next((k for k, a in enumerate(args) if a.startswith("--inputs=")), None)
            bad = "--inputs=" + rng.choice(["dir", "missing.npz", "/dev/null", "model.mlir", ""])
            files["dir"] = None
            if i is None:
                args.append(bad)
            else:
                args[i] = bad
        rng.shuffle(args)
        if opt_level is not None:
            # `-O N` (mlc-run's -O is no prefix option: -O2 is an unknown argument).
            i = rng.randint(0, len(args))
            args[i:i] = ["-O", opt_level]
        return fuzzlib.Case("mlc-run", args, files, origin="%s @%s" % (origin, func["name"]),
                            label="mlc-run @" + func["name"], mlir=data)


if __name__ == "__main__":
    sys.exit(fuzzlib.main(MlcRunFuzzer(), __doc__))
