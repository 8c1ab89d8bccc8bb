// RUN: mlc-translate --export-tuning-tasks %S/Inputs/kernels.mlir | FileCheck %s
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

// PARSE: export-tuning-tasks.mlir:[[@LINE+1]]:1: error: custom op 'this' is unknown
this is not MLIR
