# Epilogues computed on the register tiles of their contraction or
# convolution (mlc-default-schedule's fuse-epilogues): Relay layers whose
# fused kernels are matmul/conv + bias + activation (+ residual), through the
# CPU pipeline with fuse-epilogues on (the default) and off, on random
# inputs, against a float64 numpy reference. The shapes cover register
# tiles with partial tails, k split into cache tiles (768 = 2 x 384, the
# epilogue in the last k tile), k split into two contractions (1021, not
# fused), 1x1 and 3x3 convolutions, a residual input and batch_matmul.
# Each layer also checks whether fusion changed the kernel: with it, the
# scheduled kernels have fewer top-level loop nests than without.
# Tolerances: rtol 1e-5, atol 1e-5 * sqrt(K) for the reduction length K.
# RUN: %python %s | FileCheck %s
# CHECK: dense 96x200->130 bias relu: fused, on ok, off ok
# CHECK: dense 64x768->256 bias gelu: fused, on ok, off ok
# CHECK: dense 40x1021->64 bias: not fused, on ok, off ok
# CHECK: conv1x1 16->33 20x20 bias clip: fused, on ok, off ok
# CHECK: conv3x3 8->24 13x15 bias relu residual: fused, on ok, off ok
# CHECK: batch_matmul 3x40x70x50 add: fused, on ok, off ok

import math
import re

import numpy as np
import mlc
from mlc import tools

rng = np.random.default_rng(5)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def tensor(shape):
    return "Tensor[(%s), float32]" % ", ".join(map(str, shape))


def relay(params, body):
    args = ", ".join("%%%s: %s" % (name, tensor(v.shape)) for name, v in params)
    return '#[version = "0.0.5"]\ndef @main(%s) {\n%s\n}\n' % (args, body)


def conv2d(x, w, pad):
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho, wo = h + 2 * pad - kh + 1, wd + 2 * pad - kw + 1
    out = np.zeros((n, f, ho, wo))
    for ky in range(kh):
        for kx in range(kw):
            out += np.einsum("nchw,fc->nfhw", xp[:, :, ky:ky + ho, kx:kx + wo], w[:, :, ky, kx])
    return out


def gelu(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def loop_nests(text, fuse):
    """The loop nests at the top level of the kernels after the default
    schedule: the fill and the epilogue of a fused one have none of their
    own."""
    kernels = tools.run("mlc-opt", ["--mlc-graph-to-kernels", "--mlc-cpu-bufferize"],
                        input_text=text)
    scheduled = tools.run(
        "mlc-opt", ["--pass-pipeline=builtin.module(func.func(mlc-default-schedule{"
                    "fuse-epilogues=%d}))" % fuse], input_text=kernels)
    return len(re.findall(r"^    (?:%\S+ = )?scf\.(?:for|parallel) ", scheduled, re.M))


def check(name, inputs, body, reference, k, fused):
    text = relay(inputs, body)
    mod = mlc.relay.fromtext(text)
    values = [v for _, v in inputs]
    expected = reference(*[v.astype(np.float64) for v in values])
    results = []
    for fuse in (1, 0):
        library = mlc.executor.compile_module(
            mod, ["main"], args=["--pipeline-options=fuse-epilogues=%d" % fuse])
        out = library["main"](*values)
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5 * np.sqrt(k))
        results.append("on ok" if fuse else "off ok")
    fewer = loop_nests(mod.text, 1) < loop_nests(mod.text, 0)
    assert fewer == fused, (name, fewer)
    print("%s: %s, %s" % (name, "fused" if fused else "not fused", ", ".join(results)))


x, w, b = f32(96, 200), f32(130, 200, scale=0.1), f32(130)
check("dense 96x200->130 bias relu", [("x", x), ("w", w), ("b", b)],
      "%0 = nn.dense(%x, %w, units=130);\n%1 = nn.bias_add(%0, %b, axis=1);\nnn.relu(%1)",
      lambda x, w, b: np.maximum(x @ w.T + b, 0), 200, True)

x, w, b = f32(64, 768), f32(256, 768, scale=0.05), f32(256)
check("dense 64x768->256 bias gelu", [("x", x), ("w", w), ("b", b)],
      "%0 = nn.dense(%x, %w, units=256);\n%1 = nn.bias_add(%0, %b, axis=1);\n"
      "%2 = multiply(%1, 0.5f);\n%3 = power(%1, 3f);\n%4 = multiply(%3, 0.044715f);\n"
      "%5 = add(%1, %4);\n%6 = multiply(%5, 0.797885f);\n%7 = tanh(%6);\n"
      "%8 = add(%7, 1f);\nmultiply(%2, %8)",
      lambda x, w, b: gelu(x @ w.T + b), 768, True)

x, w, b = f32(40, 1021), f32(64, 1021, scale=0.05), f32(64)
check("dense 40x1021->64 bias", [("x", x), ("w", w), ("b", b)],
      "%0 = nn.dense(%x, %w, units=64);\nnn.bias_add(%0, %b, axis=1)",
      lambda x, w, b: x @ w.T + b, 1021, False)

x, w, b = f32(1, 16, 20, 20), f32(33, 16, 1, 1, scale=0.25), f32(33)
check("conv1x1 16->33 20x20 bias clip", [("x", x), ("w", w), ("b", b)],
      "%0 = nn.conv2d(%x, %w, padding=[0, 0, 0, 0], channels=33, kernel_size=[1, 1]);\n"
      "%1 = nn.bias_add(%0, %b);\nclip(%1, a_min=0f, a_max=6f)",
      lambda x, w, b: np.clip(conv2d(x, w, 0) + b[None, :, None, None], 0, 6), 16, True)

x, w, b, r = f32(1, 8, 13, 15), f32(24, 8, 3, 3, scale=0.1), f32(24), f32(1, 24, 13, 15)
check("conv3x3 8->24 13x15 bias relu residual", [("x", x), ("w", w), ("b", b), ("r", r)],
      "%0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=24, kernel_size=[3, 3]);\n"
      "%1 = nn.bias_add(%0, %b);\n%2 = nn.relu(%1);\nadd(%2, %r)",
      lambda x, w, b, r: np.maximum(conv2d(x, w, 1) + b[None, :, None, None], 0) + r,
      72, True)

x, y, z = f32(3, 40, 70), f32(3, 50, 70, scale=0.1), f32(3, 40, 50)
check("batch_matmul 3x40x70x50 add", [("x", x), ("y", y), ("z", z)],
      "%0 = nn.batch_matmul(%x, %y);\nadd(%0, %z)",
      lambda x, y, z: np.einsum("bik,bjk->bij", x, y) + z, 70, True)
