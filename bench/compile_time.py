"""Compile time of a full-size model: ResNet-50 v1 or MobileNet-v2 (batch 1,
224x224, weights bound at compile time; bench/cnn_models.py).

    /usr/bin/python3 bench/compile_time.py [--model resnet50|mobilenet_v2]
        [--runs 3] [--target cpu|cuda]

Measures, `--runs` times each (median reported):
  * `mlc-run --params --inputs` wall time: import, bind the weights, the
    whole CPU pipeline, LLVM, JIT, one inference (what a user waits for),
    without the cache (--no-cache), into an empty cache, and from the
    cache (the second run of a model: no pipeline, no LLVM);
  * `mlc-opt --mlc-cpu-pipeline` on the bound model: the MLIR part alone;
  * `mlc-compile` (AOT, a shared library) wall time, with `--target cuda`
    `mlc-compile --target=cuda:sm_90` (needs the CUDA toolkit, no GPU).
and, for the CPU, where one uncached mlc-run's compile time goes: its
`--mlir-timing --mlir-output-format=json` report's phases (parse, binding
the weights, the pipeline and its costliest passes, LLVM's translation,
optimization and code generation).
The mlc-run result is checked against the float64 numpy model computed here
from the same weights (rtol 1e-4, atol 1e-5: some 50 convolutions of f32
accumulation), so a fast compile of a wrong model does not pass unnoticed.
Prints seconds; there is no peer baseline for compile time: compare runs of
this script across commits on the same machine.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import cnn_models  # noqa: E402
from relay_model import RelayModel, find_tool  # noqa: E402

def compile_phases(cmd):
    """(name, seconds, depth) of the phases in `cmd`'s --mlir-timing JSON
    report (stderr), in report order."""
    out = subprocess.run(cmd + ["--mlir-timing", "--mlir-output-format=json"],
                         check=True, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    phases = []

    def walk(entries, depth):
        for entry in entries:
            if "name" not in entry:
                continue
            phases.append((entry["name"], entry["wall"]["duration"], depth))
            walk(entry.get("passes", []), depth + 1)

    walk(json.loads(out.stderr), 0)
    return phases


def timed(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(cnn_models.MODELS), default="resnet50")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--target", choices=["cpu", "cuda"], default="cpu")
    args = parser.parse_args()
    build, reference = cnn_models.MODELS[args.model]
    text, params, data = build()
    with RelayModel(text, params, {"data": data}) as model:
        bound = os.path.join(model.dir, "bound.mlir")
        subprocess.run([find_tool("mlc-opt"), model.mlir,
                        "--relay-bind-params=params=" + model.params, "-o", bound], check=True)
        runs = {}
        if args.target == "cpu":
            cache = os.path.join(model.dir, "cache")
            runs["mlc-run (compile + 1 run)"] = model.run_command("--no-cache")
            # The first run of each repetition fills an empty cache.
            runs["mlc-run, cache miss"] = [
                "sh", "-c", 'rm -rf "$0" && exec "$@"', cache,
                *model.run_command("--cache-dir=" + cache)]
            runs["mlc-run, cache hit"] = model.run_command("--cache-dir=" + cache)
            runs["mlc-opt --mlc-cpu-pipeline"] = [find_tool("mlc-opt"), bound,
                                                  "--mlc-cpu-pipeline", "-o", os.devnull]
            runs["mlc-compile (AOT .so)"] = [find_tool("mlc-compile"), bound, "-o",
                                             os.path.join(model.dir, "cpu.so")]
        else:
            runs["mlc-compile --target=cuda:sm_90"] = [
                find_tool("mlc-compile"), "--target=cuda:sm_90", bound, "-o",
                os.path.join(model.dir, "cuda.so")]
        print("%s, batch 1, 224x224, %.1f M weights bound at compile time"
              % (args.model, sum(v.size for v in params.values()) / 1e6))
        for name, cmd in runs.items():
            times = [timed(cmd) for _ in range(args.runs)]
            print("%-34s %7.2f s  (median of %d; min %.2f)"
                  % (name, statistics.median(times), args.runs, min(times)))
        if args.target == "cpu":
            # Where the uncached compile goes: the top-level phases, LLVM's
            # parts and the pipeline's five costliest passes.
            phases = compile_phases(model.run_command("--no-cache"))
            passes = sorted((p for p in phases if p[2] > 0 and p[0] not in
                             ("Translation to LLVM IR", "Optimization", "Code generation")),
                            key=lambda p: -p[1])[:5]
            print("mlc-run --mlir-timing (one uncached run):")
            for name, seconds, depth in phases:
                if depth == 0 or name in ("Translation to LLVM IR", "Optimization",
                                          "Code generation") or (name, seconds, depth) in passes:
                    print("  %s%-32s %6.2f s" % ("  " * depth, name, seconds))
            got = np.load(model.outputs)["out0"]
            want = reference(params, data)
            ok = np.allclose(got, want, rtol=1e-4, atol=1e-5)
            print("output vs float64 numpy: %s (max abs %.2e)"
                  % ("ok" if ok else "WRONG", np.abs(got - want).max()))
            return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
