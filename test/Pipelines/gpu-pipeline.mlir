// The whole GPU pipeline: relay in, host code in the LLVM dialect calling
// the kernels of a gpu.binary out; the PTX it embeds assembles.
// RUN: mlc-opt %s --mlc-gpu-pipeline='format=isa' | FileCheck %s
// RUN: mlc-opt %s --mlc-gpu-pipeline='format=isa' --verify-each -o /dev/null

// CHECK:     module attributes {gpu.container_module}
// CHECK:       llvm.func @main(
// CHECK:         llvm.call @mgpuStreamCreate
// CHECK:         llvm.call @mgpuMemAlloc
// Kernels are named after their prim_func (inlined into @main), and the
// called functions are gone; softmax + relu is one kernel (GeneralReduction).
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @add_kernel::@add_kernel
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @fused_softmax_relu_kernel::@fused_softmax_relu_kernel
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.call @mgpuMemFree
// CHECK-NOT:   llvm.func @add(
// CHECK-NOT:   llvm.func @fused_softmax_relu(
// CHECK:       gpu.binary @add_kernel
// CHECK-SAME:    #nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">
// CHECK-SAME:    .entry add_kernel
// CHECK-NOT:   func.func
func.func @main(%x: tensor<8x300xf32>, %w: tensor<300xf32>) -> tensor<8x300xf32> {
  %0 = relay.add %x, %w : (tensor<8x300xf32>, tensor<300xf32>) -> tensor<8x300xf32>
  %1 = relay.nn.softmax %0 : (tensor<8x300xf32>) -> tensor<8x300xf32>
  %2 = relay.nn.relu %1 : (tensor<8x300xf32>) -> tensor<8x300xf32>
  return %2 : tensor<8x300xf32>
}
