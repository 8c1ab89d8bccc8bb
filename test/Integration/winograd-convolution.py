# 3x3 stride-1 convolutions as Winograd F(m x m, 3 x 3) GEMMs
# (mlc-cpu-winograd-convolution, pipeline option winograd-tile): Relay
# convolutions with random inputs and weights (bound as parameters),
# compiled with the option and without, run and compared with a float64
# numpy reference. Each case also counts the transformed weights that the
# pass made (globals named *_winograd2 / *_winograd4), so that a case that
# stopped applying fails: a fused bias + relu (the epilogue computed by the
# output transform) with tiles 4 and 2; a residual add read at every output
# pixel, on a non-square image; a 6x6 image with tile 4 (4 does not divide
# 6: tile 2); batch 2 without an epilogue (the output transform accumulates
# into the kernel's output); NHWC with HWIO weights; and the convolutions it
# leaves alone: an odd 7x7 image, stride 2, a 1x1 window. Then the tuning
# knob: a record that sets winograd_tile on a model's kernel, applied with
# the database.
# Tolerances: Winograd's transforms round differently from the direct sum
# (F(4 x 4) multiplies by up to 8 and 1/24): atol 1e-5 * sqrt(9 * channels)
# * max |reference|, rtol 1e-5.
# RUN: %python %s | FileCheck %s
# CHECK: conv3x3 16->24ch 8x8 bias relu, tile 4: 1 x F(4), 0 x F(2), winograd ok, direct ok
# CHECK: conv3x3 16->24ch 8x8 bias relu, tile 2: 0 x F(4), 1 x F(2), winograd ok, direct ok
# CHECK: conv3x3 8->16ch 12x8 residual add relu, tile 4: 1 x F(4), 0 x F(2), winograd ok, direct ok
# CHECK: conv3x3 16->16ch 6x6 bias, tile 4: 0 x F(4), 1 x F(2), winograd ok, direct ok
# CHECK: conv3x3 batch 2 8->32ch 8x8, tile 4: 1 x F(4), 0 x F(2), winograd ok, direct ok
# CHECK: conv3x3 NHWC 16->16ch 8x8 bias relu, tile 4: 1 x F(4), 0 x F(2), winograd ok, direct ok
# CHECK: conv3x3 16->16ch 7x7 bias relu, tile 4: 0 x F(4), 0 x F(2), winograd ok, direct ok
# CHECK: conv3x3 s2 16->16ch 8x8, tile 4: 0 x F(4), 0 x F(2), winograd ok, direct ok
# CHECK: conv1x1 16->16ch 8x8, tile 4: 0 x F(4), 0 x F(2), winograd ok, direct ok

import re

import numpy as np
import mlc
from mlc_test_utils import bind_relay_params, kernels_after

rng = np.random.default_rng(7)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def transformed(bound, tile):
    """How many weights the pass transformed for tiles 4 and 2."""
    text = kernels_after(bound, "mlc-cpu-mark-constant-arguments,"
                         "mlc-cpu-winograd-convolution{output-tile=%d}" % tile)
    names = set(re.findall(r"memref.global \"private\" constant @(\w+_winograd[24])", text))
    return (sum(1 for n in names if n.endswith("4")),
            sum(1 for n in names if n.endswith("2")))


def check(name, inputs, params, body, reference, tile, channels):
    bound = bind_relay_params(inputs, params, body)
    f4, f2 = transformed(bound, tile)
    values = [v for _, v in inputs]
    expected = reference(*[v.astype(np.float64) for _, v in inputs + params])
    atol = 1e-5 * np.sqrt(9 * channels) * np.abs(expected).max()
    results = []
    for option in (tile, 0):
        library = mlc.executor.compile_module(
            bound, ["main"], args=["--pipeline-options=winograd-tile=%d" % option])
        got = library["main"](*values)
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=atol)
        results.append("winograd ok" if option else "direct ok")
    print("%s, tile %d: %d x F(4), %d x F(2), %s" % (name, tile, f4, f2, ", ".join(results)))


def conv(x, w, stride=1, pad=1):
    """NCHW x, OIHW w."""
    k = w.shape[2]
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (xp.shape[2] - k) // stride + 1
    ow = (xp.shape[3] - k) // stride + 1
    out = np.zeros((x.shape[0], w.shape[0], oh, ow))
    for i in range(k):
        for j in range(k):
            patch = xp[:, :, i:i + stride * (oh - 1) + 1:stride, j:j + stride * (ow - 1) + 1:stride]
            out += np.einsum("nchw,kc->nkhw", patch, w[:, :, i, j])
    return out


def conv_text(cout, k=3, stride=1, pad=1, layouts=""):
    return ("nn.conv2d(%%x, %%w, strides=[%d, %d], padding=[%d, %d, %d, %d], "
            "channels=%d, kernel_size=[%d, %d]%s)"
            % (stride, stride, pad, pad, pad, pad, cout, k, k, layouts))


bias_relu = "%%0 = %s;\n%%1 = nn.bias_add(%%0, %%b);\nnn.relu(%%1)"

for tile in (4, 2):
    x, w, b = f32(1, 16, 8, 8), f32(24, 16, 3, 3), f32(24)
    check("conv3x3 16->24ch 8x8 bias relu", [("x", x)], [("w", w), ("b", b)],
          bias_relu % conv_text(24),
          lambda x, w, b: np.maximum(conv(x, w) + b[None, :, None, None], 0), tile, 16)

x, r, w = f32(1, 8, 12, 8), f32(1, 16, 12, 8), f32(16, 8, 3, 3)
check("conv3x3 8->16ch 12x8 residual add relu", [("x", x), ("r", r)], [("w", w)],
      "%%0 = %s;\n%%1 = add(%%0, %%r);\nnn.relu(%%1)" % conv_text(16),
      lambda x, r, w: np.maximum(conv(x, w) + r, 0), 4, 8)

x, w, b = f32(1, 16, 6, 6), f32(16, 16, 3, 3), f32(16)
check("conv3x3 16->16ch 6x6 bias", [("x", x)], [("w", w), ("b", b)],
      "%%0 = %s;\nnn.bias_add(%%0, %%b)" % conv_text(16),
      lambda x, w, b: conv(x, w) + b[None, :, None, None], 4, 16)

x, w = f32(2, 8, 8, 8), f32(32, 8, 3, 3)
check("conv3x3 batch 2 8->32ch 8x8", [("x", x)], [("w", w)], conv_text(32),
      lambda x, w: conv(x, w), 4, 8)

x, w, b = f32(1, 8, 8, 16), f32(3, 3, 16, 16), f32(16)
check("conv3x3 NHWC 16->16ch 8x8 bias relu", [("x", x)], [("w", w), ("b", b)],
      "%%0 = %s;\n%%1 = nn.bias_add(%%0, %%b, axis=3);\nnn.relu(%%1)"
      % conv_text(16, layouts=', data_layout="NHWC", kernel_layout="HWIO"'),
      lambda x, w, b: np.maximum(
          conv(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1)).transpose(0, 2, 3, 1) + b, 0),
      4, 16)

x, w, b = f32(1, 16, 7, 7), f32(16, 16, 3, 3), f32(16)
check("conv3x3 16->16ch 7x7 bias relu", [("x", x)], [("w", w), ("b", b)],
      bias_relu % conv_text(16),
      lambda x, w, b: np.maximum(conv(x, w) + b[None, :, None, None], 0), 4, 16)

x, w = f32(1, 16, 8, 8), f32(16, 16, 3, 3)
check("conv3x3 s2 16->16ch 8x8", [("x", x)], [("w", w)], conv_text(16, stride=2),
      lambda x, w: conv(x, w, stride=2), 4, 16)

x, w = f32(1, 16, 8, 8), f32(16, 16, 1, 1)
check("conv1x1 16->16ch 8x8", [("x", x)], [("w", w)], conv_text(16, k=1, pad=0),
      lambda x, w: conv(x, w, pad=0), 4, 16)


# A tuning record that sets the knob (mlc.schedule.winograd_tile = 4, the
# search space's third candidate, written here as the search writes its
# records) on a model's convolution kernel, applied with the database
# (compile_relax: mlc-compile --tuning-db; the CPU pipeline's tuning-db):
# its numbers are right and differ in rounding from the untuned model's
# (the record's other knobs are the defaults, so only the algorithm
# differs).
import os
import tempfile

import mlc.meta_schedule as ms
from mlc import relay
from mlc.meta_schedule.database import JSONDatabase, TuningRecord
from mlc.meta_schedule.relax_integration import compile_relax
from mlc_test_utils import relay_main

TARGET = ms.Target("llvm --num-cores=1")
x, w, b = f32(1, 16, 8, 8), f32(16, 16, 3, 3), f32(16)
params = {"w": w, "b": b}
mod = relay.fromtext(relay_main([("x", x), ("w", w), ("b", b)],
                                bias_relu % conv_text(16)))
expected = np.maximum(conv(x.astype(np.float64), w.astype(np.float64))
                      + b[None, :, None, None], 0)
tasks = [t for t in ms.extract_tasks(mod, TARGET, params) if "conv2d" in t.task_name]
space = ms.DefaultScheduleKnobs()


def knobs_for(text, weight):
    """The knobs the search varies for the conv kernel of a model."""
    kernel_mod = relay.fromtext(relay_main([("x", x), ("w", weight)], text))
    task = [t for t in ms.extract_tasks(kernel_mod, TARGET, {"w": weight})
            if "conv2d" in t.task_name][0]
    return "winograd_tile" in [name for name, _, _ in space.for_kernel(task.mod).knobs]


# The search varies winograd_tile only where the pass may apply: a 3x3
# stride-1 convolution, not a strided or a pointwise one (there every value
# builds the same library).
print("winograd_tile searched: 3x3 %s, 3x3 s2 %s, 1x1 %s" % (
    "winograd_tile" in [n for n, _, _ in space.for_kernel(tasks[0].mod).knobs],
    knobs_for(conv_text(16, stride=2), w), knobs_for(conv_text(16, k=1, pad=0), w[:, :, :1, :1])))
# CHECK: winograd_tile searched: 3x3 True, 3x3 s2 False, 1x1 False
names = [name for name, _, _ in space.KNOBS]
decisions = space.default_decisions(tasks[0].mod, TARGET)
print("default winograd_tile:", space.KNOBS[names.index("winograd_tile")][1][
    decisions[names.index("winograd_tile")]])
# CHECK: default winograd_tile: 0
decisions[names.index("winograd_tile")] = space.KNOBS[names.index("winograd_tile")][1].index(4)
sch = space.generate(tasks[0].mod, seed=0, decisions=decisions)
with tempfile.TemporaryDirectory() as work:
    database = JSONDatabase(work)
    database.commit_tuning_record(tasks[0].mod, TuningRecord(
        sch.trace.as_script(), [1e-3], TARGET.as_json(), [], tasks[0].mod.text))
    tuned = compile_relax(database, mod, TARGET, params)["main"](x)
    untuned = mlc.executor.compile_module(
        bind_relay_params([("x", x)], [("w", w), ("b", b)], bias_relu % conv_text(16)),
        ["main"], args=["-O3"])["main"](x)
    atol = 1e-5 * np.sqrt(9 * 16) * np.abs(expected).max()
    np.testing.assert_allclose(tuned, expected, rtol=1e-5, atol=atol)
    np.testing.assert_allclose(untuned, expected, rtol=1e-5, atol=atol)
    print("tuned ok, untuned ok, differ:", not np.array_equal(tuned, untuned))
# CHECK: tuned ok, untuned ok, differ: True
