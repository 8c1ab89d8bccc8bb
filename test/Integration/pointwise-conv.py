# 1x1 convolutions scheduled as contractions (mlc-default-schedule's
# pointwise-conv-as-matmul): Relay layers through the CPU pipeline with the
# rewrite on (the default) and off, on random inputs, against a float64
# numpy reference. The shapes cover ResNet-50's 7x7 stage (49 columns: a
# 32-wide register tile, a 16-wide one and one column), an odd image (5x9),
# a batch of two, fused epilogues (batch norm folded to scale and shift,
# ReLU, a residual) and 1x1 kernels at stride 2 (the image subsampled into a
# dense buffer first), one of odd size with a fused epilogue. Each layer also checks whether its kernel was
# rewritten (collapse_shape views in the scheduled kernel).
# Tolerances: rtol 1e-5, atol 1e-5 * sqrt(K) for the reduction length K.
# RUN: %python %s | FileCheck %s
# CHECK: 512->256 7x7: rewritten, on ok, off ok
# CHECK: 48->40 5x9 scale shift relu: rewritten, on ok, off ok
# CHECK: batch 2 24->32 6x6 residual: rewritten, on ok, off ok
# CHECK: 64->256 14x14 bias relu residual: rewritten, on ok, off ok
# CHECK: 32->48 stride 2 14x14: rewritten, on ok, off ok
# CHECK: 16->24 stride 2 9x11 bias relu: rewritten, on ok, off ok

import numpy as np
import mlc
from mlc_test_utils import default_scheduled, relay_main as relay

rng = np.random.default_rng(11)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def conv1x1(x, w, stride=1):
    return np.einsum("nchw,fc->nfhw", x[:, :, ::stride, ::stride], w[:, :, 0, 0])


def rewritten(text):
    return "memref.collapse_shape" in default_scheduled(text)


def check(name, inputs, body, reference, expect_rewritten):
    text = relay(inputs, body)
    mod = mlc.relay.fromtext(text)
    values = [v for _, v in inputs]
    expected = reference(*[v.astype(np.float64) for v in values])
    k = values[1].shape[1]
    results = []
    for on in (1, 0):
        library = mlc.executor.compile_module(
            mod, ["main"], args=["--pipeline-options=pointwise-conv-as-matmul=%d" % on])
        out = library["main"](*values)
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5 * np.sqrt(k))
        results.append("on ok" if on else "off ok")
    done = rewritten(mod.text)
    assert done == expect_rewritten, (name, done)
    print("%s: %s, %s" % (name, "rewritten" if done else "not rewritten", ", ".join(results)))


def conv(channels, stride=1):
    return ("nn.conv2d(%%x, %%w, strides=[%d, %d], padding=[0, 0, 0, 0], channels=%d, "
            "kernel_size=[1, 1])" % (stride, stride, channels))


x, w = f32(1, 512, 7, 7), f32(256, 512, 1, 1, scale=0.05)
check("512->256 7x7", [("x", x), ("w", w)], conv(256), conv1x1, True)

x, w, s, t = f32(1, 48, 5, 9), f32(40, 48, 1, 1, scale=0.2), f32(40), f32(40)
check("48->40 5x9 scale shift relu", [("x", x), ("w", w), ("s", s), ("t", t)],
      "%%0 = %s;\n%%1 = multiply(%%0, expand_dims(%%s, axis=1, num_newaxis=2));\n"
      "%%2 = add(%%1, expand_dims(%%t, axis=1, num_newaxis=2));\nnn.relu(%%2)" % conv(40),
      lambda x, w, s, t: np.maximum(conv1x1(x, w) * s[:, None, None] + t[:, None, None], 0),
      True)

x, w, r = f32(2, 24, 6, 6), f32(32, 24, 1, 1, scale=0.2), f32(2, 32, 6, 6)
check("batch 2 24->32 6x6 residual", [("x", x), ("w", w), ("r", r)],
      "%%0 = %s;\nadd(%%0, %%r)" % conv(32), lambda x, w, r: conv1x1(x, w) + r, True)

x, w, b, r = f32(1, 64, 14, 14), f32(256, 64, 1, 1, scale=0.1), f32(256), f32(1, 256, 14, 14)
check("64->256 14x14 bias relu residual", [("x", x), ("w", w), ("b", b), ("r", r)],
      "%%0 = %s;\n%%1 = nn.bias_add(%%0, %%b);\n%%2 = add(%%1, %%r);\nnn.relu(%%2)" % conv(256),
      lambda x, w, b, r: np.maximum(conv1x1(x, w) + b[None, :, None, None] + r, 0), True)

x, w = f32(1, 32, 14, 14), f32(48, 32, 1, 1, scale=0.2)
check("32->48 stride 2 14x14", [("x", x), ("w", w)], conv(48, 2),
      lambda x, w: conv1x1(x, w, 2), True)

x, w, b = f32(1, 16, 9, 11), f32(24, 16, 1, 1, scale=0.2), f32(24)
check("16->24 stride 2 9x11 bias relu", [("x", x), ("w", w), ("b", b)],
      "%%0 = %s;\n%%1 = nn.bias_add(%%0, %%b);\nnn.relu(%%1)" % conv(24, 2),
      lambda x, w, b: np.maximum(conv1x1(x, w, 2) + b[None, :, None, None], 0), True)
