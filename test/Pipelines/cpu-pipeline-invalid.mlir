// An op the CPU pipeline cannot lower (one of an unregistered dialect) is
// reported at its location (mlc-reject-unregistered-ops, before any pass
// sees it), the tool fails and writes no output.
// RUN: rm -f %t.out
// RUN: not mlc-opt %s --allow-unregistered-dialect --mlc-cpu-pipeline -o %t.out 2>&1 | FileCheck %s
// RUN: not test -e %t.out

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: cpu-pipeline-invalid.mlir:[[@LINE+1]]:8: error: 'unknown.op' op of an unregistered dialect cannot be lowered by mlc's pipelines
  %0 = "unknown.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
