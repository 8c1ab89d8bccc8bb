# mlc.relax.frontend.onnx.from_onnx on models built with onnx.helper, run
# with mlc-run and checked against numpy (float64 references; f32 within
# rtol 1e-4, atol 1e-5) on random inputs: a CNN block (Conv + bias,
# BatchNormalization, Relu, MaxPool, GlobalAveragePool, Flatten, Gemm), an
# attention-style block with a shape sub-graph (MatMul, Reshape by
# Shape/Gather/Concat, Transpose, Softmax, LayerNormalization), and the same
# block imported with its weights kept as named parameters (bound by name,
# the 0-d divisor included).
# RUN: %python %s | FileCheck %s
# CHECK: cnn: ok
# CHECK: attention: ok
# CHECK: attention (params as inputs): ok
# CHECK: conv3d maxpool3d avgpool3d: ok
# CHECK: maxpool indices storage_order=0: ok
# CHECK: maxpool indices storage_order=1: ok
# CHECK: conv_transpose3d: ok

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import mlc
from mlc.relax.frontend.onnx import from_onnx

rng = np.random.default_rng(1)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def model(nodes, inputs, outputs, initializers, opset):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def check(name, actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)
    print("%s: ok" % name)


# CNN block.
w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32) * 0.3
cb = rng.standard_normal(8).astype(np.float32)
gamma, beta = rng.random(8).astype(np.float32) + 0.5, rng.standard_normal(8).astype(np.float32)
mean, var = rng.standard_normal(8).astype(np.float32), rng.random(8).astype(np.float32) + 0.5
fw = rng.standard_normal((5, 8)).astype(np.float32)
fb = rng.standard_normal(5).astype(np.float32)
cnn = model(
    [helper.make_node("Conv", ["x", "w", "cb"], ["c"], pads=[1, 1, 1, 1], strides=[1, 1]),
     helper.make_node("BatchNormalization", ["c", "gamma", "beta", "mean", "var"], ["n"],
                      epsilon=1e-3),
     helper.make_node("Relu", ["n"], ["r"]),
     helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
     helper.make_node("GlobalAveragePool", ["p"], ["g"]),
     helper.make_node("Flatten", ["g"], ["f"], axis=1),
     helper.make_node("Gemm", ["f", "fw", "fb"], ["y"], transB=1, alpha=0.5)],
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 10, 10])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])],
    [init("w", w), init("cb", cb), init("gamma", gamma), init("beta", beta),
     init("mean", mean), init("var", var), init("fw", fw), init("fb", fb)], 13)
x = rng.standard_normal((2, 3, 10, 10)).astype(np.float32)
xd = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
conv = np.zeros((2, 8, 10, 10))
for i in range(3):
    for j in range(3):
        conv += np.einsum("nchw,oc->nohw", xd[:, :, i:i + 10, j:j + 10], w[:, :, i, j])
conv += cb[None, :, None, None]
norm = (conv - mean[None, :, None, None]) / np.sqrt(var[None, :, None, None] + 1e-3)
norm = norm * gamma[None, :, None, None] + beta[None, :, None, None]
relu = np.maximum(norm, 0)
pooled = relu.reshape(2, 8, 5, 2, 5, 2).max(axis=(3, 5))
feat = pooled.mean(axis=(2, 3))
expected = 0.5 * feat @ fw.T.astype(np.float64) + fb
out = mlc.create_executor(mod=from_onnx(cnn)).evaluate()(x)
check("cnn", out, expected)

# Attention-style block: y = LayerNorm(x + softmax(q k^T / 2) v), heads
# split by a reshape whose target comes from a shape sub-graph.
seq, hidden, heads = 6, 8, 2
wq, wk, wv = (rng.standard_normal((hidden, hidden)).astype(np.float32) * 0.4
              for _ in range(3))
ln_g = rng.random(hidden).astype(np.float32) + 0.5
ln_b = rng.standard_normal(hidden).astype(np.float32)
nodes = [helper.make_node("Shape", ["x"], ["shape"]),
         helper.make_node("Gather", ["shape", "zero"], ["s0"], axis=0),
         helper.make_node("Unsqueeze", ["s0", "axes0"], ["s0u"]),
         helper.make_node("Concat", ["s0u", "head_dims"], ["split_shape"], axis=0)]
for name, weight in (("q", "wq"), ("k", "wk"), ("v", "wv")):
    nodes += [helper.make_node("MatMul", ["x", weight], [name + "_flat"]),
              helper.make_node("Reshape", [name + "_flat", "split_shape"], [name + "_split"]),
              helper.make_node("Transpose", [name + "_split"], [name + "_heads"],
                               perm=[1, 0, 2])]
nodes += [helper.make_node("Transpose", ["k_heads"], ["kt"], perm=[0, 2, 1]),
          helper.make_node("MatMul", ["q_heads", "kt"], ["scores"]),
          helper.make_node("Div", ["scores", "two"], ["scaled"]),
          helper.make_node("Softmax", ["scaled"], ["attn"], axis=-1),
          helper.make_node("MatMul", ["attn", "v_heads"], ["ctx_heads"]),
          helper.make_node("Transpose", ["ctx_heads"], ["ctx_split"], perm=[1, 0, 2]),
          helper.make_node("Reshape", ["ctx_split", "merge_shape"], ["ctx"]),
          helper.make_node("Add", ["x", "ctx"], ["res"]),
          helper.make_node("LayerNormalization", ["res", "ln_g", "ln_b"], ["y"], axis=-1,
                           epsilon=1e-5)]
attention = model(
    nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [seq, hidden])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [seq, hidden])],
    [init("wq", wq), init("wk", wk), init("wv", wv), init("ln_g", ln_g), init("ln_b", ln_b),
     init("zero", np.array(0, np.int64)), init("axes0", np.array([0], np.int64)),
     init("head_dims", np.array([heads, hidden // heads], np.int64)),
     init("merge_shape", np.array([seq, hidden], np.int64)),
     init("two", np.array(2.0, np.float32))], 17)
x = rng.standard_normal((seq, hidden)).astype(np.float32)
xd = x.astype(np.float64)
q, k, v = ((xd @ m).reshape(seq, heads, hidden // heads).transpose(1, 0, 2)
           for m in (wq, wk, wv))
scores = q @ k.transpose(0, 2, 1) / 2
attn = np.exp(scores - scores.max(-1, keepdims=True))
attn /= attn.sum(-1, keepdims=True)
res = xd + (attn @ v).transpose(1, 0, 2).reshape(seq, hidden)
mu, sd = res.mean(-1, keepdims=True), np.sqrt(res.var(-1, keepdims=True) + 1e-5)
expected = (res - mu) / sd * ln_g + ln_b
mod = from_onnx(attention)
assert "relax.take" not in mod.text and "relax.concat" not in mod.text, mod.text
check("attention", mlc.create_executor(mod=mod).evaluate()(x), expected)

params = {"wq": wq, "wk": wk, "wv": wv, "ln_g": ln_g, "ln_b": ln_b, "two": np.float32(2.0)}
mod = from_onnx(attention, keep_params_in_input=True)
assert all('relax.name = "%s"' % k in mod.text for k in params), mod.text
ex = mlc.create_executor(mod=mod, params=params)
check("attention (params as inputs)", ex.evaluate()(x), expected)

# 3-D: a grouped, strided, dilated, padded Conv (with bias), then MaxPool
# (ceil_mode) and AveragePool (padding not counted) on NCDHW data, which the
# importer composes from 2-D ops; float64 numpy loops as the reference.
def conv3d(x, w, b, stride, dilation, pads, groups):
    n, c, *size = x.shape
    o, cg, *k = w.shape
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pads[i], pads[i + 3]) for i in range(3)])
    out_size = [(xp.shape[2 + i] - dilation[i] * (k[i] - 1) - 1) // stride[i] + 1
                for i in range(3)]
    out = np.zeros((n, o) + tuple(out_size))
    for f in range(o):
        g = f // (o // groups)
        for idx in np.ndindex(*out_size):
            window = xp[:, g * cg:(g + 1) * cg,
                        idx[0] * stride[0]:idx[0] * stride[0] + dilation[0] * (k[0] - 1) + 1:dilation[0],
                        idx[1] * stride[1]:idx[1] * stride[1] + dilation[1] * (k[1] - 1) + 1:dilation[1],
                        idx[2] * stride[2]:idx[2] * stride[2] + dilation[2] * (k[2] - 1) + 1:dilation[2]]
            out[(slice(None), f) + idx] = (window * w[f]).sum(axis=(1, 2, 3, 4)) + b[f]
    return out


def pool3d(x, kernel, stride, pads, ceil, reduce):
    # Padding and the ceil_mode overhang are NaN, which the nan-reductions skip.
    n, c, *size = x.shape
    out_size = []
    for i in range(3):
        span = size[i] + pads[i] + pads[i + 3] - kernel[i]
        out_size.append((-(-span // stride[i]) if ceil else span // stride[i]) + 1)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pads[i], pads[i + 3] + kernel[i]) for i in range(3)],
                constant_values=np.nan)
    out = np.zeros((n, c) + tuple(out_size))
    for idx in np.ndindex(*out_size):
        window = xp[(slice(None), slice(None)) + tuple(
            slice(idx[i] * stride[i], idx[i] * stride[i] + kernel[i]) for i in range(3))]
        out[(slice(None), slice(None)) + idx] = reduce(window.reshape(n, c, -1), axis=-1)
    return out


w3 = rng.standard_normal((4, 1, 2, 3, 2)).astype(np.float32)
b3 = rng.standard_normal(4).astype(np.float32)
vol = model(
    [helper.make_node("Conv", ["x", "w", "b"], ["c"], group=2, strides=[2, 1, 2],
                      dilations=[2, 1, 1], pads=[1, 1, 0, 0, 1, 1]),
     helper.make_node("MaxPool", ["c"], ["m"], kernel_shape=[2, 2, 2], strides=[1, 2, 1],
                      ceil_mode=1),
     helper.make_node("AveragePool", ["m"], ["y"], kernel_shape=[2, 3, 2], pads=[1, 1, 0, 0, 1, 1],
                      count_include_pad=0)],
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 7, 6, 5])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    [init("w", w3), init("b", b3)], 13)
x = rng.standard_normal((1, 2, 7, 6, 5)).astype(np.float32)
c = conv3d(x.astype(np.float64), w3.astype(np.float64), b3, [2, 1, 2], [2, 1, 1],
           [1, 1, 0, 0, 1, 1], 2)
m = pool3d(c, [2, 2, 2], [1, 2, 1], [0] * 6, True, np.nanmax)
expected = pool3d(m, [2, 3, 2], [1, 1, 1], [1, 1, 0, 0, 1, 1], False, np.nanmean)
check("conv3d maxpool3d avgpool3d", mlc.create_executor(mod=from_onnx(vol)).evaluate()(x),
      expected)

# MaxPool's indices (flat over N, C, H, W, the first maximum of a window,
# padding excluded), row- and column-major, with dilation, padding and
# ceil_mode on 2 x 3 channels; a numpy loop as the reference. Values are
# drawn from a few levels so that windows hold ties.
def maxpool_indices(x, kernel, stride, dilation, pads, ceil, column_major):
    n, c, h, w = x.shape
    sizes = []
    for i, length in enumerate((h, w)):
        span = length + pads[i] + pads[i + 2] - dilation[i] * (kernel[i] - 1) - 1
        sizes.append((-(-span // stride[i]) if ceil else span // stride[i]) + 1)
    values = np.zeros((n, c) + tuple(sizes), np.float32)
    indices = np.zeros((n, c) + tuple(sizes), np.int64)
    for b, ch, oy, ox in np.ndindex(n, c, *sizes):
        best = None
        for ky, kx in np.ndindex(*kernel):
            y = oy * stride[0] + ky * dilation[0] - pads[0]
            xx = ox * stride[1] + kx * dilation[1] - pads[1]
            if 0 <= y < h and 0 <= xx < w and (best is None or x[b, ch, y, xx] > best[0]):
                offset = xx * h + y if column_major else y * w + xx
                best = (x[b, ch, y, xx], (b * c + ch) * h * w + offset)
        values[b, ch, oy, ox], indices[b, ch, oy, ox] = best
    return values, indices


x = rng.integers(0, 4, (2, 3, 7, 6)).astype(np.float32)
for order in (0, 1):
    pool = model(
        [helper.make_node("MaxPool", ["x"], ["y", "i"], kernel_shape=[3, 2], strides=[2, 2],
                          dilations=[1, 2], pads=[1, 0, 1, 1], ceil_mode=1,
                          storage_order=order)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 7, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("i", TensorProto.INT64, None)], [], 12)
    y, i = mlc.create_executor(mod=from_onnx(pool)).evaluate()(x)
    want_y, want_i = maxpool_indices(x, [3, 2], [2, 2], [1, 2], [1, 0, 1, 1], True, order == 1)
    np.testing.assert_array_equal(y, want_y)
    np.testing.assert_array_equal(i, want_i)
    print("maxpool indices storage_order=%d: ok" % order)

# 3-D ConvTranspose with strides, dilations, pads (one larger than the
# kernel reach, which crops), output_padding and two
# groups, against a numpy scatter-add over the input positions.
def conv_transpose3d(x, w, stride, dilation, pads, output_padding, groups):
    n, c, *size = x.shape
    cin, og, *k = w.shape
    cg = cin // groups
    full = [(size[i] - 1) * stride[i] + dilation[i] * (k[i] - 1) + 1 + output_padding[i]
            for i in range(3)]
    out = np.zeros((n, og * groups) + tuple(full))
    for ch, *pos in np.ndindex(c, *size):
        g = ch // cg
        for taps in np.ndindex(*k):
            at = tuple(pos[i] * stride[i] + taps[i] * dilation[i] for i in range(3))
            out[(slice(None), slice(g * og, (g + 1) * og)) + at] += (
                x[(slice(None), ch) + tuple(pos)][:, None] * w[(ch, slice(None)) + taps])
    return out[(slice(None), slice(None)) + tuple(
        slice(pads[i], full[i] - pads[i + 3]) for i in range(3))]


wt = rng.standard_normal((4, 3, 2, 3, 2)).astype(np.float32)
tconv = model(
    [helper.make_node("ConvTranspose", ["x", "w"], ["y"], group=2, strides=[2, 1, 3],
                      dilations=[1, 2, 1], pads=[1, 0, 2, 0, 2, 0], output_padding=[1, 0, 2])],
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 3, 4, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [init("w", wt)], 13)
x = rng.standard_normal((1, 4, 3, 4, 3)).astype(np.float32)
check("conv_transpose3d", mlc.create_executor(mod=from_onnx(tconv)).evaluate()(x),
      conv_transpose3d(x.astype(np.float64), wt.astype(np.float64), [2, 1, 3], [1, 2, 1],
                       [1, 0, 2, 0, 2, 0], [1, 0, 2], 2))
