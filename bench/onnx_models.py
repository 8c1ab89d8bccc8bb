"""Models exported with torch.onnx.export and imported with mlc's ONNX
importer, against the same models imported with from_fx and against torch:
import time and peak memory of `mlc-translate --import-onnx`, compile time
and latency of each import, torch latency, in one run.

    /usr/bin/python3 bench/onnx_models.py [--models resnet50 vgg11 bert ...]
        [--runs 10] [--resolution 224] [--opset 13]

Import: wall time and peak resident memory (the child's ru_maxrss) of
`mlc-translate --import-onnx model.onnx -o model.mlir`. Compile: wall time of
one `mlc-run --no-cache` (compilation plus one inference) on the imported
module, weights bound as constants. Latency: `mlc-run --bench=RUNS
--threads=1`, median; torch: median of RUNS calls, one thread. Every mlc
output is checked against torch's (rtol 1e-4, atol 1e-4 times the largest
output magnitude).
"""

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))
from mlc.relax.frontend.torch import from_fx  # noqa: E402
from mlc.executor import _buffer_parameters  # noqa: E402
from mlc.tools import find_tool, save_npz  # noqa: E402
import blas_baseline  # noqa: E402
# bench/torch_models.py (under another name: it imports the tests'
# torch_models module).
_spec = importlib.util.spec_from_file_location(
    "bench_torch_models", os.path.join(ROOT, "bench", "torch_models.py"))
bench_torch_models = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_torch_models)
build, torch_median = bench_torch_models.build, bench_torch_models.torch_median


def timed(command):
    """Runs `command`; returns (wall seconds, its output)."""
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode:
        raise RuntimeError("%s failed:\n%s" % (command[0], proc.stderr))
    return wall, proc.stdout + proc.stderr


# Linux keeps a process's peak RSS across exec, and a child forked from this
# process (torch loaded: about 1 GB) starts with this process's pages: the
# command runs as the child of a fresh, small Python that reports its peak.
_RSS_WRAPPER = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
print(usage.ru_maxrss if status == 0 else -1)
"""


def peak_rss_mb(command):
    """Peak resident memory of one run of `command` (its ru_maxrss), in MB."""
    kb = int(subprocess.run([sys.executable, "-c", _RSS_WRAPPER] + command,
                            capture_output=True, text=True, check=True).stdout)
    if kb < 0:
        raise RuntimeError("%s failed" % command[0])
    return kb / 1024.0


def measure(mlir, inputs, ref, runs, tmp):
    """Compile time, latency and correctness of one imported module."""
    with open(mlir) as f:
        head = f.read(1 << 20)  # The signature; weights are at the end.
    names = [n for n, _ in _buffer_parameters(head, "main")]
    inputs_npz, outputs_npz = os.path.join(tmp, "inputs.npz"), os.path.join(tmp, "outputs.npz")
    save_npz(inputs_npz, dict(zip(names, inputs)))
    command = [find_tool("mlc-run"), mlir, "--quiet", "--no-cache", "--inputs=" + inputs_npz,
               "--outputs=" + outputs_npz]
    compile_s, _ = timed(command)
    out = np.load(outputs_npz)["out0"]
    scale = float(np.abs(ref).max())
    ok = np.allclose(out, ref, rtol=1e-4, atol=1e-4 * scale)
    _, text = timed(command + ["--bench=%d" % runs, "--threads=1"])
    latency = float(re.search(r"median ([0-9.]+) ms", text).group(1))
    return compile_s, latency, ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+",
                        default=["resnet50", "mobilenet_v2", "vgg11", "bert", "gpt2"])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--resolution", type=int, default=224)
    parser.add_argument("--opset", type=int, default=13)
    args = parser.parse_args()
    blas_baseline.configure()
    print(blas_baseline.describe(), flush=True)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    print("%-14s %8s %8s %9s | %9s %9s | %9s %9s | %9s %6s" % (
        "model", "onnx MB", "import s", "import MB", "onnx cmp", "onnx ms", "fx cmp",
        "fx ms", "torch ms", "ratio"))
    failed = False
    for name in args.models:
        model, inputs, info = build(name, args.resolution, rng)
        args_t = tuple(torch.from_numpy(x) for x in inputs)
        with torch.no_grad():
            ref = model(*args_t).numpy()
        with tempfile.TemporaryDirectory() as tmp:
            onnx_path = os.path.join(tmp, "model.onnx")
            torch.onnx.export(model, args_t, onnx_path, opset_version=args.opset)
            onnx_mlir = os.path.join(tmp, "onnx.mlir")
            translate = [find_tool("mlc-translate"), "--import-onnx", onnx_path, "-o", onnx_mlir]
            import_s, _ = timed(translate)
            import_mb = peak_rss_mb(translate)
            onnx_compile, onnx_ms, onnx_ok = measure(onnx_mlir, inputs, ref, args.runs, tmp)
            fx_mlir = os.path.join(tmp, "fx.mlir")
            with open(fx_mlir, "w") as f:
                f.write(from_fx(torch.fx.symbolic_trace(model), info).text)
            fx_compile, fx_ms, fx_ok = measure(fx_mlir, inputs, ref, args.runs, tmp)
            torch_ms = torch_median(model, inputs, 1, args.runs)
            for label, ok in (("onnx", onnx_ok), ("fx", fx_ok)):
                if not ok:
                    print("%s via %s: WRONG output" % (name, label))
                    failed = True
            print("%-14s %8.1f %8.2f %9.0f | %8.1fs %9.2f | %8.1fs %9.2f | %9.2f %6.2f" % (
                name, os.path.getsize(onnx_path) / 2**20, import_s, import_mb, onnx_compile,
                onnx_ms, fx_compile, fx_ms, torch_ms, torch_ms / onnx_ms), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
