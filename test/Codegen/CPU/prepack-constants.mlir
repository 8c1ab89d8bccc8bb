// RUN: mlc-opt %s -split-input-file -verify-diagnostics --mlc-cpu-prepack-constants | FileCheck %s

// A 2x2x4 constant read as slivers of 2 columns (K = 4 rows, N = 4): stored
// as [[rows of columns 0-1], [rows of columns 2-3]] under a new global; the
// original, which @other still reads, stays. A splat is the same in every
// order and is kept. The attributes go away.
// CHECK: memref.global "private" constant @w_slivers2 : memref<2x2x4xf32> = dense_resource<w_slivers2> {alignment = 64 : i64}
// CHECK: memref.global "private" constant @w : memref<2x2x4xf32> = dense<
// CHECK: memref.global "private" constant @s : memref<4x4xf32> = dense<1.000000e+00>
// CHECK-NOT: @s_slivers
// CHECK: func.func private @kernel(%{{.*}}: memref<2x2x4xf32>, %{{.*}}: memref<4x4xf32>)
// CHECK-DAG: %[[P:.*]] = memref.get_global @w_slivers2
// CHECK-DAG: %[[S:.*]] = memref.get_global @s :
// CHECK: call @kernel(%[[P]], %[[S]])
// CHECK: call @other(%{{.*}})
// Rows 0-3 of columns 0-1, then of columns 2-3 (0, 1, 4, 5, 8, 9, 12, 13,
// 2, 3, ...), after the blob's alignment (0x40):
// CHECK: w_slivers2: "0x40000000000000000000803F000080400000A0400000004100001041000040410000504100000040000040400000C0400000E04000002041000030410000604100007041"
memref.global "private" constant @w : memref<2x2x4xf32> = dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]], [[8.0, 9.0, 10.0, 11.0], [12.0, 13.0, 14.0, 15.0]]]> {alignment = 64 : i64}
memref.global "private" constant @s : memref<4x4xf32> = dense<1.0>
func.func private @kernel(%w: memref<2x2x4xf32> {mlc.constant, mlc.packed_slivers = 2 : i64}, %s: memref<4x4xf32> {mlc.constant, mlc.packed_slivers = 2 : i64}) {
  return
}
func.func private @other(%w: memref<2x2x4xf32>) {
  return
}
func.func @main() {
  %w = memref.get_global @w : memref<2x2x4xf32>
  %s = memref.get_global @s : memref<4x4xf32>
  call @kernel(%w, %s) : (memref<2x2x4xf32>, memref<4x4xf32>) -> ()
  call @other(%w) : (memref<2x2x4xf32>) -> ()
  return
}

// -----

// A caller that passes a packed argument something that is not a constant
// global: the kernel would read it in the wrong order.
func.func private @kernel(%w: memref<4x4xf32> {mlc.packed_slivers = 2 : i64}) {
  return
}
func.func @main(%w: memref<4x4xf32>) {
  // expected-error @+1 {{mlc-cpu-prepack-constants: @kernel reads argument #0 as slivers of 2 columns, but this call passes it no constant global with its elements}}
  call @kernel(%w) : (memref<4x4xf32>) -> ()
  return
}
