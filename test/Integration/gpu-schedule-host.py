# The default GPU schedule (mlc-gpu-default-schedule) checked for numerics
# on a machine without a GPU: relay models are compiled with the CPU
# pipeline's emulate-gpu-schedule=true, which schedules every kernel as for
# CUDA (shared-memory and register tiles, cross-thread reductions, fused
# epilogues) and runs the thread-bound loops one after another on the host.
# Each case also checks which rule scheduled it (shared-memory tiles for
# Matmul, a threadIdx-bound reduce loop for Reduction), so a rule that stops
# applying fails here instead of silently falling back.
# Reference: numpy in float64 on random inputs; f32 tolerances rtol 1e-5,
# atol 1e-5 * sqrt(reduction length).
# RUN: %python %s | FileCheck %s
# CHECK: dense+bias+relu 256x384x512 [matmul]: ok
# CHECK: dense+bias+relu 100x70x130 [matmul]: ok
# CHECK: dense+bias+relu 64x64x96 [matmul]: ok
# CHECK: matmul padded 260x300x270 [matmul]: ok
# CHECK: batch_matmul_nt 2x64x48x80 [matmul]: ok
# CHECK: batch_matmul_nn 3x33x40x50 [matmul]: ok
# CHECK: matmul 128x72x256 [matmul]: ok
# CHECK: dense f16+bias+relu 256x384x512 [tensorcore]: ok
# CHECK: dense f16 1024x64x1024 [tensorcore]: ok
# CHECK: matmul f16 128x80x192 [tensorcore]: ok
# CHECK: batch_matmul_nt f16 2x64x48x128 [tensorcore]: ok
# CHECK: batch_matmul_nn f16 3x64x32x64 [tensorcore]: ok
# CHECK: dense f16+bias+relu 200x256x1000 [tensorcore]: ok
# CHECK: matmul f16 100x64x72 [tensorcore]: ok
# CHECK: batch_matmul_nt f16 3x33x32x40 [tensorcore]: ok
# CHECK: dense f16+bias 128x100x192 [tensorcore]: ok
# CHECK: matmul f16 96x1000x64 [tensorcore]: ok
# CHECK: batch_matmul_nn f16 2x64x40x64 [tensorcore]: ok
# CHECK: matmul bf16 128x80x192 [tensorcore]: ok
# CHECK: dense bf16+bias 256x96x128 [tensorcore]: ok
# CHECK: dense f16+bias+relu 128x3072x768 [splitk]: ok
# CHECK: dense f16+bias+relu 128x3072x768 sm_90a [wgmma]: ok
# CHECK: batch_matmul_nn f16 2x64x1024x128 [splitk]: ok
# CHECK: dense f16+bias+relu 200x256x1000 [wgmma]: ok
# CHECK: dense f16+bias+relu 200x256x1000 bound [wgmma]: ok
# CHECK: matmul f16 3x100x72x136 [wgmma]: ok
# CHECK: matmul bf16 128x80x192 [wgmma]: ok
# CHECK: matmul tf32 128x80x192 [tensorcore]: ok
# CHECK: dense tf32+bias+relu 256x72x128 [tensorcore]: ok
# CHECK: matmul tf32 90x48x136 [tensorcore]: ok
# CHECK: matmul tf32 64x60x64 [tensorcore]: ok
# CHECK: dense tf32 128x20x64 [tensorcore]: ok
# CHECK: gemv 1x784x128 [reduction]: ok
# CHECK: sum 37x300 axis 1 [reduction]: ok
# CHECK: max 64x1000 axis -1 [reduction]: ok
# CHECK: mean 8x4096 axis -1 [reduction]: ok
# CHECK: sum int32 20x500 axis 1 [reduction]: ok
# CHECK: relu+add 64x1024 [vector]: ok
# CHECK: bias add 96x768 [vector]: ok
# CHECK: f16 to f32 4x32x1024 [vector]: ok
# CHECK: tanh 48x1000 [fallback]: ok
# CHECK: transpose f16 256x512 [transpose]: ok
# CHECK: transpose+cast f32 128x64 [transpose]: ok
# CHECK: batch transpose 3x64x96 [transpose]: ok
# CHECK: permute 2x32x4x128 (0, 2, 1, 3) [vector]: ok
# CHECK: transpose 100x72 [fallback]: ok
# CHECK: softmax 9x100: ok
# CHECK: softmax 16x1024: ok
# CHECK: layer_norm 8x768: ok
# CHECK: layer_norm 3000x64: ok
# CHECK: layer_norm+cast 64x96 -> dense 96: ok
# CHECK: conv2d+relu 1x8x14x14 f16 k3: ok
# CHECK: depthwise 1x16x15x15 k3 s2: ok
# CHECK: conv2d f16+bias+relu 2x64x14x14 o128 k3 [tensorcore]: ok
# CHECK: conv2d f16+bias+relu 2x64x14x14 o128 k3 conv-layout= [tensorcore]: ok
# CHECK: conv2d f16 1x32x15x15 o64 k3 s2 [tensorcore]: ok
# CHECK: conv2d f16 1x64x8x8 o64 k1 [tensorcore]: ok
# CHECK: conv2d f16 1x3x16x16 o32 k3 [tensorcore]: ok
# CHECK: conv2d f16 NHWC 1x10x10x32 o64 k3 [tensorcore]: ok
# CHECK: conv2d f16+bias+relu 2x64x14x14 o128 k1 sm_90a [wgmma]: ok
# CHECK: conv2d f16 1x128x12x12 o64 k1 sm_90a [wgmma]: ok
# CHECK: conv2d f16+bias+relu 2x64x14x14 o128 k3 sm_90a [wgmma]: ok
# CHECK: conv2d f16 1x32x15x15 o64 k3 s2 sm_90a [wgmma]: ok
# CHECK: conv2d f16 1x8x12x12 o64 k3 sm_90a [wgmma]: ok
# CHECK: conv2d f16 NHWC 1x10x10x32 o64 k3 sm_90a [wgmma]: ok
# CHECK: conv2d f16 2x64x14x14 o128 k1 s2 sm_90a [wgmma]: ok
# CHECK: conv2d f16+bias+relu 1x64x14x14 o128 k3 sm_90a [wgmma]: ok
# CHECK: residual cast f16 128x64x96 [tensorcore]: ok
# CHECK: residual cast f16 128x64x96 sm_90a [wgmma]: ok
# CHECK: max_pool 1x4x13x13 k3 s2: ok
# CHECK: transformer fragment: ok

import os
import sys
import tempfile

import numpy as np

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(0, os.path.join(ROOT, "examples"))
from mlc import tools  # noqa: E402
# float64 references shared with the example models
from models import conv2d_nchw as conv2d, layer_norm, softmax  # noqa: E402

rng = np.random.default_rng(14)
EMULATE = "--pipeline-options=emulate-gpu-schedule=true"


def relay_type(a):
    dtype = {np.float32: "float32", np.float16: "float16",
             np.int32: "int32"}[a.dtype.type]
    return "Tensor[(%s), %s]" % (", ".join(map(str, a.shape)), dtype)


def compile_and_run(name, body, inputs, tmp, options="", chip=None,
                    layout="NHWC", params=None):
    """body: relay expressions of @main over the named inputs and params;
    options: more pipeline options (both the CPU pipeline's and
    tensorir-default-schedule's); chip: the GPU chip whose schedules run
    (default: the GPU pipeline's, sm_90); layout: the pipeline's
    conv-layout (empty: the model's); params: arguments bound as constants
    at compile time (mlc-run --params), as a deployed model's weights."""
    params = params or {}
    arguments = ", ".join("%%%s: %s" % (k, relay_type(v))
                          for k, v in {**inputs, **params}.items())
    text = '#[version = "0.0.5"]\ndef @main(%s) {\n%s\n}\n' % (arguments,
                                                               body)
    relay = os.path.join(tmp, name + ".relay")
    with open(relay, "w") as f:
        f.write(text)
    model = os.path.join(tmp, name + ".mlir")
    tools.run("mlc-translate", ["--import-relay", relay, "-o", model])
    params_path = os.path.join(tmp, name + "-params.npz")
    bind = []
    if params:
        np.savez(params_path, **params)
        bind = ["--relay-bind-params=params=" + params_path]
    # The graph as the pipeline makes it: convolutions in its conv-layout,
    # what depends only on bound params folded.
    convert = ["--relax-convert-layout"] if layout == "NHWC" else []
    # sm_90a: 1x1 convolutions as GEMMs, for the Hopper rule.
    if chip == "sm_90a":
        convert.append("--relax-convert-1x1-conv2d-to-matmul")
    scheduled = tools.run("mlc-opt", [
        model, *bind, "--relay-to-relax", *convert, "--relax-legalize-ops",
        "--relax-fold-constant", "--tensorir-annotate-op-pattern",
        "--relax-fuse-ops", "--relax-fuse-tir",
        "--tensorir-default-schedule=target=cuda%s %s"
        % (":" + chip if chip else "", options)])
    inputs_path = os.path.join(tmp, name + "-in.npz")
    outputs_path = os.path.join(tmp, name + "-out.npz")
    np.savez(inputs_path, **inputs)
    if chip:
        options += " emulate-gpu-chip=" + chip
    if layout != "NHWC":
        options += " conv-layout=" + layout
    tools.run("mlc-run", [model, "--quiet", EMULATE + " " + options,
                          "--inputs=" + inputs_path,
                          "--outputs=" + outputs_path] +
              (["--params=" + params_path] if params else []))
    with np.load(outputs_path) as data:
        return data["out0"], scheduled


RULES = ("wgmma", "splitk", "tensorcore", "matmul", "reduction", "transpose", "vector",
         "fallback")


def rule_of_function(text):
    if "wgmma" in text:
        return "wgmma"
    if "mma_sync" in text and "_rf" in text:
        return "splitk"
    if "mma_sync" in text:
        return "tensorcore"
    if '"shared"' in text and '"local"' in text:
        return "matmul"
    if "reduce(" in text and 'thread_binding("threadIdx.x")' in text:
        return "reduction"
    if ("vectorized" in text and '"local"' in text
            and 'thread_binding("threadIdx.y")' in text):
        return "transpose"
    if "vectorized" in text and '"local"' in text:
        return "vector"
    return "fallback"


def rule_of(scheduled):
    """The first rule of RULES that scheduled one of the module's functions
    (a transpose beside a GEMV keeps its results in local registers too)."""
    found = {rule_of_function(f) for f in scheduled.split("tensorir.prim_func")[1:]}
    return next((r for r in RULES if r in found), "fallback")


def check(name, body, inputs, expected, reduction=1, rule=None, options="",
          chip=None, layout="NHWC", params=None):
    with tempfile.TemporaryDirectory() as tmp:
        got, scheduled = compile_and_run("case", body, inputs, tmp, options,
                                         chip, layout, params)
    label = name
    if rule:
        found = rule_of(scheduled)
        label += " [%s]" % found
        if found != rule:
            print("%s: scheduled by %s, expected %s" % (name, found, rule))
    expected = np.asarray(expected)
    if got.shape != expected.shape:
        print("%s: shape %s, expected %s" % (label, got.shape, expected.shape))
        return
    atol = 1e-5 * np.sqrt(reduction)
    if np.allclose(got, expected, rtol=1e-5, atol=atol):
        print("%s: ok" % label)
    else:
        err = np.abs(got.astype(np.float64) - expected).max()
        print("%s: max error %.3g (atol %.3g)" % (label, err, atol))


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def f64(a):
    return a.astype(np.float64)


# Matmul rule: dense (B transposed), batch_matmul both ways, nn.matmul; tiles
# of 8x8 (M, N >= 128) and 4x4 per thread; sizes no tile divides; the bias
# and relu stay in the kernel's write-back.
for m, k, n in [(256, 384, 512), (100, 70, 130), (64, 64, 96)]:
    x, w, b = f32(m, k), f32(n, k), f32(n)
    check("dense+bias+relu %dx%dx%d" % (m, k, n),
          "nn.relu(add(nn.dense(%x, %w, units=None), %b))",
          {"x": x, "w": w, "b": b},
          np.maximum(f64(x) @ f64(w).T + b, 0), k, "matmul")
# A large GEMM that no tile divides: A and B padded by kernels of their own,
# the tile loops unmasked, C written back through predicated stores.
x, y = f32(260, 300), f32(300, 270)
check("matmul padded 260x300x270", "nn.matmul(%x, %y)", {"x": x, "y": y},
      f64(x) @ f64(y), 300, "matmul")
x, y = f32(2, 64, 48), f32(2, 80, 48)
check("batch_matmul_nt 2x64x48x80", "nn.batch_matmul(%x, %y, transpose_b=True)",
      {"x": x, "y": y}, f64(x) @ f64(y).transpose(0, 2, 1), 48, "matmul")
x, y = f32(3, 33, 40), f32(3, 40, 50)
check("batch_matmul_nn 3x33x40x50", "nn.batch_matmul(%x, %y, transpose_b=False)",
      {"x": x, "y": y}, f64(x) @ f64(y), 40, "matmul")
x, y = f32(128, 72), f32(72, 256)
check("matmul 128x72x256", "nn.matmul(%x, %y)", {"x": x, "y": y},
      f64(x) @ f64(y), 72, "matmul")


# Tensor-core Matmul rule (f16 inputs, f32 accumulator): its SIMT form, each
# thread computing the accumulator elements mma.sync would leave in its
# registers; 64 x 64 and 128 x 64 block tiles, K steps of 32 and 16, B
# stored N x K (dense) and K x N (matmul); the bias and relu in the
# write-back. The reference takes the same f16 values in float64.
def f16(*shape):
    return rng.standard_normal(shape).astype(np.float16)


def matmul_f16(m, k, n):
    x, y = f16(m, k), f16(k, n)
    check("matmul f16 %dx%dx%d" % (m, k, n),
          'nn.matmul(%x, %y, out_dtype="float32")', {"x": x, "y": y},
          f64(x) @ f64(y), k, "tensorcore")


def batch_matmul_f16(b, m, k, n, transpose_b):
    x = f16(b, m, k)
    y = f16(b, n, k) if transpose_b else f16(b, k, n)
    rhs = f64(y).transpose(0, 2, 1) if transpose_b else f64(y)
    check("batch_matmul_%s f16 %dx%dx%dx%d"
          % ("nt" if transpose_b else "nn", b, m, k, n),
          'nn.batch_matmul(%%x, %%y, out_dtype="float32", transpose_b=%s)'
          % transpose_b, {"x": x, "y": y}, f64(x) @ rhs, k, "tensorcore")


for m, k, n, epilogue in [(256, 384, 512, True), (1024, 64, 1024, False)]:
    x, w, b = f16(m, k), f16(n, k), f32(n)
    dense = 'nn.dense(%x, %w, units=None, out_dtype="float32")'
    expected = f64(x) @ f64(w).T
    if epilogue:
        check("dense f16+bias+relu %dx%dx%d" % (m, k, n),
              "nn.relu(add(%s, %%b))" % dense, {"x": x, "w": w, "b": b},
              np.maximum(expected + b, 0), k, "tensorcore")
    else:
        check("dense f16 %dx%dx%d" % (m, k, n), dense, {"x": x, "w": w},
              expected, k, "tensorcore")
matmul_f16(128, 80, 192)
batch_matmul_f16(2, 64, 48, 128, transpose_b=True)
batch_matmul_f16(3, 64, 32, 64, transpose_b=False)

# M and N that no tile divides: the domain padded to whole tiles
# (pad_einsum), zero-filled copies of A and B, the write-back (with the
# bias and relu) masked to the real outputs.
x, w, b = f16(200, 256), f16(1000, 256), f32(1000)
check("dense f16+bias+relu 200x256x1000",
      'nn.relu(add(nn.dense(%x, %w, units=None, out_dtype="float32"), %b))',
      {"x": x, "w": w, "b": b}, np.maximum(f64(x) @ f64(w).T + b, 0), 256,
      "tensorcore")
matmul_f16(100, 64, 72)
batch_matmul_f16(3, 33, 32, 40, transpose_b=True)

# K that no step divides: padded with zeros to whole mma slices (100 -> 112,
# 40 -> 48: one slice per step) or to whole steps when that adds at most an
# eighth (1000 -> 1024); A's rows, and B's rows or columns, are then masked
# along K in the shared-memory copies.
x, w, b = f16(128, 100), f16(192, 100), f32(192)
check("dense f16+bias 128x100x192",
      'add(nn.dense(%x, %w, units=None, out_dtype="float32"), %b)',
      {"x": x, "w": w, "b": b}, f64(x) @ f64(w).T + b, 100, "tensorcore")
matmul_f16(96, 1000, 64)
batch_matmul_f16(2, 64, 40, 64, transpose_b=False)

# bf16 (numpy has none): float32 inputs cast to bfloat16 by the model, a
# kernel of their own; the reference rounds them the same way (to nearest,
# ties to even) and multiplies in float64.
def bf16_values(a):
    bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


x, y = f32(128, 80), f32(80, 192)
check("matmul bf16 128x80x192",
      'nn.matmul(cast(%x, dtype="bfloat16"), cast(%y, dtype="bfloat16"), '
      'out_dtype="float32")',
      {"x": x, "y": y}, bf16_values(x) @ bf16_values(y), 80, "tensorcore")
x, w, b = f32(256, 96), f32(128, 96), f32(128)
check("dense bf16+bias 256x96x128",
      'add(nn.dense(cast(%x, dtype="bfloat16"), cast(%w, dtype="bfloat16"), units=None, '
      'out_dtype="float32"), %b)',
      {"x": x, "w": w, "b": b}, bf16_values(x) @ bf16_values(w).T + b, 96,
      "tensorcore")

# Split-K: few thread blocks (128 x 768 outputs: 24 of 64 x 64) and a long
# K (3072): K in 4 parts of 768 (96 thread blocks, a batched GEMM into an
# f32 buffer), then a kernel that sums the parts, with the bias and relu
# (sm_90a keeps the Hopper rule). A batched GEMM of 4 blocks and K = 1024:
# 4 parts of 256. (Outputs that need padded tiles keep one part:
# pad_einsum does not take the rfactor block.)
x, w, b = f16(128, 3072), f16(768, 3072), f32(768)
for chip, rule in ((None, "splitk"), ("sm_90a", "wgmma")):
    check("dense f16+bias+relu 128x3072x768%s" % (" sm_90a" if chip else ""),
          'nn.relu(add(nn.dense(%x, %w, units=None, out_dtype="float32"), %b))',
          {"x": x, "w": w, "b": b}, np.maximum(f64(x) @ f64(w).T + b, 0), 3072,
          rule, chip=chip)
x, y = f16(2, 64, 1024), f16(2, 1024, 128)
check("batch_matmul_nn f16 2x64x1024x128",
      'nn.batch_matmul(%x, %y, out_dtype="float32", transpose_b=False)',
      {"x": x, "y": y}, f64(x) @ f64(y), 1024, "splitk")

# The Hopper Matmul rule (sm_90a): its SIMT form, each of a warpgroup's 128
# threads accumulating one row of a 128 x 128 tile in shared memory over
# all of K, then the write-back with the bias and relu; M, N and K no tile
# divides (the rows and columns past the end masked), A batched with B
# shared, bf16.
x, w, b = f16(200, 256), f16(1000, 256), f32(1000)
check("dense f16+bias+relu 200x256x1000",
      'nn.relu(add(nn.dense(%x, %w, units=None, out_dtype="float32"), %b))',
      {"x": x, "w": w, "b": b}, np.maximum(f64(x) @ f64(w).T + b, 0), 256,
      "wgmma", chip="sm_90a")
# A bound weight (a constant B, N x K folded to K x N) takes the rule too:
# on the GPU its tensor map describes a device copy the runtime keeps.
check("dense f16+bias+relu 200x256x1000 bound",
      'nn.relu(add(nn.dense(%x, %w, units=None, out_dtype="float32"), %b))',
      {"x": x}, np.maximum(f64(x) @ f64(w).T + b, 0), 256, "wgmma",
      chip="sm_90a", params={"w": w, "b": b})
x, y = f16(3, 100, 72), f16(72, 136)
check("matmul f16 3x100x72x136",
      'nn.matmul(%x, %y, out_dtype="float32")', {"x": x, "y": y},
      f64(x) @ f64(y), 72, "wgmma", chip="sm_90a")
x, y = f32(128, 80), f32(80, 192)
check("matmul bf16 128x80x192",
      'nn.matmul(cast(%x, dtype="bfloat16"), cast(%y, dtype="bfloat16"), '
      'out_dtype="float32")',
      {"x": x, "y": y}, bf16_values(x) @ bf16_values(y), 80, "wgmma",
      chip="sm_90a")

# tf32 (allow-tf32): float32 GEMMs with m16n8k8 tiles, K in steps of 16
# (80) or 8 (72). The host computes them in float32, so the f32 tolerances
# hold: this checks the schedule, not tf32's rounding.
TF32 = "allow-tf32=true"
x, y = f32(128, 80), f32(80, 192)
check("matmul tf32 128x80x192", "nn.matmul(%x, %y)", {"x": x, "y": y},
      f64(x) @ f64(y), 80, "tensorcore", TF32)
x, w, b = f32(256, 72), f32(128, 72), f32(128)
check("dense tf32+bias+relu 256x72x128",
      "nn.relu(add(nn.dense(%x, %w, units=None), %b))",
      {"x": x, "w": w, "b": b}, np.maximum(f64(x) @ f64(w).T + b, 0), 72,
      "tensorcore", TF32)
x, y = f32(90, 48), f32(48, 136)
check("matmul tf32 90x48x136", "nn.matmul(%x, %y)", {"x": x, "y": y},
      f64(x) @ f64(y), 48, "tensorcore", TF32)
x, y = f32(64, 60), f32(60, 64)
check("matmul tf32 64x60x64", "nn.matmul(%x, %y)", {"x": x, "y": y},
      f64(x) @ f64(y), 60, "tensorcore", TF32)
x, w = f32(128, 20), f32(64, 20)
check("dense tf32 128x20x64", "nn.dense(%x, %w, units=None)",
      {"x": x, "w": w}, f64(x) @ f64(w).T, 20, "tensorcore", TF32)

# Reduction rule: one block per output, the reduction split across threads.
x, w, b = f32(1, 784), f32(128, 784), f32(128)
check("gemv 1x784x128", "add(nn.dense(%x, %w, units=None), %b)",
      {"x": x, "w": w, "b": b}, f64(x) @ f64(w).T + b, 784, "reduction")
x = f32(37, 300)
check("sum 37x300 axis 1", "sum(%x, axis=[1])", {"x": x}, f64(x).sum(1), 300,
      "reduction")
x = f32(64, 1000)
check("max 64x1000 axis -1", "max(%x, axis=[-1])", {"x": x}, x.max(-1), 1,
      "reduction")
x = f32(8, 4096)
check("mean 8x4096 axis -1", "mean(%x, axis=[-1])", {"x": x}, f64(x).mean(-1),
      4096, "reduction")
xi = rng.integers(-1000, 1000, (20, 500)).astype(np.int32)
check("sum int32 20x500 axis 1", "sum(%x, axis=[1])", {"x": xi}, xi.sum(1), 1,
      "reduction")


# Fallback with vector lanes: 16 bytes of the widest type per thread, the
# results stored after the thread's loads; a broadcast operand; a row that
# no multiple of 32 threads divides in lanes (250 x 4) keeps the plain rule.
x, y = f32(64, 1024), f32(64, 1024)
check("relu+add 64x1024", "add(nn.relu(%x), %y)", {"x": x, "y": y},
      np.maximum(f64(x), 0) + y, 1, "vector")
x, b = f32(96, 768), f32(768)
check("bias add 96x768", "add(%x, %b)", {"x": x, "b": b}, f64(x) + b, 1,
      "vector")
x = f32(4, 32, 1024).astype(np.float16)
check("f16 to f32 4x32x1024", 'cast(%x, dtype="float32")', {"x": x},
      f64(x), 1, "vector")
x = f32(48, 1000)
check("tanh 48x1000", "tanh(%x)", {"x": x}, np.tanh(f64(x)), 1, "fallback")

# Transpose: lanes x lanes elements per thread through registers (vector
# loads along the input's rows, vector stores along the output's); a fused
# cast; a batch transpose; a permutation that keeps the innermost dimension
# (the vector Fallback's), and extents that no tile divides (the Fallback's).
x = f32(256, 512).astype(np.float16)
check("transpose f16 256x512", "transpose(%x, axes=[1, 0])", {"x": x}, f64(x).T,
      1, "transpose")
x = f32(128, 64)
check("transpose+cast f32 128x64", 'cast(transpose(%x, axes=[1, 0]), dtype="float16")',
      {"x": x}, f64(x.T.astype(np.float16)), 1, "transpose")
x = f32(3, 64, 96)
check("batch transpose 3x64x96", "transpose(%x, axes=[0, 2, 1])", {"x": x},
      f64(x).transpose(0, 2, 1), 1, "transpose")
x = f32(2, 32, 4, 128)
check("permute 2x32x4x128 (0, 2, 1, 3)", "transpose(%x, axes=[0, 2, 1, 3])",
      {"x": x}, f64(x).transpose(0, 2, 1, 3), 1, "vector")
x = f32(100, 72)
check("transpose 100x72", "transpose(%x, axes=[1, 0])", {"x": x}, f64(x).T, 1,
      "fallback")

# Multi-stage kernels (softmax, layer norm): each stage scheduled.
for m, n in [(9, 100), (16, 1024)]:
    x = f32(m, n)
    check("softmax %dx%d" % (m, n), "nn.softmax(%x)", {"x": x}, softmax(f64(x)), n)
x, g, b = f32(8, 768), f32(768), f32(768)
check("layer_norm 8x768", "nn.layer_norm(%x, %g, %b)", {"x": x, "g": g, "b": b},
      layer_norm(f64(x), g, b), 768)
# Many rows: the per-row shared sums are compacted to one row each.
x, g, b = f32(3000, 64), f32(64), f32(64)
check("layer_norm 3000x64", "nn.layer_norm(%x, %g, %b)", {"x": x, "g": g, "b": b},
      layer_norm(f64(x), g, b), 64)
# A layer norm whose float32 result a residual add reads and whose float16
# cast feeds a GEMM (BERT's): the GeneralReduction rule's normalization
# stage stores both. The cast rounds (2^-11 relative), so the reference
# rounds the float64 layer norm to float16; a value at a rounding boundary
# may round the other way in float32: atol 2^-10 * sqrt(K) * max |w|.
x, g, b, w = f32(64, 96), f32(96), f32(96), f16(96, 96)
ln = layer_norm(f64(x), g, b)
with tempfile.TemporaryDirectory() as tmp:
    got, scheduled = compile_and_run(
        "case", '%0 = nn.layer_norm(%x, %g, %b);\n'
        'add(nn.dense(cast(%0, dtype="float16"), %w, units=None, out_dtype="float32"), %0)',
        {"x": x, "g": g, "b": b, "w": w}, tmp)
expected = f64(ln.astype(np.float16)) @ f64(w).T + ln
atol = 2.0 ** -10 * np.sqrt(96) * np.abs(f64(w)).max()
print("layer_norm+cast 64x96 -> dense 96: %s" % (
    "ok" if np.allclose(got, expected, rtol=0, atol=atol)
    else "max error %.3g (atol %.3g)" % (np.abs(got - expected).max(), atol)))


# Convolutions and pooling (Fallback: one output element per thread).
x, w, b = f32(1, 8, 14, 14), f32(16, 8, 3, 3), f32(16)
check("conv2d+relu 1x8x14x14 f16 k3",
      "nn.relu(nn.bias_add(nn.conv2d(%x, %w, padding=[1, 1, 1, 1]), %b))",
      {"x": x, "w": w, "b": b},
      np.maximum(conv2d(f64(x), f64(w), 1) + b[:, None, None], 0), 72)
x, w = f32(1, 16, 15, 15), f32(16, 1, 3, 3)
check("depthwise 1x16x15x15 k3 s2",
      "nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], groups=16)",
      {"x": x, "w": w}, conv2d(f64(x), f64(w), 1, 2, 16), 9)
# Convolutions on tensor cores (f16, f32 accumulator): implicit GEMMs, the
# im2col matrix never stored (its copies, and the padding, inlined into the
# shared-memory copy of each K step), the output copied back from the GEMM's
# rows (n, y, x) and columns (o) with the bias and relu in the write-back.
# The pipeline runs NCHW models in NHWC (conv-layout); "NCHW" cases keep
# the model's layout (conv-layout=), whose im2col rows are gathered.
def conv2d_f16(n, c, hw, o, k, stride=1, pad=1, epilogue=False, nhwc=False,
               layout="NHWC", chip=None, rule="tensorcore"):
    x, w, b = f16(n, c, hw, hw), f16(o, c, k, k), f32(o)
    expected = conv2d(f64(x), f64(w), pad, stride)
    conv = ('nn.conv2d(%%x, %%w, strides=[%d, %d], padding=[%d, %d, %d, %d], '
            'out_dtype="float32"' % (stride, stride, pad, pad, pad, pad))
    name = "conv2d f16 %s%dx%dx%dx%d o%d k%d%s%s" % (
        "NHWC " if nhwc else "", n, *((hw, hw, c) if nhwc else (c, hw, hw)),
        o, k, " s%d" % stride if stride != 1 else "",
        " conv-layout=" + layout if layout != "NHWC" else "")
    if chip:
        name += " " + chip
    if nhwc:
        conv += ', data_layout="NHWC", kernel_layout="HWIO")'
        inputs = {"x": x.transpose(0, 2, 3, 1).copy(),
                  "w": w.transpose(2, 3, 1, 0).copy()}
        expected = expected.transpose(0, 2, 3, 1)
    else:
        conv += ")"
        inputs = {"x": x, "w": w}
    if epilogue:
        name = name.replace("f16", "f16+bias+relu")
        conv = "nn.relu(nn.bias_add(%s, %%b))" % conv
        inputs["b"] = b
        expected = np.maximum(expected + b[:, None, None], 0)
    check(name, conv, inputs, expected, c * k * k, rule, layout=layout, chip=chip)


conv2d_f16(2, 64, 14, 128, 3, epilogue=True)
conv2d_f16(2, 64, 14, 128, 3, epilogue=True, layout="")
conv2d_f16(1, 32, 15, 64, 3, stride=2)
conv2d_f16(1, 64, 8, 64, 1, pad=0)
conv2d_f16(1, 3, 16, 32, 3)
conv2d_f16(1, 32, 10, 64, 3, nhwc=True)
# sm_90a: a 1x1 convolution is a GEMM over the image (NHWC) for the Hopper
# rule (relax-convert-1x1-conv2d-to-matmul), its bias and relu in the
# write-back; 64 columns: the accumulator is shrunk to them.
conv2d_f16(2, 64, 14, 128, 1, pad=0, epilogue=True, chip="sm_90a", rule="wgmma")
conv2d_f16(1, 128, 12, 64, 1, pad=0, chip="sm_90a", rule="wgmma")
# sm_90a: 3x3 convolutions as implicit GEMMs on wgmma, the im2col rows (and
# their zero padding) read by the GEMM itself, the HWIO weight as the K x N
# matrix it is: 392 rows (a tail tile), the bias and relu in the
# write-back; stride 2 with K = 288 (4.5 k-tiles of 64); K = 72 of 8
# channels; a model in NHWC.
conv2d_f16(2, 64, 14, 128, 3, epilogue=True, chip="sm_90a", rule="wgmma")
conv2d_f16(1, 32, 15, 64, 3, stride=2, chip="sm_90a", rule="wgmma")
conv2d_f16(1, 8, 12, 64, 3, chip="sm_90a", rule="wgmma")
conv2d_f16(1, 32, 10, 64, 3, nhwc=True, chip="sm_90a", rule="wgmma")
# A 1x1 convolution of stride 2 (ResNet's downsampling shortcut) is no
# plain GEMM over the image: the implicit GEMM rule gathers its rows.
conv2d_f16(2, 64, 14, 128, 1, stride=2, pad=0, chip="sm_90a", rule="wgmma")
# Batch 1: the epilogue reads the size-1 batch at its iteration variable
# and joins the write-back.
conv2d_f16(1, 64, 14, 128, 3, epilogue=True, chip="sm_90a", rule="wgmma")


# A GEMM's float32 result that a residual add reads and that, cast to
# float16, feeds the next GEMM (mixed precision's residual blocks): the
# first GEMM's write-back stores both (relax-fuse-ops multi-output-casts,
# reverse_compute_inline keep_input). Small integers, so that every sum is
# exact in float32 and the cast rounds nothing: the reference is exact.
def residual_cast(chip, rule):
    def ints(*shape):
        return rng.integers(-3, 4, shape).astype(np.float16)
    x, w1, w2 = ints(128, 64), ints(96, 64), ints(96, 96)
    b1 = rng.integers(-8, 9, 96).astype(np.float32)
    h = np.maximum(f64(x) @ f64(w1).T + b1, 0)
    body = ('%0 = nn.relu(add(nn.dense(%x, %w1, units=None, out_dtype="float32"), %b1));\n'
            '%1 = cast(%0, dtype="float16");\n'
            'add(nn.dense(%1, %w2, units=None, out_dtype="float32"), %0)')
    check("residual cast f16 128x64x96" + (" " + chip if chip else ""),
          body, {"x": x, "w1": w1, "b1": b1, "w2": w2}, h @ f64(w2).T + h, 1, rule,
          chip=chip)


residual_cast(None, "tensorcore")
residual_cast("sm_90a", "wgmma")
x = f32(1, 4, 13, 13)
pooled = np.stack([[[[x[0, c, i * 2:i * 2 + 3, j * 2:j * 2 + 3].max()
                      for j in range(6)] for i in range(6)] for c in range(4)]])
check("max_pool 1x4x13x13 k3 s2",
      "nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2])", {"x": x}, pooled)

# The transformer fragment of test/Target/Relay/transformer.relay: layer
# norm from primitive ops, attention with batch_matmul and softmax, GELU.
src = os.path.join(os.path.dirname(__file__), "..", "Target", "Relay",
                   "transformer.relay")
with open(src) as f:
    # The body of @main: from its header line to the first closing brace.
    body = f.read().split("def @main", 1)[1].split("{\n", 1)[1]
    body = body.split("\n}\n", 1)[0]
x, wqkv, gamma, beta = f32(1, 8, 16), f32(1, 48, 16), f32(16), f32(16)
h = layer_norm(f64(x), gamma, beta)
qkv = h @ f64(wqkv).transpose(0, 2, 1)
q, k, v = qkv[..., :16], qkv[..., 16:32], qkv[..., 32:]
att = softmax(q @ k.transpose(0, 2, 1) / 4) @ v
gelu = 0.5 * att * (1 + np.tanh(0.797885 * (att + 0.044715 * att ** 3)))
expected = np.concatenate([gelu[:, 4:], gelu[:, :4], x], axis=1)
check("transformer fragment", body,
      {"x": x, "wqkv": wqkv, "gamma": gamma, "beta": beta}, expected, 16)
