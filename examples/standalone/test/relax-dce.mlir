// RUN: standalone-opt %s --relax-dce | FileCheck %s
// An mlc pass on relax and tensorir ops, in a tool built outside mlc's tree:
// the unused relax op and the unreachable private prim_func are removed.

// CHECK-LABEL: func.func @main
// CHECK-NOT:   relax.multiply
// CHECK:       %[[SUM:.*]] = relax.add
// CHECK-NEXT:  return %[[SUM]]
// CHECK-NOT:   @unused
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relax.multiply %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = relax.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

tensorir.prim_func private @unused(%a: memref<4xf32>) {
  tensorir.return
}
