"""Matmul benchmark: mlc's CPU pipeline vs numpy/OpenBLAS in the same run.

    /usr/bin/python3 bench/matmul.py [--sizes 256 512 1024] [--threads 1 2]
                                     [--runs 10] [--paths tensorir linalg relay]

For each size N (f32, N×N×N) and each path it builds a module, checks mlc's
result against numpy (float64 reference, rtol 1e-4, atol 1e-4·√N), and times
`mlc-run --bench --threads=T` against numpy's `@` run in a subprocess with
OPENBLAS_NUM_THREADS=T, printing GFLOP/s, the ratio mlc/numpy, and mlc's
fraction of the f32 FMA peak of T cores measured in the same run
(bench/peak_fma.py). Paths:

- tensorir: a relax function calling the te.compute matmul kernel that
  relax-legalize-ops writes for relax.matmul (T_matmul_NN), through the
  default pipeline (convert-tensorir-to-linalg, mlc-default-schedule);
- linalg: a tensor-level linalg.matmul (bufferized, not scheduled);
- relay: relay nn.dense through relay-to-relax and relax-legalize-ops (skipped
  with a note when this build cannot legalize it).

The baseline's OpenBLAS kernels are the fastest this machine has, measured
first (bench/blas_baseline.py: OpenBLAS's own choice fell back to SSE3
kernels on an AVX-512 VM, and some machines set OPENBLAS_CORETYPE to a
slower core).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mlc import tools  # noqa: E402
from peak_fma import peak_gflops  # noqa: E402
import blas_baseline  # noqa: E402

LINALG = """
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

# The te.compute kernel relax-legalize-ops writes for relax.matmul
# (topi.nn.matmul, T_matmul_NN), M x K @ K x N; `visibility` is "private "
# inside a model.
KERNEL = """
tensorir.prim_func {visibility}@matmul(%A: memref<{m}x{k}xf32>, %B: memref<{k}x{n}xf32>, %T_matmul: memref<{m}x{n}xf32>) attributes {{tensorir.noalias}} {{
  tensorir.for %i0 = 0 to {m} {{
    tensorir.for %i1 = 0 to {n} {{
      tensorir.for %k0 = 0 to {k} {{
        tensorir.block "T_matmul_NN"(%v_i0 = spatial({m}, %i0), %v_i1 = spatial({n}, %i1), %v_k0 = reduce({k}, %k0)) {{
          tensorir.init {{
            %cst = arith.constant 0.000000e+00 : f32
            memref.store %cst, %T_matmul[%v_i0, %v_i1] : memref<{m}x{n}xf32>
          }}
          %0 = memref.load %A[%v_i0, %v_k0] : memref<{m}x{k}xf32>
          %1 = memref.load %B[%v_k0, %v_i1] : memref<{k}x{n}xf32>
          %2 = arith.mulf %0, %1 : f32
          %3 = memref.load %T_matmul[%v_i0, %v_i1] : memref<{m}x{n}xf32>
          %4 = arith.addf %3, %2 : f32
          memref.store %4, %T_matmul[%v_i0, %v_i1] : memref<{m}x{n}xf32>
        }}
      }}
    }}
  }}
  tensorir.return
}}
"""

MAIN = """
func.func @main(%a: tensor<{n}x{n}xf32> {{relax.name = "a"}}, %b: tensor<{n}x{n}xf32> {{relax.name = "b"}}) -> tensor<{n}x{n}xf32> {{
  %0 = relax.call_tir @matmul(%a, %b) : (tensor<{n}x{n}xf32>, tensor<{n}x{n}xf32>) -> tensor<{n}x{n}xf32>
  return %0 : tensor<{n}x{n}xf32>
}}
"""


def tensorir_model(n):
    """The n x n matmul kernel and a relax main calling it."""
    return KERNEL.format(m=n, k=n, n=n, visibility="private ") + MAIN.format(n=n)


# nn.dense(a, bt) = a @ bt.T; the bench passes bt = b.T so that the result
# is a @ b for every path.
RELAY = """#[version = "0.0.5"]
def @main(%a: Tensor[({n}, {n}), float32], %b: Tensor[({n}, {n}), float32]) {{
  nn.dense(%a, %b)
}}
"""

NUMPY_TIMER = """
import sys, time
import numpy as np
a, b = (np.load(sys.argv[1])[k] for k in "ab")
a @ b
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    a @ b
    times.append(time.perf_counter() - start)
print(sorted(times)[len(times) // 2])
"""


def numpy_seconds(tmp, a, b, runs, threads):
    path = os.path.join(tmp, "numpy.npz")
    np.savez(path, a=a, b=b)
    env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads),
               OMP_NUM_THREADS=str(threads), MKL_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", NUMPY_TIMER, path, str(runs)],
                         env=env, check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def model_text(path, n, tmp):
    if path == "linalg":
        return LINALG.format(n=n)
    if path == "tensorir":
        return tensorir_model(n)
    relay = os.path.join(tmp, "model.relay")
    with open(relay, "w") as f:
        f.write(RELAY.format(n=n))
    out = os.path.join(tmp, "relay.mlir")
    tools.run("mlc-translate", ["--import-relay", relay, "-o", out])
    with open(out) as f:
        return f.read()


def run_mlc(tmp, text, inputs, threads, runs):
    """Runs the module once (result) and with --bench (median seconds)."""
    model = os.path.join(tmp, "model.mlir")
    with open(model, "w") as f:
        f.write(text)
    in_path = os.path.join(tmp, "in.npz")
    out_path = os.path.join(tmp, "out.npz")
    np.savez(in_path, **inputs)
    base = [model, "--quiet", "--inputs=" + in_path, "--threads=%d" % threads]
    tools.run("mlc-run", base + ["--outputs=" + out_path])
    with np.load(out_path) as data:
        result = data["out0"]
    stdout = tools.run("mlc-run", base + ["--bench=%d" % runs])
    m = re.search(r"median ([0-9.]+) ms", stdout)
    if not m:
        raise RuntimeError("mlc-run printed no timing:\n" + stdout)
    return result, float(m.group(1)) / 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 512, 1024])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--paths", nargs="+", default=["tensorir", "linalg", "relay"],
                        choices=["tensorir", "linalg", "relay"])
    args = parser.parse_args()
    blas_baseline.configure()
    print(blas_baseline.describe(), flush=True)

    peak = {t: peak_gflops(t) for t in args.threads}
    for t in args.threads:
        print("f32 FMA peak, %d thread(s): %.1f GFLOP/s" % (t, peak[t]))
    print("%-9s %6s %3s %10s %12s %10s %14s %8s %7s" % (
        "path", "N", "T", "mlc ms", "mlc GFLOP/s", "numpy ms", "numpy GFLOP/s", "ratio",
        "% peak"))
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            a = rng.standard_normal((n, n)).astype(np.float32)
            b = rng.standard_normal((n, n)).astype(np.float32)
            expected = a.astype(np.float64) @ b
            flops = 2.0 * n ** 3
            numpy_s = {t: numpy_seconds(tmp, a, b, args.runs, t) for t in args.threads}
            for path in args.paths:
                try:
                    text = model_text(path, n, tmp)
                except tools.ToolError as err:
                    print("%-9s %6d skipped: %s" % (path, n, str(err).splitlines()[0]))
                    continue
                inputs = {"a": a, "b": np.ascontiguousarray(b.T) if path == "relay" else b}
                for t in args.threads:
                    try:
                        out, mlc_s = run_mlc(tmp, text, inputs, t, args.runs)
                    except tools.ToolError as err:
                        lines = [l for l in str(err).splitlines() if "error" in l]
                        print("%-9s %6d skipped: %s" % (path, n, (lines or [str(err)])[0]))
                        break
                    np.testing.assert_allclose(out, expected, rtol=1e-4,
                                               atol=1e-4 * np.sqrt(n))
                    print("%-9s %6d %3d %10.3f %12.2f %10.3f %14.2f %8.3f %7.1f" % (
                        path, n, t, mlc_s * 1e3, flops / mlc_s / 1e9,
                        numpy_s[t] * 1e3, flops / numpy_s[t] / 1e9,
                        numpy_s[t] / mlc_s, 100 * flops / mlc_s / 1e9 / peak[t]))


if __name__ == "__main__":
    main()
