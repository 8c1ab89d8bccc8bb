# TensorIR schedules written as transform scripts (transform.tensorir.*, run
# by mlc-opt --transform-interpreter), lowered by the CPU pipeline and run
# through mlc.build(mod)[name](*buffers) on random inputs. Each scheduled
# function is compared with numpy (float64 reference) and with the
# unscheduled function. Output buffers start as NaN so an iteration that a
# schedule drops (a tail, a skipped init) shows up. Sizes are chosen so that
# the tiles do not divide them (predicated tails). Tolerances: f32, rtol
# 1e-5, atol 1e-5 * sqrt(K) for a reduction of length K.
# RUN: %python %s | FileCheck %s
# CHECK: mm_relu course schedule: ok
# CHECK: mm_relu 100x90x70 tiled with tails: ok
# CHECK: mm_relu compute_at under a split consumer loop: ok
# CHECK: mm_relu 100x90x70 cache_read/cache_write with compute_at: ok
# CHECK: legalized add+relu 37x129 fused, split by 64, parallel, vectorized: ok
# CHECK: row_sum 37x129 reduction split by 12, decomposed: ok
# CHECK: inlined stages 37x129 tiled 8x16: ok
# CHECK: dynamic extent split by 8 for n = 77, 80, 1: ok
# CHECK: row_sum 37x128 rfactor of k split by 4: ok
# CHECK: precondition failure reported: ok

import os
import tempfile

import numpy as np
import mlc
from mlc import tools

rng = np.random.default_rng(7)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def garbage(*shape):
    return np.full(shape, np.nan, dtype=np.float32)


def schedule(text, script):
    """Applies the transform script (the body of @__transform_main, whose
    argument is %root) to the module text."""
    library = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
SCRIPT
    transform.yield
  }
}
""".replace("SCRIPT", script)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "schedule.mlir")
        with open(path, "w") as f:
            f.write(library)
        return tools.run("mlc-opt", [
            "--transform-preload-library=transform-library-paths=" + path,
            "--transform-interpreter", "--canonicalize"], text)


def mm_relu(M, N, K):
    return """
tensorir.prim_func @mm_relu(%A: memref<{M}x{K}xf32>, %B: memref<{K}x{N}xf32>, %C: memref<{M}x{N}xf32>) attributes {{tensorir.noalias}} {{
  %Y = tensorir.alloc_buffer : memref<{M}x{N}xf32>
  tensorir.for %i = 0 to {M} {{
    tensorir.for %j = 0 to {N} {{
      tensorir.for %k = 0 to {K} {{
        tensorir.block "Y"(%vi = spatial({M}, %i), %vj = spatial({N}, %j), %vk = reduce({K}, %k))
            reads(%A[%vi, %vk], %B[%vk, %vj] : memref<{M}x{K}xf32>, memref<{K}x{N}xf32>)
            writes(%Y[%vi, %vj] : memref<{M}x{N}xf32>) {{
          tensorir.init {{
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<{M}x{N}xf32>
          }}
          %y = memref.load %Y[%vi, %vj] : memref<{M}x{N}xf32>
          %a = memref.load %A[%vi, %vk] : memref<{M}x{K}xf32>
          %b = memref.load %B[%vk, %vj] : memref<{K}x{N}xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<{M}x{N}xf32>
        }}
      }}
    }}
  }}
  tensorir.for %i = 0 to {M} {{
    tensorir.for %j = 0 to {N} {{
      tensorir.block "C"(%vi = spatial({M}, %i), %vj = spatial({N}, %j))
          reads(%Y[%vi, %vj] : memref<{M}x{N}xf32>) writes(%C[%vi, %vj] : memref<{M}x{N}xf32>) {{
        %zero = arith.constant 0.0 : f32
        %y = memref.load %Y[%vi, %vj] : memref<{M}x{N}xf32>
        %r = arith.maximumf %y, %zero : f32
        memref.store %r, %C[%vi, %vj] : memref<{M}x{N}xf32>
      }}
    }}
  }}
}}
""".format(M=M, N=N, K=K)


ANY = "!transform.any_op"


def types(n):
    return ", ".join([ANY] * n)


def check_mm_relu(label, M, N, K, script, expect_in_ir=()):
    text = mm_relu(M, N, K)
    scheduled = schedule(text, script)
    for pattern in expect_in_ir:
        assert pattern in scheduled, (pattern, scheduled)
    a, b = f32(M, K), f32(K, N)
    c_sched, c_ref = garbage(M, N), garbage(M, N)
    mlc.build(scheduled)["mm_relu"](a, b, c_sched)
    mlc.build(text)["mm_relu"](a, b, c_ref)
    expected = np.maximum(a.astype(np.float64) @ b, 0)
    tol = dict(rtol=1e-5, atol=1e-5 * np.sqrt(K))
    np.testing.assert_allclose(c_sched, expected, **tol)
    np.testing.assert_allclose(c_sched, c_ref, **tol)
    assert (c_sched == 0).any() and (c_sched > 0).any()
    print("%s: ok" % label)


# The MLC course's schedule: split(j, [None, 4]), reorder(j0, k, j1),
# reverse_compute_at(C, j0), decompose_reduction(Y, k), plus loop kinds.
check_mm_relu("mm_relu course schedule", 128, 128, 128, """
    %y = transform.tensorir.get_block "Y" in %root : ({a}) -> {a}
    %c = transform.tensorir.get_block "C" in %root : ({a}) -> {a}
    %i, %j, %k = transform.tensorir.get_loops %y : ({a}) -> ({t3})
    %j0, %j1 = transform.tensorir.split %j by [?, 4] : ({a}) -> ({t2})
    transform.tensorir.reorder %j0, %k, %j1 : {t3}
    transform.tensorir.reverse_compute_at %c at %j0 : {t2}
    %init = transform.tensorir.decompose_reduction %y at %k : ({t2}) -> {a}
    %ci, %cj0, %cax = transform.tensorir.get_loops %c : ({a}) -> ({t3})
    transform.tensorir.unroll %cax : {a}
    transform.tensorir.vectorize %j1 : {a}
    transform.tensorir.parallel %i : {a}
""".format(a=ANY, t2=types(2), t3=types(3)),
    expect_in_ir=['"Y_init"', '"Y_update"', "vectorized", "unrolled", "parallel"])

# Tiles of 12 x 12 over 100 x 90 and a reduction split by 8 over 70: every
# loop has a tail, guarded by `where`.
check_mm_relu("mm_relu 100x90x70 tiled with tails", 100, 90, 70, """
    %y = transform.tensorir.get_block "Y" in %root : ({a}) -> {a}
    %c = transform.tensorir.get_block "C" in %root : ({a}) -> {a}
    %i, %j, %k = transform.tensorir.get_loops %y : ({a}) -> ({t3})
    %i0, %j0, %i1, %j1 = transform.tensorir.tile %i, %j by [12, 12] : ({t2}) -> ({t4})
    %k0, %k1 = transform.tensorir.split %k by [?, 8] : ({a}) -> ({t2})
    transform.tensorir.reorder %k0, %i1, %j1, %k1 : {t4}
    transform.tensorir.reverse_compute_at %c at %j0 : {t2}
    %init = transform.tensorir.decompose_reduction %y at %k0 : ({t2}) -> {a}
    transform.tensorir.parallel %i0 : {a}
    transform.tensorir.vectorize %j1 : {a}
    transform.tensorir.unroll %k1 : {a}
""".format(a=ANY, t2=types(2), t3=types(3), t4=types(4)),
    expect_in_ir=["where("])

# compute_at: Y computed per 12-column tile of C (128 = 11 * 12 - 4), its
# init then hoisted out of the reduction.
check_mm_relu("mm_relu compute_at under a split consumer loop", 128, 128, 128, """
    %y = transform.tensorir.get_block "Y" in %root : ({a}) -> {a}
    %c = transform.tensorir.get_block "C" in %root : ({a}) -> {a}
    %i, %j = transform.tensorir.get_loops %c : ({a}) -> ({t2})
    %j0, %j1 = transform.tensorir.split %j by [?, 12] : ({a}) -> ({t2})
    transform.tensorir.compute_at %y at %j0 : {t2}
    %yi, %yj0, %ax0, %ax1 = transform.tensorir.get_loops %y : ({a}) -> ({t4})
    %init = transform.tensorir.decompose_reduction %y at %ax0 : ({t2}) -> {a}
    transform.tensorir.parallel %i : {a}
    transform.tensorir.vectorize %j1 : {a}
""".format(a=ANY, t2=types(2), t4=types(4)),
    expect_in_ir=['"Y_init"', "where("])

# cache_read of A by Y computed per 16-row tile (with a tail: 100 rows), and
# cache_write of C copied back per row.
check_mm_relu("mm_relu 100x90x70 cache_read/cache_write with compute_at", 100, 90, 70, """
    %y = transform.tensorir.get_block "Y" in %root : ({a}) -> {a}
    %c = transform.tensorir.get_block "C" in %root : ({a}) -> {a}
    %i, %j, %k = transform.tensorir.get_loops %y : ({a}) -> ({t3})
    %i0, %j0, %i1, %j1 = transform.tensorir.tile %i, %j by [16, 16] : ({t2}) -> ({t4})
    %as = transform.tensorir.cache_read %y 0 "shared" : ({a}) -> {a}
    transform.tensorir.compute_at %as at %i0 : {t2}
    %cl = transform.tensorir.cache_write %c 0 "local" : ({a}) -> {a}
    %ci, %cj = transform.tensorir.get_loops %c : ({a}) -> ({t2})
    transform.tensorir.reverse_compute_at %cl at %ci : {t2}
""".format(a=ANY, t2=types(2), t3=types(3), t4=types(4)),
    expect_in_ir=['"A_shared"', '"C_local"'])

# A kernel from relax-legalize-ops: add (broadcast) then relu.
RELAX = """
func.func @main(%x: tensor<37x129xf32>, %b: tensor<129xf32>) -> tensor<37x129xf32> {
  %0 = relax.add %x, %b : (tensor<37x129xf32>, tensor<129xf32>) -> tensor<37x129xf32>
  return %0 : tensor<37x129xf32>
}
"""
legalized = tools.run("mlc-opt", ["--relax-legalize-ops"], RELAX)
scheduled = schedule(legalized, """
    %blk = transform.tensorir.get_block "T_add" in %root : ({a}) -> {a}
    %i, %j = transform.tensorir.get_loops %blk : ({a}) -> ({t2})
    %f = transform.tensorir.fuse %i, %j : ({t2}) -> {a}
    %o, %v = transform.tensorir.split %f by [?, 64] : ({a}) -> ({t2})
    transform.tensorir.parallel %o : {a}
    transform.tensorir.vectorize %v : {a}
""".format(a=ANY, t2=types(2)))
assert "where(" in scheduled and "parallel" in scheduled
x, b = f32(37, 129), f32(129)
out_sched, out_ref = garbage(37, 129), garbage(37, 129)
mlc.build(scheduled)["add"](x, b, out_sched)
mlc.build(legalized)["add"](x, b, out_ref)
np.testing.assert_allclose(out_sched, x.astype(np.float64) + b, rtol=1e-6, atol=1e-6)
assert (out_sched == out_ref).all()
print("legalized add+relu 37x129 fused, split by 64, parallel, vectorized: ok")

# Row sum: the reduction split with a tail, then the init hoisted out of it.
ROW_SUM = """
tensorir.prim_func @row_sum(%A: memref<37x129xf32>, %S: memref<37xf32>) {
  tensorir.for %i = 0 to 37 {
    tensorir.for %k = 0 to 129 {
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
"""
scheduled = schedule(ROW_SUM, """
    %blk = transform.tensorir.get_block "sum" in %root : ({a}) -> {a}
    %i, %k = transform.tensorir.get_loops %blk : ({a}) -> ({t2})
    %k0, %k1 = transform.tensorir.split %k by [?, 12] : ({a}) -> ({t2})
    %init = transform.tensorir.decompose_reduction %blk at %k0 : ({t2}) -> {a}
    transform.tensorir.parallel %i : {a}
    transform.tensorir.unroll %k1 : {a}
""".format(a=ANY, t2=types(2)))
a = f32(37, 129)
s_sched, s_ref = garbage(37), garbage(37)
mlc.build(scheduled)["row_sum"](a, s_sched)
mlc.build(ROW_SUM)["row_sum"](a, s_ref)
np.testing.assert_allclose(s_sched, a.astype(np.float64).sum(1), rtol=1e-5,
                           atol=1e-5 * np.sqrt(129))
np.testing.assert_allclose(s_sched, s_ref, rtol=1e-5, atol=1e-5 * np.sqrt(129))
print("row_sum 37x129 reduction split by 12, decomposed: ok")

# Three elementwise stages: compute_inline B into C, reverse_compute_inline D
# into C, then the remaining nest tiled with tails and parallelized.
STAGES = """
tensorir.prim_func @stages(%A: memref<37x129xf32>, %D: memref<37x129xf32>) {
  %B = tensorir.alloc_buffer : memref<37x129xf32>
  %C = tensorir.alloc_buffer : memref<37x129xf32>
  tensorir.for %i = 0 to 37 {
    tensorir.for %j = 0 to 129 {
      tensorir.block "B"(%vi = spatial(37, %i), %vj = spatial(129, %j)) {
        %two = arith.constant 2.0 : f32
        %a = memref.load %A[%vi, %vj] : memref<37x129xf32>
        %b = arith.mulf %a, %two : f32
        memref.store %b, %B[%vi, %vj] : memref<37x129xf32>
      }
    }
  }
  tensorir.for %i = 0 to 37 {
    tensorir.for %j = 0 to 129 {
      tensorir.block "C"(%vi = spatial(37, %i), %vj = spatial(129, %j)) {
        %b = memref.load %B[%vi, %vj] : memref<37x129xf32>
        %a = memref.load %A[%vi, %vj] : memref<37x129xf32>
        %e = math.exp %b : f32
        %s = arith.subf %e, %a : f32
        memref.store %s, %C[%vi, %vj] : memref<37x129xf32>
      }
    }
  }
  tensorir.for %i = 0 to 37 {
    tensorir.for %j = 0 to 129 {
      tensorir.block "D"(%vi = spatial(37, %i), %vj = spatial(129, %j)) {
        %c = memref.load %C[%vi, %vj] : memref<37x129xf32>
        %zero = arith.constant 0.0 : f32
        %r = arith.maximumf %c, %zero : f32
        memref.store %r, %D[%vi, %vj] : memref<37x129xf32>
      }
    }
  }
}
"""
scheduled = schedule(STAGES, """
    %b = transform.tensorir.get_block "B" in %root : ({a}) -> {a}
    %d = transform.tensorir.get_block "D" in %root : ({a}) -> {a}
    transform.tensorir.compute_inline %b : {a}
    transform.tensorir.reverse_compute_inline %d : {a}
    %c = transform.tensorir.get_block "C" in %root : ({a}) -> {a}
    %i, %j = transform.tensorir.get_loops %c : ({a}) -> ({t2})
    %t:4 = transform.tensorir.tile %i, %j by [8, 16] : ({t2}) -> ({t4})
    transform.tensorir.parallel %t#0 : {a}
    transform.tensorir.vectorize %t#3 : {a}
""".format(a=ANY, t2=types(2), t4=types(4)))
assert scheduled.count("tensorir.block") == 1 and "alloc_buffer" not in scheduled, scheduled
a = f32(37, 129)
d_sched, d_ref = garbage(37, 129), garbage(37, 129)
mlc.build(scheduled)["stages"](a, d_sched)
mlc.build(STAGES)["stages"](a, d_ref)
a64 = a.astype(np.float64)
np.testing.assert_allclose(d_sched, np.maximum(np.exp(2 * a64) - a64, 0), rtol=1e-5, atol=1e-5)
np.testing.assert_allclose(d_sched, d_ref, rtol=1e-6, atol=1e-6)
print("inlined stages 37x129 tiled 8x16: ok")

# A loop over a runtime extent n (a scalar parameter): split by [?, 8] runs
# ceildiv(n, 8) x 8 iterations masked by i < n, then parallel and unrolled.
PREFIX = """
tensorir.prim_func @prefix(%A: memref<100xf32>, %B: memref<100xf32>, %n: index) {
  tensorir.for %i = 0 to %n {
    tensorir.block "B"(%vi = spatial(100, %i)) {
      %one = arith.constant 1.0 : f32
      %a = memref.load %A[%vi] : memref<100xf32>
      %b = arith.addf %a, %one : f32
      memref.store %b, %B[%vi] : memref<100xf32>
    }
  }
}
"""
scheduled = schedule(PREFIX, """
    %blk = transform.tensorir.get_block "B" in %root : ({a}) -> {a}
    %i = transform.tensorir.get_loops %blk : ({a}) -> {a}
    %o, %v = transform.tensorir.split %i by [?, 8] : ({a}) -> ({t2})
    transform.tensorir.parallel %o : {a}
    transform.tensorir.unroll %v : {a}
""".format(a=ANY, t2=types(2)))
for n in (77, 80, 1):
    a = f32(100)
    b = garbage(100)
    mlc.build(scheduled)["prefix"](a, b, n)
    np.testing.assert_allclose(b[:n], a[:n] + 1, rtol=1e-6)
    assert np.isnan(b[n:]).all()  # the tail stays masked
print("dynamic extent split by 8 for n = 77, 80, 1: ok")

# rfactor of the inner part of a split reduction: partial sums per lane in
# sum_rf, combined by the write-back block; the rf block's spatial loops
# (i and the rf axis) are then parallel / vectorized.
ROW_SUM_128 = ROW_SUM.replace("129", "128")
scheduled = schedule(ROW_SUM_128, """
    %blk = transform.tensorir.get_block "sum" in %root : ({a}) -> {a}
    %i, %k = transform.tensorir.get_loops %blk : ({a}) -> ({t2})
    %k0, %k1 = transform.tensorir.split %k by [?, 4] : ({a}) -> ({t2})
    %rf = transform.tensorir.rfactor %k1 : ({a}) -> {a}
    transform.tensorir.reorder %k0, %k1 : {t2}
    transform.tensorir.parallel %i : {a}
    transform.tensorir.vectorize %k1 : {a}
""".format(a=ANY, t2=types(2)))
assert '"sum_rf"' in scheduled and "vectorized" in scheduled, scheduled
a = f32(37, 128)
s_sched = garbage(37)
mlc.build(scheduled)["row_sum"](a, s_sched)
np.testing.assert_allclose(s_sched, a.astype(np.float64).sum(1), rtol=1e-5,
                           atol=1e-5 * np.sqrt(128))
print("row_sum 37x128 rfactor of k split by 4: ok")

# A violated precondition is an error naming the loop, not wrong code.
try:
    schedule(ROW_SUM, """
    %blk = transform.tensorir.get_block "sum" in %root : ({a}) -> {a}
    %i, %k = transform.tensorir.get_loops %blk : ({a}) -> ({t2})
    transform.tensorir.parallel %k : {a}
""".format(a=ANY, t2=types(2)))
    raise AssertionError("parallel over a reduction loop was accepted")
except tools.ToolError as e:
    assert "cannot parallelize loop 'k'" in e.stderr, e.stderr
print("precondition failure reported: ok")
