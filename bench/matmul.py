"""Matmul benchmark: mlc's CPU pipeline vs numpy/OpenBLAS in the same run.

    /usr/bin/python3 bench/matmul.py [--sizes 256 512 1024] [--runs 10]

For each size N it builds an N×N×N f32 linalg.matmul module, runs it with
`mlc-run --bench`, times numpy's `@` on the same inputs, checks that both agree,
and prints GFLOP/s and the ratio mlc/numpy. Run it with OPENBLAS_CORETYPE
unset (this machine's environment sets it, which slows OpenBLAS ~1.5×):

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 bench/matmul.py

The threads used by OpenBLAS follow OPENBLAS_NUM_THREADS (default: all cores);
mlc's code is single-threaded until the schedule issue adds parallel loops, so
compare with OPENBLAS_NUM_THREADS=1 for a like-for-like ratio.
"""

import argparse
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import mlc  # noqa: E402

MODEL = """
func.func @main(%a: tensor<{n}x{n}xf32> {{relay.name = "a"}},
                %b: tensor<{n}x{n}xf32> {{relay.name = "b"}}) -> tensor<{n}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<{n}x{n}xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  %c = linalg.matmul ins(%a, %b : tensor<{n}x{n}xf32>, tensor<{n}x{n}xf32>)
                     outs(%fill : tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  return %c : tensor<{n}x{n}xf32>
}}
"""


def time_numpy(a, b, runs):
    a @ b  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        a @ b
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 512, 1024])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()

    print("OPENBLAS_CORETYPE=%s OPENBLAS_NUM_THREADS=%s" % (
        os.environ.get("OPENBLAS_CORETYPE", "(unset)"),
        os.environ.get("OPENBLAS_NUM_THREADS", "(unset)")))
    print("%6s %12s %12s %12s %12s %8s" % ("N", "mlc ms", "mlc GFLOP/s",
                                          "numpy ms", "numpy GFLOP/s", "ratio"))
    rng = np.random.default_rng(0)
    for n in args.sizes:
        a = rng.standard_normal((n, n)).astype(np.float32)
        b = rng.standard_normal((n, n)).astype(np.float32)
        ex = mlc.create_executor(mod=mlc.Module(MODEL.format(n=n)))
        out = ex.evaluate()(a, b)
        expected = a.astype(np.float64) @ b
        np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-4 * np.sqrt(n))
        mlc_s = ex.time_evaluator(number=args.runs)(a, b)["median"]
        numpy_s = time_numpy(a, b, args.runs)
        flops = 2.0 * n ** 3
        print("%6d %12.3f %12.2f %12.3f %12.2f %8.3f" % (
            n, mlc_s * 1e3, flops / mlc_s / 1e9, numpy_s * 1e3,
            flops / numpy_s / 1e9, numpy_s / mlc_s))


if __name__ == "__main__":
    main()
