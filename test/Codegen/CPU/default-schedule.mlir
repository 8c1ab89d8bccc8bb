// RUN: mlc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(mlc-default-schedule))' | FileCheck %s

// Matmul (the generic convert-tensorir-to-linalg raises): GotoBLAS's loop
// nest. The rhs panel (64x128) is copied once, before the parallel row
// tasks, as two contiguous slivers of 64 columns (each register column
// streams its own 64x64 sliver, not one row of the panel per k step); each
// task (96 of the 192 rows) copies its lhs block (96x64) to a buffer whose
// rows are padded by a cache line (64 -> 80 floats: rows of an even number
// of lines would share L1 sets). The k x 64 sliver of the rhs (16 KiB)
// fits in L1, so the task walks register columns of the panel outermost
// (each sliver stays in L1 for all the rows of the block), then register
// rows, then a k loop carrying the 6x64 accumulator tile in registers, FMAs
// on the packed operands. Before its k loop, each register tile prefetches
// the accumulators of the next one (rows + 6, the last tile its own): 6
// rows of four 64-byte lines. The 32 KiB panel stays in L1: its rows are
// not prefetched. (A sliver too large for L1: next test.)
// CHECK-LABEL: func.func @matmul
// CHECK: %[[PB:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x64x64xf32>
// CHECK: %[[SRC:.*]] = memref.expand_shape %arg1 {{\[}}[0], [1, 2]] output_shape [64, 2, 64]
// CHECK: %[[PBV:.*]] = memref.transpose %[[PB]] (d0, d1, d2) -> (d1, d0, d2) : memref<2x64x64xf32> to memref<64x2x64xf32, strided<[64, 4096, 1]>>
// CHECK: vector.store {{.*}}, %{{.*}} : memref<1x1x16xf32, strided<[64, 4096, 1], offset: ?>>, vector<16xf32>
// CHECK: scf.parallel ({{.*}}) = (%c0) to (%c192) step (%c96)
// CHECK: %[[PA:.*]] = memref.alloca() {alignment = 64 : i64} : memref<96x80xf32>
// CHECK: %[[PAV:.*]] = memref.subview %[[PA]]
// CHECK: vector.store {{.*}}, %{{.*}} : memref<1x16xf32, strided<[80, 1], offset: ?>>, vector<16xf32>
// CHECK: scf.for %[[J:.*]] = %c0 to %c128 step %c64
// CHECK: %[[JB:.*]] = affine.apply #{{.*}}(%[[J]])
// CHECK: %[[SLIVER:.*]] = memref.subview %[[PB]][%[[JB]], 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
// CHECK: %[[CCOL:.*]] = memref.subview {{.*}}[0, %[[J]]] [96, 64]
// CHECK: scf.for %[[I:.*]] = %c0 to %c96 step %c6
// CHECK: %[[LHS:.*]] = memref.subview %[[PAV]][%[[I]], 0] [6, 64]
// CHECK: %[[NEXT:.*]] = arith.addi %[[I]], %c6
// CHECK: %[[ROW:.*]] = arith.minsi %[[NEXT]], %c90
// CHECK: memref.prefetch %[[CCOL]][%[[ROW]], %c0], write, locality<3>, data
// CHECK: memref.prefetch %[[CCOL]][%[[ROW]], %c16], write, locality<3>, data
// CHECK-COUNT-22: memref.prefetch %[[CCOL]]
// CHECK-NOT: memref.prefetch
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} : memref<6x64xf32, {{.*}}>, vector<6x64xf32>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<6x64xf32>)
// CHECK: memref.subview %[[LHS]]
// CHECK: memref.subview %[[SLIVER]]
// CHECK-NOT: memref.prefetch
// CHECK-COUNT-6: vector.fma {{.*}} : vector<64xf32>
// CHECK: scf.yield
// CHECK: vector.transfer_write %[[R]]
// CHECK-NOT: linalg.generic
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul(%A: memref<192x64xf32>, %B: memref<64x128xf32>, %C: memref<192x128xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<192x64xf32>, memref<64x128xf32>) outs(%C : memref<192x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A panel larger than L1 (256 x 128 floats, 128 KiB) streams from L2:
// its 64 KiB slivers do not fit in L1 either, so register rows are
// outermost (the lhs sliver stays in L1) and each k step of a register
// tile prefetches its sliver's row 8 steps (2 KiB) ahead, one prefetch per
// cache line, the row clamped to the sliver's last.
// CHECK-LABEL: func.func @matmul_prefetch_rhs
// CHECK: %[[PB:.*]] = memref.alloca() {alignment = 64 : i64} : memref<2x256x64xf32>
// CHECK: scf.parallel
// CHECK: scf.for %{{.*}} = %c0 to %c96 step %c6
// CHECK: scf.for %{{.*}} = %c0 to %c128 step %c64
// CHECK: %[[SLIVER:.*]] = memref.subview %[[PB]][{{.*}}] [1, 256, 64]
// CHECK: scf.for %[[K:.*]] = %c0 to %c256 step %c1 iter_args
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %c8
// CHECK: %[[KROW:.*]] = arith.minsi %[[AHEAD]], %c255
// CHECK: memref.prefetch %[[SLIVER]][%[[KROW]], %c0], read, locality<3>, data
// CHECK-COUNT-3: memref.prefetch %[[SLIVER]][%[[KROW]], %{{.*}}], read, locality<3>, data
// CHECK-NOT: memref.prefetch
// CHECK-COUNT-6: vector.fma {{.*}} : vector<64xf32>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_prefetch_rhs(%A: memref<192x256xf32>, %B: memref<256x128xf32>, %C: memref<192x128xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<192x256xf32>, memref<256x128xf32>) outs(%C : memref<192x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Sizes the tiles do not divide (53 = 32 + 16 + 5): the columns are split
// into a register tile's width, a whole vector and the rest, not peeled as
// one 21-wide tile (LLVM legalizes <21 x float> element by element). Each
// part is narrower than the 6x64 tile and takes twice its rows, so that it
// holds enough accumulators (37 = 3*12 + 1); the peeled remainder rows have
// static sizes too and are vectorized as well. The rhs panels are not
// static before peeling and stay unpacked.
// CHECK-LABEL: func.func @matmul_odd
// CHECK-NOT: memref<29x32xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<12x32xf32>)
// CHECK: vector.fma {{.*}} : vector<32xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x32xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<12x16xf32>)
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x16xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<12x5xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x5xf32>)
// CHECK-NOT: vector<6x21xf32>
// CHECK-NOT: linalg.generic
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_odd(%A: memref<37x29xf32>, %B: memref<29x53xf32>, %C: memref<37x53xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<37x29xf32>, memref<29x53xf32>) outs(%C : memref<37x53xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A one-row matmul (dense of a batch-1 input): a 1x10 register tile whose
// FMAs are one-dimensional vectors. The k cache tile is balanced (784 =
// 4 * 196 rather than 3 * 256 + 16), so no partial tile is left. Once, the
// lowering patterns rewrote this tile's unit dimension back and forth for
// seconds. One register row tile: no next tile to prefetch.
// CHECK-LABEL: func.func @matmul_one_row
// CHECK-NOT: memref.prefetch
// CHECK: scf.for {{.*}} = %c0 to %c784 step %c196
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x10xf32>)
// CHECK: vector.fma {{.*}} : vector<10xf32>
// CHECK-NOT: scf.for {{.*}} iter_args
// CHECK-NOT: linalg.generic
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_one_row(%A: memref<1x784xf32>, %B: memref<784x10xf32>, %C: memref<1x10xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<1x784xf32>, memref<784x10xf32>) outs(%C : memref<1x10xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A batch-1 dense layer (M = 1, N = 600): column tasks of whole vectors,
// four of them (600 / 256 rounded up to an even count) of 144 columns, the
// remaining 24 as an op of their own (a partial task would have dynamic
// sizes down to the register tile and stay scalar), itself 16 and 8
// columns; a one-row register tile is as wide as the task's largest power
// of two of vectors (128 + 16 columns: LLVM legalizes a vector of 9 or 15
// vectors element by element).
// CHECK-LABEL: func.func @dense_wide
// CHECK: memref.subview %{{.*}}[0, 0] [2048, 576] [1, 1]
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c576) step (%c144)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x128xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x16xf32>)
// CHECK: memref.subview %{{.*}}[0, 576] [2048, 24] [1, 1]
// CHECK-NOT: scf.parallel
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x16xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x8xf32>)
// CHECK-NOT: linalg.generic
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @dense_wide(%A: memref<1x2048xf32>, %B: memref<2048x600xf32>, %C: memref<1x600xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<1x2048xf32>, memref<2048x600xf32>) outs(%C : memref<1x600xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// The classifier of a CNN (M = 1, K = 1280, N = 1000): 1.3M multiply-adds
// run as column tasks. The 960 columns the tasks divide are 1.2M of them,
// below the threshold, and keep the whole op's decision: they used to run on
// one thread.
// CHECK-LABEL: func.func @dense_classifier
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c960) step (%c240)
// CHECK: -> (vector<1x128xf32>)
// CHECK: -> (vector<1x64xf32>)
// CHECK: -> (vector<1x32xf32>)
// CHECK: -> (vector<1x16xf32>)
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @dense_classifier(%A: memref<1x1280xf32>, %B: memref<1280x1000xf32>, %C: memref<1x1000xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<1x1280xf32>, memref<1280x1000xf32>) outs(%C : memref<1x1000xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Few rows (a 7x7 image's 49 pixels) and wider weights: two column tasks
// of 80, each over all 49 rows (six register row tiles and a peeled one),
// so the threads share the reading of the weights; rows as tasks were
// 24 + 24, and the last row ran on one thread after them.
// CHECK-LABEL: func.func @few_rows
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c160) step (%c80)
// CHECK-NOT: memref.subview %arg0[48, 0] [1, 960]
// CHECK: return
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @few_rows(%A: memref<49x960xf32>, %B: memref<960x160xf32>, %C: memref<49x160xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<49x960xf32>, memref<960x160xf32>) outs(%C : memref<49x160xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Row tasks divide the rows with an even number of tasks: 196 rows (a
// 14x14 image) as two tasks of 98 (a partial register tile peeled inside
// each), 3136 rows (56x56) as 28 tasks of 112; no rows are left for one
// thread after the tasks (they were 96 + 96 + 4 and 24 x 128 + 64).
// CHECK-LABEL: func.func @rows_196
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c196) step (%c98)
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-LABEL: func.func @rows_3136
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c3136) step (%c112)
// CHECK-NOT: scf.parallel
// CHECK: return
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @rows_196(%A: memref<196x576xf32>, %B: memref<576x96xf32>, %C: memref<196x96xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<196x576xf32>, memref<576x96xf32>) outs(%C : memref<196x96xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
func.func @rows_3136(%A: memref<3136x64xf32>, %B: memref<64x256xf32>, %C: memref<3136x256xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<3136x64xf32>, memref<64x256xf32>) outs(%C : memref<3136x256xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Elementwise: a short innermost dimension is one vector; a long one is
// vectorized by 16 and the outer dimension runs in parallel.
// CHECK-LABEL: func.func @ewise
// CHECK: scf.for
// CHECK: vector.{{.*}} vector<13xf32>
// CHECK: arith.addf {{.*}} : vector<13xf32>
// CHECK-LABEL: func.func @ewise_big
// CHECK: scf.parallel
// CHECK: math.exp {{.*}} : vector<16xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
#bc = affine_map<(d0, d1) -> (d1)>
func.func @ewise(%A: memref<7x13xf32>, %B: memref<13xf32>, %C: memref<7x13xf32>) {
  linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A, %B : memref<7x13xf32>, memref<13xf32>) outs(%C : memref<7x13xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @ewise_big(%A: memref<256x256xf32>, %C: memref<256x256xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<256x256xf32>) outs(%C : memref<256x256xf32>) {
  ^bb0(%a: f32, %c: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Elementwise with several outputs (a Winograd transform's planes): tiled
// and vectorized as one op. With 8 operands, 64 x 256 elements are work
// enough for parallel tasks (the threshold is 32768 elements of an op of
// up to 7 operands, half as many with 8); with 3 operands they are not.
// CHECK-LABEL: func.func @ewise_two_outputs
// CHECK: scf.parallel
// CHECK: %[[X:.*]] = vector.load {{.*}} vector<16xf32>
// CHECK: %[[Y:.*]] = vector.load {{.*}} vector<16xf32>
// CHECK-DAG: arith.addf %[[X]], %[[Y]] : vector<16xf32>
// CHECK-DAG: arith.subf %[[X]], %[[Y]] : vector<16xf32>
// CHECK-COUNT-2: vector.store
// CHECK-LABEL: func.func @ewise_small_two_outputs
// CHECK-NOT: scf.parallel
// CHECK: arith.subf {{.*}} : vector<16xf32>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @ewise_two_outputs(%A: memref<64x1024xf32>, %B: memref<64x1024xf32>, %C: memref<64x1024xf32>, %D: memref<64x1024xf32>, %E: memref<64x1024xf32>, %F: memref<64x1024xf32>, %G: memref<64x1024xf32>, %H: memref<64x1024xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A, %B, %C, %D, %E, %F : memref<64x1024xf32>, memref<64x1024xf32>, memref<64x1024xf32>, memref<64x1024xf32>, memref<64x1024xf32>, memref<64x1024xf32>) outs(%G, %H : memref<64x1024xf32>, memref<64x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %e: f32, %f: f32, %g: f32, %h: f32):
    %0 = arith.addf %a, %b : f32
    %1 = arith.subf %a, %b : f32
    linalg.yield %0, %1 : f32, f32
  }
  return
}
func.func @ewise_small_two_outputs(%A: memref<64x256xf32>, %G: memref<64x256xf32>, %H: memref<64x256xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<64x256xf32>) outs(%G, %H : memref<64x256xf32>, memref<64x256xf32>) {
  ^bb0(%a: f32, %g: f32, %h: f32):
    %0 = arith.negf %a : f32
    %1 = arith.subf %a, %a : f32
    linalg.yield %0, %1 : f32, f32
  }
  return
}

// -----

// A batch-1 NCHW tensor: the tasks split the channels (the first dimension
// that is not a unit one), 96 in steps of 6; the innermost dimension is
// vectorized. Inside a task, the loops around the vector loop (6
// channels, 56 rows: small constant trip counts) tell LLVM not to unroll
// them (it unrolled such fills into 500 memsets in one block, seconds of
// instruction selection). With one row of channels only (1 x 1 x 56 x 56)
// the rows are split, never the vectorized innermost dimension.
// CHECK-DAG: #[[NO_UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[ANNOTATION:.*]] = #llvm.loop_annotation<unroll = #[[NO_UNROLL]]>
// CHECK-LABEL: func.func @ewise_batch1
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c96) step (%c6)
// CHECK: vector<16xf32>
// CHECK: } {llvm.loop_annotation = #[[ANNOTATION]]}
// CHECK: } {llvm.loop_annotation = #[[ANNOTATION]]}
// CHECK-LABEL: func.func @ewise_one_plane
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c224) step (%c14)
// A small op runs on one thread, and its outer loops are not unrolled
// either: LLVM unrolled the 58 pixels of a bordered image's column fill
// into 200 memsets in one block (1.7 s of code generation for one ResNet-50
// kernel). The vector loop is left to LLVM.
// CHECK-LABEL: func.func @border_column_fill
// CHECK-NOT: scf.parallel
// CHECK: scf.for %{{.*}} = %c0 to %c58 step %c1 {
// CHECK: scf.for %{{.*}} = %c0 to %c128 step %c16 {
// CHECK: vector.store
// CHECK-NEXT: }
// CHECK-NEXT: } {llvm.loop_annotation = #[[ANNOTATION]]}
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @ewise_batch1(%A: memref<1x96x56x56xf32>, %C: memref<1x96x56x56xf32>) {
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%A : memref<1x96x56x56xf32>) outs(%C : memref<1x96x56x56xf32>) {
  ^bb0(%a: f32, %c: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @ewise_one_plane(%A: memref<1x1x224x224xf32>, %C: memref<1x1x224x224xf32>) {
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%A : memref<1x1x224x224xf32>) outs(%C : memref<1x1x224x224xf32>) {
  ^bb0(%a: f32, %c: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @border_column_fill(%img: memref<1x58x58x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %col = memref.subview %img[0, 0, 0, 0] [1, 58, 1, 128] [1, 1, 1, 1] : memref<1x58x58x128xf32> to memref<1x58x1x128xf32, strided<[430592, 7424, 128, 1]>>
  linalg.fill ins(%zero : f32) outs(%col : memref<1x58x1x128xf32, strided<[430592, 7424, 128, 1]>>)
  return
}

// -----

// Elementwise ops that read through a fused reshape ((d0 * 32 + d1, d2)) or
// at a constant index ((0, d0, d1)) are vectorized too: in a 1 x 1 x 16
// tile the unit dimensions are 0, and operands indexed at a constant are
// read through rank-reduced views. A tile the vectorizer still rejects (a
// strided read along the vector dimension) runs as sequential loops inside
// the parallel tile, never as a parallel region per tile.
// CHECK-LABEL: func.func @ewise_reshape
// CHECK: scf.parallel
// CHECK: memref.subview {{.*}} to memref<16xf32, strided<[1], offset: ?>>
// CHECK: math.tanh {{.*}} : vector<16xf32>
// CHECK: scf.reduce
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @copy_unit_dim
// CHECK: memref.subview {{.*}} to memref<16xf32, strided<[1], offset: ?>>
// CHECK: vector.load {{.*}} : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @strided_read
// CHECK: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: memref.load
// CHECK: scf.reduce
// CHECK-NOT: linalg.generic
#flat = affine_map<(d0, d1, d2) -> (d0 * 32 + d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#unit = affine_map<(d0, d1) -> (0, d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#strided = affine_map<(d0, d1) -> (d0, d1 * 2)>
func.func @ewise_reshape(%A: memref<1600x768xf32>, %C: memref<50x32x768xf32>) {
  linalg.generic {indexing_maps = [#flat, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%A : memref<1600x768xf32>) outs(%C : memref<50x32x768xf32>) {
  ^bb0(%a: f32, %c: f32):
    %0 = math.tanh %a : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @copy_unit_dim(%A: memref<1x128x768xf32>, %C: memref<128x768xf32>) {
  linalg.generic {indexing_maps = [#unit, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<1x128x768xf32>) outs(%C : memref<128x768xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  }
  return
}
func.func @strided_read(%A: memref<512x1536xf32>, %C: memref<512x768xf32>) {
  linalg.generic {indexing_maps = [#strided, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<512x1536xf32>) outs(%C : memref<512x768xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// Conv2d NCHW (the generic convert-tensorir-to-linalg raises): output rows
// in parallel, a 16 (f) x 16 (ow) register tile carried in registers across
// the c, kh and kw loops, FMAs; the 4 remaining output channels are peeled
// into a 4x16 tile.
// CHECK-LABEL: func.func @conv2d
// CHECK: scf.parallel
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} : memref<16x16xf32, {{.*}}>, vector<16x16xf32>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<16x16xf32>)
// CHECK: scf.for {{.*}} -> (vector<16x16xf32>)
// CHECK: scf.for {{.*}} -> (vector<16x16xf32>)
// CHECK: vector.load {{.*}} vector<16xf32>
// CHECK-COUNT-16: vector.fma {{.*}} : vector<16xf32>
// CHECK: vector.transfer_write %[[R]]
// CHECK: scf.for {{.*}} -> (vector<4x16xf32>)
// CHECK-NOT: linalg.generic
#mI = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y + ky, x + kx)>
#mW = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#mO = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
func.func @conv2d(%I: memref<1x4x18x18xf32>, %W: memref<20x4x3x3xf32>, %O: memref<1x20x16x16xf32>) {
  linalg.generic {indexing_maps = [#mI, #mW, #mO], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x4x18x18xf32>, memref<20x4x3x3xf32>) outs(%O : memref<1x20x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Stride 2, dilation 2: the image row is read contiguously and every other
// element picked by a shuffle.
// CHECK-LABEL: func.func @conv2d_stride2
// CHECK: scf.for {{.*}} -> (vector<8x7xf32>)
// CHECK: %[[ROW:.*]] = vector.load {{.*}} vector<13xf32>
// CHECK: vector.shuffle %[[ROW]], %[[ROW]] [0, 2, 4, 6, 8, 10, 12]
// CHECK: vector.fma {{.*}} : vector<7xf32>
// CHECK-NOT: linalg.generic
#mI = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y * 2 + ky * 2, x * 2 + kx * 2)>
#mW = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#mO = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
func.func @conv2d_stride2(%I: memref<1x3x17x17xf32>, %W: memref<8x3x3x3xf32>, %O: memref<1x8x7x7xf32>) {
  linalg.generic {indexing_maps = [#mI, #mW, #mO], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x3x17x17xf32>, memref<8x3x3x3xf32>) outs(%O : memref<1x8x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Convolution-like ops the conv schedule does not take: a max instead of a
// sum and a depthwise conv (its channels index both inputs: no matmul rows)
// are window reductions (16 output columns carried across the window, one
// weight per step); a dynamic shape stays scalar linalg.
// CHECK-LABEL: func.func @conv_untouched
// CHECK-NOT: vector.
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<1x4x?x18xf32>
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @window_convs
// CHECK: scf.for {{.*}} -> (vector<16xf32>)
// CHECK: arith.maximumf {{.*}} : vector<16xf32>
// CHECK: scf.for {{.*}} -> (vector<16xf32>)
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK-NOT: linalg.generic
#mI = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y + ky, x + kx)>
#mW = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#mO = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
#dI = affine_map<(n, c, y, x, ky, kx) -> (n, c, y + ky, x + kx)>
#dW = affine_map<(n, c, y, x, ky, kx) -> (c, ky, kx)>
#dO = affine_map<(n, c, y, x, ky, kx) -> (n, c, y, x)>
func.func @conv_untouched(%W: memref<20x4x3x3xf32>, %DI: memref<1x4x?x18xf32>, %DO: memref<1x20x?x16xf32>) {
  linalg.generic {indexing_maps = [#mI, #mW, #mO], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%DI, %W : memref<1x4x?x18xf32>, memref<20x4x3x3xf32>) outs(%DO : memref<1x20x?x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
func.func @window_convs(%I: memref<1x4x18x18xf32>, %W: memref<20x4x3x3xf32>, %O: memref<1x20x16x16xf32>,
                        %WD: memref<4x3x3xf32>, %OD: memref<1x4x16x16xf32>) {
  linalg.generic {indexing_maps = [#mI, #mW, #mO], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x4x18x18xf32>, memref<20x4x3x3xf32>) outs(%O : memref<1x20x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.maximumf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#dI, #dW, #dO], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%I, %WD : memref<1x4x18x18xf32>, memref<4x3x3xf32>) outs(%OD : memref<1x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Reductions along the contiguous axis: each row's 40 elements are summed
// into 16 lanes carried across the loop (the identity, 0, to start), which
// are reduced once after it; the 8 remaining elements are a shorter vector.
// CHECK-LABEL: func.func @row_sum
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<1x16xf32>
// CHECK: scf.for
// CHECK: %[[ACC:.*]] = vector.load {{.*}} vector<1xf32>
// CHECK: %[[LANES:.*]] = scf.for {{.*}} step %c16 iter_args(%[[L:.*]] = %[[ZERO]]) -> (vector<1x16xf32>)
// CHECK: vector.load {{.*}} vector<16xf32>
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: vector.transpose %[[LANES]]
// CHECK: arith.addf {{.*}}, %[[ACC]] : vector<1xf32>
// CHECK: vector.load {{.*}} vector<8xf32>
// CHECK-NOT: linalg.generic
// Reductions over an outer axis: a vector of 64 (n-register) output
// columns is carried across the rows; the 6 remaining columns are a
// vector<6xf32>.
// CHECK-LABEL: func.func @col_max
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<64xf32>)
// CHECK: arith.maximumf {{.*}} : vector<64xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<6xf32>)
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @row_sum(%A: memref<8x40xf32>, %R: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%A : memref<8x40xf32>) outs(%R : memref<8xf32>) {
  ^bb0(%a: f32, %r: f32):
    %0 = arith.addf %r, %a : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @col_max(%A: memref<30x70xf32>, %R: memref<70xf32>) {
  linalg.generic {indexing_maps = [#tr, #row], iterator_types = ["parallel", "reduction"]}
      ins(%A : memref<30x70xf32>) outs(%R : memref<70xf32>) {
  ^bb0(%a: f32, %r: f32):
    %0 = arith.maximumf %r, %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Max pooling 2x2 stride 2 (convert-tensorir-to-linalg's window operand
// gives the window's range): the 14 output columns are one vector carried
// across the ky and kx loops; each step reads 27 contiguous image elements
// and keeps every second one.
// CHECK-LABEL: func.func @max_pool
// CHECK: scf.for
// CHECK: %[[ACC:.*]] = vector.load {{.*}} vector<14xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<14xf32>)
// CHECK: scf.for {{.*}} -> (vector<14xf32>)
// CHECK: vector.load {{.*}} vector<27xf32>
// CHECK: vector.shuffle {{.*}} [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26]
// CHECK: arith.maximumf {{.*}} : vector<14xf32>
// CHECK: vector.store
// CHECK-NOT: linalg.generic
#img = affine_map<(c, y, x, ky, kx) -> (c, y * 2 + ky, x * 2 + kx)>
#win = affine_map<(c, y, x, ky, kx) -> (ky, kx)>
#pout = affine_map<(c, y, x, ky, kx) -> (c, y, x)>
func.func @max_pool(%I: memref<8x28x28xf32>, %Q: memref<8x14x14xf32>) {
  %window = memref.alloca() : memref<2x2xi8>
  linalg.generic {indexing_maps = [#img, #win, #pout], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%I, %window : memref<8x28x28xf32>, memref<2x2xi8>) outs(%Q : memref<8x14x14xf32>) {
  ^bb0(%a: f32, %w: i8, %r: f32):
    %0 = arith.maximumf %r, %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Left alone: dynamic shapes, tensor-level ops, reductions shorter than a
// vector, a window reduction with two inputs windowed along the output
// columns.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: scf.for
// CHECK-NOT: vector.
// CHECK-COUNT-4: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#win = affine_map<(y, x, ky, kx) -> (y * 2 + ky, x * 2 + kx)>
#window = affine_map<(y, x, ky, kx) -> (ky, kx, x * 2 + kx)>
#out = affine_map<(y, x, ky, kx) -> (y, x)>
func.func @untouched(%A: memref<?x8xf32>, %C: memref<?x8xf32>, %T: tensor<8x8xf32>, %M: memref<8x8xf32>, %R: memref<8xf32>,
                     %P: memref<64x64xf32>, %K: memref<2x2x64xf32>, %Q: memref<32x32xf32>) -> tensor<8x8xf32> {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<?x8xf32>) outs(%C : memref<?x8xf32>) {
  ^bb0(%a: f32, %c: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  %t = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%T : tensor<8x8xf32>) {
  ^bb0(%c: f32):
    %0 = math.exp %c : f32
    linalg.yield %0 : f32
  } -> tensor<8x8xf32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%M : memref<8x8xf32>) outs(%R : memref<8xf32>) {
  ^bb0(%a: f32, %r: f32):
    %0 = arith.maximumf %r, %a : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#win, #window, #out], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%P, %K : memref<64x64xf32>, memref<2x2x64xf32>) outs(%Q : memref<32x32xf32>) {
  ^bb0(%a: f32, %k: f32, %r: f32):
    %m = arith.mulf %a, %k : f32
    %0 = arith.maximumf %r, %m : f32
    linalg.yield %0 : f32
  }
  return %t : tensor<8x8xf32>
}

// -----

// A channels-last depthwise convolution as LegalizeNN writes it (NHWC
// image, HWIO weights with one input channel, its loop of extent one): the
// weights are read along the output channels like the output, one vector
// per window step next to the image's.
// CHECK-LABEL: func.func @depthwise_channels_last
// CHECK: scf.parallel
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>)
// CHECK: vector.load %{{.*}} : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK: vector.load %{{.*}} : memref<16xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<16xf32>
// CHECK-NOT: linalg.generic
#dwImage = affine_map<(y, x, c, rc, ky, kx) -> (y + ky, x + kx, c + rc)>
#dwWeights = affine_map<(y, x, c, rc, ky, kx) -> (ky, kx, rc, c)>
#dwOut = affine_map<(y, x, c, rc, ky, kx) -> (y, x, c)>
func.func @depthwise_channels_last(%I: memref<30x30x64xf32>, %W: memref<3x3x1x64xf32>, %O: memref<28x28x64xf32>) {
  linalg.generic {indexing_maps = [#dwImage, #dwWeights, #dwOut], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<30x30x64xf32>, memref<3x3x1x64xf32>) outs(%O : memref<28x28x64xf32>) {
  ^bb0(%a: f32, %w: f32, %o: f32):
    %0 = arith.mulf %a, %w : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// An rhs panel larger than a function's stack share (256 x 1024 floats, as
// 16 slivers of 256 x 64) is packed into a heap buffer, allocated once and
// freed at the function's exit; the row tasks (M = 64: two of 32 rows)
// share it.
// CHECK-LABEL: func.func @matmul_heap_panel
// CHECK: %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x256x64xf32>
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c64) step (%c32)
// CHECK: memref.dealloc %[[P]] : memref<16x256x64xf32>
// CHECK-NEXT: return
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_heap_panel(%A: memref<64x512xf32>, %B: memref<512x1024xf32>, %C: memref<64x1024xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<64x512xf32>, memref<512x1024xf32>) outs(%C : memref<64x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// The same in a function of several blocks: a heap buffer freed before the
// entry block's terminator could still be in use, so the panel is not
// packed (the lhs blocks of the tasks still are, on their stacks).
// CHECK-LABEL: func.func @matmul_heap_panel_blocks
// CHECK-NOT: memref.alloc()
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<32x272xf32>
// CHECK-NOT: memref.dealloc
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_heap_panel_blocks(%A: memref<64x512xf32>, %B: memref<512x1024xf32>, %C: memref<64x1024xf32>) {
  cf.br ^bb1
^bb1:
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<64x512xf32>, memref<512x1024xf32>) outs(%C : memref<64x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Zero-size loops: nothing to schedule (tiling them crashed before).
// CHECK-LABEL: func.func @zero_size(
// CHECK: linalg.generic
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x0xf32>, memref<0x4xf32>)
#id_zero = affine_map<(d0, d1) -> (d0, d1)>
func.func @zero_size(%A: memref<0x256xf32>, %C: memref<0x256xf32>, %L: memref<4x0xf32>, %R: memref<0x4xf32>, %O: memref<4x4xf32>) {
  linalg.generic {indexing_maps = [#id_zero, #id_zero], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<0x256xf32>) outs(%C : memref<0x256xf32>) {
  ^bb0(%a: f32, %c: f32):
    linalg.yield %a : f32
  }
  linalg.matmul ins(%L, %R : memref<4x0xf32>, memref<0x4xf32>) outs(%O : memref<4x4xf32>)
  return
}

// -----

// A transposing copy (permute_dims of a weight): square 16x16 tiles, read as
// 16 rows of the input and transposed in registers, instead of one gather
// of 16 rows per vector.
// CHECK-LABEL: func.func @transpose
// CHECK:         scf.for {{.*}} step %c16
// CHECK:           scf.for {{.*}} step %c16
// CHECK:             %[[T:.*]] = vector.transfer_read {{.*}} {in_bounds = [true, true]} : memref<16x16xf32, strided<[48, 1], offset: ?>>, vector<16x16xf32>
// CHECK-NEXT:        %[[TT:.*]] = vector.transpose %[[T]], [1, 0] : vector<16x16xf32> to vector<16x16xf32>
// CHECK-NEXT:        vector.transfer_write %[[TT]], {{.*}} : vector<16x16xf32>, memref<16x16xf32, strided<[64, 1], offset: ?>>
#mI = affine_map<(d0, d1) -> (d1, d0)>
#mO = affine_map<(d0, d1) -> (d0, d1)>
func.func @transpose(%A: memref<64x48xf32>, %B: memref<48x64xf32>) {
  linalg.generic {indexing_maps = [#mI, #mO], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<64x48xf32>) outs(%B : memref<48x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A transposed dimension narrower than a vector keeps one output row per
// step (here 4 x 64 -> 64 x 4: each row one 4-wide vector, gathered).
// CHECK-LABEL: func.func @transpose_narrow
// CHECK:         scf.for {{.*}} step %c1
// CHECK:           vector.transfer_read {{.*}} : memref<4x1xf32, strided<[64, 1], offset: ?>>, vector<4x1xf32>
// CHECK-NOT:     vector<16x16xf32>
// CHECK:         return
#mI = affine_map<(d0, d1) -> (d1, d0)>
#mO = affine_map<(d0, d1) -> (d0, d1)>
func.func @transpose_narrow(%A: memref<4x64xf32>, %B: memref<64x4xf32>) {
  linalg.generic {indexing_maps = [#mI, #mO], iterator_types = ["parallel", "parallel"]}
      ins(%A : memref<4x64xf32>) outs(%B : memref<64x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A function's own knobs (what a tuning record sets) override the options:
// a 4x64 register tile (4 accumulators of 64 columns; the other 32 of the
// 96 a 4x32 tile), tasks of 64 rows. A 48-column knob is a 32-column tile
// (a power of two of vectors).
// CHECK-LABEL: func.func @matmul_knobs
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%c256) step (%c64)
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<4x64xf32>)
// CHECK-COUNT-4: vector.fma {{.*}} : vector<64xf32>
// CHECK: scf.yield
#kA = affine_map<(d0, d1, d2) -> (d0, d2)>
#kB = affine_map<(d0, d1, d2) -> (d2, d1)>
#kC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul_knobs(%A: memref<256x64xf32>, %B: memref<64x96xf32>, %C: memref<256x96xf32>)
    attributes {mlc.schedule.m_register = 4 : i64, mlc.schedule.n_register = 64 : i64, mlc.schedule.m_parallel = 64 : i64} {
  linalg.generic {indexing_maps = [#kA, #kB, #kC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<256x64xf32>, memref<64x96xf32>) outs(%C : memref<256x96xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// The convolution's own knob: 8 output channels per register tile instead
// of 16 (the 20 channels: two 8x16 tiles, then 4x16); the contraction
// knobs leave it alone.
// CHECK-LABEL: func.func @conv2d_knob
// CHECK: scf.parallel
// CHECK: %[[R:.*]] = scf.for {{.*}} -> (vector<8x16xf32>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<16xf32>
// CHECK: scf.for {{.*}} -> (vector<4x16xf32>)
// CHECK-NOT: vector<16x16xf32>
#cI = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y + ky, x + kx)>
#cW = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#cO = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
func.func @conv2d_knob(%I: memref<1x4x18x18xf32>, %W: memref<20x4x3x3xf32>, %O: memref<1x20x16x16xf32>)
    attributes {mlc.schedule.conv_m_register = 8 : i64, mlc.schedule.m_register = 4 : i64} {
  linalg.generic {indexing_maps = [#cI, #cW, #cO], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x4x18x18xf32>, memref<20x4x3x3xf32>) outs(%O : memref<1x20x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A window reduction marked mlc.single_thread (a padded window's border
// part, mlc-cpu-split-padded-windows) gets no parallel loop; the same op
// unmarked (48384 iterations, above the threshold) gets one. The marker
// does not outlive the schedule.
// CHECK-LABEL: func.func @border_row_single_thread
// CHECK-NOT: scf.parallel
// CHECK-NOT: mlc.single_thread
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>)
// CHECK-NOT: scf.parallel
// CHECK-NOT: mlc.single_thread
// CHECK-LABEL: func.func @border_row_parallel
// CHECK: scf.parallel
#win = affine_map<(n, y, x, c, ky, kx) -> (n, y + ky, x + kx, c)>
#wgt = affine_map<(n, y, x, c, ky, kx) -> (ky, kx, c)>
#res = affine_map<(n, y, x, c, ky, kx) -> (n, y, x, c)>
func.func @border_row_single_thread(%I: memref<1x3x16x384xf32>, %W: memref<3x3x384xf32>, %O: memref<1x1x14x384xf32>) {
  linalg.generic {indexing_maps = [#win, #wgt, #res], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%I, %W : memref<1x3x16x384xf32>, memref<3x3x384xf32>) outs(%O : memref<1x1x14x384xf32>) attrs = {mlc.single_thread} {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
func.func @border_row_parallel(%I: memref<1x3x16x384xf32>, %W: memref<3x3x384xf32>, %O: memref<1x1x14x384xf32>) {
  linalg.generic {indexing_maps = [#win, #wgt, #res], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%I, %W : memref<1x3x16x384xf32>, memref<3x3x384xf32>) outs(%O : memref<1x1x14x384xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Ops already in a parallel task (the channel tasks of
// mlc-cpu-split-padded-windows) run on its thread: neither the window
// reduction nor the elementwise op (each above the threshold on its own)
// gets a parallel loop of its own; the task's scf.forall becomes the one
// scf.parallel.
// CHECK-LABEL: func.func @ops_in_a_task
// CHECK: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<16xf32>)
// CHECK-NOT: scf.parallel
// CHECK: return
#win = affine_map<(n, y, x, c, ky, kx) -> (n, y + ky, x + kx, c)>
#wgt = affine_map<(n, y, x, c, ky, kx) -> (ky, kx, c)>
#res = affine_map<(n, y, x, c, ky, kx) -> (n, y, x, c)>
#id = affine_map<(n, y, x, c) -> (n, y, x, c)>
func.func @ops_in_a_task(%I: memref<1x3x16x768xf32>, %W: memref<3x3x768xf32>, %O: memref<1x1x14x768xf32>, %E: memref<1x64x64x768xf32>) {
  scf.forall (%c) = (0) to (768) step (384) {
    %i = memref.subview %I[0, 0, 0, %c] [1, 3, 16, 384] [1, 1, 1, 1] : memref<1x3x16x768xf32> to memref<1x3x16x384xf32, strided<[36864, 12288, 768, 1], offset: ?>>
    %w = memref.subview %W[0, 0, %c] [3, 3, 384] [1, 1, 1] : memref<3x3x768xf32> to memref<3x3x384xf32, strided<[2304, 768, 1], offset: ?>>
    %o = memref.subview %O[0, 0, 0, %c] [1, 1, 14, 384] [1, 1, 1, 1] : memref<1x1x14x768xf32> to memref<1x1x14x384xf32, strided<[10752, 10752, 768, 1], offset: ?>>
    %e = memref.subview %E[0, 0, 0, %c] [1, 64, 64, 384] [1, 1, 1, 1] : memref<1x64x64x768xf32> to memref<1x64x64x384xf32, strided<[3145728, 49152, 768, 1], offset: ?>>
    linalg.generic {indexing_maps = [#win, #wgt, #res], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
        ins(%i, %w : memref<1x3x16x384xf32, strided<[36864, 12288, 768, 1], offset: ?>>, memref<3x3x384xf32, strided<[2304, 768, 1], offset: ?>>) outs(%o : memref<1x1x14x384xf32, strided<[10752, 10752, 768, 1], offset: ?>>) {
    ^bb0(%a: f32, %b: f32, %acc: f32):
      %0 = arith.mulf %a, %b : f32
      %1 = arith.addf %acc, %0 : f32
      linalg.yield %1 : f32
    }
    linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        outs(%e : memref<1x64x64x384xf32, strided<[3145728, 49152, 768, 1], offset: ?>>) {
    ^bb0(%x: f32):
      %0 = arith.mulf %x, %x : f32
      linalg.yield %0 : f32
    }
  }
  return
}
