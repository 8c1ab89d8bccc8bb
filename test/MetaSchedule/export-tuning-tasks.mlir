// RUN: mlc-translate --export-tuning-tasks %S/Inputs/kernels.mlir | FileCheck %s
// RUN: mlc-translate --export-tuning-tasks %S/Inputs/kernels.mlir | FileCheck %s --check-prefix=NOHARNESS
// RUN: mlc-translate --export-tuning-tasks %S/Inputs/weights.mlir | FileCheck %s --check-prefix=WEIGHTS
// RUN: not mlc-translate --export-tuning-tasks %s 2>&1 | FileCheck %s --check-prefix=PARSE

// The host's key, then one task per prim_func in the module's order: the
// number of calls as the weight (1 for a kernel nothing calls), a structural
// hash that does not depend on the name (@add_a and @add_b share one), and
// the kernel alone, public, as its module text.
// CHECK: "target": {
// CHECK: "cpu":
// CHECK: "features": [
// CHECK: "kind": "llvm",
// CHECK: "mlc": "0.1.dev0"
// CHECK: "tasks": [
// CHECK: "mod": "module {\n  tensorir.prim_func @add_a(%A: memref<64xf32>
// CHECK-NEXT: "name": "add_a",
// CHECK-NEXT: "weight": 2,
// CHECK-NEXT: "workload_hash": "[[ADD:[0-9a-f]+]]"
// CHECK: "mod": "module {\n  tensorir.prim_func @add_b(
// CHECK-NEXT: "name": "add_b",
// CHECK-NEXT: "weight": 1,
// CHECK-NEXT: "workload_hash": "[[ADD]]"
// CHECK: "name": "scale",
// CHECK-NEXT: "weight": 1,
// CHECK-NOT: "workload_hash": "[[ADD]]"
// CHECK: "workload_hash": "{{[0-9a-f]+}}"

// A kernel that every call passes a constant at the same position gets a
// harness: a public func.func that calls it with the first call's constant
// (a dense_resource blob printed inline) and takes its other inputs. A
// kernel that one call passes a computed value there gets none, nor do the
// kernels above (no constants).
// NOHARNESS-NOT: "harness"
// WEIGHTS: "tasks": [
// WEIGHTS-NEXT: {
// WEIGHTS-NEXT: "harness": "func.func @mul__with_weights(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n  %0 = relax.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>\n  %1 = relax.call_tir @mul(%arg0, %0) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n  return %1 : tensor<4xf32>\n}",
// WEIGHTS-NEXT: "harness_entry": "mul__with_weights",
// WEIGHTS-NEXT: "mod": "module {\n  tensorir.prim_func @mul(
// WEIGHTS: "name": "mul",
// WEIGHTS-NOT: "harness"
// WEIGHTS: "mod": "module {\n  tensorir.prim_func @mul_mixed(
// WEIGHTS-NOT: "harness"

// PARSE: export-tuning-tasks.mlir:[[@LINE+1]]:1: error: custom op 'this' is unknown
this is not MLIR
