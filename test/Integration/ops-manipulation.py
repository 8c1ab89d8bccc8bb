# Shape manipulation ops end to end: Relay text -> relay-to-relax ->
# relax-legalize-ops (TOPI-style kernels) -> CPU pipeline -> mlc-run, against
# numpy on random inputs (fixed seed). Every relay op of the family is run
# (reshape with its 0/-1/-2/-3/-4 codes, transpose, expand_dims, squeeze,
# concatenate, split by sections and indices, strided_slice in end and size
# modes, take in clip/wrap/fast modes, broadcast_to, nn.batch_flatten, nn.pad
# in constant/edge/reflect modes), then the relax ops directly on symbolic
# shapes (a static entry match_casts to `n`, as in relax-mlp.py).
#
# These ops only move elements, so results must equal numpy exactly
# (assert_array_equal, i.e. rtol = atol = 0). Each group of cases is one
# function with several results, so one compilation per group.
# RUN: %python %s | FileCheck %s
# CHECK: reshape [13, -1] 7x13: ok
# CHECK: reshape [0, -1]: ok
# CHECK: reshape [-3, -2]: ok
# CHECK: reshape [-3, -1]: ok
# CHECK: reshape [0, 0, -4, 2, -1, 5]: ok
# CHECK: reshape [-1] to 1-D: ok
# CHECK: reshape to 1x1 dims: ok
# CHECK: reshape view of a parameter, max: ok
# CHECK: reshape view of a kernel's result, max: ok
# CHECK: reshape views of one buffer, two readers: ok
# CHECK: reshape of a kernel's result, returned: ok
# CHECK: transpose axes [1, 0, 2]: ok
# CHECK: transpose no axes: ok
# CHECK: transpose negative axes: ok
# CHECK: transpose 37x70: ok
# CHECK: transpose 17x33x40 axes [2, 0, 1]: ok
# CHECK: transpose 17x33x40 axes [0, 2, 1]: ok
# CHECK: expand_dims axis=1 num_newaxis=2: ok
# CHECK: expand_dims axis=-1: ok
# CHECK: expand_dims axis=0 i32: ok
# CHECK: squeeze all: ok
# CHECK: squeeze axis=[2]: ok
# CHECK: squeeze axis=[-4, 2]: ok
# CHECK: concatenate axis=1 three inputs: ok
# CHECK: concatenate axis=0: ok
# CHECK: concatenate axis=-1 with size-1 part: ok
# CHECK: concatenate one input: ok
# CHECK: split sections=3 axis=1: ok
# CHECK: split indices=[1, 4] axis=0: ok
# CHECK: split indices=[2] axis=-1: ok
# CHECK: strided_slice strides [2, 3]: ok
# CHECK: strided_slice negative stride: ok
# CHECK: strided_slice clamped begin/end: ok
# CHECK: strided_slice leading dims only: ok
# CHECK: strided_slice axes=[2, 0]: ok
# CHECK: strided_slice slice_mode=size: ok
# CHECK: strided_slice and pad random sweep (35 cases): ok
# CHECK: take clip axis=0: ok
# CHECK: take clip axis=1 2-D indices: ok
# CHECK: take wrap axis=-1 i64 indices: ok
# CHECK: take flattened clip: ok
# CHECK: take flattened wrap: ok
# CHECK: take fast axis=0: ok
# CHECK: broadcast_to 1x13 -> 7x13: ok
# CHECK: broadcast_to 3x1 -> 2x3x5: ok
# CHECK: broadcast_to i32 1 -> 4x1x3: ok
# CHECK: batch_flatten 2x3x1x5: ok
# CHECK: batch_flatten 7x13: ok
# CHECK: pad constant literal: ok
# CHECK: pad constant operand with crop: ok
# CHECK: pad edge: ok
# CHECK: pad reflect: ok
# CHECK: pad int32 constant: ok
# CHECK: squeeze to 0-d: ok
# CHECK: reshape 0-d to 1x1x1: ok
# CHECK: broadcast_to from 0-d: ok
# CHECK: expand_dims of 0-d: ok
# CHECK: take scalar index: ok
# CHECK: concatenate with empty inputs: ok
# CHECK: pad empty data: ok
# CHECK: symbolic n=5: reshape: ok
# CHECK: symbolic n=5: permute_dims: ok
# CHECK: symbolic n=5: expand_dims+squeeze: ok
# CHECK: symbolic n=5: strided_slice: ok
# CHECK: symbolic n=5: concat: ok
# CHECK: symbolic n=5: split: ok
# CHECK: symbolic n=5: take: ok
# CHECK: symbolic n=5: pad: ok
# CHECK: symbolic n=5: broadcast_to: ok
# CHECK: symbolic n=1: reshape: ok
# CHECK: symbolic n=1: permute_dims: ok
# CHECK: symbolic n=1: expand_dims+squeeze: ok
# CHECK: symbolic n=1: strided_slice: ok
# CHECK: symbolic n=1: concat: ok
# CHECK: symbolic n=1: split: ok
# CHECK: symbolic n=1: take: ok
# CHECK: symbolic n=1: pad: ok
# CHECK: symbolic n=1: broadcast_to: ok
# CHECK: gather_elements axis=0 6x5x3: ok
# CHECK: gather_elements axis=1 4x2x3: ok
# CHECK: gather_elements axis=-1 3x5x4: ok
# CHECK: gather_elements axis=2 2x3x1: ok
# CHECK: scatter_elements axis=0 update: ok
# CHECK: scatter_elements axis=0 add: ok
# CHECK: scatter_elements axis=0 mul: ok
# CHECK: scatter_elements axis=0 min: ok
# CHECK: scatter_elements axis=0 max: ok
# CHECK: scatter_elements axis=-1: ok
# CHECK: scatter_nd k=1 update: ok
# CHECK: scatter_nd k=2 add: ok
# CHECK: scatter_nd k=3 max: ok

import numpy as np
import mlc

rng = np.random.default_rng(7)

DTYPES = {np.float32: "float32", np.int32: "int32", np.int64: "int64"}


def rand(*shape, dtype=np.float32):
    if dtype == np.float32:
        return rng.standard_normal(shape).astype(np.float32)
    return rng.integers(-100, 100, size=shape).astype(dtype)


def tensor_type(array):
    dims = ", ".join(str(d) for d in array.shape)
    if len(array.shape) == 1:
        dims += ","
    return "Tensor[(%s), %s]" % (dims, DTYPES[array.dtype.type])


def run_relay(inputs, body):
    """Runs `def @main(<inputs>) { body }`; `inputs` maps names to arrays.
    Returns the list of results."""
    params = ", ".join("%%%s: %s" % (name, tensor_type(array))
                       for name, array in inputs.items())
    text = '#[version = "0.0.5"]\ndef @main(%s) {\n%s\n}\n' % (params, body)
    mod = mlc.relay.fromtext(text)
    out = mlc.create_executor(mod=mod).evaluate()(**inputs)
    return out if isinstance(out, list) else [out]


def check_group(inputs, cases):
    """`cases` is a list of (name, relay expression, expected array); all
    expressions are results of one function."""
    body = "  (%s)" % ", ".join(expr for _, expr, _ in cases)
    if len(cases) == 1:
        body = "  " + cases[0][1]
    outs = run_relay(inputs, body)
    assert len(outs) == len(cases), (len(outs), len(cases))
    for (name, _, expected), out in zip(cases, outs):
        assert out.shape == expected.shape, (name, out.shape, expected.shape)
        assert out.dtype == expected.dtype, (name, out.dtype, expected.dtype)
        np.testing.assert_array_equal(out, expected, err_msg=name)
        print("%s: ok" % name)


# reshape: Relay's special codes, shapes written out by hand from TVM's
# documentation of each code.
x713 = rand(7, 13)
x234 = rand(2, 3, 4)
x2345 = rand(2, 3, 4, 5)
check_group({"a": x713, "b": x234, "c": x2345}, [
    ("reshape [13, -1] 7x13", "reshape(%a, newshape=[13, -1])", x713.reshape(13, 7)),
    ("reshape [0, -1]", "reshape(%b, newshape=[0, -1])", x234.reshape(2, 12)),
    ("reshape [-3, -2]", "reshape(%c, newshape=[-3, -2])", x2345.reshape(6, 4, 5)),
    ("reshape [-3, -1]", "reshape(%c, newshape=[-3, -1])", x2345.reshape(6, 20)),
    ("reshape [0, 0, -4, 2, -1, 5]", "reshape(%c, newshape=[0, 0, -4, 2, -1, 5])",
     x2345.reshape(2, 3, 2, 2, 5)),
    ("reshape [-1] to 1-D", "reshape(%b, newshape=[-1])", x234.reshape(24)),
    ("reshape to 1x1 dims", "reshape(%a, newshape=[1, 91, 1])", x713.reshape(1, 91, 1)),
])

# Reshapes that feed a reduction stay alone in their fusion groups: they
# become views of their inputs (relax-rewrite-dataflow-reshape), not copy
# kernels. Exact ops only (negative, max), so the results must be equal.
check_group({"c": x2345}, [
    ("reshape view of a parameter, max", "max(reshape(%c, newshape=[6, 20]), axis=[1])",
     x2345.reshape(6, 20).max(axis=1)),
    ("reshape view of a kernel's result, max",
     "max(expand_dims(reshape(max(%c, axis=[3]), newshape=[6, 4]), axis=1), axis=[0, 1])",
     x2345.max(axis=3).reshape(6, 1, 4).max(axis=(0, 1))),
    ("reshape views of one buffer, two readers",
     "add(max(reshape(%c, newshape=[4, 30]), axis=[1]), max(reshape(%c, newshape=[30, 4]), axis=[0]))",
     x2345.reshape(4, 30).max(axis=1) + x2345.reshape(30, 4).max(axis=0)),
])
# Returned, the view's buffer is allocated in the returned shape: the
# reduction writes the result through the view.
check_group({"c": x2345}, [
    ("reshape of a kernel's result, returned", "reshape(max(%c, axis=[3]), newshape=[3, 8])",
     x2345.max(axis=3).reshape(3, 8)),
])

# transpose
x713 = rand(7, 1, 13)
check_group({"a": x713}, [
    ("transpose axes [1, 0, 2]", "transpose(%a, axes=[1, 0, 2])", x713.transpose(1, 0, 2)),
    ("transpose no axes", "transpose(%a)", x713.transpose()),
    ("transpose negative axes", "transpose(%a, axes=[-1, 0, -2])", x713.transpose(2, 0, 1)),
])
# Large enough for the CPU schedule's transposing tiles (16 x 16 read as rows
# and transposed in registers), with partial tiles at the edges.
x = rand(37, 70)
y = rand(17, 33, 40)
check_group({"a": x, "b": y}, [
    ("transpose 37x70", "transpose(%a, axes=[1, 0])", x.T),
    ("transpose 17x33x40 axes [2, 0, 1]", "transpose(%b, axes=[2, 0, 1])", y.transpose(2, 0, 1)),
    ("transpose 17x33x40 axes [0, 2, 1]", "transpose(%b, axes=[0, 2, 1])", y.transpose(0, 2, 1)),
])

# expand_dims
x = rand(7, 13)
xi = rand(5, dtype=np.int32)
check_group({"a": x, "i": xi}, [
    ("expand_dims axis=1 num_newaxis=2", "expand_dims(%a, axis=1, num_newaxis=2)",
     x.reshape(7, 1, 1, 13)),
    ("expand_dims axis=-1", "expand_dims(%a, axis=-1)", x[:, :, None]),
    ("expand_dims axis=0 i32", "expand_dims(%i, axis=0)", xi[None]),
])

# squeeze
x = rand(1, 7, 1, 13)
check_group({"a": x}, [
    ("squeeze all", "squeeze(%a)", x.reshape(7, 13)),
    ("squeeze axis=[2]", "squeeze(%a, axis=[2])", x.reshape(1, 7, 13)),
    ("squeeze axis=[-4, 2]", "squeeze(%a, axis=[-4, 2])", x.reshape(7, 13)),
])

# concatenate
a, b, c = rand(7, 3), rand(7, 1), rand(7, 5)
d, e = rand(2, 13), rand(5, 13)
check_group({"a": a, "b": b, "c": c, "d": d, "e": e}, [
    ("concatenate axis=1 three inputs", "concatenate((%a, %b, %c), axis=1)",
     np.concatenate([a, b, c], axis=1)),
    ("concatenate axis=0", "concatenate((%d, %e), axis=0)", np.concatenate([d, e], axis=0)),
    ("concatenate axis=-1 with size-1 part", "concatenate((%b, %a, %b), axis=-1)",
     np.concatenate([b, a, b], axis=-1)),
    ("concatenate one input", "concatenate((%c,), axis=0)", c.copy()),
])

# split: every part is a result.
x29, x73 = rand(2, 9), rand(7, 3)
parts1 = np.split(x29, 3, axis=1)
parts2 = np.split(x73, [1, 4], axis=0)
parts3 = np.split(x73, [2], axis=-1)
body = """  %0 = split(%a, indices_or_sections=3, axis=1);
  %1 = split(%b, indices_or_sections=[1, 4], axis=0);
  %2 = split(%b, indices_or_sections=[2], axis=-1);
  (%0.0, %0.1, %0.2, %1.0, %1.1, %1.2, %2.0, %2.1)"""
outs = run_relay({"a": x29, "b": x73}, body)
for name, expected, got in [("split sections=3 axis=1", parts1, outs[0:3]),
                            ("split indices=[1, 4] axis=0", parts2, outs[3:6]),
                            ("split indices=[2] axis=-1", parts3, outs[6:8])]:
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(g, e, err_msg=name)
    print("%s: ok" % name)

# strided_slice: explicit begin/end/strides follow Python slicing (negative
# indices from the end, clamping to the dimension).
x = rand(7, 13, 5)
check_group({"a": x}, [
    ("strided_slice strides [2, 3]", "strided_slice(%a, begin=[1, 0], end=[6, 13], strides=[2, 3])",
     x[1:6:2, 0:13:3]),
    ("strided_slice negative stride", "strided_slice(%a, begin=[-1, 11], end=[-8, 1], strides=[-2, -4])",
     x[-1:-8:-2, 11:1:-4]),
    ("strided_slice clamped begin/end", "strided_slice(%a, begin=[-100, 2, 1], end=[100, 1000, 5])",
     x[-100:100, 2:1000, 1:5]),
    ("strided_slice leading dims only", "strided_slice(%a, begin=[3], end=[5])", x[3:5]),
    ("strided_slice axes=[2, 0]", "strided_slice(%a, begin=[1, 2], end=[4, 7], strides=[2, 1], axes=[2, 0])",
     x[2:7, :, 1:4:2]),
    # Sizes instead of ends; -1 is "to the end".
    ("strided_slice slice_mode=size", 'strided_slice(%a, begin=[2, 3, 0], end=[3, -1, 2], slice_mode="size")',
     x[2:5, 3:, 0:2]),
])

# Random strided_slice and nn.pad parameters (fixed seed) in one function:
# Python slicing and np.pad are the references. Empty slices are skipped
# (Relay rejects them).
x = rand(7, 13, 5)
sweep = []
while len([c for c in sweep if c[0].startswith("strided")]) < 20:
    nd = int(rng.integers(1, 4))
    b, e = rng.integers(-16, 16, nd).tolist(), rng.integers(-16, 16, nd).tolist()
    st = rng.choice([-3, -2, -1, 1, 2, 4], nd).tolist()
    ref = x[tuple(slice(b[i], e[i], st[i]) for i in range(nd))]
    if ref.size:
        sweep.append(("strided_slice(%%a, begin=%s, end=%s, strides=%s)" % (b, e, st), ref))
for _ in range(5):
    before, after = rng.integers(0, 5, 3).tolist(), rng.integers(0, 5, 3).tolist()
    width = [[p, q] for p, q in zip(before, after)]
    sweep.append(("nn.pad(%%a, 0.5f, pad_width=%s)" % width,
                  np.pad(x, width, constant_values=0.5)))
    sweep.append(('nn.pad(%%a, 0f, pad_width=%s, pad_mode="edge")' % width,
                  np.pad(x, width, mode="edge")))
    width = [[int(rng.integers(0, d)), int(rng.integers(0, d))] for d in x.shape]
    sweep.append(('nn.pad(%%a, 0f, pad_width=%s, pad_mode="reflect")' % width,
                  np.pad(x, width, mode="reflect")))
outs = run_relay({"a": x}, "  (%s)" % ", ".join(expr for expr, _ in sweep))
for (expr, expected), out in zip(sweep, outs):
    assert out.shape == expected.shape, (expr, out.shape, expected.shape)
    np.testing.assert_array_equal(out, expected, err_msg=expr)
print("strided_slice and pad random sweep (%d cases): ok" % len(sweep))

# take: numpy's clip and wrap modes are TVM's (clip clamps into [0, n), wrap
# is the index modulo n).
x = rand(7, 13)
i1 = rng.integers(-10, 20, size=(6,)).astype(np.int32)
i2 = rng.integers(-20, 30, size=(2, 3)).astype(np.int32)
i3 = rng.integers(-40, 40, size=(9,)).astype(np.int64)
i4 = rng.integers(-20, 120, size=(3, 4)).astype(np.int32)
i5 = rng.integers(0, 7, size=(4,)).astype(np.int32)
check_group({"a": x, "i1": i1, "i2": i2, "i3": i3, "i4": i4, "i5": i5}, [
    ("take clip axis=0", "take(%a, %i1, axis=0)", np.take(x, i1, axis=0, mode="clip")),
    ("take clip axis=1 2-D indices", 'take(%a, %i2, axis=1, mode="clip")',
     np.take(x, i2, axis=1, mode="clip")),
    ("take wrap axis=-1 i64 indices", 'take(%a, %i3, axis=-1, mode="wrap")',
     np.take(x, i3, axis=-1, mode="wrap")),
    ("take flattened clip", "take(%a, %i4)", np.take(x, i4, mode="clip")),
    ("take flattened wrap", 'take(%a, %i4, mode="wrap")', np.take(x, i4, mode="wrap")),
    ("take fast axis=0", 'take(%a, %i5, axis=0, mode="fast")', np.take(x, i5, axis=0)),
])

# broadcast_to
a, b, c = rand(1, 13), rand(3, 1), rand(1, dtype=np.int32)
check_group({"a": a, "b": b, "c": c}, [
    ("broadcast_to 1x13 -> 7x13", "broadcast_to(%a, shape=[7, 13])", np.broadcast_to(a, (7, 13))),
    ("broadcast_to 3x1 -> 2x3x5", "broadcast_to(%b, shape=[2, 3, 5])", np.broadcast_to(b, (2, 3, 5))),
    ("broadcast_to i32 1 -> 4x1x3", "broadcast_to(%c, shape=[4, 1, 3])", np.broadcast_to(c, (4, 1, 3))),
])

# nn.batch_flatten
a, b = rand(2, 3, 1, 5), rand(7, 13)
check_group({"a": a, "b": b}, [
    ("batch_flatten 2x3x1x5", "nn.batch_flatten(%a)", a.reshape(2, 15)),
    ("batch_flatten 7x13", "nn.batch_flatten(%b)", b.copy()),
])

# nn.pad: pad_width is per dimension (before, after); negative widths crop.
x = rand(2, 7, 13)
v = np.array(-2.5, dtype=np.float32)
xi = rand(3, 4, dtype=np.int32)
check_group({"a": x, "v": v, "i": xi}, [
    ("pad constant literal", "nn.pad(%a, 1.5f, pad_width=[[0, 0], [1, 2], [3, 0]])",
     np.pad(x, [(0, 0), (1, 2), (3, 0)], constant_values=1.5)),
    ("pad constant operand with crop", "nn.pad(%a, %v, pad_width=[[1, 0], [-2, 1], [2, -3]])",
     np.pad(x, [(1, 0), (0, 1), (2, 0)], constant_values=-2.5)[:, 2:, :-3]),
    ("pad edge", 'nn.pad(%a, 0f, pad_width=[[1, 1], [3, 2], [0, 4]], pad_mode="edge")',
     np.pad(x, [(1, 1), (3, 2), (0, 4)], mode="edge")),
    ("pad reflect", 'nn.pad(%a, 0f, pad_width=[[1, 0], [6, 2], [5, 12]], pad_mode="reflect")',
     np.pad(x, [(1, 0), (6, 2), (5, 12)], mode="reflect")),
    ("pad int32 constant", "nn.pad(%i, 7, pad_width=[[2, 1], [0, 3]])",
     np.pad(xi, [(2, 1), (0, 3)], constant_values=7)),
])

# 0-d and empty tensors.
x11, s0, y3, x23, e = rand(1, 1), rand(), rand(3), rand(2, 3), rand(2, 0)
check_group({"x": x11, "s": s0, "y": y3, "z": x23, "e": e}, [
    ("squeeze to 0-d", "squeeze(%x)", x11.reshape(())),
    ("reshape 0-d to 1x1x1", "reshape(%s, newshape=[1, 1, 1])", s0.reshape(1, 1, 1)),
    ("broadcast_to from 0-d", "broadcast_to(%s, shape=[2, 3])", np.broadcast_to(s0, (2, 3))),
    ("expand_dims of 0-d", "expand_dims(%s, axis=0)", s0.reshape(1)),
    ("take scalar index", "take(%y, 1)", y3[1]),
    ("concatenate with empty inputs", "concatenate((%e, %z, %e), axis=1)",
     np.concatenate([e, x23, e], axis=1)),
    ("pad empty data", "nn.pad(%e, 4f, pad_width=[[0, 0], [1, 2]])", np.full((2, 3), 4, np.float32)),
])

# Relax ops on a symbolic batch n: the static entry match_casts its inputs
# to n and the results back (declared result types give the symbolic shapes
# that relax's static-shape inference leaves as `?`).
SYMBOLIC = """
func.func @main(%x: tensor<{N}x6xf32> {{relax.name = "x"}},
                %y: tensor<{N}x2xf32> {{relax.name = "y"}},
                %idx: tensor<4xi64> {{relax.name = "idx"}},
                %row: tensor<{N}x1x3xf32> {{relax.name = "row"}},
                %pv: tensor<f32> {{relax.name = "pv"}})
    -> (tensor<{N}x6xf32>, tensor<6x{N}xf32>, tensor<{N}x6xf32>, tensor<{N}x2xf32>,
        tensor<{N}x8xf32>, tensor<{N}x4xf32>, tensor<{N}x2xf32>, tensor<{N}x4xf32>,
        tensor<{N}x9xf32>, tensor<5x4x3xf32>) {{
  %xn = relax.match_cast %x : tensor<{N}x6xf32> to tensor<?x6xf32, #relax.shape<[n, 6]>>
  %yn = relax.match_cast %y : tensor<{N}x2xf32> to tensor<?x2xf32, #relax.shape<[n, 2]>>
  %rn = relax.match_cast %row : tensor<{N}x1x3xf32> to tensor<?x1x3xf32, #relax.shape<[n, 1, 3]>>
  %o:10 = relax.dataflow -> tensor<?x6xf32, #relax.shape<[n, 6]>>, tensor<6x?xf32, #relax.shape<[6, n]>>,
      tensor<?x6xf32, #relax.shape<[n, 6]>>, tensor<?x2xf32, #relax.shape<[n, 2]>>,
      tensor<?x8xf32, #relax.shape<[n, 8]>>, tensor<?x4xf32, #relax.shape<[n, 4]>>,
      tensor<?x2xf32, #relax.shape<[n, 2]>>, tensor<?x4xf32, #relax.shape<[n, 4]>>,
      tensor<?x9xf32, #relax.shape<[n, 9]>>, tensor<5x4x3xf32> {{
    // reshape [n, 6] -> [n, 3, 2] -> [n, 6] through a transposed middle.
    %r0 = relax.reshape %xn {{shape = array<i64: -1, 3, 2>}} : (tensor<?x6xf32, #relax.shape<[n, 6]>>) -> tensor<?x3x2xf32, #relax.shape<[n, 3, 2]>>
    %r1 = relax.permute_dims %r0 {{axes = array<i64: 0, 2, 1>}} : (tensor<?x3x2xf32, #relax.shape<[n, 3, 2]>>) -> tensor<?x2x3xf32, #relax.shape<[n, 2, 3]>>
    %r2 = relax.reshape %r1 {{shape = array<i64: -1, 6>}} : (tensor<?x2x3xf32, #relax.shape<[n, 2, 3]>>) -> tensor<?x6xf32, #relax.shape<[n, 6]>>
    %t = relax.permute_dims %xn : (tensor<?x6xf32, #relax.shape<[n, 6]>>) -> tensor<6x?xf32, #relax.shape<[6, n]>>
    %e = relax.expand_dims %xn {{axis = array<i64: 1, -1>}} : (tensor<?x6xf32, #relax.shape<[n, 6]>>) -> tensor<?x1x6x1xf32, #relax.shape<[n, 1, 6, 1]>>
    %sq = relax.squeeze %e {{axis = array<i64: 1, 3>}} : (tensor<?x1x6x1xf32, #relax.shape<[n, 1, 6, 1]>>) -> tensor<?x6xf32, #relax.shape<[n, 6]>>
    %ss = relax.strided_slice %xn {{begin = array<i64: 5, -1>, end = array<i64: 0, -100>, strides = array<i64: -3, -1>, axes = array<i64: 1, 0>}} : (tensor<?x6xf32, #relax.shape<[n, 6]>>) -> tensor<?x2xf32, #relax.shape<[n, 2]>>
    %c = relax.concat %yn, %xn {{axis = 1}} : (tensor<?x2xf32, #relax.shape<[n, 2]>>, tensor<?x6xf32, #relax.shape<[n, 6]>>) -> tensor<?x8xf32, #relax.shape<[n, 8]>>
    %s0, %s1 = relax.split %xn {{indices_or_sections = array<i64: 4>, axis = 1}} : (tensor<?x6xf32, #relax.shape<[n, 6]>>) -> (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<?x2xf32, #relax.shape<[n, 2]>>)
    %tk = relax.take %xn, %idx {{axis = 1, mode = "wrap"}} : (tensor<?x6xf32, #relax.shape<[n, 6]>>, tensor<4xi64>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
    %p = relax.nn.pad %xn, %pv {{pad_width = array<i64: 0, 0, 1, 2>, pad_mode = "reflect"}} : (tensor<?x6xf32, #relax.shape<[n, 6]>>, tensor<f32>) -> tensor<?x9xf32, #relax.shape<[n, 9]>>
    // n is 5 or 1 here: a dynamic dimension that broadcasts when it is 1.
    %b = relax.broadcast_to %rn {{shape = array<i64: 5, 4, 3>}} : (tensor<?x1x3xf32, #relax.shape<[n, 1, 3]>>) -> tensor<5x4x3xf32>
    relax.output %r2, %t, %sq, %ss, %c, %s0, %s1, %tk, %p, %b : tensor<?x6xf32, #relax.shape<[n, 6]>>, tensor<6x?xf32, #relax.shape<[6, n]>>,
      tensor<?x6xf32, #relax.shape<[n, 6]>>, tensor<?x2xf32, #relax.shape<[n, 2]>>,
      tensor<?x8xf32, #relax.shape<[n, 8]>>, tensor<?x4xf32, #relax.shape<[n, 4]>>,
      tensor<?x2xf32, #relax.shape<[n, 2]>>, tensor<?x4xf32, #relax.shape<[n, 4]>>,
      tensor<?x9xf32, #relax.shape<[n, 9]>>, tensor<5x4x3xf32>
  }}
  %0 = relax.match_cast %o#0 : tensor<?x6xf32, #relax.shape<[n, 6]>> to tensor<{N}x6xf32>
  %1 = relax.match_cast %o#1 : tensor<6x?xf32, #relax.shape<[6, n]>> to tensor<6x{N}xf32>
  %2 = relax.match_cast %o#2 : tensor<?x6xf32, #relax.shape<[n, 6]>> to tensor<{N}x6xf32>
  %3 = relax.match_cast %o#3 : tensor<?x2xf32, #relax.shape<[n, 2]>> to tensor<{N}x2xf32>
  %4 = relax.match_cast %o#4 : tensor<?x8xf32, #relax.shape<[n, 8]>> to tensor<{N}x8xf32>
  %5 = relax.match_cast %o#5 : tensor<?x4xf32, #relax.shape<[n, 4]>> to tensor<{N}x4xf32>
  %6 = relax.match_cast %o#6 : tensor<?x2xf32, #relax.shape<[n, 2]>> to tensor<{N}x2xf32>
  %7 = relax.match_cast %o#7 : tensor<?x4xf32, #relax.shape<[n, 4]>> to tensor<{N}x4xf32>
  %8 = relax.match_cast %o#8 : tensor<?x9xf32, #relax.shape<[n, 9]>> to tensor<{N}x9xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %o#9 : tensor<{N}x6xf32>, tensor<6x{N}xf32>, tensor<{N}x6xf32>, tensor<{N}x2xf32>,
      tensor<{N}x8xf32>, tensor<{N}x4xf32>, tensor<{N}x2xf32>, tensor<{N}x4xf32>, tensor<{N}x9xf32>, tensor<5x4x3xf32>
}}
"""

for n in (5, 1):
    x, y, row = rand(n, 6), rand(n, 2), rand(n, 1, 3)
    idx = np.array([-1, 7, 0, -8], dtype=np.int64)
    pv = np.array(0, dtype=np.float32)
    outs = mlc.create_executor(mod=mlc.Module(SYMBOLIC.format(N=n))).evaluate()(
        x=x, y=y, idx=idx, row=row, pv=pv)
    expected = [
        ("reshape", [x.reshape(n, 3, 2).transpose(0, 2, 1).reshape(n, 6)]),
        ("permute_dims", [x.T]),
        ("expand_dims+squeeze", [x]),
        ("strided_slice", [x[::-1, 5:0:-3]]),
        ("concat", [np.concatenate([y, x], axis=1)]),
        ("split", np.split(x, [4], axis=1)),
        ("take", [np.take(x, idx, axis=1, mode="wrap")]),
        ("pad", [np.pad(x, [(0, 0), (1, 2)], mode="reflect")]),
        ("broadcast_to", [np.broadcast_to(row, (5, 4, 3))]),
    ]
    position = 0
    for name, arrays in expected:
        for array in arrays:
            np.testing.assert_array_equal(outs[position], array, err_msg=name)
            position += 1
        print("symbolic n=%d: %s: ok" % (n, name))

# gather_elements (relax only): np.take_along_axis, negative indices from the
# end, indices smaller than the data along the other axes, each axis.
GATHER = """
func.func @main(%x: tensor<4x5x3xf32> {{relax.name = "x"}}, %i: tensor<{S}xi64> {{relax.name = "i"}})
    -> tensor<{S}xf32> {{
  %0 = relax.gather_elements %x, %i {{axis = {A} : i64}} : (tensor<4x5x3xf32>, tensor<{S}xi64>) -> tensor<{S}xf32>
  return %0 : tensor<{S}xf32>
}}
"""
x = rand(4, 5, 3)
for axis, shape in ((0, (6, 5, 3)), (1, (4, 2, 3)), (-1, (3, 5, 4)), (2, (2, 3, 1))):
    n = x.shape[axis]
    i = rng.integers(-n, n, size=shape).astype(np.int64)
    text = GATHER.format(S="x".join(map(str, shape)), A=axis)
    out = mlc.create_executor(mod=mlc.Module(text)).evaluate()(x=x, i=i)
    np.testing.assert_array_equal(out, np.take_along_axis(x[tuple(slice(0, s) if d != axis % 3 else slice(None) for d, s in enumerate(shape))], np.where(i < 0, i + n, i), axis=axis))
    print("gather_elements axis=%d %s: ok" % (axis, "x".join(map(str, shape))))

# scatter_elements and scatter_nd (relax only) against a numpy loop that
# applies the updates in row-major order (later ones win; duplicates
# combine under add/mul/min/max), negative indices from the end.
SCATTER = """
func.func @main(%x: tensor<{D}xf32> {{relax.name = "x"}}, %i: tensor<{I}xi64> {{relax.name = "i"}},
                %u: tensor<{U}xf32> {{relax.name = "u"}}) -> tensor<{D}xf32> {{
  %0 = relax.{OP} %x, %i, %u {{{ATTRS}}} : (tensor<{D}xf32>, tensor<{I}xi64>, tensor<{U}xf32>) -> tensor<{D}xf32>
  return %0 : tensor<{D}xf32>
}}
"""
COMBINE = {"update": lambda a, b: b, "add": np.add, "mul": np.multiply,
           "min": np.minimum, "max": np.maximum}


def run_scatter(op, attrs, x, i, u):
    dims = lambda a: "x".join(map(str, a.shape))
    text = SCATTER.format(D=dims(x), I=dims(i), U=dims(u), OP=op, ATTRS=attrs)
    return mlc.create_executor(mod=mlc.Module(text)).evaluate()(x=x, i=i, u=u)


x = rand(4, 5)
for reduction in ("update", "add", "mul", "min", "max"):
    i = rng.integers(-4, 4, size=(3, 5)).astype(np.int64)
    u = rand(3, 5)
    ref = x.copy()
    for p in np.ndindex(i.shape):
        at = (i[p] % 4, p[1])
        ref[at] = COMBINE[reduction](ref[at], u[p])
    out = run_scatter("scatter_elements", 'axis = 0 : i64, reduction = "%s"' % reduction, x, i, u)
    np.testing.assert_allclose(out, ref, rtol=1e-6, err_msg=reduction)
    print("scatter_elements axis=0 %s: ok" % reduction)
i = rng.integers(0, 5, size=(4, 2)).astype(np.int64)
u = rand(4, 2)
ref = x.copy()
for p in np.ndindex(i.shape):
    ref[p[0], i[p]] = u[p]
np.testing.assert_array_equal(run_scatter("scatter_elements", "axis = -1 : i64", x, i, u), ref)
print("scatter_elements axis=-1: ok")
y = rand(3, 4, 5)
for k, reduction in ((1, "update"), (2, "add"), (3, "max")):
    idx = np.stack([rng.integers(-n, n, size=(2, 3)) for n in y.shape[:k]], axis=-1).astype(np.int64)
    upd = rand(*(2, 3) + y.shape[k:])
    ref = y.copy()
    for p in np.ndindex(idx.shape[:-1]):
        at = tuple(int(v) % n for v, n in zip(idx[p], y.shape))
        ref[at] = COMBINE[reduction](ref[at], upd[p])
    out = run_scatter("scatter_nd", 'reduction = "%s"' % reduction, y, idx, upd)
    np.testing.assert_allclose(out, ref, rtol=1e-6)
    print("scatter_nd k=%d %s: ok" % (k, reduction))
