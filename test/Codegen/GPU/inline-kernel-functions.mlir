// mlc-gpu-inline-kernel-functions: called functions (public or not) are
// inlined into their callers and erased; entries no one calls stay, and so
// do external declarations (nothing to inline) and the launch's kernel name.
// RUN: mlc-opt %s --mlc-gpu-inline-kernel-functions --split-input-file | FileCheck %s

// CHECK-NOT: func.func @fused_add(
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>
// CHECK: gpu.launch
// CHECK-SAME: module(@fused_add_kernel) function(@fused_add_kernel)
// CHECK: memref.store %{{.*}}, %[[X]]
// CHECK-NOT: call @fused_add
// CHECK: call @external(%[[X]])
// CHECK-LABEL: func.func @uncalled(
// CHECK: gpu.launch
// CHECK-LABEL: func.func private @external(
func.func @fused_add(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
             module(@fused_add_kernel) function(@fused_add_kernel) {
    %one = arith.constant 1.0 : f32
    memref.store %one, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
func.func @main(%x: memref<4xf32>) {
  call @fused_add(%x) : (memref<4xf32>) -> ()
  call @external(%x) : (memref<4xf32>) -> ()
  return
}
func.func @uncalled(%y: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %two = arith.constant 2.0 : f32
    memref.store %two, %y[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}
func.func private @external(memref<4xf32>)

// -----

// A module without calls (prim_funcs only) is left alone.
// CHECK-LABEL: func.func @kernel_only(
// CHECK-LABEL: func.func @other_kernel(
func.func @kernel_only(%a: memref<4xf32>) {
  return
}
func.func @other_kernel(%a: memref<4xf32>) {
  return
}

// -----

// A tensor-core kernel: nvgpu ops inline too (mlc gives the dialect the
// inliner interface upstream lacks).
// CHECK-LABEL: func.func @main_mma(
// CHECK:         gpu.launch
// CHECK:           nvgpu.device_async_copy
// CHECK-NOT:     call @mma_kernel
func.func @mma_kernel(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %s = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %t = nvgpu.device_async_copy %a[%c0], %s[%c0], 4 : memref<4xf32> to memref<4xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
func.func @main_mma(%x: memref<4xf32>) {
  call @mma_kernel(%x) : (memref<4xf32>) -> ()
  return
}
