// An op the CPU pipeline cannot bufferize is reported at its location, the
// tool fails and writes no output.
// RUN: rm -f %t.out
// RUN: not mlc-opt %s --allow-unregistered-dialect --mlc-cpu-pipeline -o %t.out 2>&1 | FileCheck %s
// RUN: not test -e %t.out

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: cpu-pipeline-invalid.mlir:[[@LINE+1]]:8: error: op was not bufferized
  %0 = "unknown.op"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
