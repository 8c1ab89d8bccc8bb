# TensorIR prim_funcs lowered by convert-tensorir-to-scf and the CPU pipeline,
# run through mlc.build(mod)[name](*buffers) (mlc-run buffer entries) on
# random inputs and compared to numpy. Output buffers start as garbage (NaN or
# a sentinel) so a block that does not run, an init that does not fire or a
# predicate that is ignored shows up. Tolerances: f32 vs a float64 reference,
# rtol 1e-5, atol 1e-5 * sqrt(reduction length) for reductions.
# RUN: %python %s | FileCheck %s
# CHECK: mm_relu 128x128x128: ok
# CHECK: mm_relu scheduled (split, reverse_compute_at, decomposed init): ok
# CHECK: elementwise 7x13x5: ok
# CHECK: row_sum 37x129: ok
# CHECK: where split tail 100 of 4x32: ok
# CHECK: parallel 61x3 with local buffer: ok
# CHECK: parameter names: ok
# CHECK: scalar parameters: ok

import numpy as np
import mlc

rng = np.random.default_rng(2024)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def garbage(*shape):
    return np.full(shape, np.nan, dtype=np.float32)


# The MLC course's mm_relu (seed 004), as TVMScript writes it.
MM_RELU = """
tensorir.prim_func @mm_relu(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) attributes {tensorir.noalias} {
  %Y = tensorir.alloc_buffer : memref<128x128xf32>
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 128 {
        tensorir.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k))
            reads(%A[%vi, %vk], %B[%vk, %vj] : memref<128x128xf32>, memref<128x128xf32>)
            writes(%Y[%vi, %vj] : memref<128x128xf32>) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
          %a = memref.load %A[%vi, %vk] : memref<128x128xf32>
          %b = memref.load %B[%vk, %vj] : memref<128x128xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j))
          reads(%Y[%vi, %vj] : memref<128x128xf32>) writes(%C[%vi, %vj] : memref<128x128xf32>) {
        %zero = arith.constant 0.0 : f32
        %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
        %r = arith.maximumf %y, %zero : f32
        memref.store %r, %C[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
}
"""

# The seed's scheduled mm_relu: split(j, [None, 4]), reorder(j0, k, j1),
# reverse_compute_at(C, j0), decompose_reduction(Y, k).
MM_RELU_SCHEDULED = """
#j = affine_map<(d0, d1) -> (d0 * 4 + d1)>
tensorir.prim_func @mm_relu(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) attributes {tensorir.noalias} {
  %Y = tensorir.alloc_buffer : memref<128x128xf32>
  tensorir.for %i = 0 to 128 {
    tensorir.for %j0 = 0 to 32 {
      tensorir.for %j1i = 0 to 4 {
        %vj0 = affine.apply #j(%j0, %j1i)
        tensorir.block "Y_init"(%vi = spatial(128, %i), %vj = spatial(128, %vj0)) reads() writes(%Y[%vi, %vj] : memref<128x128xf32>) {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
        }
      }
      tensorir.for %k = 0 to 128 {
        tensorir.for %j1 = 0 to 4 {
          %vj1 = affine.apply #j(%j0, %j1)
          tensorir.block "Y_update"(%vi = spatial(128, %i), %vj = spatial(128, %vj1), %vk = reduce(128, %k)) {
            %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
            %a = memref.load %A[%vi, %vk] : memref<128x128xf32>
            %b = memref.load %B[%vk, %vj] : memref<128x128xf32>
            %m = arith.mulf %a, %b : f32
            %s = arith.addf %y, %m : f32
            memref.store %s, %Y[%vi, %vj] : memref<128x128xf32>
          }
        }
      }
      tensorir.for %ax0 = 0 to 4 unrolled {
        %vj2 = affine.apply #j(%j0, %ax0)
        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %vj2)) {
          %zero = arith.constant 0.0 : f32
          %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
          %r = arith.maximumf %y, %zero : f32
          memref.store %r, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
}
"""

for label, text in [("mm_relu 128x128x128", MM_RELU),
                    ("mm_relu scheduled (split, reverse_compute_at, decomposed init)",
                     MM_RELU_SCHEDULED)]:
    a, b, c = f32(128, 128), f32(128, 128), garbage(128, 128)
    a_in, b_in = a.copy(), b.copy()
    mlc.build(mlc.Module(text))["mm_relu"](a, b, c)
    expected = np.maximum(a.astype(np.float64) @ b, 0)
    np.testing.assert_allclose(c, expected, rtol=1e-5, atol=1e-5 * np.sqrt(128))
    assert (c == 0).any() and (c > 0).any()  # relu clipped some, kept some
    assert (a == a_in).all() and (b == b_in).all()  # inputs untouched
    print("%s: ok" % label)

# Elementwise with odd sizes, a broadcast operand and math.exp:
# C[i, j, k] = exp(A[i, j, k]) * B[j, k] - A[i, j, k]
ELEMENTWISE = """
tensorir.prim_func @ew(%A: memref<7x13x5xf32>, %B: memref<13x5xf32>, %C: memref<7x13x5xf32>) {
  tensorir.for %i = 0 to 7 {
    tensorir.for %j = 0 to 13 vectorized {
      tensorir.for %k = 0 to 5 {
        tensorir.block "C"(%vi = spatial(7, %i), %vj = spatial(13, %j), %vk = spatial(5, %k)) {
          %a = memref.load %A[%vi, %vj, %vk] : memref<7x13x5xf32>
          %b = memref.load %B[%vj, %vk] : memref<13x5xf32>
          %e = math.exp %a : f32
          %m = arith.mulf %e, %b : f32
          %r = arith.subf %m, %a : f32
          memref.store %r, %C[%vi, %vj, %vk] : memref<7x13x5xf32>
        }
      }
    }
  }
}
"""
a, b, c = f32(7, 13, 5), f32(13, 5), garbage(7, 13, 5)
mlc.build(ELEMENTWISE)["ew"](a, b, c)
a64 = a.astype(np.float64)
np.testing.assert_allclose(c, np.exp(a64) * b - a64, rtol=1e-5, atol=1e-6)
print("elementwise 7x13x5: ok")

# Row sum with init over a reduction split 43 x 3 = 129 (the binding is an
# affine.apply); the output starts as garbage, so the init must fire exactly
# at vk == 0 for every row.
ROW_SUM = """
tensorir.prim_func @row_sum(%A: memref<37x129xf32>, %S: memref<37xf32>) {
  tensorir.for %i = 0 to 37 {
    tensorir.for %k0 = 0 to 43 {
      tensorir.for %k1 = 0 to 3 {
        %k = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%k0, %k1)
        tensorir.block "sum"(%vi = spatial(37, %i), %vk = reduce(129, %k)) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %S[%vi] : memref<37xf32>
          }
          %s = memref.load %S[%vi] : memref<37xf32>
          %a = memref.load %A[%vi, %vk] : memref<37x129xf32>
          %r = arith.addf %s, %a : f32
          memref.store %r, %S[%vi] : memref<37xf32>
        }
      }
    }
  }
}
"""
a = f32(37, 129)
s = rng.standard_normal(37).astype(np.float32) * 1e3  # garbage, not NaN: init must overwrite
mlc.build(ROW_SUM)["row_sum"](a, s)
np.testing.assert_allclose(s, a.astype(np.float64).sum(axis=1), rtol=1e-5,
                           atol=1e-5 * np.sqrt(129))
print("row_sum 37x129: ok")

# T.where: sch.split(i, [None, 32]) of a 100-long loop gives 4 x 32 = 128
# iterations; the predicate masks the last 28. The buffer has 128 elements so
# an ignored predicate would overwrite the sentinel tail.
WHERE = """
tensorir.prim_func @split_tail(%A: memref<128xf32>, %B: memref<128xf32>) {
  %c100 = arith.constant 100 : index
  tensorir.for %i0 = 0 to 4 {
    tensorir.for %i1 = 0 to 32 {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%i0, %i1)
      %p = arith.cmpi ult, %v, %c100 : index
      tensorir.block "B"(%vi = spatial(100, %v)) where(%p) {
        %a = memref.load %A[%vi] : memref<128xf32>
        %two = arith.constant 2.0 : f32
        %r = arith.mulf %a, %two : f32
        memref.store %r, %B[%vi] : memref<128xf32>
      }
    }
  }
}
"""
a, b = f32(128), np.full(128, -7.0, dtype=np.float32)
mlc.build(WHERE)["split_tail"](a, b)
np.testing.assert_allclose(b[:100], 2.0 * a[:100].astype(np.float64), rtol=1e-5, atol=0)
assert (b[100:] == -7.0).all(), b[100:]
print("where split tail 100 of 4x32: ok")

# A parallel outer loop (scf.parallel) with a block-scoped buffer allocated
# and freed per iteration, and an inner reduction with init:
# Out[i] = max_j(relu(A[i, j] + 1)) staged through a local buffer.
PARALLEL = """
tensorir.prim_func @par(%A: memref<61x3xf32>, %Out: memref<61xf32>) {
  tensorir.for %i = 0 to 61 parallel {
    tensorir.block "row"(%vi = spatial(61, %i)) {
      %T = tensorir.alloc_buffer : memref<3xf32>
      tensorir.for %j = 0 to 3 {
        tensorir.block "stage"(%vj = spatial(3, %j)) {
          %a = memref.load %A[%vi, %vj] : memref<61x3xf32>
          %one = arith.constant 1.0 : f32
          %zero = arith.constant 0.0 : f32
          %s = arith.addf %a, %one : f32
          %r = arith.maximumf %s, %zero : f32
          memref.store %r, %T[%vj] : memref<3xf32>
        }
      }
      tensorir.for %j = 0 to 3 {
        tensorir.block "max"(%vj = reduce(3, %j)) {
          tensorir.init {
            %ninf = arith.constant 0xFF800000 : f32
            memref.store %ninf, %Out[%vi] : memref<61xf32>
          }
          %o = memref.load %Out[%vi] : memref<61xf32>
          %t = memref.load %T[%vj] : memref<3xf32>
          %m = arith.maximumf %o, %t : f32
          memref.store %m, %Out[%vi] : memref<61xf32>
        }
      }
    }
  }
}
"""
a = f32(61, 3)
out = np.full(61, 1e6, dtype=np.float32)  # init must reset it
mlc.build(PARALLEL)["par"](a, out)
np.testing.assert_allclose(out, np.maximum(a.astype(np.float64) + 1, 0).max(axis=1),
                           rtol=1e-5, atol=0)
print("parallel 61x3 with local buffer: ok")

# Buffers are bound by their tensorir.name (the SSA name in the prim_func's
# syntax), in signature order: the first array is Dst, written from Src.
NAMES = """
tensorir.prim_func @copy(%Dst: memref<4xf32>, %Src: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.block "copy"(%vi = spatial(4, %i)) {
      %x = memref.load %Src[%vi] : memref<4xf32>
      memref.store %x, %Dst[%vi] : memref<4xf32>
    }
  }
}
"""
func = mlc.build(NAMES)["copy"]
assert func.param_names == ["Dst", "Src"], func.param_names
dst, src = garbage(4), f32(4)
func(dst, src)
assert (dst == src).all()
print("parameter names: ok")

# Scalar parameters (a dynamic loop bound and a float) are passed by value.
SCALARS = """
tensorir.prim_func @axpy(%X: memref<9xf32>, %Y: memref<9xf32>, %alpha: f32, %n: index) {
  tensorir.for %i = 0 to %n {
    tensorir.block "Y"(%vi = spatial(9, %i)) {
      %x = memref.load %X[%vi] : memref<9xf32>
      %y = memref.load %Y[%vi] : memref<9xf32>
      %m = arith.mulf %x, %alpha : f32
      %s = arith.addf %m, %y : f32
      memref.store %s, %Y[%vi] : memref<9xf32>
    }
  }
}
"""
x, y = f32(9), f32(9)
y_in = y.copy()
mlc.build(SCALARS)["axpy"](x, y, 0.75, 6)
expected = y_in.astype(np.float64)
expected[:6] += 0.75 * x[:6].astype(np.float64)
np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)
assert (y[6:] == y_in[6:]).all()
print("scalar parameters: ok")
