// RUN: mlc-opt %s --mlc-strip-parameter-names | FileCheck %s

// CHECK-LABEL: func.func @named(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32>
func.func @named(%x: tensor<4xf32> {relay.name = "x"}, %y: tensor<4xf32> {relax.name = "y"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// Other argument attributes are kept.
// CHECK-LABEL: func.func @other(%arg0: tensor<4xf32> {llvm.noalias}) -> tensor<4xf32>
func.func @other(%x: tensor<4xf32> {llvm.noalias, relay.name = "x"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
