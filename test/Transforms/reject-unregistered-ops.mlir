// RUN: mlc-opt %s -split-input-file --allow-unregistered-dialect -verify-diagnostics --mlc-reject-unregistered-ops | FileCheck %s
// The pipelines start with it: an error, not upstream's crash in
// math-extend-to-supported-types (found by utils/fuzz/fuzz-mlc-opt.py).
// RUN: not mlc-opt %s -split-input-file --allow-unregistered-dialect --mlc-cpu-lower-to-llvm 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not mlc-opt %s -split-input-file --allow-unregistered-dialect --mlc-cpu-pipeline 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not mlc-opt %s -split-input-file --allow-unregistered-dialect --mlc-gpu-pipeline 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: error: 'test.op' op of an unregistered dialect cannot be lowered by mlc's pipelines

// A module of registered ops is unchanged.
// CHECK-LABEL: func.func @registered
// CHECK-NEXT:    math.exp
// CHECK-NEXT:    return
func.func @registered(%x: f32) -> f32 {
  %0 = math.exp %x : f32
  return %0 : f32
}

// -----

func.func @unregistered(%x: tensor<4xf16>) -> tensor<4xf16> {
  %0 = math.exp %x : tensor<4xf16>
  // expected-error @below {{'test.op' op of an unregistered dialect cannot be lowered by mlc's pipelines}}
  %1 = "test.op"(%0) : (tensor<4xf16>) -> tensor<4xf16>
  return %1 : tensor<4xf16>
}
