# relax-lift-transform-params end to end (pipeline option num-input=1): a
# conv2d + batch_norm + relu + dense model from TVM Relay text, its weights
# parameters. The library exports main_transform_params (the filter's
# NHWC/HWIO permutation, the norm's scale and shift, the dense weight's
# transpose) and a main that takes the input and the transform's results.
# The transform runs once; main runs on two random inputs with those
# results and is compared with a numpy float64 reference of the original
# model. Then the same under the GPU pipeline's graph and schedules on the
# host (emulate-gpu-schedule, sm_90a, float16 compute).
# Tolerances: f32, rtol 1e-5 and atol 1e-5 * sqrt(K) for the longest
# reduction (K = 512); float16, 8 unit roundoffs (2^-11) of the output's
# largest magnitude.
# RUN: %python %s | FileCheck %s
# CHECK: transform_params: 5 results
# CHECK: main after the transform, seed 0: ok
# CHECK: main after the transform, seed 1: ok
# CHECK: emulated sm_90a float16: ok
# CHECK: python LiftTransformParams: ok

import numpy as np
import mlc
from mlc.executor import compile_module

MODEL = """#[version = "0.0.5"]
def @main(%data: Tensor[(1, 3, 16, 16), float32], %conv_weight: Tensor[(8, 3, 3, 3), float32], %gamma: Tensor[(8), float32], %beta: Tensor[(8), float32], %mean: Tensor[(8), float32], %var: Tensor[(8), float32], %dense_weight: Tensor[(10, 2048), float32], %dense_bias: Tensor[(10), float32]) -> Tensor[(1, 10), float32] {
  %0 = nn.conv2d(%data, %conv_weight, padding=[1, 1, 1, 1], channels=8, kernel_size=[3, 3]);
  %1 = nn.batch_norm(%0, %gamma, %beta, %mean, %var, epsilon=1e-3f);
  %2 = nn.relu(%1.0);
  %3 = nn.batch_flatten(%2);
  %4 = nn.dense(%3, %dense_weight, units=10);
  nn.bias_add(%4, %dense_bias)
}
"""
NAMES = ["conv_weight", "gamma", "beta", "mean", "var", "dense_weight", "dense_bias"]


def conv2d_nchw_pad1(x, w):
    n, c, h, wd = x.shape
    o = w.shape[0]
    xp = np.zeros((n, c, h + 2, wd + 2))
    xp[:, :, 1:-1, 1:-1] = x
    out = np.zeros((n, o, h, wd))
    for ky in range(3):
        for kx in range(3):
            out += np.einsum("nchw,oc->nohw", xp[:, :, ky:ky + h, kx:kx + wd], w[:, :, ky, kx])
    return out


def reference(data, p):
    p = {k: v.astype(np.float64) for k, v in p.items()}
    x = conv2d_nchw_pad1(data.astype(np.float64), p["conv_weight"])
    scale = p["gamma"] / np.sqrt(p["var"] + 1e-3)
    x = (x - p["mean"][None, :, None, None]) * scale[None, :, None, None] + p["beta"][None, :, None, None]
    x = np.maximum(x, 0).reshape(1, -1)
    return x @ p["dense_weight"].T + p["dense_bias"]


rng = np.random.default_rng(7)
params = {
    "conv_weight": rng.standard_normal((8, 3, 3, 3)) / np.sqrt(27),
    "gamma": 1 + 0.1 * rng.standard_normal(8),
    "beta": 0.1 * rng.standard_normal(8),
    "mean": 0.1 * rng.standard_normal(8),
    "var": rng.uniform(0.5, 2.0, 8),
    "dense_weight": rng.standard_normal((10, 2048)) / np.sqrt(2048),
    "dense_bias": 0.1 * rng.standard_normal(10),
}
params = {k: v.astype(np.float32) for k, v in params.items()}
weights = [params[n] for n in NAMES]
mod = mlc.relay.fromtext(MODEL)

lib = compile_module(mod, args=["--pipeline-options=num-input=1"])
transformed = lib["main_transform_params"](*weights)
assert isinstance(transformed, tuple), type(transformed)
print("transform_params: %d results" % len(transformed))
for seed in (0, 1):
    data = np.random.default_rng(seed).standard_normal((1, 3, 16, 16)).astype(np.float32)
    out = lib["main"](data, *transformed)
    np.testing.assert_allclose(out, reference(data, params), rtol=1e-5, atol=1e-5 * np.sqrt(512))
    print("main after the transform, seed %d: ok" % seed)

lib = compile_module(mod, args=["--pipeline-options=num-input=1 emulate-gpu-schedule=true "
                                "emulate-gpu-chip=sm_90a mixed-precision=float16"])
transformed = lib["main_transform_params"](*weights)
data = np.random.default_rng(2).standard_normal((1, 3, 16, 16)).astype(np.float32)
out = lib["main"](data, *transformed)
want = reference(data, params)
np.testing.assert_allclose(out, want, rtol=0, atol=8 * 2.0 ** -11 * np.abs(want).max())
print("emulated sm_90a float16: ok")

# The pass from Python (tvm.relax.transform.LiftTransformParams), on relax
# text: the lifted module compiles with the CPU pipeline and gives the same.
RELAX = """
func.func @main(%x: tensor<2x8xf32> {relax.name = "x"}, %w: tensor<4x8xf32> {relax.name = "w"}) -> tensor<2x4xf32> {
  %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %y = relax.matmul %x, %wt : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
"""
lifted = mlc.relax.transform.LiftTransformParams(num_input=1)(mlc.Module(RELAX))
assert "@main_transform_params" in lifted.text, lifted.text
lib = compile_module(lifted)
x = np.random.default_rng(3).standard_normal((2, 8)).astype(np.float32)
w = np.random.default_rng(4).standard_normal((4, 8)).astype(np.float32)
wt = lib["main_transform_params"](w)  # one result: an array
np.testing.assert_allclose(wt, w.T, rtol=0, atol=0)
np.testing.assert_allclose(lib["main"](x, wt), x.astype(np.float64) @ w.T.astype(np.float64),
                           rtol=1e-5, atol=1e-5 * np.sqrt(8))
print("python LiftTransformParams: ok")
