// RUN: mlc-opt %s -relax-dce="entry=" | FileCheck %s

// entry="" (as --mlc-cpu-pipeline runs it): no @main is required; the
// public functions are the roots of reachability.
// CHECK-LABEL: module
// CHECK-NOT: @dead
// CHECK: tensorir.prim_func private @used
// CHECK: func.func @kernel_entry
tensorir.prim_func private @dead(%a: memref<2xf32>) {
  tensorir.return
}
tensorir.prim_func private @used(%a: memref<2xf32>) {
  tensorir.return
}
func.func @kernel_entry(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relax.call_tir @used() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
