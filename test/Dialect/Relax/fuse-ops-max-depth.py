# Relay's test_fuse_max: a chain of 300 elementwise ops with the default
# max-depth of 256 becomes a group of 256 ops and one of the other 44.
# RUN: %python %s | mlc-opt -relax-fuse-ops | FileCheck %s
# RUN: %python %s | mlc-opt -relax-fuse-ops=max-depth=100 | FileCheck %s --check-prefix=D100

# CHECK-LABEL: func.func private @fused_exp_exp
# CHECK-COUNT-256: relax.call_tir @exp(
# CHECK-NEXT: return
# CHECK-LABEL: func.func private @fused_exp_exp
# CHECK-COUNT-44: relax.call_tir @exp(
# CHECK-NEXT: return
# CHECK-LABEL: func.func @main(
# CHECK: %[[A:.*]] = func.call @fused_exp_exp{{.*}}(%arg0)
# CHECK-NEXT: %[[B:.*]] = func.call @fused_exp_exp{{.*}}(%[[A]])
# CHECK-NEXT: relax.output %[[B]]

# D100-COUNT-3: func.call @fused_exp_exp

N = 300
print("tensorir.prim_func @exp(%a: memref<4xf32>, %c: memref<4xf32>) "
      "attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}")
print("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {")
print("  %r = relax.dataflow -> tensor<4xf32> {")
prev = "%x"
for i in range(N):
    print("    %%v%d = relax.call_tir @exp(%s) : (tensor<4xf32>) -> tensor<4xf32>" % (i, prev))
    prev = "%%v%d" % i
print("    relax.output %s : tensor<4xf32>" % prev)
print("  }")
print("  return %r : tensor<4xf32>")
print("}")
