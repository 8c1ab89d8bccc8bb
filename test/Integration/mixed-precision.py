# relax-to-mixed-precision through mlc-run (`--pipeline-options=mixed-
# precision=...`): the example models (examples/*.relay, random weights bound
# as parameters) computed in float16 and in bfloat16 with float32
# accumulation, against their float64 numpy references (examples/models.py).
# Each case also checks in the IR that every matmul/conv2d takes half
# operands with an f32 accumulator, so a pass that stops converting fails
# here rather than passing with float32 numerics.
# Tolerance: max |mlc - numpy| <= 8 u max |numpy| with u the unit roundoff
# (float16 2^-11, bfloat16 2^-8); the classifiers' argmax must agree.
# Then a dense + bias + GELU layer under emulate-gpu-schedule: the converted
# matmul takes the tensor-core rule (mma_sync), and its numerics hold; and
# a float16 model's matmul, which accumulates in f32 and takes the same
# rule; the float16 ResNet under emulate-gpu-schedule, its wider convolutions
# (conv + batch norm + add + relu kernels) taking the tensor-core rule as
# implicit GEMMs.
# Last, the Python pass (mlc.relax.transform.ToMixedPrecision) on a relax
# module with a float16 input.
# RUN: %python %s | FileCheck %s
# CHECK: cnn float16: [[N:[0-9]+]] of [[N]] contractions in half: ok
# CHECK: cnn bfloat16: [[N:[0-9]+]] of [[N]] contractions in half: ok
# CHECK: resnet float16: [[N:[0-9]+]] of [[N]] contractions in half: ok
# CHECK: resnet bfloat16: [[N:[0-9]+]] of [[N]] contractions in half: ok
# CHECK: mobilenet float16: [[N:[0-9]+]] of [[N]] contractions in half: ok
# CHECK: mobilenet bfloat16: [[N:[0-9]+]] of [[N]] contractions in half: ok
# CHECK: transformer float16: [[N:[0-9]+]] of [[N]] contractions in half: ok
# CHECK: transformer bfloat16: [[N:[0-9]+]] of [[N]] contractions in half: ok
# CHECK: dense+bias+gelu 128x256x192 float16 [tensorcore]: ok
# CHECK: float16 model matmul+bias+relu 100x72x136 [tensorcore]: ok
# CHECK: resnet float16 on the GPU schedule, {{[1-9][0-9]*}} of {{[0-9]+}} conv2d kernels on tensor cores: ok
# CHECK: relax.transform.ToMixedPrecision(fp16_input_names=["x"]): ok

import os
import re
import sys
import tempfile

import numpy as np

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "examples"))
from mlc import tools  # noqa: E402
import models  # noqa: E402
import mlc  # noqa: E402

UNIT_ROUNDOFF = {"float16": 2.0 ** -11, "bfloat16": 2.0 ** -8}
HALF = {"float16": "f16", "bfloat16": "bf16"}
CONTRACTION = re.compile(
    r"relax\.(?:matmul|nn\.conv2d) [^:]*\{[^}]*out_dtype = f32[^}]*\} : "
    r"\(tensor<[0-9x]*(f16|bf16|f32)>, tensor<[0-9x]*(f16|bf16|f32)>\)")


def count_half_contractions(model, dtype):
    converted = tools.run("mlc-opt", [
        model, "--relay-to-relax",
        "--relax-to-mixed-precision=compute-dtype=" + dtype])
    total = len(re.findall(r"relax\.(?:matmul|nn\.conv2d) ", converted))
    half = sum(1 for a, b in CONTRACTION.findall(converted)
               if a == b == HALF[dtype])
    return half, total


def run(model, options, tmp, params=None, inputs=None):
    args = [model, "--quiet", "--pipeline-options=" + options]
    if params is not None:
        path = os.path.join(tmp, "params.npz")
        np.savez(path, **params)
        args.append("--params=" + path)
    path = os.path.join(tmp, "inputs.npz")
    np.savez(path, **inputs)
    args.append("--inputs=" + path)
    outputs = os.path.join(tmp, "outputs.npz")
    args.append("--outputs=" + outputs)
    tools.run("mlc-run", args)
    with np.load(outputs) as data:
        return data["out0"]


def gpu_schedule(model):
    """`model` after mixed precision and the GPU default schedule."""
    return tools.run("mlc-opt", [
        model, "--relay-to-relax", "--relax-to-mixed-precision",
        "--relax-legalize-ops", "--tensorir-annotate-op-pattern",
        "--relax-fuse-ops", "--relax-fuse-tir",
        "--tensorir-default-schedule=target=cuda"])


def emulate_layer(tmp, name, text, inputs):
    """The Relay function `text` run with float16 mixed precision under
    emulate-gpu-schedule; its output and the rule its GEMM took."""
    relay = os.path.join(tmp, name + ".relay")
    with open(relay, "w") as f:
        f.write('#[version = "0.0.5"]\n' + text)
    model = os.path.join(tmp, name + ".mlir")
    tools.run("mlc-translate", ["--import-relay", relay, "-o", model])
    rule = "tensorcore" if "mma_sync" in gpu_schedule(model) else "simt"
    got = run(model, "mixed-precision=float16 emulate-gpu-schedule=true", tmp,
              inputs=inputs)
    return got, rule


def report(label, got, want, u, classifier=False):
    want = np.asarray(want)
    if got.shape != want.shape:
        print("%s: shape %s, expected %s" % (label, got.shape, want.shape))
        return
    error = np.abs(got.astype(np.float64) - want).max()
    bound = 8 * u * np.abs(want).max()
    if classifier and got.argmax() != want.argmax():
        print("%s: argmax %d, expected %d" % (label, got.argmax(), want.argmax()))
    elif error <= bound:
        print("%s: ok" % label)
    else:
        print("%s: max error %.3g > %.3g" % (label, error, bound))


with tempfile.TemporaryDirectory() as tmp:
    for name in ("cnn", "resnet", "mobilenet", "transformer"):
        make, reference, _ = models.MODELS[name]
        model = os.path.join(tmp, name + ".mlir")
        tools.run("mlc-translate", ["--import-relay",
                                    os.path.join(ROOT, "examples", name + ".relay"),
                                    "-o", model])
        for dtype in ("float16", "bfloat16"):
            params, inputs = make(np.random.default_rng(3))
            got = run(model, "mixed-precision=" + dtype, tmp, params, inputs)
            want = reference({k: v.astype(np.float64) for k, v in params.items()},
                             inputs["data"].astype(np.float64))
            half, total = count_half_contractions(model, dtype)
            label = "%s %s: %d of %d contractions in half" % (name, dtype, half, total)
            report(label, got, want, UNIT_ROUNDOFF[dtype],
                   classifier=name != "transformer")

    # A float32 dense layer whose converted matmul takes the GPU schedule's
    # tensor-core rule (f16 operands, f32 accumulator), run on the host.
    m, k, n = 128, 256, 192
    rng = np.random.default_rng(5)
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = (rng.standard_normal((n, k)) / np.sqrt(k)).astype(np.float32)
    b = (rng.standard_normal(n) * 0.1).astype(np.float32)
    got, rule = emulate_layer(tmp, "dense", (
        "def @main(%%x: Tensor[(%d, %d), float32], %%w: Tensor[(%d, %d), float32], "
        "%%b: Tensor[(%d), float32]) {\n"
        "  %%0 = add(nn.dense(%%x, %%w, units=None), %%b);\n"
        "  multiply(multiply(%%0, 0.5f), add(1f, tanh(multiply(0.797885f, "
        "add(%%0, multiply(0.044715f, power(%%0, 3f)))))))\n}\n" % (m, k, n, k, n)),
        {"x": x, "w": w, "b": b})
    h = x.astype(np.float64) @ w.astype(np.float64).T + b
    want = 0.5 * h * (1 + np.tanh(0.797885 * (h + 0.044715 * h ** 3)))
    report("dense+bias+gelu %dx%dx%d float16 [%s]" % (m, k, n, rule), got, want,
           UNIT_ROUNDOFF["float16"])

    # A float16 model (float16 weights, inputs and output): its matmul
    # accumulates in f32 too (out_dtype set, as TVM's pass does), so the
    # tensor-core rule takes it; odd sizes make masked tails.
    m, k, n = 100, 72, 136
    rng = np.random.default_rng(6)
    x = rng.standard_normal((m, k)).astype(np.float16)
    w = (rng.standard_normal((k, n)) / np.sqrt(k)).astype(np.float16)
    b = (rng.standard_normal(n) * 0.1).astype(np.float16)
    got, rule = emulate_layer(tmp, "half", (
        "def @main(%%x: Tensor[(%d, %d), float16], %%w: Tensor[(%d, %d), float16], "
        "%%b: Tensor[(%d), float16]) {\n"
        "  nn.relu(add(nn.matmul(%%x, %%w), %%b))\n}\n" % (m, k, k, n, n)),
        {"x": x, "w": w, "b": b})
    want = np.maximum(x.astype(np.float64) @ w.astype(np.float64) + b, 0)
    report("float16 model matmul+bias+relu %dx%dx%d [%s]" % (m, k, n, rule), got,
           want, UNIT_ROUNDOFF["float16"])

    # The float16 ResNet with the GPU schedule, run on the host: convolutions
    # with at least 32 output channels and rows are implicit GEMMs on the
    # tensor-core rule.
    make, reference, _ = models.MODELS["resnet"]
    model = os.path.join(tmp, "resnet.mlir")
    params, inputs = make(np.random.default_rng(3))
    scheduled = gpu_schedule(model)
    kernels = [f for f in scheduled.split("tensorir.prim_func")[1:]
               if re.match(r"\s*(?:private\s+)?@fused_conv2d", f)]
    on_tensor_cores = sum("mma_sync" in f for f in kernels)
    got = run(model, "mixed-precision=float16 emulate-gpu-schedule=true", tmp,
              params, inputs)
    want = reference({k: v.astype(np.float64) for k, v in params.items()},
                     inputs["data"].astype(np.float64))
    report("resnet float16 on the GPU schedule, %d of %d conv2d kernels on "
           "tensor cores" % (on_tensor_cores, len(kernels)), got, want,
           UNIT_ROUNDOFF["float16"], classifier=True)

# TVM's Python form on a relax module: `x` becomes a float16 input.
RELAX = """
func.func @main(%x: tensor<16x32xf32> {relax.name = "x"},
                %w: tensor<32x8xf32> {relax.name = "w"}) -> tensor<16x8xf32> {
  %0 = relax.matmul %x, %w : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %1 = relax.nn.relu %0 : (tensor<16x8xf32>) -> tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}
"""
mod = mlc.relax.transform.ToMixedPrecision(fp16_input_names=["x"])(mlc.Module(RELAX))
assert "%arg0: tensor<16x32xf16>" in mod.text, mod.text
rng = np.random.default_rng(9)
x = rng.standard_normal((16, 32)).astype(np.float16)
w = (rng.standard_normal((32, 8)) / np.sqrt(32)).astype(np.float32)
got = mlc.create_executor(mod=mod, params={"w": w}).evaluate()(x)
want = np.maximum(x.astype(np.float64) @ w.astype(np.float64), 0)
report('relax.transform.ToMixedPrecision(fp16_input_names=["x"])', got, want,
       UNIT_ROUNDOFF["float16"])
