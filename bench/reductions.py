"""Reductions and math functions: mlc's CPU pipeline vs numpy in the same run.

    /usr/bin/python3 bench/reductions.py [--size 1024] [--threads 1 2]
                                         [--runs 50]

Each case is a Relay function on an N×N f32 input, imported and run with
`mlc-run --bench --threads=T` (the default --mlc-cpu-pipeline: reductions
vectorized along the contiguous axis by mlc-default-schedule, exp by
mlc-approximate-math), checked against a float64 numpy reference (rtol 1e-5,
atol 1e-5·√N), and timed against the same computation in float32 numpy
(single-threaded: numpy's reductions and ufuncs use one core). Prints
GB/s (input + output bytes / median time) and the ratio numpy time / mlc
time (> 1: mlc is faster).
"""

import argparse
import math
import os
import sys
import tempfile
import timeit

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mlc import tools  # noqa: E402
from matmul import run_mlc  # noqa: E402


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layer_norm(x, g, b):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * g + b


# name: (relay body, numpy function of (x, g, b))
CASES = {
    "sum axis=1": ("sum(%x, axis=[1])", lambda x, g, b: x.sum(axis=1)),
    "max axis=1": ("max(%x, axis=[1])", lambda x, g, b: x.max(axis=1)),
    "sum axis=0": ("sum(%x, axis=[0])", lambda x, g, b: x.sum(axis=0)),
    "mean axis=1": ("mean(%x, axis=[1])", lambda x, g, b: x.mean(axis=1)),
    "exp": ("exp(%x)", lambda x, g, b: np.exp(x)),
    "softmax": ("nn.softmax(%x)", lambda x, g, b: softmax(x)),
    "layer_norm": ("nn.layer_norm(%x, %g, %b)", layer_norm),
}


def relay_module(tmp, n, body):
    params = "%%x: Tensor[(%d, %d), float32]" % (n, n)
    if "%g" in body:
        params += ", %%g: Tensor[(%d), float32], %%b: Tensor[(%d), float32]" % (n, n)
    path = os.path.join(tmp, "model.relay")
    with open(path, "w") as f:
        f.write('#[version = "0.0.5"]\ndef @main(%s) {\n  %s\n}\n' % (params, body))
    return tools.run("mlc-translate", ["--import-relay", path])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    n = args.size
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, n)).astype(np.float32)
    g = rng.uniform(0.5, 1.5, n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    print("%-12s %3s %9s %9s %11s %11s %7s" % (
        "case", "T", "mlc ms", "mlc GB/s", "numpy ms", "numpy GB/s", "ratio"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, (body, fn) in CASES.items():
            text = relay_module(tmp, n, body)
            inputs = {"x": x, "g": g, "b": b} if "%g" in body else {"x": x}
            expected = fn(x.astype(np.float64), g.astype(np.float64), b.astype(np.float64))
            times = timeit.repeat(lambda: fn(x, g, b), number=1, repeat=args.runs)
            numpy_s = sorted(times)[len(times) // 2]
            moved = 4.0 * (x.size + expected.size)
            for t in args.threads:
                out, mlc_s = run_mlc(tmp, text, inputs, t, args.runs)
                np.testing.assert_allclose(out, expected, rtol=1e-5,
                                           atol=1e-5 * math.sqrt(n), err_msg=name)
                print("%-12s %3d %9.3f %9.2f %11.3f %11.2f %7.2f" % (
                    name, t, mlc_s * 1e3, moved / mlc_s / 1e9, numpy_s * 1e3,
                    moved / numpy_s / 1e9, numpy_s / mlc_s))


if __name__ == "__main__":
    main()
