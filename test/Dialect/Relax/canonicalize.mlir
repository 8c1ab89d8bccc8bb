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
