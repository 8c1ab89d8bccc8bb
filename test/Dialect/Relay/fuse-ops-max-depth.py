# TVM's test_fuse_max: a chain of 300 exp ops with the default max-depth of
# 256 becomes a primitive function of 256 ops and one of the other 44.
# RUN: %python %s | mlc-opt -relay-fuse-ops | FileCheck %s
# RUN: %python %s | mlc-opt -relay-fuse-ops=max-depth=100 | FileCheck %s --check-prefix=D100

# CHECK-LABEL: func.func private @fused_exp_exp
# CHECK-SAME: relay.Primitive = 1 : i64
# CHECK-COUNT-256: relay.exp
# CHECK-NEXT: return
# CHECK-LABEL: func.func private @fused_exp_exp
# CHECK-COUNT-44: relay.exp
# CHECK-NEXT: return
# CHECK-LABEL: func.func @main(
# CHECK-NEXT: %[[A:.*]] = call @fused_exp_exp{{.*}}(%arg0)
# CHECK-NEXT: %[[B:.*]] = call @fused_exp_exp{{.*}}(%[[A]])
# CHECK-NEXT: return %[[B]]

# D100-COUNT-3: call @fused_exp_exp

N = 300
print("func.func @main(%x: tensor<10x20xf32>) -> tensor<10x20xf32> {")
prev = "%x"
for i in range(N):
    print("  %%v%d = relay.exp %s : (tensor<10x20xf32>) -> tensor<10x20xf32>" % (i, prev))
    prev = "%%v%d" % i
print("  return %s : tensor<10x20xf32>" % prev)
print("}")
