# Padded window reductions split into an interior part that reads the image
# itself and border parts that read the padded copy
# (mlc-cpu-split-padded-windows: pipeline option split-padded-windows):
# Relay depthwise convolutions and poolings with random inputs and weights
# (bound as parameters), compiled with the option on and off, run and
# compared with a float64 numpy reference. Each case also counts the window
# reductions after the pass, so that a case that stopped splitting fails
# (one op: not split; 3 to 5: the interior and 2 to 4 border parts), and
# says whether the kernel became channel tasks (where the border parts
# hold an eighth of the outputs or more and the channels split into tasks
# of whole cache lines): stride 1 with a fused bias and relu, stride 2
# with relu6 (one border part per dimension: the last window ends inside
# the image), a 5x5 kernel, a dilated kernel, asymmetric padding, a max
# pooling (padded with -inf; its window-shape operand keeps it out of
# channel tasks) and an average pooling on NCHW (not converted: the windows
# slide along the innermost dimension), an unpadded convolution (nothing to
# split), MobileNet-v2's small images as channel tasks (7x7 with 64
# channels, 4 tasks; 14x14 at stride 2 with 48, 3 tasks), and a depthwise
# convolution without an epilogue, which accumulates into the kernel's
# output (its fill moves into the tasks too).
# Tolerances: rtol 1e-5, atol 1e-5 * sqrt(window size).
# RUN: %python %s | FileCheck %s
# CHECK: dwconv3x3 s1 24ch 15x15 bias relu: 5 window ops, 0 channel tasks, on ok, off ok
# CHECK: dwconv3x3 s2 32ch 16x16 relu6: 3 window ops, 2 channel tasks, on ok, off ok
# CHECK: dwconv5x5 s2 16ch 13x13: 5 window ops, 0 channel tasks, on ok, off ok
# CHECK: dwconv3x3 dilation 2 16ch 12x12: 5 window ops, 0 channel tasks, on ok, off ok
# CHECK: dwconv3x3 s2 padding 0,1 16ch 14x14: 3 window ops, 0 channel tasks, on ok, off ok
# CHECK: max_pool3x3 s2 16ch 18x18: 3 window ops, 0 channel tasks, on ok, off ok
# CHECK: avg_pool3x3 s1 8ch 10x10: 5 window ops, 0 channel tasks, on ok, off ok
# CHECK: dwconv3x3 unpadded 16ch 10x10: 1 window ops, 0 channel tasks, on ok, off ok
# CHECK: dwconv3x3 s1 64ch 7x7 bias relu6: 5 window ops, 4 channel tasks, on ok, off ok
# CHECK: dwconv3x3 s2 48ch 14x14 bias: 3 window ops, 3 channel tasks, on ok, off ok
# CHECK: max_pool3x3 s1 32ch 6x6: 5 window ops, 0 channel tasks, on ok, off ok
# CHECK: dwconv3x3 s1 32ch 6x6: 5 window ops, 2 channel tasks, on ok, off ok

import re

import numpy as np
import mlc
from mlc_test_utils import bind_relay_params, kernels_after

rng = np.random.default_rng(5)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def window_ops(bound):
    """(window reductions (linalg ops with reduction loops), channel tasks
    (the scf.forall's trip count, 0 without one)) after the pass."""
    split = kernels_after(bound, "mlc-strip-parameter-names,"
                          "func.func(mlc-cpu-split-padded-windows)")
    ops = sum(1 for line in split.splitlines()
              if "linalg.generic" in line and '"reduction"' in line)
    tasks = re.search(r"scf.forall \(%\w+\) = \(0\) to \((\d+)\) step \((\d+)\)", split)
    return ops, int(tasks.group(1)) // int(tasks.group(2)) if tasks else 0


def check(name, inputs, params, body, reference, window):
    bound = bind_relay_params(inputs, params, body)
    count, tasks = window_ops(bound)
    values = [v for _, v in inputs]
    expected = reference(*[v.astype(np.float64) for _, v in inputs + params])
    results = []
    for on in (1, 0):
        library = mlc.executor.compile_module(
            bound, ["main"], args=["--pipeline-options=split-padded-windows=%d" % on])
        got = library["main"](*values)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5 * np.sqrt(window))
        results.append("on ok" if on else "off ok")
    print("%s: %d window ops, %d channel tasks, %s" % (name, count, tasks, ", ".join(results)))


def windows(x, k, stride, pads, dilation, pad_value=0.0):
    """(N, C, OH, OW, k, k) windows of NCHW x; pads = (top, left, bottom, right)."""
    top, left, bottom, right = pads
    xp = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)),
                constant_values=pad_value)
    oh = (xp.shape[2] - dilation * (k - 1) - 1) // stride + 1
    ow = (xp.shape[3] - dilation * (k - 1) - 1) // stride + 1
    out = np.empty(x.shape[:2] + (oh, ow, k, k))
    for ky in range(k):
        for kx in range(k):
            y0, x0 = ky * dilation, kx * dilation
            out[..., ky, kx] = xp[:, :, y0:y0 + stride * (oh - 1) + 1:stride,
                                  x0:x0 + stride * (ow - 1) + 1:stride]
    return out


def dwconv(x, w, stride, pads, dilation=1):
    win = windows(x, w.shape[2], stride, pads, dilation)
    return np.einsum("ncyxij,cij->ncyx", win, w[:, 0])


def dw_text(c, k, stride, pads, dilation=1):
    return ("nn.conv2d(%%x, %%w, strides=[%d, %d], padding=[%s], dilation=[%d, %d], "
            "groups=%d, channels=%d, kernel_size=[%d, %d])"
            % (stride, stride, ", ".join(map(str, pads)), dilation, dilation, c, c, k, k))


x, w, b = f32(1, 24, 15, 15), f32(24, 1, 3, 3), f32(24)
check("dwconv3x3 s1 24ch 15x15 bias relu", [("x", x)], [("w", w), ("b", b)],
      "%%0 = %s;\n%%1 = nn.bias_add(%%0, %%b);\nnn.relu(%%1)" % dw_text(24, 3, 1, [1, 1, 1, 1]),
      lambda x, w, b: np.maximum(dwconv(x, w, 1, (1, 1, 1, 1)) + b[None, :, None, None], 0),
      9)

x, w = f32(1, 32, 16, 16), f32(32, 1, 3, 3)
check("dwconv3x3 s2 32ch 16x16 relu6", [("x", x)], [("w", w)],
      "%%0 = %s;\nclip(%%0, a_min=0f, a_max=6f)" % dw_text(32, 3, 2, [1, 1, 1, 1]),
      lambda x, w: np.clip(dwconv(x, w, 2, (1, 1, 1, 1)), 0, 6), 9)

x, w = f32(1, 16, 13, 13), f32(16, 1, 5, 5)
check("dwconv5x5 s2 16ch 13x13", [("x", x)], [("w", w)], dw_text(16, 5, 2, [2, 2, 2, 2]),
      lambda x, w: dwconv(x, w, 2, (2, 2, 2, 2)), 25)

x, w = f32(1, 16, 12, 12), f32(16, 1, 3, 3)
check("dwconv3x3 dilation 2 16ch 12x12", [("x", x)], [("w", w)],
      dw_text(16, 3, 1, [2, 2, 2, 2], dilation=2),
      lambda x, w: dwconv(x, w, 1, (2, 2, 2, 2), dilation=2), 9)

x, w = f32(1, 16, 14, 14), f32(16, 1, 3, 3)
check("dwconv3x3 s2 padding 0,1 16ch 14x14", [("x", x)], [("w", w)],
      dw_text(16, 3, 2, [0, 0, 1, 1]),
      lambda x, w: dwconv(x, w, 2, (0, 0, 1, 1)), 9)

x = f32(1, 16, 18, 18)
check("max_pool3x3 s2 16ch 18x18", [("x", x)], [],
      "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1])",
      lambda x: windows(x, 3, 2, (1, 1, 1, 1), 1, -np.inf).max(axis=(4, 5)), 9)

x = f32(1, 8, 10, 10)
check("avg_pool3x3 s1 8ch 10x10", [("x", x)], [],
      "nn.avg_pool2d(%x, pool_size=[3, 3], padding=[1, 1, 1, 1], count_include_pad=True)",
      lambda x: windows(x, 3, 1, (1, 1, 1, 1), 1).mean(axis=(4, 5)), 9)

x, w = f32(1, 16, 10, 10), f32(16, 1, 3, 3)
check("dwconv3x3 unpadded 16ch 10x10", [("x", x)], [("w", w)],
      dw_text(16, 3, 1, [0, 0, 0, 0]),
      lambda x, w: dwconv(x, w, 1, (0, 0, 0, 0)), 9)

x, w, b = f32(1, 64, 7, 7), f32(64, 1, 3, 3), f32(64)
check("dwconv3x3 s1 64ch 7x7 bias relu6", [("x", x)], [("w", w), ("b", b)],
      "%%0 = %s;\n%%1 = nn.bias_add(%%0, %%b);\nclip(%%1, a_min=0f, a_max=6f)"
      % dw_text(64, 3, 1, [1, 1, 1, 1]),
      lambda x, w, b: np.clip(dwconv(x, w, 1, (1, 1, 1, 1)) + b[None, :, None, None], 0, 6),
      9)

x, w, b = f32(1, 48, 14, 14), f32(48, 1, 3, 3), f32(48)
check("dwconv3x3 s2 48ch 14x14 bias", [("x", x)], [("w", w), ("b", b)],
      "%%0 = %s;\nnn.bias_add(%%0, %%b)" % dw_text(48, 3, 2, [1, 1, 1, 1]),
      lambda x, w, b: dwconv(x, w, 2, (1, 1, 1, 1)) + b[None, :, None, None], 9)

x = f32(1, 32, 6, 6)
check("max_pool3x3 s1 32ch 6x6", [("x", x)], [],
      "nn.max_pool2d(%x, pool_size=[3, 3], strides=[1, 1], padding=[1, 1, 1, 1])",
      lambda x: windows(x, 3, 1, (1, 1, 1, 1), 1, -np.inf).max(axis=(4, 5)), 9)

x, w = f32(1, 32, 6, 6), f32(32, 1, 3, 3)
check("dwconv3x3 s1 32ch 6x6", [("x", x)], [("w", w)], dw_text(32, 3, 1, [1, 1, 1, 1]),
      lambda x, w: dwconv(x, w, 1, (1, 1, 1, 1)), 9)
