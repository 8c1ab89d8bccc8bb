# A small CNN written as TVM Relay text -- conv2d (3->8, 3x3, pad 1),
# bias_add, relu, 2x2 max_pool2d, batch_flatten, dense (512->10), bias_add,
# softmax on a 1x3x16x16 input -- compiled with --mlc-cpu-pipeline (every op
# legalized to tensorir kernels), with random weights bound by name as
# parameters (mlc.create_executor(params=...), i.e. mlc-run --params), and
# compared with a numpy float64 reference written here (convolution and
# pooling by explicit loops over the kernel window). Then the same after
# relay-fuse-ops: the entry only calls the outlined Primitive functions and
# the CPU pipeline compiles that form too.
# Tolerances: f32 result, rtol 1e-5, atol 1e-5 * sqrt(K) for the longest
# reduction K = 512 (the dense layer; softmax outputs are in [0, 1]).
# RUN: %python %s | FileCheck %s
# CHECK: cnn 1x3x16x16 seed 0: ok
# CHECK: cnn 1x3x16x16 seed 1: ok
# CHECK: cnn after relay-fuse-ops: 5 primitive functions: ok

import numpy as np
import mlc
from mlc import tools

CNN = """#[version = "0.0.5"]
def @main(%data: Tensor[(1, 3, 16, 16), float32], %conv_weight: Tensor[(8, 3, 3, 3), float32], %conv_bias: Tensor[(8), float32], %dense_weight: Tensor[(10, 512), float32], %dense_bias: Tensor[(10), float32]) -> Tensor[(1, 10), float32] {
  %0 = nn.conv2d(%data, %conv_weight, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3]) /* ty=Tensor[(1, 8, 16, 16), float32] */;
  %1 = nn.bias_add(%0, %conv_bias) /* ty=Tensor[(1, 8, 16, 16), float32] */;
  %2 = nn.relu(%1) /* ty=Tensor[(1, 8, 16, 16), float32] */;
  %3 = nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0]) /* ty=Tensor[(1, 8, 8, 8), float32] */;
  %4 = nn.batch_flatten(%3) /* ty=Tensor[(1, 512), float32] */;
  %5 = nn.dense(%4, %dense_weight, units=10) /* ty=Tensor[(1, 10), float32] */;
  %6 = nn.bias_add(%5, %dense_bias) /* ty=Tensor[(1, 10), float32] */;
  nn.softmax(%6, axis=1) /* ty=Tensor[(1, 10), float32] */
}
"""


def conv2d_nchw_pad1(x, w):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    xp = np.zeros((n, c, h + 2, wd + 2))
    xp[:, :, 1:-1, 1:-1] = x
    out = np.zeros((n, o, h, wd))
    for ky in range(kh):
        for kx in range(kw):
            for f in range(o):
                out[:, f] += np.tensordot(xp[:, :, ky:ky + h, kx:kx + wd], w[f, :, ky, kx],
                                          axes=([1], [0]))
    return out


def max_pool_2x2(x):
    n, c, h, w = x.shape
    out = np.full((n, c, h // 2, w // 2), -np.inf)
    for dy in range(2):
        for dx in range(2):
            out = np.maximum(out, x[:, :, dy::2, dx::2])
    return out


def reference(data, p):
    x = conv2d_nchw_pad1(data.astype(np.float64), p["conv_weight"].astype(np.float64))
    x = np.maximum(x + p["conv_bias"].astype(np.float64)[None, :, None, None], 0)
    x = max_pool_2x2(x).reshape(1, -1)
    logits = x @ p["dense_weight"].astype(np.float64).T + p["dense_bias"]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


mod = mlc.relay.fromtext(CNN)
for seed in (0, 1):
    rng = np.random.default_rng(seed)
    params = {
        "conv_weight": (rng.standard_normal((8, 3, 3, 3)) / np.sqrt(27)).astype(np.float32),
        "conv_bias": (rng.standard_normal(8) * 0.1).astype(np.float32),
        "dense_weight": (rng.standard_normal((10, 512)) / np.sqrt(512)).astype(np.float32),
        "dense_bias": (rng.standard_normal(10) * 0.1).astype(np.float32),
    }
    data = rng.standard_normal((1, 3, 16, 16)).astype(np.float32)
    out = mlc.create_executor(mod=mod, params=params).evaluate()(data)
    assert out.shape == (1, 10) and out.dtype == np.float32, (out.shape, out.dtype)
    np.testing.assert_allclose(out, reference(data, params), rtol=1e-5,
                               atol=1e-5 * np.sqrt(512))
    print("cnn 1x3x16x16 seed %d: ok" % seed)

fused = mlc.Module(tools.run("mlc-opt", ["--relay-fuse-ops"], input_text=mod.text))
primitives = fused.text.count("Primitive")
assert primitives == 5, fused.text
out = mlc.create_executor(mod=fused, params=params).evaluate()(data)
np.testing.assert_allclose(out, reference(data, params), rtol=1e-5,
                           atol=1e-5 * np.sqrt(512))
print("cnn after relay-fuse-ops: %d primitive functions: ok" % primitives)
