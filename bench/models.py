"""End-to-end benchmark of the example models against numpy in the same run.

    /usr/bin/python3 bench/models.py
        [--models mlp cnn] [--threads 1 2] [--runs 200]

For each model of examples/ (TVM Relay text) it imports the model, makes
random weights and an input (examples/models.py), runs `mlc-run --params
--inputs --bench=RUNS --threads=T` (the default --mlc-cpu-pipeline), checks
the output against the float64 numpy reference of examples/models.py (rtol
1e-5, atol 1e-6), and times a float32 numpy implementation of the same
model (conv2d as im2col + OpenBLAS matmul) in a subprocess with
OPENBLAS_NUM_THREADS=T. Prints median latency, GFLOP/s (multiply-adds of
conv2d and dense counted as 2 FLOPs) and the ratio numpy time / mlc time
(> 1: mlc is faster). Batch-1 models are tiny: the numbers measure call
overhead as much as arithmetic.
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
from mlc import tools  # noqa: E402
import models  # noqa: E402
import blas_baseline  # noqa: E402

# FLOPs of the convolutions and dense layers (2 per multiply-add).
FLOPS = {
    "mlp": 2.0 * (784 * 128 + 128 * 10),
    "cnn": 2.0 * (8 * 28 * 28 * 1 * 9 + 16 * 14 * 14 * 8 * 9 + 784 * 10),
}

# The numpy baseline, float32, conv2d by im2col + matmul.
NUMPY_TIMER = r"""
import sys, time
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view as windows

def conv(x, w, b):
    o, c, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    cols = windows(xp, (kh, kw), axis=(2, 3))          # n c h w kh kw
    n, _, h, wd = cols.shape[:4]
    cols = cols.transpose(0, 2, 3, 1, 4, 5).reshape(n * h * wd, c * kh * kw)
    out = cols @ w.reshape(o, -1).T + b                 # (n h w) o
    return out.reshape(n, h, wd, o).transpose(0, 3, 1, 2)

def pool(x):
    n, c, h, w = x.shape
    return x.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))

def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

def mlp(p, x):
    return softmax(np.maximum(x @ p["w0"].T + p["b0"], 0) @ p["w1"].T + p["b1"])

def cnn(p, x):
    x = pool(np.maximum(conv(x, p["conv1_weight"], p["conv1_bias"]), 0))
    x = pool(np.maximum(conv(x, p["conv2_weight"], p["conv2_bias"]), 0))
    return softmax(x.reshape(x.shape[0], -1) @ p["dense_weight"].T + p["dense_bias"])

model = {"mlp": mlp, "cnn": cnn}[sys.argv[1]]
p = dict(np.load(sys.argv[2]))
x = np.load(sys.argv[3])["data"]
ref = np.load(sys.argv[4])["out0"]
assert np.allclose(model(p, x), ref, rtol=1e-4, atol=1e-6), "numpy baseline is wrong"
times = []
for _ in range(int(sys.argv[5])):
    start = time.perf_counter()
    model(p, x)
    times.append(time.perf_counter() - start)
print(sorted(times)[len(times) // 2])
"""


def numpy_seconds(model, params, inputs, outputs, runs, threads):
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads),
               OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", NUMPY_TIMER, model, params,
                          inputs, outputs, str(runs)],
                         env=env, check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["mlp", "cnn"],
                        choices=sorted(FLOPS))
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    blas_baseline.configure()
    print(blas_baseline.describe(), flush=True)

    print("%-5s %3s %11s %12s %10s %14s %8s" % (
        "model", "T", "mlc ms", "mlc GFLOP/s", "numpy ms", "numpy GFLOP/s", "ratio"))
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models:
            make, reference, atol = models.MODELS[name]
            module = os.path.join(tmp, name + ".mlir")
            tools.run("mlc-translate", ["--import-relay",
                                        os.path.join(ROOT, "examples", name + ".relay"),
                                        "-o", module])
            params, inputs = make(np.random.default_rng(0))
            params_path = os.path.join(tmp, name + "-params.npz")
            inputs_path = os.path.join(tmp, name + "-inputs.npz")
            outputs_path = os.path.join(tmp, name + "-outputs.npz")
            np.savez(params_path, **params)
            np.savez(inputs_path, **inputs)
            want = reference({k: v.astype(np.float64) for k, v in params.items()},
                             inputs["data"].astype(np.float64))
            for t in args.threads:
                stdout = tools.run("mlc-run", [
                    module, "--params=" + params_path, "--inputs=" + inputs_path,
                    "--outputs=" + outputs_path, "--threads=%d" % t,
                    "--bench=%d" % args.runs])
                with np.load(outputs_path) as data:
                    np.testing.assert_allclose(data["out0"], want, rtol=1e-5, atol=atol)
                m = re.search(r"median ([0-9.]+) ms", stdout)
                if not m:
                    raise RuntimeError("mlc-run printed no timing:\n" + stdout)
                mlc_s = float(m.group(1)) / 1e3
                numpy_s = numpy_seconds(name, params_path, inputs_path, outputs_path,
                                        args.runs, t)
                flops = FLOPS[name]
                print("%-5s %3d %11.4f %12.2f %10.4f %14.2f %8.2f" % (
                    name, t, mlc_s * 1e3, flops / mlc_s / 1e9, numpy_s * 1e3,
                    flops / numpy_s / 1e9, numpy_s / mlc_s))


if __name__ == "__main__":
    main()
