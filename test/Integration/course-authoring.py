# The MLC course's authoring API (../shared/seeds/004_*): te.placeholder /
# te.compute / te.create_prim_func write TensorIR (reductions with an init,
# intermediates as alloc_buffers, `lambda *i` bodies), relax.BlockBuilder
# with emit_te / emit_output / emit_func_output builds a relax main of
# call_tir's (identical prim_funcs shared), and relax.build +
# relax.VirtualMachine + mlc.nd.array run it; the course's PyTorch-style
# MLP (topi.nn.dense, topi.add, relu with relax.const weights) and the
# te-written mm_relu match float64 numpy (rtol 1e-5, atol 1e-5 * sqrt(K)).
# RUN: %python %s | FileCheck %s

import numpy as np
import mlc
from mlc import relax, te, topi

rng = np.random.default_rng(0)


def close(got, want, k):
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.sqrt(k))


# te: mm_relu as in the course, an intermediate buffer and two blocks.
A = te.placeholder((128, 128), "float32", name="A")
B = te.placeholder((128, 128), "float32", name="B")
k = te.reduce_axis((0, 128), "k")
Y = te.compute((128, 128), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
C = te.compute((128, 128), lambda i, j: te.max(Y[i, j], 0), name="C")
func = te.create_prim_func([A, B, C]).with_attr({"global_symbol": "mm_relu"})
func.show()
# CHECK-LABEL: tensorir.prim_func @mm_relu(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>)
# CHECK:         %Y = tensorir.alloc_buffer : memref<128x128xf32>
# CHECK:         tensorir.block "Y"({{.*}} = spatial(128, {{.*}}), {{.*}} = spatial(128, {{.*}}), {{.*}} = reduce(128, {{.*}}))
# CHECK-NEXT:      tensorir.init {
# CHECK:         tensorir.block "C"
# CHECK:           arith.maximumf
a = rng.standard_normal((128, 128)).astype(np.float32)
b = rng.standard_normal((128, 128)).astype(np.float32)
c = np.zeros((128, 128), np.float32)
mlc.build(func)["mm_relu"](a, b, c)
close(c, np.maximum(a.astype(np.float64) @ b.astype(np.float64), 0), 128)
print("te mm_relu: ok")
# CHECK: te mm_relu: ok

# The course's schedule works on what te wrote.
sch = mlc.tir.Schedule(func)
block_Y = sch.get_block("Y", func_name="mm_relu")
i, j, kk = sch.get_loops(block_Y)
j0, j1 = sch.split(j, factors=[None, 4])
sch.reorder(j0, kk, j1)
c[:] = 0
mlc.build(sch.mod)["mm_relu"](a, b, c)
close(c, np.maximum(a.astype(np.float64) @ b.astype(np.float64), 0), 128)
print("scheduled: ok")
# CHECK: scheduled: ok


def te_matmul(A, B):
    k = te.reduce_axis((0, A.shape[1]), name="k")
    return te.compute((A.shape[0], B.shape[1]),
                      lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="matmul")


def te_relu(A):
    return te.compute(A.shape, lambda *i: te.max(A(*i), 0), name="relu")


# BlockBuilder: the course's main of two call_tir's.
A = relax.Var("A", (128, 128), relax.DynTensorType(2, "float32"))
B = relax.Var("B", relax.TensorStructInfo((128, 128), "float32"))
bb = relax.BlockBuilder()
with bb.function("main"):
    with bb.dataflow():
        C = bb.emit_te(te_matmul, A, B)
        D = bb.emit_te(te_relu, C)
        R = bb.emit_output(D)
    bb.emit_func_output(R, params=[A, B])
mod = bb.get()
mod.show()
# CHECK: tensorir.prim_func private @te_matmul(%rxplaceholder: memref<128x128xf32>, %rxplaceholder_1: memref<128x128xf32>, %matmul: memref<128x128xf32>)
# CHECK: tensorir.prim_func private @te_relu(%rxplaceholder: memref<128x128xf32>, %relu: memref<128x128xf32>)
# CHECK: func.func @main(%arg0: tensor<128x128xf32> {relax.name = "A"}, %arg1: tensor<128x128xf32> {relax.name = "B"}) -> tensor<128x128xf32>
# CHECK:   relax.dataflow
# CHECK:     relax.call_tir @te_matmul(%arg0, %arg1)
# CHECK:     relax.call_tir @te_relu(
# CHECK:     relax.output
vm = relax.VirtualMachine(relax.build(mod, target="llvm"), mlc.cpu())
out = vm["main"](mlc.nd.array(a), mlc.nd.array(b))
close(out.numpy(), np.maximum(a.astype(np.float64) @ b.astype(np.float64), 0), 128)
print("block builder:", type(out).__name__, out.shape)
# CHECK: block builder: NDArray (128, 128)

# The course's MLP as its from_fx maps nn.Linear and ReLU: topi.nn.dense
# and topi.add on relax.const weights (params given to function()).
w0 = rng.standard_normal((128, 784)).astype(np.float32) * 0.05
b0 = rng.standard_normal((128,)).astype(np.float32)
w1 = rng.standard_normal((10, 128)).astype(np.float32) * 0.1
b1 = rng.standard_normal((10,)).astype(np.float32)
x = relax.Var("x", relax.TensorStructInfo((1, 784), "float32"))
bb = relax.BlockBuilder()
with bb.function("main", params=[x]):
    with bb.dataflow():
        lv = bb.emit_te(topi.nn.dense, x, relax.const(w0))
        lv = bb.emit_te(topi.add, lv, relax.const(b0))
        lv = bb.emit_te(topi.nn.relu, lv)
        lv = bb.emit_te(topi.nn.dense, lv, relax.const(w1))
        lv = bb.emit_te(topi.add, lv, relax.const(b1))
        lv = bb.emit_te(topi.nn.relu, lv)
        gv = bb.emit_output(lv)
    bb.emit_func_output(gv)
mlp = bb.get()
print("prim_funcs:", sorted(set(
    line.split("@")[1].split("(")[0] for line in mlp.text.splitlines()
    if "tensorir.prim_func" in line)))
# CHECK: prim_funcs: ['add', 'add1', 'dense', 'dense1', 'relu', 'relu1']
print("constants:", mlp.text.count("relax.constant dense<\"0x"))
# CHECK: constants: 4
data = rng.standard_normal((1, 784)).astype(np.float32)
vm = relax.VirtualMachine(relax.build(mlp), mlc.cpu())
got = vm["main"](mlc.nd.array(data)).numpy()
h = np.maximum(data.astype(np.float64) @ w0.T.astype(np.float64) + b0, 0)
close(got, np.maximum(h @ w1.T.astype(np.float64) + b1, 0), 784)
print("mlp: ok")
# CHECK: mlp: ok

# Two calls of one te function on the same shapes share one prim_func.
v = relax.Var("v", relax.TensorStructInfo((8, 8), "float32"))
bb = relax.BlockBuilder()
with bb.function("main", params=[v]):
    with bb.dataflow():
        gv = bb.emit_output(bb.emit_te(te_relu, bb.emit_te(te_relu, v)))
    bb.emit_func_output(gv)
twice = bb.get().text
print("shared:", twice.count("tensorir.prim_func"), twice.count("relax.call_tir @te_relu("))
# CHECK: shared: 1 2

# Mistakes are Python errors, not crashes.
P = te.placeholder((4,), name="P")
Q = te.compute((4,), lambda i: P[i] + 1.0, name="Q")
try:
    te.create_prim_func([Q])
except ValueError as e:
    print("error:", e)
# CHECK: error: te.create_prim_func: placeholder 'P' is read but not an argument
try:
    te.compute((4,), lambda i: P[i, i], name="R")
except IndexError as e:
    print("error:", e)
# CHECK: error: te: P has 1 dimensions, indexed with 2
