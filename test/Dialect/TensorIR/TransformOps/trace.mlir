// The schedule a pass applied, printed back as a transform script
// (print-trace, Schedule::getTraceScript: TVM's sch.trace), replays to the
// same IR with --transform-interpreter. A primitive that failed (vectorizing
// the reduction loop of block S) leaves no trace.
// RUN: mlc-opt %s --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-vectorize{print-trace}))' -o %t.vectorized.mlir > %t.vectorize-trace.mlir
// RUN: FileCheck %s --check-prefix=VEC < %t.vectorize-trace.mlir
// RUN: mlc-opt %s --transform-preload-library=transform-library-paths=%t.vectorize-trace.mlir --transform-interpreter -o %t.vectorize-replayed.mlir
// RUN: diff %t.vectorized.mlir %t.vectorize-replayed.mlir
// RUN: mlc-opt %s --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-tile{sizes=8,16 print-trace}))' -o %t.tiled.mlir > %t.tile-trace.mlir
// RUN: FileCheck %s --check-prefix=TILE < %t.tile-trace.mlir
// RUN: mlc-opt %s --transform-preload-library=transform-library-paths=%t.tile-trace.mlir --transform-interpreter -o %t.tile-replayed.mlir
// RUN: diff %t.tiled.mlir %t.tile-replayed.mlir
// RUN: mlc-opt %s --pass-pipeline='builtin.module(tensorir.prim_func(tensorir-tile{sizes=8,16,4 print-trace}))' | FileCheck %s --check-prefix=NONE

// VEC:      module attributes {transform.with_named_sequence} {
// VEC-NEXT:   transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
// VEC-NEXT:     %func = transform.structured.match ops{["tensorir.prim_func"]} attributes {sym_name = "f"} in %root
// VEC-NEXT:     %[[B:.*]] = transform.tensorir.get_block "B" in %func
// VEC-NEXT:     %[[L:.*]]:2 = transform.tensorir.get_loops %[[B]]
// VEC-NEXT:     transform.tensorir.vectorize %[[L]]#1 : !transform.any_op
// VEC-NEXT:     transform.yield
// VEC-NOT:  "S"

// TILE:      %[[B:.*]] = transform.tensorir.get_block "B" in %func
// TILE-NEXT: %[[L:.*]]:2 = transform.tensorir.get_loops %[[B]]
// TILE-NEXT: = transform.tensorir.tile %[[L]]#0, %[[L]]#1 by [8, 16] : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
// TILE-NEXT: %[[S:.*]] = transform.tensorir.get_block "S" in %func
// TILE-NEXT: %[[K:.*]]:2 = transform.tensorir.get_loops %[[S]]
// TILE-NEXT: = transform.tensorir.tile %[[K]]#0, %[[K]]#1 by [8, 16]

// Nothing applied (no block has three loops to tile): no script.
// NONE-NOT: transform.named_sequence
// NONE: tensorir.prim_func @f

tensorir.prim_func @f(%A: memref<20x32xf32>, %S: memref<20xf32>, %Z: memref<f32>) {
  tensorir.for %i = 0 to 20 {
    tensorir.for %j = 0 to 32 {
      tensorir.block "B"(%vi = spatial(20, %i), %vj = spatial(32, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi, %vj] : memref<20x32xf32>
      }
    }
  }
  tensorir.for %i = 0 to 20 {
    tensorir.for %k = 0 to 32 {
      tensorir.block "S"(%vi = spatial(20, %i), %vk = reduce(32, %k)) {
        %s = memref.load %S[%vi] : memref<20xf32>
        %a = memref.load %A[%vi, %vk] : memref<20x32xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[%vi] : memref<20xf32>
      }
    }
  }
  tensorir.block "Q"() {
    %zero = arith.constant 0.0 : f32
    memref.store %zero, %Z[] : memref<f32>
  }
}
