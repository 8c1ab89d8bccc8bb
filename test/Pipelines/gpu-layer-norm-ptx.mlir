// Layer norm over 8192 rows (dlight's GeneralReduction: a thread block per
// row, the mean and variance reduced across its threads): the shared
// buffers that hand each row's sums to the normalization hold one row's
// value (tensorir-compact-buffer-allocation shrinks them also where a
// cross-thread reduction writes them), not 8192 of them, which would be
// 64 KiB over the 48 KiB of static shared memory.
// RUN: mlc-compile --target=cuda:sm_90 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx

// CHECK:     .entry layer_norm_kernel
// CHECK-DAG:   .shared .align 16 .f32 __wg_layer_norm_kernel_0_$_0;
// CHECK-DAG:   .shared .align 16 .b8 __wg_layer_norm_kernel_1[128];
// CHECK-DAG:   .shared .align 16 .f32 __wg_layer_norm_kernel_2_$_0;
// CHECK-DAG:   .shared .align 16 .b8 __wg_layer_norm_kernel_3[128];
// CHECK-NOT:   .shared
// CHECK:       shfl.sync.bfly.b32
func.func @main(%x: tensor<8192x1024xf32>, %gamma: tensor<1024xf32>, %beta: tensor<1024xf32>) -> tensor<8192x1024xf32> {
  %0 = relay.nn.layer_norm %x, %gamma, %beta : (tensor<8192x1024xf32>, tensor<1024xf32>, tensor<1024xf32>) -> tensor<8192x1024xf32>
  return %0 : tensor<8192x1024xf32>
}
