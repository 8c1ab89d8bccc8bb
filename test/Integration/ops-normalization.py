# Normalizations through the whole CPU pipeline: Relay text -> relay-to-relax
# -> relax-legalize-ops (LegalizeNormalization.cpp) -> LLVM, run by mlc-run,
# against numpy on random inputs (fixed seed). Every relay op of the family
# is in one module (one compilation) with one result per case; relax
# layer_norm over several axes and with a symbolic batch runs as relax.
#
# Tolerances: f32 against a float64 reference, rtol 1e-5 and
# atol 1e-5 * sqrt(K) for statistics over K elements (outputs are O(1)).
# RUN: %python %s | FileCheck %s
# CHECK: batch_norm axis=1 (%x.0): ok
# CHECK: batch_norm moving_mean (%x.1): ok
# CHECK: batch_norm moving_var (%x.2): ok
# CHECK: batch_norm axis=-1 no center/scale: ok
# CHECK: layer_norm axis=-1: ok
# CHECK: layer_norm axis=1 no center: ok
# CHECK: instance_norm NCHW: ok
# CHECK: instance_norm NHWC axis=3: ok
# CHECK: group_norm num_groups=2: ok
# CHECK: group_norm num_groups=3 no scale: ok
# CHECK: group_norm num_groups=1: ok
# CHECK: relax layer_norm axes=[2, -1]: ok
# CHECK: relax symbolic batch n=3: ok
# CHECK: relax layer_norm over all axes: ok
# CHECK: relax group_norm symbolic channels: ok

import numpy as np
import mlc

rng = np.random.default_rng(12)


def close(name, out, expected, k):
    expected = np.asarray(expected)
    assert out.shape == expected.shape, (name, out.shape, expected.shape)
    assert out.dtype == np.float32, (name, out.dtype)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5 * np.sqrt(k),
                               err_msg=name)
    print("%s: ok" % name)


def normalize(x, axes, eps):
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def channel(v, axis, ndim):
    shape = [1] * ndim
    shape[axis] = -1
    return v.reshape(shape)


def group_norm(x, groups, g, b, eps):
    n, c = x.shape[:2]
    y = x.reshape((n, groups, c // groups) + x.shape[2:])
    y = normalize(y, tuple(range(2, y.ndim)), eps).reshape(x.shape)
    return y * channel(g, 1, x.ndim) + channel(b, 1, x.ndim)


RELAY = """
#[version = "0.0.5"]
def @main(%x: Tensor[(2, 6, 5, 3), float32], %c6: Tensor[(6), float32],
          %d6: Tensor[(6), float32], %mm: Tensor[(6), float32],
          %mv: Tensor[(6), float32], %m: Tensor[(7, 13), float32],
          %c13: Tensor[(13), float32], %d13: Tensor[(13), float32],
          %c3: Tensor[(3), float32], %d3: Tensor[(3), float32]) {
  %0 = nn.batch_norm(%x, %c6, %d6, %mm, %mv, epsilon=1e-03f);
  %1 = nn.batch_norm(%m, %c13, %d13, %c13, %d13, axis=-1, center=False, scale=False);
  (%0.0, %0.1, %0.2, %1.0,
   nn.layer_norm(%m, %c13, %d13),
   nn.layer_norm(%x, %c6, %d6, axis=1, epsilon=1e-03f, center=False),
   nn.instance_norm(%x, %c6, %d6),
   nn.instance_norm(%x, %c3, %d3, axis=3, epsilon=1e-03f),
   nn.group_norm(%x, %c6, %d6, num_groups=2),
   nn.group_norm(%x, %c6, %d6, num_groups=3, epsilon=1e-03f, scale=False),
   nn.group_norm(%x, %c6, %d6, num_groups=1))
}
"""

x = rng.standard_normal((2, 6, 5, 3)).astype(np.float32) * 2 + 1
c6, d6, mm = (rng.standard_normal(6).astype(np.float32) for _ in range(3))
mv = rng.uniform(0.5, 2, 6).astype(np.float32)
m = rng.standard_normal((7, 13)).astype(np.float32)
c13 = rng.standard_normal(13).astype(np.float32)
# d13 is also the moving variance of the second batch_norm: keep it positive.
d13 = rng.uniform(0.5, 2, 13).astype(np.float32)
c3, d3 = (rng.standard_normal(3).astype(np.float32) for _ in range(2))
outs = mlc.create_executor(mod=mlc.relay.fromtext(RELAY)).evaluate()(
    x, c6, d6, mm, mv, m, c13, d13, c3, d3)
xd, md = x.astype(np.float64), m.astype(np.float64)

ch = lambda v: channel(v.astype(np.float64), 1, 4)
close("batch_norm axis=1 (%x.0)", outs[0],
      (xd - ch(mm)) / np.sqrt(ch(mv) + 1e-3) * ch(c6) + ch(d6), 1)
close("batch_norm moving_mean (%x.1)", outs[1], mm, 1)
close("batch_norm moving_var (%x.2)", outs[2], mv, 1)
close("batch_norm axis=-1 no center/scale", outs[3],
      (md - c13) / np.sqrt(d13.astype(np.float64) + 1e-5), 1)
close("layer_norm axis=-1", outs[4], normalize(md, (1,), 1e-5) * c13 + d13, 13)
close("layer_norm axis=1 no center", outs[5],
      normalize(xd, (1,), 1e-3) * ch(c6), 6)
close("instance_norm NCHW", outs[6],
      normalize(xd, (2, 3), 1e-5) * ch(c6) + ch(d6), 15)
close("instance_norm NHWC axis=3", outs[7],
      normalize(xd, (1, 2), 1e-3) * c3 + d3, 30)
close("group_norm num_groups=2", outs[8], group_norm(xd, 2, c6, d6, 1e-5), 45)
close("group_norm num_groups=3 no scale", outs[9],
      group_norm(xd, 3, np.ones(6), d6, 1e-3), 30)
close("group_norm num_groups=1", outs[10], group_norm(xd, 1, c6, d6, 1e-5), 90)

# Relax directly: layer_norm over two axes (gamma/beta of shape [5, 3]) and
# layer_norm / group_norm with a symbolic batch n bound by match_cast.
RELAX = """
func.func @main(%x: tensor<3x4x5x3xf32> {relax.name = "x"},
                %g: tensor<5x3xf32> {relax.name = "g"},
                %b: tensor<5x3xf32> {relax.name = "b"},
                %c: tensor<4xf32> {relax.name = "c"},
                %d: tensor<4xf32> {relax.name = "d"})
    -> (tensor<3x4x5x3xf32>, tensor<3x4x5x3xf32>) {
  %l = relax.nn.layer_norm %x, %g, %b {axes = array<i64: 2, -1>}
      : (tensor<3x4x5x3xf32>, tensor<5x3xf32>, tensor<5x3xf32>) -> tensor<3x4x5x3xf32>
  %xn = relax.match_cast %x : tensor<3x4x5x3xf32> to tensor<?x4x5x3xf32, #relax.shape<[n, 4, 5, 3]>>
  %gn = relax.nn.group_norm %xn, %c, %d {num_groups = 2 : i64}
      : (tensor<?x4x5x3xf32, #relax.shape<[n, 4, 5, 3]>>, tensor<4xf32>, tensor<4xf32>)
      -> tensor<?x4x5x3xf32, #relax.shape<[n, 4, 5, 3]>>
  %r = relax.match_cast %gn : tensor<?x4x5x3xf32, #relax.shape<[n, 4, 5, 3]>> to tensor<3x4x5x3xf32>
  return %l, %r : tensor<3x4x5x3xf32>, tensor<3x4x5x3xf32>
}
"""
x = rng.standard_normal((3, 4, 5, 3)).astype(np.float32)
g, b = (rng.standard_normal((5, 3)).astype(np.float32) for _ in range(2))
c, d = (rng.standard_normal(4).astype(np.float32) for _ in range(2))
outs = mlc.create_executor(mod=mlc.Module(RELAX)).evaluate()(x, g, b, c, d)
xd = x.astype(np.float64)
close("relax layer_norm axes=[2, -1]", outs[0],
      normalize(xd, (2, 3), 1e-5) * g + b, 15)
close("relax symbolic batch n=3", outs[1], group_norm(xd, 2, c, d, 1e-5), 30)

# layer_norm over every axis (rank-0 statistics) and group_norm with a
# symbolic channel count c (the group size c / num_groups is computed at run
# time).
EDGE = """
func.func @main(%x: tensor<2x6x5xf32> {relax.name = "x"},
                %g: tensor<2x6x5xf32> {relax.name = "g"},
                %c: tensor<6xf32> {relax.name = "c"})
    -> (tensor<2x6x5xf32>, tensor<2x6x5xf32>) {
  %l = relax.nn.layer_norm %x, %g, %g {axes = array<i64: 0, 1, 2>}
      : (tensor<2x6x5xf32>, tensor<2x6x5xf32>, tensor<2x6x5xf32>) -> tensor<2x6x5xf32>
  %xn = relax.match_cast %x : tensor<2x6x5xf32> to tensor<2x?x5xf32, #relax.shape<[2, c, 5]>>
  %cn = relax.match_cast %c : tensor<6xf32> to tensor<?xf32, #relax.shape<[c]>>
  %gn = relax.nn.group_norm %xn, %cn, %cn {num_groups = 3 : i64}
      : (tensor<2x?x5xf32, #relax.shape<[2, c, 5]>>, tensor<?xf32, #relax.shape<[c]>>,
         tensor<?xf32, #relax.shape<[c]>>) -> tensor<2x?x5xf32, #relax.shape<[2, c, 5]>>
  %r = relax.match_cast %gn : tensor<2x?x5xf32, #relax.shape<[2, c, 5]>> to tensor<2x6x5xf32>
  return %l, %r : tensor<2x6x5xf32>, tensor<2x6x5xf32>
}
"""
x = rng.standard_normal((2, 6, 5)).astype(np.float32)
g = rng.standard_normal((2, 6, 5)).astype(np.float32)
c = rng.standard_normal(6).astype(np.float32)
outs = mlc.create_executor(mod=mlc.Module(EDGE)).evaluate()(x, g, c)
xd = x.astype(np.float64)
close("relax layer_norm over all axes", outs[0],
      normalize(xd, (0, 1, 2), 1e-5) * g + g, 60)
close("relax group_norm symbolic channels", outs[1],
      group_norm(xd, 3, c, c, 1e-5), 10)
