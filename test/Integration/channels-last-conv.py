# Channels-last convolutions (HWIO weights, an NHWC output) through the CPU
# pipeline, on random inputs, against a float64 numpy reference. Their
# default schedule runs tasks over columns of output channels, packs each
# task's weight columns (in chunks of the input channels when the panel is
# over 256 KiB) and widens the register tile of 7-pixel rows to two vectors.
# The shapes cover a chunked panel with and without a fused epilogue (bias
# over the last axis, ReLU, a residual), output channels that no register
# tile divides (40, 24), strides, dilation, a batch of two, an odd image,
# a 7x7 stem-like kernel, an NCHW image with an NHWC output, and rows of
# 26 and 32 pixels (four or more 6-pixel contraction tiles), which take the
# 6x64 register tile (with rows left over, 80 output channels leaving a
# partial column, a fused epilogue, and a stem-like 7x7 on 3 channels at
# stride 2 whose 64 channels are one column task, the rows split). Each layer
# also checks whether its kernel packed a panel (a memref.alloca in the
# scheduled kernel): not when the output channels leave a partial column
# task (40 = 32 + 8, 24 = 16 + 8), whose sizes are dynamic.
# Tolerances: rtol 1e-5, atol 1e-5 * sqrt(K) for the reduction length K.
# RUN: %python %s | FileCheck %s
# CHECK: 256->64 7x7 3x3: packed, ok
# CHECK: 256->64 7x7 3x3 bias relu residual: packed, ok
# CHECK: 48->40 15x13 3x3 stride 2: not packed, ok
# CHECK: batch 2 16->32 20x20 3x3 dilation 2: packed, ok
# CHECK: 3->24 30x30 7x7 stride 2 bias relu: not packed, ok
# CHECK: NCHW in 32->64 9x9 3x3: packed, ok
# CHECK: 32->80 26x26 3x3 bias relu residual: not packed, 6x64 tile used, ok
# CHECK: 3->64 64x64 7x7 stride 2: packed, 6x64 tile used, ok

import numpy as np
import mlc
from mlc_test_utils import default_scheduled, relay_main as relay

rng = np.random.default_rng(12)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def conv_nhwc(x, w, stride=1, pad=0, dilation=1):
    """x: NHWC, w: HWIO; float64."""
    kh, kw = w.shape[0], w.shape[1]
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    ho = (xp.shape[1] - dilation * (kh - 1) - 1) // stride + 1
    wo = (xp.shape[2] - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((x.shape[0], ho, wo, w.shape[3]))
    for ky in range(kh):
        for kx in range(kw):
            patch = xp[:, ky * dilation:ky * dilation + stride * ho:stride,
                       kx * dilation:kx * dilation + stride * wo:stride, :]
            out += np.einsum("nyxc,cf->nyxf", patch, w[ky, kx])
    return out


def packed(text):
    return "memref.alloca" in default_scheduled(text)


def check(name, inputs, body, reference, tile=None):
    text = relay(inputs, body)
    mod = mlc.relay.fromtext(text)
    values = [v for _, v in inputs]
    expected = reference(*[v.astype(np.float64) for v in values])
    w = values[1]
    k = w.shape[0] * w.shape[1] * w.shape[2]
    library = mlc.executor.compile_module(mod, ["main"])
    out = library["main"](*values)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5 * np.sqrt(k))
    note = "packed" if packed(mod.text) else "not packed"
    if tile:
        # The register tile's accumulators, vector<rows x columns>.
        note += ", %s tile %s" % (tile, "used" if "vector<%sxf32>" % tile in
                                  default_scheduled(mod.text) else "missing")
    print("%s: %s, ok" % (name, note))


def conv(channels, k, stride=1, pad=0, dilation=1, data_layout="NHWC"):
    return ("nn.conv2d(%%x, %%w, strides=[%d, %d], padding=[%d, %d, %d, %d], "
            "dilation=[%d, %d], channels=%d, kernel_size=[%d, %d], data_layout=\"%s\", "
            "kernel_layout=\"HWIO\", out_layout=\"NHWC\")"
            % (stride, stride, pad, pad, pad, pad, dilation, dilation, channels, k, k,
               data_layout))


x, w = f32(1, 7, 7, 256), f32(3, 3, 256, 64, scale=0.05)
check("256->64 7x7 3x3", [("x", x), ("w", w)], conv(64, 3, pad=1),
      lambda x, w: conv_nhwc(x, w, pad=1))

x, w, b, r = f32(1, 7, 7, 256), f32(3, 3, 256, 64, scale=0.05), f32(64), f32(1, 7, 7, 64)
check("256->64 7x7 3x3 bias relu residual", [("x", x), ("w", w), ("b", b), ("r", r)],
      "%%0 = %s;\n%%1 = nn.bias_add(%%0, %%b, axis=3);\n%%2 = add(%%1, %%r);\nnn.relu(%%2)"
      % conv(64, 3, pad=1),
      lambda x, w, b, r: np.maximum(conv_nhwc(x, w, pad=1) + b + r, 0))

x, w = f32(1, 15, 13, 48), f32(3, 3, 48, 40, scale=0.1)
check("48->40 15x13 3x3 stride 2", [("x", x), ("w", w)], conv(40, 3, stride=2, pad=1),
      lambda x, w: conv_nhwc(x, w, stride=2, pad=1))

x, w = f32(2, 20, 20, 16), f32(3, 3, 16, 32, scale=0.2)
check("batch 2 16->32 20x20 3x3 dilation 2", [("x", x), ("w", w)],
      conv(32, 3, pad=2, dilation=2), lambda x, w: conv_nhwc(x, w, pad=2, dilation=2))

x, w, b = f32(1, 30, 30, 3), f32(7, 7, 3, 24, scale=0.2), f32(24)
check("3->24 30x30 7x7 stride 2 bias relu", [("x", x), ("w", w), ("b", b)],
      "%%0 = %s;\n%%1 = nn.bias_add(%%0, %%b, axis=3);\nnn.relu(%%1)"
      % conv(24, 7, stride=2, pad=3),
      lambda x, w, b: np.maximum(conv_nhwc(x, w, stride=2, pad=3) + b, 0))

x, w = f32(1, 32, 9, 9), f32(3, 3, 32, 64, scale=0.1)
check("NCHW in 32->64 9x9 3x3", [("x", x), ("w", w)],
      conv(64, 3, pad=1, data_layout="NCHW"),
      lambda x, w: conv_nhwc(x.transpose(0, 2, 3, 1), w, pad=1))

x, w, b, r = f32(1, 26, 26, 32), f32(3, 3, 32, 80, scale=0.1), f32(80), f32(1, 26, 26, 80)
check("32->80 26x26 3x3 bias relu residual", [("x", x), ("w", w), ("b", b), ("r", r)],
      "%%0 = %s;\n%%1 = nn.bias_add(%%0, %%b, axis=3);\n%%2 = add(%%1, %%r);\nnn.relu(%%2)"
      % conv(80, 3, pad=1),
      lambda x, w, b, r: np.maximum(conv_nhwc(x, w, pad=1) + b + r, 0), tile="6x64")

x, w = f32(1, 64, 64, 3), f32(7, 7, 3, 64, scale=0.2)
check("3->64 64x64 7x7 stride 2", [("x", x), ("w", w)], conv(64, 7, stride=2, pad=3),
      lambda x, w: conv_nhwc(x, w, stride=2, pad=3), tile="6x64")
