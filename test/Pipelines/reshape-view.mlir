// A reshape (with the expand_dims after it) between two reductions stays
// alone in its fusion group; relax-rewrite-dataflow-reshape makes it a view
// of the first reduction's buffer, so neither target compiles a copy
// kernel for it: two kernels, the second reading the view.
// RUN: mlc-compile --target=cpu %s -o %t.ll
// RUN: FileCheck %s --check-prefix=CPU < %t.ll
// RUN: mlc-compile --target=cuda:sm_90 %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=GPU < %t.ptx
// Without fusion every op is its own kernel: the reshape and the
// expand_dims become views, one after the other.
// RUN: mlc-compile --target=cpu --pipeline-options=fuse-opt-level=0 %s -o %t-nofuse.ll
// RUN: FileCheck %s --check-prefix=NOFUSE < %t-nofuse.ll

// CPU-NOT:   define {{.*}}@{{[a-z_0-9]*}}reshape
// CPU:       define void @max(
// CPU-NOT:   define {{.*}}@{{[a-z_0-9]*}}reshape
// CPU:       define void @fused_expand_dims_max_0(
// CPU-NOT:   define {{.*}}@{{[a-z_0-9]*}}reshape

// GPU-NOT:   .entry {{.*}}reshape
// GPU:       .entry max_kernel(
// GPU-NOT:   .entry {{.*}}reshape
// GPU:       .entry fused_expand_dims_max_0_kernel(
// GPU-NOT:   .entry {{.*}}reshape

// NOFUSE-NOT: define {{.*}}@{{[a-z_0-9]*}}{{reshape|expand_dims}}
// NOFUSE:     define void @main(

func.func @main(%arg0: tensor<2x3x4x5xf32> {relay.name = "c"}) -> tensor<4xf32> {
  %0 = relay.max %arg0 {axis = array<i64: 3>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4xf32>
  %1 = relay.reshape %0 {newshape = array<i64: 6, 4>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %2 = relay.expand_dims %1 {axis = 1 : i64} : (tensor<6x4xf32>) -> tensor<6x1x4xf32>
  %3 = relay.max %2 {axis = array<i64: 0, 1>} : (tensor<6x1x4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}
