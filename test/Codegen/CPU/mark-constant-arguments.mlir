// RUN: mlc-opt %s -split-input-file --mlc-cpu-mark-constant-arguments | FileCheck %s

// Every call passes a constant global at argument #1 (two different ones):
// marked. Argument #0 is an activation, #2 a constant at one call only.
// CHECK-LABEL: func.func private @kernel(
// CHECK-SAME: %{{.*}}: memref<4x8xf32>, %{{.*}}: memref<8x16xf32> {mlc.constant}, %{{.*}}: memref<16xf32>, %{{.*}}: memref<4x16xf32>)
memref.global "private" constant @w0 : memref<8x16xf32> = dense<1.0>
memref.global "private" constant @w1 : memref<8x16xf32> = dense<2.0>
memref.global "private" constant @b : memref<16xf32> = dense<0.5>
func.func private @kernel(%x: memref<4x8xf32>, %w: memref<8x16xf32>, %b: memref<16xf32>, %y: memref<4x16xf32>) {
  return
}
func.func @main(%x: memref<4x8xf32>, %b: memref<16xf32>, %y: memref<4x16xf32>) {
  %w0 = memref.get_global @w0 : memref<8x16xf32>
  %w1 = memref.get_global @w1 : memref<8x16xf32>
  %bc = memref.get_global @b : memref<16xf32>
  call @kernel(%x, %w0, %bc, %y) : (memref<4x8xf32>, memref<8x16xf32>, memref<16xf32>, memref<4x16xf32>) -> ()
  call @kernel(%x, %w1, %b, %y) : (memref<4x8xf32>, memref<8x16xf32>, memref<16xf32>, memref<4x16xf32>) -> ()
  return
}

// -----

// Negatives: a public function (other code may call it with anything), a
// global that is not constant, a function also used other than by a call.
// CHECK-LABEL: func.func @public_kernel(
// CHECK-NOT: mlc.constant
// CHECK-LABEL: func.func private @mutable_kernel(
// CHECK-NOT: mlc.constant
// CHECK-LABEL: func.func private @referenced_kernel(
// CHECK-NOT: mlc.constant
// CHECK-LABEL: func.func @main
memref.global "private" constant @w : memref<8x16xf32> = dense<1.0>
memref.global "private" @state : memref<8x16xf32> = dense<1.0>
func.func @public_kernel(%w: memref<8x16xf32>) {
  return
}
func.func private @mutable_kernel(%w: memref<8x16xf32>) {
  return
}
func.func private @referenced_kernel(%w: memref<8x16xf32>) {
  return
}
func.func @main() {
  %w = memref.get_global @w : memref<8x16xf32>
  %s = memref.get_global @state : memref<8x16xf32>
  call @public_kernel(%w) : (memref<8x16xf32>) -> ()
  call @mutable_kernel(%s) : (memref<8x16xf32>) -> ()
  call @referenced_kernel(%w) : (memref<8x16xf32>) -> ()
  %f = func.constant @referenced_kernel : (memref<8x16xf32>) -> ()
  return
}
