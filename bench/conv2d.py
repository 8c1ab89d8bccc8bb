"""Conv2d benchmark: resnet18's 3x3/1x1 conv layers (NCHW, f32, batch 1).

    /usr/bin/python3 bench/conv2d.py
        [--layers all|NAME ...] [--threads 1 2] [--runs 5]

Each layer is the te.compute kernel relax-legalize-ops writes for
relax.nn.conv2d (a `pad_temp` stage, then `conv2d_nchw`), run through the
default CPU pipeline with `mlc-run --bench --threads=T`, checked against
numpy (float64, atol 1e-4·√(C·KH·KW)) and timed against numpy's im2col +
OpenBLAS matmul in a subprocess with OPENBLAS_NUM_THREADS=T (OpenBLAS's
fastest kernels on this machine: bench/blas_baseline.py). Prints GFLOP/s
and the ratio mlc/numpy.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from mlc import tools  # noqa: E402
import blas_baseline  # noqa: E402

# name: (C, H, W, F, K, stride, pad)
LAYERS = {
    "conv2_3x3": (64, 56, 56, 64, 3, 1, 1),
    "conv3_3x3": (128, 28, 28, 128, 3, 1, 1),
    "conv4_3x3": (256, 14, 14, 256, 3, 1, 1),
    "conv5_3x3": (512, 7, 7, 512, 3, 1, 1),
    "conv3_1x1": (64, 56, 56, 128, 1, 2, 0),
}


def memref(shape):
    return "memref<%sxf32>" % "x".join(map(str, shape))


def kernel(c, h, w, f, k, stride, pad):
    hp, wp = h + 2 * pad, w + 2 * pad
    oh, ow = (hp - k) // stride + 1, (wp - k) // stride + 1
    x, p, wt, o = (memref((1, c, h, w)), memref((1, c, hp, wp)),
                   memref((f, c, k, k)), memref((1, f, oh, ow)))
    return """
tensorir.prim_func private @conv2d(%X: {x}, %W: {wt}, %O: {o}) attributes {{tensorir.noalias}} {{
  %P = tensorir.alloc_buffer : {p}
  tensorir.for %n = 0 to 1 {{ tensorir.for %c = 0 to {c} {{ tensorir.for %y = 0 to {hp} {{ tensorir.for %x = 0 to {wp} {{
    tensorir.block "pad_temp"(%vn = spatial(1, %n), %vc = spatial({c}, %c), %vy = spatial({hp}, %y), %vx = spatial({wp}, %x)) {{
      %cpad = arith.constant {pad} : index
      %c0 = arith.constant 0 : index
      %hmax = arith.constant {hm} : index
      %wmax = arith.constant {wm} : index
      %yy = arith.subi %vy, %cpad : index
      %xx = arith.subi %vx, %cpad : index
      %y0 = arith.maxsi %yy, %c0 : index
      %y1 = arith.minsi %y0, %hmax : index
      %x0 = arith.maxsi %xx, %c0 : index
      %x1 = arith.minsi %x0, %wmax : index
      %v = memref.load %X[%vn, %vc, %y1, %x1] : {x}
      %iny = arith.cmpi eq, %yy, %y1 : index
      %inx = arith.cmpi eq, %xx, %x1 : index
      %in = arith.andi %iny, %inx : i1
      %zero = arith.constant 0.0 : f32
      %r = arith.select %in, %v, %zero : f32
      memref.store %r, %P[%vn, %vc, %vy, %vx] : {p}
    }}
  }} }} }} }}
  tensorir.for %n = 0 to 1 {{ tensorir.for %f = 0 to {f} {{ tensorir.for %y = 0 to {oh} {{ tensorir.for %x = 0 to {ow} {{
  tensorir.for %rc = 0 to {c} {{ tensorir.for %ry = 0 to {k} {{ tensorir.for %rx = 0 to {k} {{
    tensorir.block "conv2d_nchw"(%vn = spatial(1, %n), %vf = spatial({f}, %f), %vy = spatial({oh}, %y), %vx = spatial({ow}, %x), %vrc = reduce({c}, %rc), %vry = reduce({k}, %ry), %vrx = reduce({k}, %rx)) {{
      tensorir.init {{
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %O[%vn, %vf, %vy, %vx] : {o}
      }}
      %s = arith.constant {stride} : index
      %sy = arith.muli %vy, %s : index
      %sx = arith.muli %vx, %s : index
      %iy = arith.addi %sy, %vry : index
      %ix = arith.addi %sx, %vrx : index
      %a = memref.load %P[%vn, %vrc, %iy, %ix] : {p}
      %b = memref.load %W[%vf, %vrc, %vry, %vrx] : {wt}
      %m = arith.mulf %a, %b : f32
      %acc = memref.load %O[%vn, %vf, %vy, %vx] : {o}
      %sum = arith.addf %acc, %m : f32
      memref.store %sum, %O[%vn, %vf, %vy, %vx] : {o}
    }}
  }} }} }} }} }} }} }}
  tensorir.return
}}
func.func @main(%x: tensor<1x{c}x{h}x{w}xf32> {{relax.name = "x"}}, %w: tensor<{f}x{c}x{k}x{k}xf32> {{relax.name = "w"}}) -> tensor<1x{f}x{oh}x{ow}xf32> {{
  %0 = relax.call_tir @conv2d(%x, %w) : (tensor<1x{c}x{h}x{w}xf32>, tensor<{f}x{c}x{k}x{k}xf32>) -> tensor<1x{f}x{oh}x{ow}xf32>
  return %0 : tensor<1x{f}x{oh}x{ow}xf32>
}}
""".format(x=x, p=p, wt=wt, o=o, c=c, h=h, w=w, f=f, k=k, hp=hp, wp=wp, oh=oh,
           ow=ow, pad=pad, stride=stride, hm=h - 1, wm=w - 1), (oh, ow)


NUMPY_TIMER = """
import sys, time
import numpy as np
d = np.load(sys.argv[1])
x, w, stride, pad = d["x"], d["w"], int(d["stride"]), int(d["pad"])
f, c, k, _ = w.shape
wm = w.reshape(f, -1)
def conv():
    xp = np.pad(x[0], ((0, 0), (pad, pad), (pad, pad)))
    oh = (xp.shape[1] - k) // stride + 1
    ow = (xp.shape[2] - k) // stride + 1
    cols = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(1, 2))
    cols = cols[:, ::stride, ::stride].transpose(0, 3, 4, 1, 2).reshape(c * k * k, oh * ow)
    return wm @ cols
conv()
times = []
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    conv()
    times.append(time.perf_counter() - start)
print(sorted(times)[len(times) // 2])
"""


def reference(x, w, stride, pad, oh, ow):
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    k = w.shape[2]
    out = np.zeros((1, w.shape[0], oh, ow))
    for ry in range(k):
        for rx in range(k):
            patch = xp[:, :, ry:ry + stride * oh:stride, rx:rx + stride * ow:stride]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, ry, rx])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", nargs="+", default=list(LAYERS))
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    blas_baseline.configure()
    print(blas_baseline.describe(), flush=True)
    rng = np.random.default_rng(0)
    print("%-10s %3s %10s %12s %10s %14s %8s" % (
        "layer", "T", "mlc ms", "mlc GFLOP/s", "numpy ms", "numpy GFLOP/s", "ratio"))
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.layers:
            c, h, w, f, k, stride, pad = LAYERS[name]
            text, (oh, ow) = kernel(c, h, w, f, k, stride, pad)
            x = rng.standard_normal((1, c, h, w)).astype(np.float32)
            wt = rng.standard_normal((f, c, k, k)).astype(np.float32)
            flops = 2.0 * f * oh * ow * c * k * k
            model = os.path.join(tmp, "model.mlir")
            with open(model, "w") as fh:
                fh.write(text)
            inputs = os.path.join(tmp, "in.npz")
            np.savez(inputs, x=x, w=wt)
            np_in = os.path.join(tmp, "np.npz")
            np.savez(np_in, x=x, w=wt, stride=stride, pad=pad)
            out_path = os.path.join(tmp, "out.npz")
            tools.run("mlc-run", [model, "--quiet", "--inputs=" + inputs,
                                  "--outputs=" + out_path])
            with np.load(out_path) as data:
                np.testing.assert_allclose(data["out0"], reference(x, wt, stride, pad, oh, ow),
                                           rtol=1e-4, atol=1e-4 * np.sqrt(c * k * k))
            for t in args.threads:
                stdout = tools.run("mlc-run", [model, "--quiet", "--inputs=" + inputs,
                                               "--threads=%d" % t, "--bench=%d" % args.runs])
                mlc_s = float(re.search(r"median ([0-9.]+) ms", stdout).group(1)) / 1e3
                env = dict(os.environ, OPENBLAS_NUM_THREADS=str(t), OMP_NUM_THREADS=str(t))
                numpy_s = float(subprocess.run(
                    [sys.executable, "-c", NUMPY_TIMER, np_in, str(args.runs)], env=env,
                    check=True, capture_output=True, text=True).stdout)
                print("%-10s %3d %10.3f %12.2f %10.3f %14.2f %8.3f" % (
                    name, t, mlc_s * 1e3, flops / mlc_s / 1e9, numpy_s * 1e3,
                    flops / numpy_s / 1e9, numpy_s / mlc_s))


if __name__ == "__main__":
    main()
