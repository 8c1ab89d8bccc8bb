# A tensor-level MLP layer (matmul + bias + relu) in upstream linalg, compiled
# by the CPU pipeline and run by mlc-run through the Python executor, against
# numpy on random inputs. f32 results vs a float64 numpy reference.
# RUN: %python %s | FileCheck %s
# CHECK: mlp 4x784x128: ok
# CHECK: mlp 3x17x5: ok
# CHECK: named input: ok

import numpy as np
import mlc

MODEL = """
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @main(%x: tensor<{M}x{K}xf32> {{relay.name = "x"}},
                %w: tensor<{K}x{N}xf32> {{relay.name = "w"}},
                %b: tensor<{N}xf32> {{relay.name = "b"}}) -> tensor<{M}x{N}xf32> {{
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<{M}x{N}xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %y = linalg.matmul ins(%x, %w : tensor<{M}x{K}xf32>, tensor<{K}x{N}xf32>)
                     outs(%fill : tensor<{M}x{N}xf32>) -> tensor<{M}x{N}xf32>
  %r = linalg.generic {{indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%y, %b : tensor<{M}x{N}xf32>, tensor<{N}xf32>) outs(%init : tensor<{M}x{N}xf32>) {{
  ^bb0(%a: f32, %bias: f32, %out: f32):
    %s = arith.addf %a, %bias : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }} -> tensor<{M}x{N}xf32>
  return %r : tensor<{M}x{N}xf32>
}}
"""

rng = np.random.default_rng(0)
for m, k, n in [(4, 784, 128), (3, 17, 5)]:
    x = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((k, n)).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    mod = mlc.Module(MODEL.format(M=m, K=k, N=n))
    ex = mlc.create_executor("graph", mod=mod, params={"w": w, "b": b})
    out = ex.evaluate()(x)
    expected = np.maximum(x.astype(np.float64) @ w + b, 0).astype(np.float32)
    assert out.dtype == np.float32 and out.shape == (m, n)
    # Summation order differs from numpy's; scale atol by sqrt(K).
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-5 * np.sqrt(k))
    print("mlp %dx%dx%d: ok" % (m, k, n))

# Inputs can be named instead of positional.
out = ex.evaluate()(x=x)
np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-4)
print("named input: ok")
