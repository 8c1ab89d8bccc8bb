// RUN: mlc-opt %s -split-input-file -relax-fold-constant | FileCheck %s

// Broadcasting add and matmul of constants fold, inside dataflow blocks too;
// ops with a non-constant operand stay.
// CHECK-LABEL: func.func @fold
// CHECK-DAG: %[[ADD:.*]] = relax.constant dense<{{\[}}[1.100000e+01, 2.200000e+01], [1.300000e+01, 2.400000e+01]]> : tensor<2x2xf32>
// CHECK-DAG: %[[MM:.*]] = relax.constant dense<{{\[}}[7, 10], [15, 22]]> : tensor<2x2xi32>
// CHECK-DAG: %[[VEC:.*]] = relax.constant dense<[5, 11]> : tensor<2xi32>
// CHECK: %[[R:.*]]:2 = relax.dataflow
// CHECK-NEXT: %[[LIVE:.*]] = relax.add %arg0, %[[ADD]]
// CHECK-NEXT: relax.output %[[LIVE]], %[[MM]]
// CHECK: return %[[R]]#0, %[[R]]#1, %[[VEC]]
func.func @fold(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>, tensor<2xi32>) {
  %a = relax.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = relax.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %i = relax.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %v = relax.constant dense<[1, 2]> : tensor<2xi32>
  %r:2 = relax.dataflow -> tensor<2x2xf32>, tensor<2x2xi32> {
    %s = relax.add %a, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %live = relax.add %x, %s : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %m = relax.matmul %i, %i : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
    relax.output %live, %m : tensor<2x2xf32>, tensor<2x2xi32>
  }
  // 1-D rhs: (2, 2) x (2) -> (2).
  %mv = relax.matmul %i, %v : (tensor<2x2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %r#0, %r#1, %mv : tensor<2x2xf32>, tensor<2x2xi32>, tensor<2xi32>
}

// -----

// Batched matmul with batch broadcasting: (2, 1, 2) x (2, 1) -> (2, 1, 1).
// CHECK-LABEL: func.func @batched
// CHECK: relax.constant dense<{{\[}}{{\[}}[3]], {{\[}}[7]]]> : tensor<2x1x1xi32>
func.func @batched() -> tensor<2x1x1xi32> {
  %a = relax.constant dense<[[[1, 1]], [[3, 2]]]> : tensor<2x1x2xi32>
  %b = relax.constant dense<[[1], [2]]> : tensor<2x1xi32>
  %m = relax.matmul %a, %b : (tensor<2x1x2xi32>, tensor<2x1xi32>) -> tensor<2x1x1xi32>
  return %m : tensor<2x1x1xi32>
}

