# Bound weights stored as the contraction reads its packed rhs panels
# (mlc-cpu-mark-constant-arguments, mlc-default-schedule,
# mlc-cpu-prepack-constants: pipeline option prepack-constants): Relay
# layers with random weights bound as parameters, compiled with the option
# on and off, run on random inputs and compared with a float64 numpy
# reference. Each layer also counts the kernel arguments that the schedule
# reads prepacked, so that a case that stopped exercising the path fails:
# a dense layer (panel of 2 slivers); two layers on 48 rows, the first
# with K split into cache tiles (512 = 2 x 256), the second in column
# tasks; a pointwise convolution (NHWC after relax-convert-layout: a 1 x 1
# x C x F weight read as C x F); a 3x3 convolution (each task's 3 x 3 x C x
# 16 weight columns); a matmul whose weight is also added to an input (the
# global stays for the add, a packed copy beside it for the matmul); and a
# dense layer on 30 rows (column tasks of 160 columns, read as slivers as
# wide, whose register tiles of 128, 32 views of them).
# Tolerances: rtol 1e-5, atol 1e-5 * sqrt(K) for the reduction length K.
# RUN: %python %s | FileCheck %s
# CHECK: dense 96x256->128 bias: 1 prepacked, on ok, off ok
# CHECK: dense 48x512->256 relu dense ->192: 2 prepacked, on ok, off ok
# CHECK: conv1x1 64->128 14x14 bias: 1 prepacked, on ok, off ok
# CHECK: conv3x3 32->64 16x16 relu: 1 prepacked, on ok, off ok
# CHECK: matmul 96x256->128 weight also added to: 1 prepacked, on ok, off ok
# CHECK: dense 30x256->320: 1 prepacked, on ok, off ok

import numpy as np
import mlc
from mlc_test_utils import bind_relay_params, kernels_after

rng = np.random.default_rng(11)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def prepacked(bound):
    """Kernel arguments the default schedule reads as packed slivers."""
    scheduled = kernels_after(bound, "mlc-strip-parameter-names,"
                              "mlc-cpu-mark-constant-arguments,func.func(mlc-default-schedule)")
    return scheduled.count("mlc.packed_slivers")


def check(name, inputs, params, body, reference, k):
    bound = bind_relay_params(inputs, params, body)
    count = prepacked(bound)
    values = [v for _, v in inputs]
    expected = reference(*[v.astype(np.float64) for _, v in inputs + params])
    results = []
    for on in (1, 0):
        library = mlc.executor.compile_module(
            bound, ["main"], args=["--pipeline-options=prepack-constants=%d" % on])
        out = library["main"](*values)
        outs = out if isinstance(out, (list, tuple)) else [out]
        wants = expected if isinstance(expected, tuple) else (expected,)
        for got, want in zip(outs, wants):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.sqrt(k))
        results.append("on ok" if on else "off ok")
    print("%s: %d prepacked, %s" % (name, count, ", ".join(results)))


x, w, b = f32(96, 256), f32(128, 256, scale=0.1), f32(128)
check("dense 96x256->128 bias", [("x", x)], [("w", w), ("b", b)],
      "%0 = nn.dense(%x, %w, units=128);\nnn.bias_add(%0, %b, axis=1)",
      lambda x, w, b: x @ w.T + b, 256)

x, w1, w2 = f32(48, 512), f32(256, 512, scale=0.05), f32(192, 256, scale=0.1)
check("dense 48x512->256 relu dense ->192", [("x", x)], [("w1", w1), ("w2", w2)],
      "%0 = nn.dense(%x, %w1, units=256);\n%1 = nn.relu(%0);\nnn.dense(%1, %w2, units=192)",
      lambda x, w1, w2: np.maximum(x @ w1.T, 0) @ w2.T, 512)

x, w, b = f32(1, 64, 14, 14), f32(128, 64, 1, 1, scale=0.1), f32(128)
check("conv1x1 64->128 14x14 bias", [("x", x)], [("w", w), ("b", b)],
      "%0 = nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=128, kernel_size=[1, 1]);\n"
      "nn.bias_add(%0, %b)",
      lambda x, w, b: np.einsum("nchw,fc->nfhw", x, w[:, :, 0, 0]) + b[None, :, None, None],
      64)

def conv3x3(x, w):
    n, c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd))
    for ky in range(3):
        for kx in range(3):
            out += np.einsum("nchw,fc->nfhw", xp[:, :, ky:ky + h, kx:kx + wd], w[:, :, ky, kx])
    return out


x, w = f32(1, 32, 16, 16), f32(64, 32, 3, 3, scale=0.1)
check("conv3x3 32->64 16x16 relu", [("x", x)], [("w", w)],
      "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3]);\n"
      "nn.relu(%0)",
      lambda x, w: np.maximum(conv3x3(x, w), 0), 288)

x, y, w = f32(96, 256), f32(256, 128), f32(256, 128, scale=0.1)
check("matmul 96x256->128 weight also added to", [("x", x), ("y", y)], [("w", w)],
      "%0 = nn.matmul(%x, %w, units=128);\n%1 = add(%w, %y);\n(%0, %1)",
      lambda x, y, w: (x @ w, w + y), 256)

x, w = f32(30, 256), f32(320, 256, scale=0.1)
check("dense 30x256->320", [("x", x)], [("w", w)],
      "nn.dense(%x, %w, units=320)",
      lambda x, w: x @ w.T, 256)
