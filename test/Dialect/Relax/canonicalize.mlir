// RUN: mlc-opt %s -canonicalize | FileCheck %s

// Unused dataflow results are dropped, then what computed them.
// CHECK-LABEL: func.func @unused_results
// CHECK-NEXT: %[[R:.*]] = relax.dataflow -> tensor<4xf32> {
// CHECK-NEXT:   %[[B:.*]] = relax.add
// CHECK-NEXT:   relax.output %[[B]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]
func.func @unused_results(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = relax.dataflow -> tensor<4xf32>, tensor<4xf32> {
    %a = relax.call_dps_packed "env.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %b = relax.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relax.output %a, %b : tensor<4xf32>, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}

// A match_cast to the same type folds away.
// CHECK-LABEL: func.func @match_cast_same
// CHECK-NEXT: return %arg0
func.func @match_cast_same(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n]>> {
  %0 = relax.match_cast %x : tensor<?xf32, #relax.shape<[n]>> to tensor<?xf32, #relax.shape<[n]>>
  return %0 : tensor<?xf32, #relax.shape<[n]>>
}

// A match_cast that refines stays.
// CHECK-LABEL: func.func @match_cast_refines
// CHECK-NEXT: relax.match_cast
func.func @match_cast_refines(%x: tensor<?xf32>) -> tensor<?xf32, #relax.shape<[n]>> {
  %0 = relax.match_cast %x : tensor<?xf32> to tensor<?xf32, #relax.shape<[n]>>
  return %0 : tensor<?xf32, #relax.shape<[n]>>
}

// A permutation of a permutation is one permutation; the heads' transpose
// and its inverse cancel, symbolic shapes included.
// CHECK-LABEL: func.func @permute_dims_compose
// CHECK-NEXT: %[[P:.*]] = relax.permute_dims %arg0 {axes = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
// CHECK-NEXT: return %[[P]], %arg1
func.func @permute_dims_compose(%x: tensor<2x3x4xf32>, %y: tensor<?x8x4x16xf32, #relax.shape<[b, 8, 4, 16]>>) -> (tensor<3x4x2xf32>, tensor<?x8x4x16xf32, #relax.shape<[b, 8, 4, 16]>>) {
  %0 = relax.permute_dims %x {axes = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = relax.permute_dims %0 {axes = array<i64: 0, 2, 1>} : (tensor<3x2x4xf32>) -> tensor<3x4x2xf32>
  %2 = relax.permute_dims %y {axes = array<i64: 0, 2, 1, 3>} : (tensor<?x8x4x16xf32, #relax.shape<[b, 8, 4, 16]>>) -> tensor<?x4x8x16xf32, #relax.shape<[b, 4, 8, 16]>>
  %3 = relax.permute_dims %2 {axes = array<i64: 0, 2, 1, 3>} : (tensor<?x4x8x16xf32, #relax.shape<[b, 4, 8, 16]>>) -> tensor<?x8x4x16xf32, #relax.shape<[b, 8, 4, 16]>>
  return %1, %3 : tensor<3x4x2xf32>, tensor<?x8x4x16xf32, #relax.shape<[b, 8, 4, 16]>>
}

// Two reversals (the default axes) are the identity; one is not.
// CHECK-LABEL: func.func @permute_dims_reverse
// CHECK-NEXT: %[[P:.*]] = relax.permute_dims %arg0 : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: return %arg0, %[[P]]
func.func @permute_dims_reverse(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xf32>) {
  %0 = relax.permute_dims %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = relax.permute_dims %0 : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %1, %0 : tensor<2x3xf32>, tensor<3x2xf32>
}
