#!/usr/bin/python3
"""Mutation fuzzer for `mlc-opt`: mlc's passes and pipelines on mutated MLIR.

Seeds are the test inputs (test/**/*.mlir, one `// -----` chunk at a time or
the whole file with -split-input-file). Each run picks a seed, mutates it
with MLIR-aware edits (integer literals to boundary values, shape dims to
0/1/?/huge, added or dropped dims, element types swapped once or everywhere,
dense array contents, axis-like attributes, SSA operands swapped, lines
deleted/duplicated/swapped, token edits) and runs mlc-opt with either the
pass arguments of one of the seed's `mlc-opt ... | FileCheck` RUN lines, or
a random mlc pass or pipeline from include/mlc/**/Passes.td and
include/mlc/Pipelines/Pipelines.h with random option values, or a short
chain of them. The relay/relax-bind-params passes get a parameter file made
from the seed's signature (sometimes damaged). Every run must succeed or fail
with a diagnostic (docs/Fuzzing.md); inputs that would hit one of the
known MLIR 22 parser crashes are not generated (fuzzlib.upstream_known).

usage (from the repository root, after building):
  /usr/bin/python3 utils/fuzz/fuzz-mlc-opt.py --runs 2000 --seed 1
  /usr/bin/python3 utils/fuzz/fuzz-mlc-opt.py --bin-dir build-asan/bin --runs 500

Exit status: 0 if no run crashed, hung or failed silently, 1 otherwise.
"""

import glob
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402
from fuzzlib import ROOT  # noqa: E402

SPLIT_RE = re.compile(r"^// -----\s*$|^//--- .*$", re.M)
ANCHORS = {"::mlir::ModuleOp": None, "ModuleOp": None, None: None,
           "::mlir::func::FuncOp": "func.func", "::mlir::FunctionOpInterface": "func.func",
           "::mlc::tensorir::PrimFuncOp": "tensorir.prim_func",
           "::mlir::gpu::GPUModuleOp": "gpu.module"}
# The order of mlc's passes in its pipelines: chains are windows of it.
PIPELINE_ORDER = [
    "relay-bind-params", "relay-fuse-ops", "relay-to-relax", "relax-bind-params",
    "relax-legalize-ops", "relax-fold-constant", "relax-dce", "tensorir-annotate-op-pattern",
    "relax-fuse-ops", "relax-fuse-tir", "relax-inline-scalar-constants", "mlc-simplify-math",
    "mlc-deduplicate-functions", "tensorir-infer-access-regions", "tensorir-tile",
    "tensorir-parallelize", "tensorir-vectorize", "mlc-gpu-default-schedule",
    "tensorir-compact-buffer-allocation", "convert-tensorir-to-gpu", "convert-tensorir-to-linalg",
    "convert-tensorir-to-scf", "convert-relax-to-memref", "mlc-default-schedule",
    "mlc-approximate-math", "mlc-plan-memory", "mlc-gpu-tensorize-mma",
    "mlc-gpu-inline-kernel-functions", "mlc-gpu-pipeline-shared-copies", "mlc-gpu-thread-sync",
    "mlc-gpu-device-memory", "mlc-gpu-erase-host-constants", "mlc-gpu-assume-alignment",
    "mlc-gpu-launch-bounds", "mlc-forward-loop-annotations", "mlc-pack-constant-globals",
    "mlc-strip-parameter-names", "relax-check-well-formed",
]
# Upstream passes worth interleaving with mlc's.
UPSTREAM_PASSES = ["canonicalize", "cse", "symbol-dce", "inline", "loop-invariant-code-motion"]
def parse_passes():
    """mlc's passes: name -> (anchor op or None, [(arg, type, is_list)])."""
    passes = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "include", "**", "Passes.td"), recursive=True)):
        text = open(path).read()
        defs = list(re.finditer(r'def\s+(\w+)\s*:\s*(?:Interface)?Pass<\s*"([^"]+)"(?:\s*,\s*"([^"]+)")?\s*>', text))
        for i, d in enumerate(defs):
            body = text[d.end(): defs[i + 1].start() if i + 1 < len(defs) else len(text)]
            opts = re.findall(r'(List)?Option<\s*"\w+"\s*,\s*"([^"]+)"\s*,\s*"([^"]+)"', body)
            passes[d.group(2)] = (ANCHORS.get(d.group(3), "func.func"),
                                  [(arg, ty, bool(lst)) for lst, arg, ty in opts])
    return passes


def parse_pipelines():
    """mlc's pipelines: name -> [(arg, type, False)]."""
    header = open(os.path.join(ROOT, "include", "mlc", "Pipelines", "Pipelines.h")).read()
    structs = {}
    for m in re.finditer(r"struct (\w+)\s*:\s*public mlir::PassPipelineOptions<\w+>\s*\{(.*?)\n\};", header, re.S):
        structs[m.group(1)] = [(arg, ty, False) for ty, arg in
                               re.findall(r"Option<([^>]+)>\s*\w+\{\s*\*this,\s*\"([^\"]+)\"", m.group(2))]
    pipelines = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "lib", "Pipelines", "*.cpp"))):
        text = open(path).read()
        for m in re.finditer(r"PassPipelineRegistration<(\w+)>\(\s*\"([^\"]+)\"", text):
            pipelines[m.group(2)] = structs.get(m.group(1), [])
        for m in re.finditer(r"registerPassPipeline\(\s*\"([^\"]+)\"(.*?)\}\);", text, re.S):
            om = re.search(r"(\w+PipelineOptions) options;", m.group(2))
            pipelines[m.group(1)] = structs.get(om.group(1) if om else "", [])
    return pipelines


def run_line_args(text):
    """The pass arguments of the `mlc-opt %s ...` RUN lines of a test file."""
    lines, cur = [], ""
    for m in re.finditer(r"^\s*(?://|#)\s*RUN:\s?(.*)$", text, re.M):
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        lines.append(cur + part)
        cur = ""
    result = []
    for line in lines:
        if "%if" in line:
            continue
        try:
            toks = shlex.split(line)
        except ValueError:
            continue
        segment = []
        for t in toks:
            if t == "|":
                break
            segment.append(t)
        while segment and (segment[0] in ("not", "env") or re.match(r"\w+=", segment[0])):
            segment.pop(0)
        if not segment or segment[0] != "mlc-opt" or "%s" not in segment:
            continue
        args, skip = [], False
        it = iter(segment[1:])
        for t in it:
            if t == "%s" or t in ("-verify-diagnostics", "--verify-diagnostics"):
                continue
            if t == "-o":
                next(it, None)
                continue
            if t.startswith(">") or t.startswith("2>") or t.startswith("<"):
                break
            if "%" in t or t in ("--help", "--show-dialects"):
                skip = True
                break
            args.append(t)
        if not skip and args not in result:
            result.append(args)
    return result


def pass_names(arg):
    """An argument without its option values (labels group hangs by pass)."""
    while True:
        stripped = re.sub(r"\{[^{}]*\}", "", arg)
        if stripped == arg:
            break
        arg = stripped
    return arg if arg.startswith("--pass-pipeline") else arg.split("=")[0]


def strip_comments(text):
    return "\n".join(l for l in text.split("\n") if not re.match(r"\s*//(?! -----)", l)).strip() + "\n"


class MlcOptFuzzer(fuzzlib.Fuzzer):
    tools = ["mlc-opt"]
    work_prefix = "fuzz-mlc-opt-"

    def add_arguments(self, parser):
        parser.add_argument("--inputs", nargs="*",
                            default=sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True)))
        parser.add_argument("--mutation-rate", type=float, default=0.9,
                            help="share of runs whose input is mutated (the others run a random pass on a seed)")

    def setup(self, args, runner, rng):
        self.mutation_rate = args.mutation_rate
        self.passes = parse_passes()
        self.pipelines = parse_pipelines()
        self.files = []
        for path in args.inputs:
            text = open(path, encoding="utf-8", errors="surrogateescape").read()
            chunks = [strip_comments(c) for c in SPLIT_RE.split(text)]
            chunks = [c for c in chunks if c.strip()]
            if not chunks:
                continue
            runs = run_line_args(text)
            unregistered = any("--allow-unregistered-dialect" in a or "-allow-unregistered-dialect" in a for a in runs)
            self.files.append({"path": os.path.relpath(path, ROOT), "chunks": chunks, "runs": runs,
                               "split": len(chunks) > 1, "whole": strip_comments(text),
                               "unregistered": unregistered})
        if not self.files:
            sys.exit("error: no inputs")
        self.relax_ops = sorted(set(re.findall(r"\b(relax\.[a-z_][\w.]*)", "".join(
            c for f in self.files for c in f["chunks"]))))

    # -- option values -----------------------------------------------------

    def option_value(self, rng, name, ty, is_list, text, funcs):
        blocks = re.findall(r"tensorir\.block \"([^\"]*)\"", text) or ["B"]
        fnames = [f["name"] for f in funcs] or ["main"]
        if name == "chip":
            return fuzzlib.gpu_chip(rng)
        if name == "features":
            return fuzzlib.ptx_feature(rng)
        if name == "format":
            return rng.choice(["isa"] * 6 + ["llvm"] * 2 + ["bin", "fatbin", "cubin", "", "ptx"])
        if name == "toolkit":
            return rng.choice(["", "/usr/local/cuda", "/nonexistent", "/", "."])
        if name == "target":
            return rng.choice(["cpu", "cpu", "cuda", "gpu", "", "rocm"])
        if name == "params":
            return rng.choice(["p.npz"] * 6 + ["p.safetensors"] * 2 + ["missing.npz", "", ".", "dir"])
        if name in ("func-name", "entry"):
            return rng.choice(fnames + ["main", "", "nope"])
        if name == "blocks":
            return ",".join(rng.choice(blocks + ["X", ""]) for _ in range(rng.randint(1, 2)))
        if name == "skip-ops":
            return ",".join(rng.choice(self.relax_ops + ["relax.nope", "nn.relu", ""]) for _ in range(rng.randint(1, 3)))
        if name == "ops":
            return ",".join(rng.choice(["exp", "expm1", "log", "log1p", "log2", "tanh", "erf", "sin",
                                        "cos", "foo", "", "rsqrt"]) for _ in range(rng.randint(1, 3)))
        if ty == "bool":
            return rng.choice(["true", "false", "true", "false", "1", "0", "maybe"])
        if ty in ("int", "int64_t", "unsigned", "int32_t", "uint64_t"):
            if is_list:
                return ",".join(str(self.small_or_boundary(rng)) for _ in range(rng.randint(1, 4)))
            return str(self.small_or_boundary(rng))
        return rng.choice(["", "x", "main", "0", "a,b"])

    @staticmethod
    def small_or_boundary(rng):
        if rng.random() < 0.5:
            return rng.choice([0, 1, 2, 3, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2000])
        return fuzzlib.boundary_int(rng)

    def options_text(self, rng, options, text, funcs, gpu_fast=False):
        chosen = [o for o in options if rng.random() < 0.5]
        values = {o[0]: self.option_value(rng, o[0], o[1], o[2], text, funcs) for o in chosen}
        if gpu_fast and "format" not in values and rng.random() < 0.9:
            # fatbin (the default) runs ptxas; mostly stop at PTX.
            values["format"] = "isa"
        return " ".join("%s=%s" % kv for kv in values.items())

    def pass_spec(self, rng, name, text, funcs):
        """(anchor, pipeline element text, CLI argument) of one pass."""
        if name in self.pipelines:
            opts = self.options_text(rng, self.pipelines[name], text, funcs,
                                     gpu_fast=name == "mlc-gpu-pipeline")
            return None, name + ("{%s}" % opts if opts else ""), "--" + name + ("=" + opts if opts else "")
        anchor, options = self.passes.get(name, (None, []))
        opts = self.options_text(rng, options, text, funcs) if options and rng.random() < 0.6 else ""
        return anchor, name + ("{%s}" % opts if opts else ""), "--" + name + ("=" + opts if opts else "")

    def pipeline_arg(self, specs):
        parts = []
        for anchor, element, _ in specs:
            parts.append("%s(%s)" % (anchor, element) if anchor else element)
        return "--pass-pipeline=builtin.module(%s)" % ",".join(parts)

    # -- parameter files for the bind-params passes ------------------------

    def params_files(self, rng, funcs):
        arrays = {}
        if funcs:
            f = next((f for f in funcs if f["name"] == "main"), funcs[0])
            for p in f["params"]:
                if p["shape"] is None or not p["dtype"] or p["dtype"].startswith("memref"):
                    continue
                if rng.random() < 0.7:
                    arrays[p["name"]] = fuzzlib.random_array(rng, p["shape"], p["dtype"])
        if not arrays:
            arrays = {"w": fuzzlib.random_array(rng, ["2", "3"], "f32")}
        files = {}
        if rng.random() < 0.5:
            files["p.npz"] = fuzzlib.npz_bytes(arrays, compress=rng.random() < 0.3)
        else:
            files["p.npz"] = fuzzlib.damage_npz(arrays, rng)
        files["p.safetensors"] = (fuzzlib.safetensors_bytes(arrays) if rng.random() < 0.5
                                  else fuzzlib.damage_safetensors(arrays, rng))
        files["dir"] = None
        return files

    # -- one run ---------------------------------------------------------------

    def generate(self, rng, index):
        seed = rng.choice(self.files)
        whole = seed["split"] and rng.random() < 0.15
        text = seed["whole"] if whole else rng.choice(seed["chunks"])
        data = text.encode("utf-8", "surrogateescape")
        if rng.random() < self.mutation_rate:
            data = fuzzlib.mutate_mlir(data, rng)
        mutated = data.decode("utf-8", "surrogateescape")
        funcs = fuzzlib.parse_functions(mutated)

        mode = rng.choices(["run", "pass", "chain", "pipeline"], weights=[45, 28, 15, 12])[0]
        if mode == "run" and not seed["runs"]:
            mode = "pass"
        if mode == "run":
            args = list(rng.choice(seed["runs"]))
        elif mode == "pass":
            specs = [self.pass_spec(rng, rng.choice(sorted(self.passes)), mutated, funcs)]
            args = [specs[0][2]] if specs[0][0] is None else [self.pipeline_arg(specs)]
        elif mode == "chain":
            start = rng.randrange(len(PIPELINE_ORDER))
            names = PIPELINE_ORDER[start:start + rng.randint(2, 4)]
            if rng.random() < 0.3:
                names.insert(rng.randint(0, len(names)), rng.choice(UPSTREAM_PASSES))
            specs = [self.pass_spec(rng, n, mutated, funcs) for n in names]
            args = [self.pipeline_arg(specs)]
        else:
            name = rng.choice(sorted(self.pipelines))
            args = [self.pass_spec(rng, name, mutated, funcs)[2]]
        args = [a for a in args if a not in ("-split-input-file", "--split-input-file")]
        if whole:
            args.append("--split-input-file")
        if seed["unregistered"] and "--allow-unregistered-dialect" not in args:
            args.append("--allow-unregistered-dialect")
        if rng.random() < 0.05:
            args.append(rng.choice(["--mlir-print-op-generic", "--mlir-print-debuginfo",
                                    "--mlir-print-local-scope", "--emit-bytecode"]))
        files = {"input.mlir": data}
        if any("bind-params" in a for a in args):
            files.update(self.params_files(rng, funcs))
        label = "mlc-opt " + " ".join(pass_names(a) for a in args)
        return fuzzlib.Case("mlc-opt", ["input.mlir"] + args + ["-o", os.devnull], files,
                            origin=seed["path"], label=label, mlir=data)


if __name__ == "__main__":
    sys.exit(fuzzlib.main(MlcOptFuzzer(), __doc__))
