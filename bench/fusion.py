"""Fusion benchmark: the example models with and without operator fusion.

    /usr/bin/python3 bench/fusion.py [--runs 200]

For each model in examples/ (Relay text, random weights from
examples/models.py) and for fuse-opt-level 0 (no fusion) and 2 (the
default), it reports:
  - kernels: the relax.call_tir launches left in @main after
    relay-to-relax, relax-legalize-ops and, with fusion,
    tensorir-annotate-op-pattern + relax-fuse-ops + relax-fuse-tir;
  - intermediate bytes: the bytes of the tensors those calls produce that
    @main does not return (what the host allocates between kernels), and the
    peak after mlc-plan-memory;
  - latency: `mlc-run --bench` median over --runs runs (same process
    for both configurations, one after the other).
Every run's output is checked against the numpy reference of
examples/models.py.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "examples"))
import mlc  # noqa: E402
import models  # noqa: E402

FUSION = ["--tensorir-annotate-op-pattern", "--relax-fuse-ops", "--relax-fuse-tir"]
DTYPE_BYTES = {"f32": 4, "f64": 8, "f16": 2, "i64": 8, "i32": 4, "i8": 1, "i1": 1}


def tensor_bytes(type_text):
    m = re.match(r"tensor<((?:\d+x)*)(\w+)", type_text.strip())
    dims = [int(d) for d in m.group(1).split("x") if d]
    return int(np.prod(dims, dtype=np.int64)) * DTYPE_BYTES[m.group(2)]


def kernels_and_bytes(mlir_text, fuse):
    args = ["--relay-to-relax", "--relax-legalize-ops"] + (FUSION if fuse else [])
    text = mlc.tools.run("mlc-opt", args, input_text=mlir_text)
    main = text[text.index("func.func @main"):]
    calls = re.findall(r"(%\w+) = relax\.call_tir .*-> (tensor<[^>]*>)", main)
    returned = set(re.findall(r"relax\.output ([^:]*):", main)[0].replace(" ", "").split(","))
    intermediate = sum(tensor_bytes(t) for v, t in calls if v not in returned)
    return len(calls), intermediate


def peak_bytes(mlir_text, fuse):
    args = ["--relay-to-relax", "--relax-legalize-ops"] + (FUSION if fuse else [])
    lowered = mlc.tools.run("mlc-opt", args + ["--mlc-cpu-bufferize=plan-memory=0"],
                            input_text=mlir_text)
    proc = subprocess.run(
        [mlc.tools.find_tool("mlc-opt"),
         "--pass-pipeline=builtin.module(func.func(mlc-plan-memory{print-peak-bytes}))",
         "-o", os.devnull], input=lowered, capture_output=True, text=True, check=True)
    # The host function is @main; the remark is reported at its location.
    peaks = re.findall(r"planned peak bytes: (\d+) \(was (\d+)", proc.stderr)
    return max((int(p) for p, _ in peaks), default=0)


def run(model_path, params, inputs, fuse, runs, tmp):
    out = os.path.join(tmp, "out.npz")
    stdout = mlc.tools.run("mlc-run", [
        model_path, "--params=" + params, "--inputs=" + inputs, "--outputs=" + out,
        "--quiet", "--bench=%d" % runs,
        "--pipeline-options=fuse-opt-level=%d" % (2 if fuse else 0)])
    median = float(re.search(r"median ([0-9.]+) ms", stdout).group(1))
    return median, np.load(out)["out0"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--models", nargs="*", default=["mlp", "cnn"])
    args = parser.parse_args()
    print("%-5s %-7s %8s %14s %12s %12s" % (
        "model", "fusion", "kernels", "interm. bytes", "peak bytes", "median ms"))
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models:
            relay = open(os.path.join(ROOT, "examples", name + ".relay")).read()
            mlir_text = mlc.tools.run("mlc-translate", ["--import-relay"], input_text=relay)
            model_path = os.path.join(tmp, name + ".mlir")
            with open(model_path, "w") as f:
                f.write(mlir_text)
            make, reference, atol = models.MODELS[name]
            weights, data = make(np.random.default_rng(0))
            params = os.path.join(tmp, "params.npz")
            inputs = os.path.join(tmp, "inputs.npz")
            np.savez(params, **weights)
            np.savez(inputs, **data)
            want = reference({k: v.astype(np.float64) for k, v in weights.items()},
                             data["data"].astype(np.float64))
            for fuse in (False, True):
                kernels, interm = kernels_and_bytes(mlir_text, fuse)
                peak = peak_bytes(mlir_text, fuse)
                median, got = run(model_path, params, inputs, fuse, args.runs, tmp)
                np.testing.assert_allclose(got, want, rtol=1e-5, atol=atol)
                print("%-5s %-7s %8d %14d %12d %12.4f" % (
                    name, "on" if fuse else "off", kernels, interm, peak, median))


if __name__ == "__main__":
    main()
