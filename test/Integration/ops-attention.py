# relax.nn.attention against a float64 numpy reference written from its
# definition (softmax(Q Kᵀ scale + bias, masked) V per batch and head, in
# the (batch, sequence, heads, dim) layout), on random inputs:
# - on the CPU (relax-legalize-ops' stages), float32 and float16;
# - under emulate-gpu-schedule, where float16 attention takes the
#   GPU default schedule's fused flash-attention kernel (its stages run one
#   after another on the host; "[fused]" checks that the rule applied).
# Tolerances: float32 rtol/atol 1e-5; 16-bit results within 8 unit
# roundoffs (2^-11) of max(1, |reference|). (bfloat16 takes the same
# kernel: default-schedule-attention.mlir; mlc-run reads no bfloat16 .npy.)
# RUN: %python %s | FileCheck %s
# CHECK: f32 2x16x3x8 kv 24 bias TopLeft: ok
# CHECK: f32 1x12x2x16 kv 20 BottomRight scale 0.3: ok
# CHECK: f32 2x7x1x5 kv 7 bias (2, 1, 7, 7): ok
# CHECK: f16 1x16x2x16 kv 16: ok
# CHECK: gpu f16 2x128x2x64 kv 96 bias TopLeft [fused]: ok
# CHECK: gpu f16 1x64x3x64 kv 64 [fused]: ok
# CHECK: gpu f16 1x64x2x128 kv 96 bias BottomRight [fused]: ok
# CHECK: gpu f16 1x197x2x64 kv 197 [fused]: ok
# CHECK: gpu f16 2x45x2x40 kv 77 bias (2, 2, 45, 77) [fused]: ok
# CHECK: gpu f16 1x50x2x80 kv 50 TopLeft [fused]: ok
# CHECK: gpu f16 1x33x2x64 kv 100 BottomRight [fused]: ok
# CHECK: gpu f16 1x40x3x24 kv 56 hv 8 [fused]: ok
# CHECK: gpu f16 1x16x2x16 kv 16 [fused]: ok
# CHECK: gpu f16 1x16x2x12 kv 16 [unfused]: ok

import os
import sys
import tempfile

import numpy as np

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
from mlc import tools  # noqa: E402

rng = np.random.default_rng(23)
MLIR = {"float32": "f32", "float16": "f16"}
UNIT_ROUNDOFF = {"float16": 2.0 ** -11}


def tensor(shape, dtype):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [MLIR[dtype]])


def reference(q, k, v, bias=None, scale=None, causal=None):
    q, k, v = (np.asarray(x, np.float64).transpose(0, 2, 1, 3) for x in (q, k, v))
    if scale is None:
        scale = 1 / np.sqrt(q.shape[-1])
    s = q @ k.transpose(0, 1, 3, 2) * scale
    if bias is not None:
        s = s + np.asarray(bias, np.float64)
    if causal:
        rows, keys = s.shape[-2:]
        offset = 0 if causal == "TopLeft" else keys - rows
        visible = np.arange(keys)[None, :] <= np.arange(rows)[:, None] + offset
        s = np.where(visible, s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    return (p @ v).transpose(0, 2, 1, 3)


def run(dtype, inputs, attrs, gpu):
    """Runs attention on `inputs` (float32 arrays, stored as `dtype`)."""
    out_shape = inputs["q"].shape[:3] + inputs["v"].shape[3:]
    params = ", ".join('%%%s: %s {relax.name = "%s"}' % (n, tensor(x.shape, dtype), n)
                       for n, x in inputs.items())
    types = ", ".join(tensor(x.shape, dtype) for x in inputs.values())
    result = tensor(out_shape, dtype)
    text = """func.func @main(%s) -> %s {
  %%r = relax.nn.attention %s %s : (%s) -> %s
  return %%r : %s
}
""" % (params, result, ", ".join("%" + n for n in inputs), attrs, types, result,
       result)
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "model.mlir")
        with open(model, "w") as f:
            f.write(text)
        arrays = {n: x.astype(dtype) for n, x in inputs.items()}
        np.savez(os.path.join(tmp, "in.npz"), **arrays)
        options = []
        scheduled = ""
        if gpu:
            options = ["--pipeline-options=emulate-gpu-schedule=true"]
            scheduled = tools.run("mlc-opt", [
                model, "--relax-legalize-ops", "--tensorir-annotate-op-pattern",
                "--relax-fuse-ops", "--relax-fuse-tir",
                "--tensorir-default-schedule=target=cuda"])
        tools.run("mlc-run", [model, "--quiet", "--inputs=" + os.path.join(tmp, "in.npz"),
                              "--outputs=" + os.path.join(tmp, "out.npz")] + options)
        with np.load(os.path.join(tmp, "out.npz")) as data:
            out = data["out0"]
    return out.astype(np.float64), "O_update" in scheduled


def rounded(x, dtype):
    """x as the kernel sees it (stored in dtype)."""
    return x.astype(dtype).astype(np.float32)


def check(label, dtype, shapes, bias_shape=None, scale=None, causal=None,
          gpu=False):
    (b, s, n, h), kv, hv = shapes
    inputs = {"q": rng.standard_normal((b, s, n, h)),
              "k": rng.standard_normal((b, kv, n, h)),
              "v": rng.standard_normal((b, kv, n, hv))}
    if bias_shape:
        inputs["m"] = rng.standard_normal(bias_shape)
    inputs = {k: rounded(x.astype(np.float32), dtype) for k, x in inputs.items()}
    attrs = []
    if scale is not None:
        attrs.append("scale = %r : f64" % scale)
    if causal:
        attrs.append('causal_mask = "%s"' % causal)
    got, fused = run(dtype, inputs, "{%s}" % ", ".join(attrs) if attrs else "", gpu)
    want = reference(inputs["q"], inputs["k"], inputs["v"], inputs.get("m"),
                     scale, causal)
    if gpu:
        label += " [%s]" % ("fused" if fused else "unfused")
    if dtype == "float32":
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=label)
    else:
        tolerance = 8 * UNIT_ROUNDOFF[dtype] * np.maximum(1, np.abs(want))
        error = np.abs(got - want)
        assert np.all(error <= tolerance), (label, float(error.max()))
    print("%s: ok" % label)


check("f32 2x16x3x8 kv 24 bias TopLeft", "float32", ((2, 16, 3, 8), 24, 8),
      bias_shape=(2, 1, 1, 24), causal="TopLeft")
check("f32 1x12x2x16 kv 20 BottomRight scale 0.3", "float32",
      ((1, 12, 2, 16), 20, 4), scale=0.3, causal="BottomRight")
check("f32 2x7x1x5 kv 7 bias (2, 1, 7, 7)", "float32", ((2, 7, 1, 5), 7, 5),
      bias_shape=(2, 1, 7, 7))
check("f16 1x16x2x16 kv 16", "float16", ((1, 16, 2, 16), 16, 16))
check("gpu f16 2x128x2x64 kv 96 bias TopLeft", "float16", ((2, 128, 2, 64), 96, 64),
      bias_shape=(2, 1, 1, 96), causal="TopLeft", gpu=True)
check("gpu f16 1x64x3x64 kv 64", "float16", ((1, 64, 3, 64), 64, 64), gpu=True)
check("gpu f16 1x64x2x128 kv 96 bias BottomRight", "float16",
      ((1, 64, 2, 128), 96, 128), bias_shape=(1, 2, 64, 96), causal="BottomRight",
      gpu=True)
# Lengths and head dimensions that are no multiples of the kernel's tiles:
# the tiles are padded (Q, K and V zero-filled, keys past S_kv masked, the
# output's store predicated). A ViT's 197 tokens; H = 40 (Stable
# Diffusion's heads) against 77 keys (its cross-attention) with a full
# bias; H = 80 under a causal mask; fewer queries than keys, bottom-right
# causal; H_v = 8 next to H = 24; a 16-token sequence.
check("gpu f16 1x197x2x64 kv 197", "float16", ((1, 197, 2, 64), 197, 64), gpu=True)
check("gpu f16 2x45x2x40 kv 77 bias (2, 2, 45, 77)", "float16",
      ((2, 45, 2, 40), 77, 40), bias_shape=(2, 2, 45, 77), gpu=True)
check("gpu f16 1x50x2x80 kv 50 TopLeft", "float16", ((1, 50, 2, 80), 50, 80),
      causal="TopLeft", gpu=True)
check("gpu f16 1x33x2x64 kv 100 BottomRight", "float16", ((1, 33, 2, 64), 100, 64),
      causal="BottomRight", gpu=True)
check("gpu f16 1x40x3x24 kv 56 hv 8", "float16", ((1, 40, 3, 24), 56, 8), gpu=True)
check("gpu f16 1x16x2x16 kv 16", "float16", ((1, 16, 2, 16), 16, 16), gpu=True)
# Rows of Q and K that are no whole 16-byte pieces (H = 12): the stages are
# scheduled one by one.
check("gpu f16 1x16x2x12 kv 16", "float16", ((1, 16, 2, 12), 16, 12), gpu=True)
