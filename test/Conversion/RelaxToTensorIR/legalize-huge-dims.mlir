// A normalization over more elements than int64_t counts (a type may say
// so): the element count saturates instead of overflowing (found by the
// mlc-opt fuzzer, seed 43, in createElementCount).
// RUN: mlc-opt %s --relax-legalize-ops | FileCheck %s

// CHECK-LABEL: tensorir.prim_func private @group_norm
// CHECK: func.func @test_group_norm
func.func @test_group_norm(%x: tensor<2x6x9223372036854775807xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<2x6x9223372036854775807xf32> {
  %0 = relax.nn.group_norm %x, %g, %b {num_groups = 3 : i64} : (tensor<2x6x9223372036854775807xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x9223372036854775807xf32>
  return %0 : tensor<2x6x9223372036854775807xf32>
}
