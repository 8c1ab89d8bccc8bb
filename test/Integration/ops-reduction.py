# Reductions and softmax through the whole CPU pipeline: Relay text ->
# relay-to-relax -> relax-legalize-ops (LegalizeReduction.cpp) -> LLVM, run
# by mlc-run, against numpy on random inputs (fixed seed). Every relay op of
# the family is in one module (one compilation) with one result per case;
# relax ops without a relay spelling (argmax over the flattened tensor with
# keepdims, a symbolic batch) are checked through a relax module.
#
# Tolerances: f32 against a float64 reference, rtol 1e-5 and
# atol 1e-6 * sqrt(K) for a reduction of length K (prod: rtol 1e-5 on
# values of magnitude ~1). Indices and integer reductions are exact.
# RUN: %python %s | FileCheck %s
# CHECK: sum axis=[1]: ok
# CHECK: sum axis=[0, 2] keepdims: ok
# CHECK: sum axis=[1] exclude: ok
# CHECK: sum all axes: ok
# CHECK: mean axis=[1]: ok
# CHECK: mean axis=[-1] keepdims: ok
# CHECK: mean exclude 1-sized: ok
# CHECK: max axis=[0]: ok
# CHECK: min axis=[1, 2]: ok
# CHECK: prod axis=[2]: ok
# CHECK: sum int32: ok
# CHECK: max int32 keepdims: ok
# CHECK: argmax axis=[1]: ok
# CHECK: argmin axis=[0] keepdims: ok
# CHECK: argmax all axes: ok
# CHECK: argmax ties: ok
# CHECK: argmin ties axis=[-1]: ok
# CHECK: argmax exclude: ok
# CHECK: softmax axis=1: ok
# CHECK: softmax axis=-1 large: ok
# CHECK: log_softmax: ok
# CHECK: log_softmax axis=0: ok
# CHECK: relax argmin flattened keepdims: ok
# CHECK: relax symbolic batch n=5: ok
# CHECK: relax rank-1 softmax: ok
# CHECK: relax rank-0 sum and argmin: ok
# CHECK: relax argmax flattened 3-d keepdims: ok
# CHECK: relax mean over a symbolic axis: ok

import numpy as np
import mlc

rng = np.random.default_rng(11)


def close(name, out, expected, k=1, rtol=1e-5):
    expected = np.asarray(expected)
    assert out.shape == expected.shape, (name, out.shape, expected.shape)
    np.testing.assert_allclose(out, expected, rtol=rtol, atol=1e-6 * np.sqrt(k),
                               err_msg=name)
    print("%s: ok" % name)


def exact(name, out, expected):
    expected = np.asarray(expected)
    assert out.shape == expected.shape, (name, out.shape, expected.shape)
    assert out.dtype == expected.dtype, (name, out.dtype, expected.dtype)
    np.testing.assert_array_equal(out, expected, err_msg=name)
    print("%s: ok" % name)


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis):
    s = x - x.max(axis=axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))


RELAY = """
#[version = "0.0.5"]
def @main(%x: Tensor[(7, 13, 5), float32], %p: Tensor[(7, 1, 5), float32],
          %i: Tensor[(6, 9), int32], %t: Tensor[(7, 13, 5), float32],
          %s: Tensor[(4, 33), float32]) {
  (sum(%x, axis=[1]),
   sum(%x, axis=[0, 2], keepdims=True),
   sum(%x, axis=[1], exclude=True),
   sum(%x),
   mean(%x, axis=[1]),
   mean(%x, axis=[-1], keepdims=True),
   mean(%p, axis=[1], exclude=True),
   max(%x, axis=[0]),
   min(%x, axis=[1, 2]),
   prod(%p, axis=[2]),
   sum(%i, axis=[0]),
   max(%i, axis=[1], keepdims=True),
   argmax(%x, axis=[1]),
   argmin(%x, axis=[0], keepdims=True),
   argmax(%x),
   argmax(%t, axis=[1]),
   argmin(%t, axis=[-1]),
   argmax(%p, axis=[0, 1], exclude=True),
   nn.softmax(%x, axis=1),
   nn.softmax(%s),
   nn.log_softmax(%s),
   nn.log_softmax(%x, axis=0))
}
"""

x = rng.standard_normal((7, 13, 5)).astype(np.float32)
# prod over values near 1 keeps the product well scaled.
p = rng.uniform(0.5, 1.5, (7, 1, 5)).astype(np.float32)
i = rng.integers(-100, 100, (6, 9)).astype(np.int32)
# Many ties: argmax/argmin must return the first index, as numpy.
t = rng.integers(0, 3, (7, 13, 5)).astype(np.float32)
# Large logits: only the max-shifted softmax stays finite.
s = (rng.standard_normal((4, 33)) * 100).astype(np.float32)
outs = mlc.create_executor(mod=mlc.relay.fromtext(RELAY)).evaluate()(x, p, i, t, s)
xd, pd, sd = x.astype(np.float64), p.astype(np.float64), s.astype(np.float64)

close("sum axis=[1]", outs[0], xd.sum(axis=1), 13)
close("sum axis=[0, 2] keepdims", outs[1], xd.sum(axis=(0, 2), keepdims=True), 35)
close("sum axis=[1] exclude", outs[2], xd.sum(axis=(0, 2)), 35)
close("sum all axes", outs[3], xd.sum(), x.size)
close("mean axis=[1]", outs[4], xd.mean(axis=1), 13)
close("mean axis=[-1] keepdims", outs[5], xd.mean(axis=-1, keepdims=True), 5)
close("mean exclude 1-sized", outs[6], pd.mean(axis=(0, 2)), 35)
close("max axis=[0]", outs[7], x.max(axis=0))
close("min axis=[1, 2]", outs[8], x.min(axis=(1, 2)))
close("prod axis=[2]", outs[9], pd.prod(axis=2))
exact("sum int32", outs[10], i.sum(axis=0, dtype=np.int32))
exact("max int32 keepdims", outs[11], i.max(axis=1, keepdims=True))
# Relay's argmax/argmin return int32.
exact("argmax axis=[1]", outs[12], x.argmax(axis=1).astype(np.int32))
exact("argmin axis=[0] keepdims",
      outs[13], x.argmin(axis=0)[None].astype(np.int32))
exact("argmax all axes", outs[14], np.array(x.argmax(), dtype=np.int32))
exact("argmax ties", outs[15], t.argmax(axis=1).astype(np.int32))
exact("argmin ties axis=[-1]", outs[16], t.argmin(axis=-1).astype(np.int32))
# exclude=True of axes [0, 1] reduces axis 2 only.
exact("argmax exclude", outs[17], p.argmax(axis=2).astype(np.int32))
close("softmax axis=1", outs[18], softmax(xd, 1), 13)
close("softmax axis=-1 large", outs[19], softmax(sd, -1), 33)
close("log_softmax", outs[20], log_softmax(sd, -1), 33, rtol=1e-5)
close("log_softmax axis=0", outs[21], log_softmax(xd, 0), 7)

# Relax directly: argmin without axis (the flattened index) with keepdims,
# and a symbolic batch n bound by match_cast (mlc-run entries are static).
RELAX = """
func.func @main(%x: tensor<5x13xf32> {relax.name = "x"})
    -> (tensor<1x1xi64>, tensor<5xf32>, tensor<5x13xf32>, tensor<5xi64>) {
  %a = relax.argmin %x {keepdims = true} : (tensor<5x13xf32>) -> tensor<1x1xi64>
  %xn = relax.match_cast %x : tensor<5x13xf32> to tensor<?x13xf32, #relax.shape<[n, 13]>>
  %m = relax.mean %xn {axis = array<i64: 1>} : (tensor<?x13xf32, #relax.shape<[n, 13]>>) -> tensor<?xf32, #relax.shape<[n]>>
  %s = relax.nn.softmax %xn : (tensor<?x13xf32, #relax.shape<[n, 13]>>) -> tensor<?x13xf32, #relax.shape<[n, 13]>>
  %i = relax.argmax %xn {axis = -1 : i64} : (tensor<?x13xf32, #relax.shape<[n, 13]>>) -> tensor<?xi64, #relax.shape<[n]>>
  %m5 = relax.match_cast %m : tensor<?xf32, #relax.shape<[n]>> to tensor<5xf32>
  %s5 = relax.match_cast %s : tensor<?x13xf32, #relax.shape<[n, 13]>> to tensor<5x13xf32>
  %i5 = relax.match_cast %i : tensor<?xi64, #relax.shape<[n]>> to tensor<5xi64>
  return %a, %m5, %s5, %i5 : tensor<1x1xi64>, tensor<5xf32>, tensor<5x13xf32>, tensor<5xi64>
}
"""
y = rng.standard_normal((5, 13)).astype(np.float32)
outs = mlc.create_executor(mod=mlc.Module(RELAX)).evaluate()(y)
exact("relax argmin flattened keepdims", outs[0],
      np.array(y.argmin(), dtype=np.int64).reshape(1, 1))
np.testing.assert_allclose(outs[1], y.astype(np.float64).mean(axis=1),
                           rtol=1e-5, atol=1e-6 * np.sqrt(13))
np.testing.assert_allclose(outs[2], softmax(y.astype(np.float64), 1),
                           rtol=1e-5, atol=1e-6 * np.sqrt(13))
np.testing.assert_array_equal(outs[3], y.argmax(axis=-1))
print("relax symbolic batch n=5: ok")

# Relax edge cases: rank-1 softmax (rank-0 statistics), rank-0 reductions
# (nothing reduced: a copy, index 0), the flattened argmax of a 3-d tensor
# and a mean over a symbolic axis (the count is read at run time).
EDGE = """
func.func @main(%v: tensor<9xf32> {relax.name = "v"}, %s: tensor<f32> {relax.name = "s"},
                %x: tensor<2x6x5xf32> {relax.name = "x"})
    -> (tensor<9xf32>, tensor<f32>, tensor<i64>, tensor<1x1x1xi64>, tensor<2x5xf32>) {
  %a = relax.nn.softmax %v : (tensor<9xf32>) -> tensor<9xf32>
  %b = relax.sum %s : (tensor<f32>) -> tensor<f32>
  %c = relax.argmin %s : (tensor<f32>) -> tensor<i64>
  %d = relax.argmax %x {keepdims = true} : (tensor<2x6x5xf32>) -> tensor<1x1x1xi64>
  %xn = relax.match_cast %x : tensor<2x6x5xf32> to tensor<2x?x5xf32, #relax.shape<[2, c, 5]>>
  %e = relax.mean %xn {axis = array<i64: 1>} : (tensor<2x?x5xf32, #relax.shape<[2, c, 5]>>) -> tensor<2x5xf32>
  return %a, %b, %c, %d, %e : tensor<9xf32>, tensor<f32>, tensor<i64>, tensor<1x1x1xi64>, tensor<2x5xf32>
}
"""
v = rng.standard_normal(9).astype(np.float32)
sc = np.array(2.5, np.float32)
x3 = rng.standard_normal((2, 6, 5)).astype(np.float32)
outs = mlc.create_executor(mod=mlc.Module(EDGE)).evaluate()(v, sc, x3)
close("relax rank-1 softmax", outs[0], softmax(v.astype(np.float64), 0), 9)
assert outs[1] == sc and outs[2] == 0 and outs[2].dtype == np.int64
print("relax rank-0 sum and argmin: ok")
exact("relax argmax flattened 3-d keepdims", outs[3],
      np.array(x3.argmax(), dtype=np.int64).reshape(1, 1, 1))
close("relax mean over a symbolic axis", outs[4],
      x3.astype(np.float64).mean(axis=1), 6)
