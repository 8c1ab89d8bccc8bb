"""Matmul benchmark with interleaved calls: mlc vs numpy/OpenBLAS, one call
of each in turn, in one process.

    /usr/bin/python3 bench/matmul_interleaved.py [--sizes 1024] [--threads 1 2] [--runs 40]

bench/matmul.py times mlc (mlc-run) and numpy in separate processes one
after the other, so that a shared machine's drifting speed lands on one side
only. Here the legalized matmul kernel (bench/matmul.py's `tensorir` path)
is compiled by `mlc-compile` into a shared library, loaded with ctypes and
called alternately with numpy's `a @ b` on the same arrays: both medians see
the same machine. The result is checked against a float64 numpy reference
first (rtol 1e-4, atol 1e-4·√N). One child process per thread count, since
OpenBLAS reads OPENBLAS_NUM_THREADS when it loads; mlc's OpenMP threads are
set with omp_set_num_threads. OpenBLAS's kernels are the fastest this
machine has (bench/blas_baseline.py).
"""

import argparse
import ctypes
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from matmul import tensorir_model  # noqa: E402
from mlc import tools  # noqa: E402
import blas_baseline  # noqa: E402


class MemRef2D(ctypes.Structure):
    """mlc-compile's mlc_memref_2d_f32 descriptor."""
    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * 2),
                ("strides", ctypes.c_int64 * 2)]


def descriptor(array):
    data = array.ctypes.data
    return MemRef2D(data, data, 0, (ctypes.c_int64 * 2)(*array.shape),
                    (ctypes.c_int64 * 2)(array.shape[1], 1))


def measure(n, threads, runs, tmp):
    """Runs in the child: prints one result line for size n."""
    model = os.path.join(tmp, "matmul%d.mlir" % n)
    library = os.path.join(tmp, "matmul%d.so" % n)
    with open(model, "w") as f:
        f.write(tensorir_model(n))
    tools.run("mlc-compile", [model, "-O3", "-o", library])
    lib = ctypes.CDLL(library)
    # The library's libomp is loaded by now; its threads for mlc's loops.
    ctypes.CDLL("libomp.so.5").omp_set_num_threads(threads)
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = np.empty_like(a)
    descriptors = [descriptor(x) for x in (a, b, c)]
    args = [ctypes.byref(d) for d in descriptors]
    lib._mlir_ciface_main(*args)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b, rtol=1e-4,
                               atol=1e-4 * np.sqrt(n))
    mlc_times, numpy_times = [], []
    for _ in range(runs):
        start = time.perf_counter()
        a @ b
        numpy_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        lib._mlir_ciface_main(*args)
        mlc_times.append(time.perf_counter() - start)
    mlc_s = sorted(mlc_times)[runs // 2]
    numpy_s = sorted(numpy_times)[runs // 2]
    flops = 2.0 * n ** 3
    print("%6d %3d %10.3f %12.2f %10.3f %14.2f %8.3f" % (
        n, threads, mlc_s * 1e3, flops / mlc_s / 1e9, numpy_s * 1e3,
        flops / numpy_s / 1e9, numpy_s / mlc_s), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 512, 1024])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    blas_baseline.configure()
    if args.child is None:
        print(blas_baseline.describe(), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        if args.child is not None:
            for n in args.sizes:
                measure(n, args.child, max(args.runs, 1), tmp)
            return
        print("%6s %3s %10s %12s %10s %14s %8s" % (
            "N", "T", "mlc ms", "mlc GFLOP/s", "numpy ms", "numpy GFLOP/s", "ratio"),
            flush=True)
        for t in args.threads:
            env = dict(os.environ, OPENBLAS_NUM_THREADS=str(t),
                       OMP_NUM_THREADS=str(t), MKL_NUM_THREADS=str(t))
            subprocess.run([sys.executable, __file__, "--child", str(t),
                            "--runs", str(args.runs), "--sizes"] +
                           [str(n) for n in args.sizes], env=env, check=True)


if __name__ == "__main__":
    main()
