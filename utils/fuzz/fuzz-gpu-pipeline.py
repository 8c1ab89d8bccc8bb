#!/usr/bin/python3
"""Fuzzer for the GPU pipeline's options: `mlc-opt --mlc-gpu-pipeline=...`
and `mlc-compile --target=cuda[:sm_XX] --pipeline-options=...`.

Seeds are the GPU tests' inputs (test/Pipelines/gpu-*.mlir,
test/Codegen/GPU/default-schedule*.mlir: graph-level and TensorIR modules)
and a few graph-level programs written here (matmul/dense/batch_matmul in
f32/f16/bf16, softmax, layer norm, conv2d, reductions), sometimes mutated
(element types swapped everywhere, sizes changed everywhere, ...). Each run
compiles one with random chips (sm_50 ... sm_121a, and invalid ones: sm_20,
sm_999, garbage), PTX versions (+ptx32 ... +ptx90, malformed ones),
formats, opt levels, threads per block, fusion and folding options, through
mlc-opt or mlc-compile (outputs .ptx, .ll, .s, .o). A diagnostic is fine;
any LLVM ERROR, abort, crash or hang is a failure (docs/Fuzzing.md).

usage (from the repository root, after building):
  /usr/bin/python3 utils/fuzz/fuzz-gpu-pipeline.py --runs 500 --seed 1

Exit status: 0 if no run crashed, hung or failed silently, 1 otherwise.
"""

import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzlib  # noqa: E402
from fuzzlib import ROOT  # noqa: E402

SPLIT_RE = re.compile(r"^// -----\s*$|^//--- .*$", re.M)

# Graph-level programs that reach the default GPU schedule's rules (tensor
# cores for f16 matmuls on sm_80+, Matmul, GeneralReduction, Reduction,
# Fallback); $T is the element type.
PROGRAMS = {
    "matmul": """func.func @main(%a: tensor<64x128x$T>, %b: tensor<128x96x$T>) -> tensor<64x96x$T> {
  %0 = relax.matmul %a, %b : (tensor<64x128x$T>, tensor<128x96x$T>) -> tensor<64x96x$T>
  return %0 : tensor<64x96x$T>
}
""",
    "dense": """func.func @main(%x: tensor<32x256x$T>, %w: tensor<64x256x$T>, %b: tensor<64x$T>) -> tensor<32x64x$T> {
  %0 = relay.nn.dense %x, %w : (tensor<32x256x$T>, tensor<64x256x$T>) -> tensor<32x64x$T>
  %1 = relay.add %0, %b : (tensor<32x64x$T>, tensor<64x$T>) -> tensor<32x64x$T>
  %2 = relay.nn.relu %1 : (tensor<32x64x$T>) -> tensor<32x64x$T>
  return %2 : tensor<32x64x$T>
}
""",
    "batch_matmul": """func.func @main(%a: tensor<4x32x64x$T>, %b: tensor<4x64x48x$T>) -> tensor<4x32x48x$T> {
  %0 = relax.matmul %a, %b : (tensor<4x32x64x$T>, tensor<4x64x48x$T>) -> tensor<4x32x48x$T>
  return %0 : tensor<4x32x48x$T>
}
""",
    "softmax": """func.func @main(%x: tensor<8x300x$T>) -> tensor<8x300x$T> {
  %0 = relay.nn.softmax %x : (tensor<8x300x$T>) -> tensor<8x300x$T>
  return %0 : tensor<8x300x$T>
}
""",
    "layer_norm": """func.func @main(%x: tensor<16x768x$T>, %g: tensor<768x$T>, %b: tensor<768x$T>) -> tensor<16x768x$T> {
  %0 = relax.nn.layer_norm %x, %g, %b {axes = array<i64: -1>} : (tensor<16x768x$T>, tensor<768x$T>, tensor<768x$T>) -> tensor<16x768x$T>
  return %0 : tensor<16x768x$T>
}
""",
    "conv2d": """func.func @main(%x: tensor<1x3x32x32x$T>, %w: tensor<16x3x3x3x$T>) -> tensor<1x16x32x32x$T> {
  %0 = relax.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x32x32x$T>, tensor<16x3x3x3x$T>) -> tensor<1x16x32x32x$T>
  %1 = relax.nn.relu %0 : (tensor<1x16x32x32x$T>) -> tensor<1x16x32x32x$T>
  return %1 : tensor<1x16x32x32x$T>
}
""",
    "sum": """func.func @main(%x: tensor<7x1000x$T>) -> tensor<7x$T> {
  %0 = relax.sum %x {axis = array<i64: 1>} : (tensor<7x1000x$T>) -> tensor<7x$T>
  return %0 : tensor<7x$T>
}
""",
    "elementwise": """func.func @main(%x: tensor<1000x$T>, %y: tensor<1000x$T>) -> tensor<1000x$T> {
  %0 = relax.multiply %x, %y : (tensor<1000x$T>, tensor<1000x$T>) -> tensor<1000x$T>
  %1 = relax.exp %0 : (tensor<1000x$T>) -> tensor<1000x$T>
  return %1 : tensor<1000x$T>
}
""",
}
TYPES = ["f32", "f32", "f16", "f16", "bf16", "f64", "i32", "i8"]


class GPUPipelineFuzzer(fuzzlib.Fuzzer):
    tools = ["mlc-opt", "mlc-compile"]
    work_prefix = "fuzz-gpu-"

    def add_arguments(self, parser):
        parser.add_argument("--inputs", nargs="*", default=sorted(
            glob.glob(os.path.join(ROOT, "test", "Pipelines", "gpu-*.mlir")) +
            glob.glob(os.path.join(ROOT, "test", "Codegen", "GPU", "default-schedule*.mlir"))))
        parser.add_argument("--mutation-rate", type=float, default=0.3,
                            help="share of runs whose input is mutated (the options always are)")
        parser.add_argument("--ptxas-rate", type=float, default=0.05,
                            help="share of runs with format=bin/fatbin (they run ptxas, slower)")

    def setup(self, args, runner, rng):
        self.mutation_rate, self.ptxas_rate = args.mutation_rate, args.ptxas_rate
        self.seeds = []
        for path in args.inputs:
            text = open(path, encoding="utf-8", errors="surrogateescape").read()
            for chunk in SPLIT_RE.split(text):
                chunk = "\n".join(l for l in chunk.split("\n") if not re.match(r"\s*//", l)).strip()
                if chunk and ("func.func" in chunk or "tensorir.prim_func" in chunk):
                    self.seeds.append((os.path.relpath(path, ROOT), chunk + "\n"))
        for name, program in PROGRAMS.items():
            for t in ("f32", "f16"):
                self.seeds.append(("%s-%s" % (name, t), program.replace("$T", t)))
        self.programs = PROGRAMS

    def options(self, rng):
        opts = {}
        if rng.random() < 0.8:
            opts["chip"] = fuzzlib.gpu_chip(rng)
        if rng.random() < 0.6:
            opts["features"] = fuzzlib.ptx_feature(rng)
        r = rng.random()
        if r < self.ptxas_rate:
            opts["format"] = rng.choice(["bin", "fatbin"])
        elif r < 0.97:
            opts["format"] = rng.choice(["isa", "isa", "isa", "llvm"])
        else:
            opts["format"] = rng.choice(["cubin", "", "ISA", "ptx"])
        if rng.random() < 0.4:
            opts["opt-level"] = str(rng.choice([0, 1, 2, 3, 3, -1, 4, 9, 2**31 - 1, -2**31]))
        if rng.random() < 0.5:
            opts["threads-per-block"] = str(rng.choice(
                [1, 2, 3, 31, 32, 33, 64, 96, 100, 128, 255, 256, 512, 640, 1000, 1023, 1024,
                 0, -1, 1025, 2048, 2**31, 2**63 - 1, -2**63]))
        if rng.random() < 0.3:
            opts["fuse-opt-level"] = str(rng.choice([0, 1, 2, 3, 4, -1, 100]))
        if rng.random() < 0.2:
            opts["fold-constant"] = rng.choice(["true", "false"])
        if rng.random() < 0.2:
            opts["plan-memory"] = rng.choice(["true", "false"])
        if rng.random() < 0.2:
            opts["max-kernel-constant-bytes"] = str(rng.choice([0, 1, 64, 4096, -1, 2**63 - 1]))
        if rng.random() < 0.15:
            opts["num-input"] = str(rng.choice([-1, 0, 1, 2, 3, 100, -5]))
        if rng.random() < 0.05:
            opts["toolkit"] = rng.choice(["/nonexistent", "/", "/usr/local/cuda"])
        if rng.random() < 0.02:
            opts[rng.choice(["no-such-option", "openmp", "chip "])] = "1"
        return opts

    def generate(self, rng, index):
        if rng.random() < 0.35:
            name = rng.choice(sorted(self.programs))
            t = rng.choice(TYPES)
            origin, text = "%s-%s" % (name, t), self.programs[name].replace("$T", t)
        else:
            origin, text = rng.choice(self.seeds)
        data = text.encode()
        if rng.random() < self.mutation_rate:
            data = fuzzlib.mutate_mlir(data, rng)
        opts = self.options(rng)
        files = {"input.mlir": data}
        if rng.random() < 0.5:
            text_opts = " ".join("%s=%s" % kv for kv in opts.items())
            args = ["input.mlir", "--mlc-gpu-pipeline" + ("=" + text_opts if text_opts else ""),
                    "-o", os.devnull]
            return fuzzlib.Case("mlc-opt", args, files, origin=origin, label="mlc-opt --mlc-gpu-pipeline",
                                mlir=data)
        # mlc-compile: the chip in --target, the rest as pipeline options.
        chip = opts.pop("chip", None)
        target = "cuda" if chip is None else "cuda:" + chip
        if rng.random() < 0.03:
            target = rng.choice(["cuda:", "cpu:sm_90", "rocm", "cuda:sm_90:sm_80", "CUDA"])
        if chip is not None and rng.random() < 0.2:
            opts["chip"] = fuzzlib.gpu_chip(rng)   # both: --target's chip and the option
        out = rng.choice(["out.ptx"] * 5 + ["out.ll", "out.s", "out.o", "out.o", "out.so", "out.bin"])
        args = ["--target=" + target, "input.mlir", "-o", out]
        if opts:
            args.append("--pipeline-options=" + " ".join("%s=%s" % kv for kv in opts.items()))
        if rng.random() < 0.2:
            args.append("-O%d" % rng.choice([0, 1, 2, 3, 4]))
        if rng.random() < 0.1:
            args.append("--emit-header=out.h")
        if rng.random() < 0.05:
            args.append("--entry=" + rng.choice(["main", "nope", "main,main", ""]))
        return fuzzlib.Case("mlc-compile", args, files, origin=origin,
                            label="mlc-compile --target=cuda -o *" + os.path.splitext(out)[1], mlir=data)


if __name__ == "__main__":
    sys.exit(fuzzlib.main(GPUPipelineFuzzer(), __doc__))
