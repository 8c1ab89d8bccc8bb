"""Auto-tuning side by side: TVM's MetaSchedule and mlc.meta_schedule on the
same kernels with the same trial budget, one thread, in one run.

    bench/peers/setup.sh                        # the venv with apache-tvm
    bench/peers/.venv/bin/python bench/peers/tuning_tvm.py [--trials 32]
        [--kernels conv2_3x3 dense_128x768x3072 ...] [--cost-model xgb]

Kernels are bench/tuning.py's: resnet18's 3x3 and 1x1 conv layers (pad +
conv2d NCHW, float32, batch 1) and transformer dense shapes (M x K @ K x N).
For TVM each is written with te (topi.nn.pad + the conv2d reduction, or a
matmul), tuned with `ms.tune_tir` (post-order-apply space, evolutionary
search, the given cost model; xgb needs the venv's xgboost) and built with
`ms.tir_integration.compile_tir`; the untuned time is te's default schedule
(the loops as written) built by tvm.compile. Each tuned TVM kernel is checked
against numpy (rtol 1e-4). mlc's numbers come from bench/tuning.py
(Debian's python3) run in the same invocation, after TVM's. Times are the
minimum of time_evaluator repeats; tuning wall time includes compilation.

Known (2026-11-27, Intel Xeon, Debian 12, Python 3.11): the apache-tvm 0.26.0
and 0.27.0.post1 wheels (apache-tvm-ffi 0.1.15.post2) crash with SIGSEGV in
tvm::ffi::ToJSONGraph at the start of ms.tune_tir, with either cost model
and database; older apache-tvm-ffi wheels do not load with them. The script
then stops after TVM's untuned time; run it again with a wheel that works.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import tvm
from tvm import te, topi
from tvm.s_tir import meta_schedule as ms

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")

sys.path.insert(0, os.path.join(HERE, ".."))
from conv2d import LAYERS as CONVS  # noqa: E402  (C, H, W, F, K, stride, pad)
DENSES = {"dense_128x768x3072": (128, 768, 3072),
          "dense_128x3072x768": (128, 3072, 768),
          "matmul_512": (512, 512, 512)}


def conv_workload(c, h, w, f, k, stride, pad):
    x = te.placeholder((1, c, h, w), name="X")
    wt = te.placeholder((f, c, k, k), name="W")
    padded = topi.nn.pad(x, (0, 0, pad, pad), (0, 0, pad, pad), name="pad_temp")
    oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
    rc, ry, rx = (te.reduce_axis((0, c), "rc"), te.reduce_axis((0, k), "ry"),
                  te.reduce_axis((0, k), "rx"))
    out = te.compute((1, f, oh, ow), lambda n, ff, yy, xx: te.sum(
        padded[n, rc, yy * stride + ry, xx * stride + rx] * wt[ff, rc, ry, rx],
        axis=[rc, ry, rx]), name="conv2d_nchw")

    def reference(xv, wv):
        xp = np.pad(xv.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        o = np.zeros((1, f, oh, ow))
        for ry_ in range(k):
            for rx_ in range(k):
                patch = xp[:, :, ry_:ry_ + stride * oh:stride, rx_:rx_ + stride * ow:stride]
                o += np.einsum("nchw,fc->nfhw", patch, wv[:, :, ry_, rx_].astype(np.float64))
        return o

    return te.create_prim_func([x, wt, out]), [(1, c, h, w), (f, c, k, k)], \
        (1, f, oh, ow), reference


def dense_workload(m, k, n):
    a = te.placeholder((m, k), name="A")
    b = te.placeholder((k, n), name="B")
    r = te.reduce_axis((0, k), "k")
    out = te.compute((m, n), lambda i, j: te.sum(a[i, r] * b[r, j], axis=r), name="T_matmul_NN")
    return te.create_prim_func([a, b, out]), [(m, k), (k, n)], (m, n), \
        lambda av, bv: av.astype(np.float64) @ bv.astype(np.float64)


def build(mod, target):
    return tvm.compile(mod, target=target).jit()


def measure(lib, args):
    timer = lib.time_evaluator("main", tvm.cpu(), number=3, repeat=5,
                               min_repeat_ms=50)
    return min(timer(*args).results)


def tune_tvm(name, trials, per_iter, cost_model, work):
    func, in_shapes, out_shape, reference = (conv_workload(*CONVS[name]) if name in CONVS
                                             else dense_workload(*DENSES[name]))
    # The wheel's LLVM rejects -mcpu=native for its conda triple: name the CPU.
    cpu = tvm.target.codegen.llvm_get_system_cpu()
    target = tvm.target.Target({"kind": "llvm", "mcpu": cpu, "num-cores": 1})
    mod = tvm.IRModule({"main": func.with_attr("global_symbol", "main")})
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(s).astype("float32") for s in in_shapes]
    args = [tvm.runtime.tensor(v) for v in inputs] + \
        [tvm.runtime.tensor(np.zeros(out_shape, "float32"))]
    untuned = measure(build(mod, target), args)
    start = time.time()
    # The in-memory database: the 0.27 wheel's JSON database crashes
    # serializing the workload (SIGSEGV in tvm::ffi::ToJSONGraph).
    database = ms.tune_tir(mod, target, os.path.join(work, name), trials,
                           num_trials_per_iter=per_iter, cost_model=cost_model,
                           num_tuning_cores=1, seed=0, database="memory")
    wall = time.time() - start
    sch = ms.tir_integration.compile_tir(database, mod, target)
    if sch is None:
        return untuned, float("nan"), wall, "no record"
    lib = build(sch.mod, target)
    lib["main"](*args)
    want = reference(*inputs)
    ok = np.allclose(args[-1].numpy(), want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
    return untuned, measure(lib, args), wall, "ok" if ok else "MISMATCH"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernels", nargs="+", default=list(CONVS) + list(DENSES))
    parser.add_argument("--trials", type=int, default=32)
    parser.add_argument("--per-iter", type=int, default=8)
    parser.add_argument("--cost-model", default="xgb", choices=("xgb", "random"))
    args = parser.parse_args()
    os.environ["TVM_NUM_THREADS"] = "1"
    work = tempfile.mkdtemp(prefix="tvm-ms-")
    print("TVM %s MetaSchedule (%s), %d trials per kernel, 1 thread"
          % (tvm.__version__, args.cost_model, args.trials), flush=True)
    print("%-22s %12s %12s %8s %9s %s" % ("kernel", "untuned ms", "tuned ms",
                                           "ratio", "wall s", "numerics"))
    for name in args.kernels:
        untuned, tuned, wall, status = tune_tvm(name, args.trials, args.per_iter,
                                                args.cost_model, work)
        print("%-22s %12.4f %12.4f %8.2f %9.1f %s" % (name, untuned * 1e3, tuned * 1e3,
                                                      untuned / tuned, wall, status),
              flush=True)
    print("\nmlc (bench/tuning.py, same kernels and budget):", flush=True)
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "bench", "tuning.py"),
                    "--kernels"] + args.kernels +
                   ["--trials", str(args.trials), "--per-iter", str(args.per_iter)],
                   check=True, env={k: v for k, v in os.environ.items()
                                    if k != "PYTHONPATH"})


if __name__ == "__main__":
    main()
