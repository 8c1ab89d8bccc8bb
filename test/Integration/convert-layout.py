# An NCHW CNN through the CPU pipeline with its default conv-layout=NHWC
# (relax-convert-layout: channels-last convolutions, the ops between them
# following) and with conv-layout= (the model's own NCHW), each on random
# inputs against a float64 numpy reference. The model covers what the pass
# rewrites: a 3x3 convolution with bias_add and relu, max pooling,
# batch_norm, a depthwise convolution with clip (ReLU6), a strided 1x1
# convolution, a residual add, a concat along the channels, a global
# average pool, and what it gives back in NCHW: batch_flatten before a
# dense layer, and a second output that is a raw feature map.
# Each build's kernels are checked to hold its layout's convolutions only.
# Tolerances: rtol 1e-4, atol 1e-4 times the largest output magnitude.
# RUN: %python %s | FileCheck %s
# CHECK: NHWC: convolutions nhwc 3 nchw 0, ok
# CHECK: NCHW: convolutions nhwc 0 nchw 3, ok

import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
import mlc  # noqa: E402
from mlc.tools import find_tool  # noqa: E402
from mlc_test_utils import relay_main as relay  # noqa: E402
from models import conv2d_nchw as conv, max_pool2x2 as max_pool  # noqa: E402

rng = np.random.default_rng(7)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


x = f32(1, 3, 16, 16)
w1, b1 = f32(16, 3, 3, 3, scale=0.3), f32(16)
gamma, beta, mean, var = f32(16), f32(16), f32(16), np.abs(f32(16)) + 0.5
wd = f32(16, 1, 3, 3, scale=0.3)
w2 = f32(16, 16, 1, 1, scale=0.25)
wt = f32(10, 32, scale=0.2)
inputs = [("x", x), ("w1", w1), ("b1", b1), ("gamma", gamma), ("beta", beta),
          ("mean", mean), ("var", var), ("wd", wd), ("w2", w2), ("wt", wt)]
body = """
%0 = nn.conv2d(%x, %w1, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3]);
%1 = nn.bias_add(%0, %b1);
%2 = nn.relu(%1);
%3 = nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2]);
%4 = nn.batch_norm(%3, %gamma, %beta, %mean, %var, epsilon=1e-5f);
%5 = %4.0;
%6 = nn.conv2d(%5, %wd, padding=[1, 1, 1, 1], groups=16, channels=16, kernel_size=[3, 3]);
%7 = clip(%6, a_min=0f, a_max=6f);
%8 = nn.conv2d(%7, %w2, strides=[2, 2], channels=16, kernel_size=[1, 1]);
%9 = nn.max_pool2d(%5, pool_size=[2, 2], strides=[2, 2]);
%10 = add(%8, %9);
%11 = (%10, %9);
%12 = concatenate(%11, axis=1);
%13 = nn.global_avg_pool2d(%12);
%14 = nn.batch_flatten(%13);
%15 = nn.dense(%14, %wt);
(%15, %10)
"""


def reference(x, w1, b1, gamma, beta, mean, var, wd, w2, wt):
    y = np.maximum(conv(x, w1, 1) + b1[None, :, None, None], 0)
    y = max_pool(y)
    y = ((y - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-5)
         * gamma[None, :, None, None] + beta[None, :, None, None])
    d = np.clip(conv(y, wd, 1, groups=16), 0, 6)
    s = conv(d, w2, 0, stride=2) + max_pool(y)
    cat = np.concatenate([s, max_pool(y)], axis=1)
    return cat.mean(axis=(2, 3)) @ wt.T, s


text = relay(inputs, body)
values = [v for _, v in inputs]
expected = reference(*[v.astype(np.float64) for v in values])
mod = mlc.relay.fromtext(text)
for name, options in [("NHWC", []), ("NCHW", ["--pipeline-options=conv-layout="])]:
    library = mlc.executor.compile_module(mod, ["main"], args=options)
    outs = library["main"](*values)
    for out, ref in zip(outs, expected):
        np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max())
    with tempfile.NamedTemporaryFile("w", suffix=".mlir") as f:
        f.write(mod.text)
        f.flush()
        pipeline = "--mlc-graph-to-kernels"
        if options:
            pipeline += "=conv-layout="
        kernels = subprocess.run([find_tool("mlc-opt"), f.name, pipeline],
                                 check=True, capture_output=True, text=True).stdout
    # LegalizeNN names a convolution's block after its layout.
    count = {layout: len(re.findall(r'"(?:depthwise_)?conv2d_%s"' % layout, kernels))
             for layout in ("nhwc", "nchw")}
    print("%s: convolutions nhwc %d nchw %d, ok" % (name, count["nhwc"], count["nchw"]))
