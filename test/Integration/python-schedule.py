# mlc.tir.Schedule, the Python face of the TensorIR schedule primitives
# (TVM's tvm.tir.Schedule): the MLC course's mm_relu schedule, run on
# random inputs and compared with numpy (float64 reference, rtol 1e-5,
# atol 1e-5 * sqrt(K)); its trace replayed by mlc-opt gives the same module;
# failing primitives raise ScheduleError and leave the schedule unchanged.
# RUN: %python %s | FileCheck %s

import os
import tempfile

import numpy as np
import mlc
from mlc import tools
from mlc.tir import Schedule, ScheduleError

rng = np.random.default_rng(11)
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
with open(os.path.join(ROOT, "examples", "mm_relu.mlir")) as f:
    MM_RELU = f.read()
# A second function with the same block names, at another size.
MODULE = MM_RELU + MM_RELU.replace("@mm_relu", "@mm_relu_64").replace(
    "128", "64")


def check_mm_relu(mod, name, n):
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = np.full((n, n), np.nan, np.float32)
    mlc.build(mod)[name](a, b, c)
    want = np.maximum(a.astype(np.float64) @ b.astype(np.float64), 0)
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5 * np.sqrt(n))


# The course's schedule (seed 004): split j, reorder, move relu under j0,
# decompose the reduction.
sch = Schedule(MODULE)
block_Y = sch.get_block("Y", func_name="mm_relu")
i, j, k = sch.get_loops(block_Y)
j0, j1 = sch.split(j, factors=[None, 4])
sch.reorder(j0, k, j1)
block_C = sch.get_block("C", func_name="mm_relu")
sch.reverse_compute_at(block_C, j0)
init = sch.decompose_reduction(block_Y, k)
print(sch.trace)
# CHECK-LABEL: transform.named_sequence @__transform_main
# CHECK: %[[F:.*]] = transform.structured.match ops{["tensorir.prim_func"]} attributes {sym_name = "mm_relu"}
# CHECK: %[[Y:.*]] = transform.tensorir.get_block "Y" in %[[F]]
# CHECK: %[[I:.*]], %[[J:.*]], %[[K:.*]] = transform.tensorir.get_loops %[[Y]]
# CHECK: %[[J0:.*]], %[[J1:.*]] = transform.tensorir.split %[[J]] by [?, 4]
# CHECK: transform.tensorir.reorder %[[J0]], %[[K]], %[[J1]]
# CHECK: %[[C:.*]] = transform.tensorir.get_block "C"
# CHECK: transform.tensorir.reverse_compute_at %[[C]] at %[[J0]]
# CHECK: transform.tensorir.decompose_reduction %[[Y]] at %[[K]]
# CHECK: transform.yield
print(sch.mod)
# CHECK-LABEL: tensorir.prim_func @mm_relu(
# CHECK: tensorir.for %i = 0 to 128
# CHECK-NEXT: tensorir.for %j_0 = 0 to 32
# CHECK-NEXT: tensorir.for %j_1_init = 0 to 4
# CHECK: tensorir.block "Y_init"
# CHECK: tensorir.for %k = 0 to 128
# CHECK-NEXT: tensorir.for %j_1 = 0 to 4
# CHECK: tensorir.block "Y_update"
# CHECK: tensorir.block "C"
# CHECK-LABEL: tensorir.prim_func @mm_relu_64(
check_mm_relu(sch.mod, "mm_relu", 128)
check_mm_relu(sch.mod, "mm_relu_64", 64)
print("course schedule: ok")
# CHECK: course schedule: ok

# Handles after renaming: loops of the init block and of the update block.
assert len(sch.get_loops(init)) == 3, sch.get_loops(init)
assert len(sch.get_loops(block_Y)) == 4, sch.get_loops(block_Y)

# The trace is a transform script: replayed by mlc-opt on the original
# module it gives the scheduled module.
with tempfile.TemporaryDirectory() as tmp:
    script = os.path.join(tmp, "trace.mlir")
    with open(script, "w") as f:
        f.write(str(sch.trace))
    replayed = tools.run("mlc-opt", [
        "--transform-preload-library=transform-library-paths=" + script,
        "--transform-interpreter"], input_text=MODULE)
assert replayed == sch.mod.text
print("trace replays: ok")
# CHECK: trace replays: ok

# The other function, tiled, with a cache_read copy block moved under the
# tile loop, a parallel outer loop and a vectorized inner loop.
sch = Schedule(MODULE)
y = sch.get_block("Y", func_name="mm_relu_64")
i, j, k = sch.get_loops(y)
i0, j0, i1, j1 = sch.tile([i, j], [16, 16])
a_local = sch.cache_read(y, 0, "local")
sch.compute_at(a_local, j0)
copy_loops = sch.get_loops(a_local)
assert len(copy_loops) == 4, copy_loops
c = sch.get_block("C", func_name="mm_relu_64")
ci, cj = sch.get_loops(c)
sch.parallel(ci)
sch.vectorize(cj)
print(sch.mod)
# CHECK-LABEL: tensorir.prim_func @mm_relu_64(
# CHECK: %A_local = tensorir.alloc_buffer {scope = "local"} : memref<64x64xf32>
# CHECK: tensorir.for %i_0 = 0 to 4
# CHECK-NEXT: tensorir.for %j_0 = 0 to 4
# CHECK-NEXT: tensorir.for %ax0 = 0 to 16
# CHECK: tensorir.block "A_local"
# CHECK: tensorir.for %i = 0 to 64 parallel
# CHECK-NEXT: tensorir.for %j = 0 to 64 vectorized
check_mm_relu(sch.mod, "mm_relu_64", 64)
print("tiled with cache_read: ok")
# CHECK: tiled with cache_read: ok

# Failing primitives: an error naming the problem; nothing recorded.
before = (str(sch.trace), sch.mod.text)
for attempt in [lambda: sch.split(ci, factors=[None, None]),
                lambda: sch.reverse_compute_at(y, i1),
                lambda: sch.get_block("nope"),
                lambda: sch.rfactor(k, factor_axis=1)]:
    try:
        attempt()
    except ScheduleError as e:
        print("error:", str(e).splitlines()[0])
    else:
        raise AssertionError("no ScheduleError")
    assert (str(sch.trace), sch.mod.text) == before
# CHECK: error: split: at most one factor may be None, got [None, None]
# CHECK: error: <stdin>:{{.*}}: error: cannot reverse_compute_at block 'Y'
# CHECK: error: {{.*}}error: {{.*}}'nope'
# CHECK: error: rfactor: only factor_axis=0 is supported, got 1
print("errors: ok")
# CHECK: errors: ok

# pad_einsum (TVM's): Y's rows and columns padded from 128 to 192 (2 x 96);
# the block reads zero-padded copies of A and B and accumulates into a
# padded Y, copied back over 128 x 128 for relu.
sch = Schedule(MODULE)
y = sch.get_block("Y", func_name="mm_relu")
sch.pad_einsum(y, [96, 96, 1])
print(sch.mod)
# CHECK-LABEL: tensorir.prim_func @mm_relu(
# CHECK: %Y_pad = tensorir.alloc_buffer : memref<192x192xf32>
# CHECK: tensorir.block "A_pad"(%v0 = spatial(192, %ax0), %v1 = spatial(128, %ax1))
# CHECK: tensorir.block "B_pad"(%v0 = spatial(128, %ax0), %v1 = spatial(192, %ax1))
# CHECK: tensorir.block "Y"(%vi = spatial(192, %i), %vj = spatial(192, %j), %vk = reduce(128, %k))
# CHECK: tensorir.block "Y_pad"(%v0 = spatial(128, %ax0), %v1 = spatial(128, %ax1))
# CHECK-SAME: writes(%Y[%v0, %v1] : memref<128x128xf32>)
check_mm_relu(sch.mod, "mm_relu", 128)
print("pad_einsum: ok")
# CHECK: pad_einsum: ok

# transform_block_layout and reindex (TVM's): Y's (i, j) fused into one
# variable (its loop "i_j"), then A read through A_reindex[vi_vj, vk] (the
# variables its index uses), filled by a copy before the nest; the result
# still computes mm_relu.
sch = Schedule(MODULE)
y = sch.get_block("Y", func_name="mm_relu")
sch.transform_block_layout(y, "affine_map<(i, j, k) -> (i * 128 + j, k)>")
copy = sch.reindex(y, ("read", 0))
print(sch.mod)
# CHECK-LABEL: tensorir.prim_func @mm_relu(
# CHECK: %A_reindex = tensorir.alloc_buffer : memref<16384x128xf32>
# CHECK: tensorir.block "A_reindex"(%v0 = spatial(16384, %ax0), %v1 = spatial(128, %ax1))
# CHECK: tensorir.for %i_j = 0 to 16384 {
# CHECK: tensorir.block "Y"(%vi_vj = spatial(16384, %i_j), %vk = reduce(128, %k))
# CHECK-SAME: reads(%A_reindex[%vi_vj, %vk]
check_mm_relu(sch.mod, "mm_relu", 128)
try:
    sch.reindex(y, ("both", 0))
except ScheduleError as e:
    print("error:", e)
# CHECK: error: reindex: the buffer index type must be "read" or "write", got 'both'
print("transform_block_layout, reindex: ok")
# CHECK: transform_block_layout, reindex: ok
