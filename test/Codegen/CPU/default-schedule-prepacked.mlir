// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mlc-default-schedule))' | FileCheck %s

// A constant rhs (mlc.constant: every caller passes a constant global) that
// only the contraction reads: its panel is not packed at every call; the
// argument is read in place as two slivers of 256 x 64 (reinterpreted), each
// register column reading its sliver, and marked mlc.packed_slivers = 64 for
// mlc-cpu-prepack-constants to store the constant so.
// CHECK-LABEL: func.func private @prepacked_rhs
// CHECK-SAME: %[[B:[a-z0-9]+]]: memref<256x128xf32> {mlc.constant, mlc.packed_slivers = 64 : i64}
// CHECK: %[[SLIVERS:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [2, 256, 64], strides: [16384, 64, 1]
// CHECK-NOT: memref.alloca() {{.*}} : memref<2x256x64xf32>
// CHECK: memref.subview %[[SLIVERS]][{{.*}}, 0, 0] [1, 256, 64] [1, 1, 1]
// CHECK-NOT: memref.alloca() {{.*}} : memref<2x256x64xf32>
// CHECK: vector.fma {{.*}} : vector<64xf32>
// The whole constant is one panel: no panel is read after it, and nothing
// is prefetched into L2.
// CHECK-NOT: locality<2>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @prepacked_rhs(%A: memref<192x256xf32>, %B: memref<256x128xf32> {mlc.constant}, %C: memref<192x128xf32>) {
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

// K split into cache tiles (512 = 2 x 256): each k tile's panel is the
// slivers' rows of that tile, at a row offset of the k loop. The register
// k loop prefetches into L2 one line per step of the next k tile's panel
// (2 x 256 x 64 floats, 2048 lines, over the 16 x 2 x 256 steps of a
// task): line l is at the next panel's start (the k loop's next offset,
// + 256 x 64), sliver l / 1024, line l mod 1024 of it; clamped to the
// panel's last line and the constant's end.
// CHECK-DAG: #[[LINE:.*]] = affine_map<(d0, d1, d2) -> (d0 + (d1 floordiv 64) * 256 + (d2 floordiv 6) * 512)>
// CHECK-DAG: #[[ADDRESS:.*]] = affine_map<(d0, d1) -> (d0 * 16 + d1 * 64 + (d0 floordiv 1024) * 16384 - ((d0 floordiv 1024) floordiv 2) * 65536 + 16384)>
// CHECK-LABEL: func.func private @prepacked_k_tiles
// CHECK-SAME: {mlc.constant, mlc.packed_slivers = 64 : i64}
// CHECK: %[[SLIVERS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 512, 64], strides: [32768, 64, 1]
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [65536], strides: [1]
// CHECK: scf.for %[[K:.*]] = %c0 to %c512 step %c256
// CHECK: memref.subview %[[SLIVERS]][0, %[[K]], 0] [2, 256, 64] [1, 1, 1]
// CHECK-NOT: memref.alloca() {{.*}} : memref<2x256x64xf32>
// CHECK: scf.for %[[ROW:.*]] = %c0 to %c96 step %c6
// CHECK: scf.for %[[COLUMN:.*]] = %c0 to %c128 step %c64
// CHECK: scf.for %[[STEP:.*]] = %c0 to %c256 step %c1
// CHECK: %[[L:.*]] = affine.apply #[[LINE]](%[[STEP]], %[[COLUMN]], %[[ROW]])
// CHECK: %[[LMIN:.*]] = arith.minsi %[[L]], %c2047
// CHECK: %[[AT:.*]] = affine.apply #[[ADDRESS]](%[[LMIN]], %[[K]])
// CHECK: %[[ATMIN:.*]] = arith.minsi %[[AT]], %c65535
// CHECK: memref.prefetch %[[FLAT]][%[[ATMIN]]], read, locality<2>, data : memref<65536xf32>
// CHECK: vector.fma {{.*}} : vector<64xf32>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @prepacked_k_tiles(%A: memref<192x512xf32>, %B: memref<512x128xf32> {mlc.constant}, %C: memref<192x128xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<192x512xf32>, memref<512x128xf32>) outs(%C : memref<192x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Negative: the constant is also read by another op (a copy to the
// output), so it keeps its layout and its panel is packed at every call.
// CHECK-LABEL: func.func private @constant_read_elsewhere
// CHECK-NOT: mlc.packed_slivers
// CHECK-NOT: memref.reinterpret_cast
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2x256x64xf32>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @constant_read_elsewhere(%A: memref<192x256xf32>, %B: memref<256x128xf32> {mlc.constant}, %C: memref<192x128xf32>, %D: memref<256x128xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<192x256xf32>, memref<256x128xf32>) outs(%C : memref<192x128xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.copy ins(%B : memref<256x128xf32>) outs(%D : memref<256x128xf32>)
  return
}

// -----

// Negative: without mlc.constant the panel is packed at every call (and
// the next one is not prefetched).
// CHECK-LABEL: func.func private @not_constant
// CHECK-NOT: mlc.packed_slivers
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<2x256x64xf32>
// CHECK-NOT: locality<2>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @not_constant(%A: memref<192x256xf32>, %B: memref<256x128xf32>, %C: memref<192x128xf32>) {
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

// A channels-last convolution's constant weights: each task's weight
// columns (3 x 3 x 32 x 16) are read in place, the argument reinterpreted
// as 4 slivers of 3 x 3 x 32 x 16, instead of being packed on the task's
// stack. (Four column tasks: the 16 output rows are split in two as well.)
// CHECK-LABEL: func.func private @conv_prepacked
// CHECK-SAME: {mlc.constant, mlc.packed_slivers = 16 : i64}
// CHECK: %[[SLIVERS:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [4, 3, 3, 32, 16], strides: [4608, 1536, 512, 16, 1]
// CHECK: scf.parallel (%{{.*}}, %[[F:.*]]) = (%{{.*}}, %{{.*}}) to (%c16, %c64) step (%c8, %c16)
// CHECK-NOT: memref.alloca
// CHECK: memref.subview %[[SLIVERS]][{{.*}}, 0, 0, 0, 0] [1, 3, 3, 32, 16] [1, 1, 1, 1, 1] : memref<4x3x3x32x16xf32> to memref<3x3x32x16xf32, strided<[1536, 512, 16, 1], offset: ?>>
// CHECK: vector<16x16xf32>
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, y + ky, x + kx, c)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func private @conv_prepacked(%I: memref<1x18x18x32xf32>, %W: memref<3x3x32x64xf32> {mlc.constant}, %O: memref<1x16x16x64xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x18x18x32xf32>, memref<3x3x32x64xf32>) outs(%O : memref<1x16x16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Weight columns over the chunk size (3 x 3 x 256 x 32, 288 KiB) are read
// in chunks of 128 input channels; each chunk is a strided view of the
// slivers (its channels' rows in a 256-channel sliver), and the register
// tiles' views of it take that layout.
// CHECK-LABEL: func.func private @conv_chunked
// CHECK-SAME: {mlc.constant, mlc.packed_slivers = 32 : i64}
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [2, 3, 3, 256, 32]
// CHECK: scf.for %[[C:.*]] = %c0 to %c256 step %c128
// CHECK: memref.subview %reinterpret_cast[%{{.*}}, 0, 0, %[[C]], 0] [1, 3, 3, 128, 32] [1, 1, 1, 1, 1] : memref<2x3x3x256x32xf32> to memref<3x3x128x32xf32, strided<[24576, 8192, 32, 1], offset: ?>>
// CHECK-NOT: memref.alloca() {{.*}} : memref<3x3x
// CHECK: vector.fma {{.*}} : vector<32xf32>
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, y + ky, x + kx, c)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func private @conv_chunked(%I: memref<1x9x9x256xf32>, %W: memref<3x3x256x64xf32> {mlc.constant}, %O: memref<1x7x7x64xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x9x9x256xf32>, memref<3x3x256x64xf32>) outs(%O : memref<1x7x7x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// One task of 16 output channels: the panel's offsets are all constant, and
// so is its view's offset in the slivers (a layout the readers' types
// agree with).
// CHECK-LABEL: func.func private @conv_one_task
// CHECK-SAME: {mlc.constant, mlc.packed_slivers = 16 : i64}
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [1, 3, 3, 3, 16], strides: [432, 144, 48, 16, 1]
// CHECK-NOT: memref.alloca() {{.*}} : memref<3x3x3x16xf32>
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, y + ky, x + kx, c)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func private @conv_one_task(%I: memref<1x34x34x3xf32>, %W: memref<3x3x3x16xf32> {mlc.constant}, %O: memref<1x32x32x16xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x34x34x3xf32>, memref<3x3x3x16xf32>) outs(%O : memref<1x32x32x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A panel 64 columns wide is not cut into slivers but copied whole, and,
// being a constant's, without padded rows: one "sliver" as wide as the
// constant, which is its own order, so that the copy goes away.
// CHECK-LABEL: func.func private @narrow_rhs
// CHECK-SAME: {mlc.constant, mlc.packed_slivers = 64 : i64}
// CHECK-NOT: memref.alloca() {{.*}} : memref<256x
// CHECK: vector.fma {{.*}} : vector<64xf32>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func private @narrow_rhs(%A: memref<192x256xf32>, %B: memref<256x64xf32> {mlc.constant}, %C: memref<192x64xf32>) {
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<192x256xf32>, memref<256x64xf32>) outs(%C : memref<192x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// The same with 1024 input channels (3 x 3 x 1024 x 32 columns, chunks of
// 128).
// CHECK-LABEL: func.func private @conv_1024_channels
// CHECK-SAME: {mlc.constant, mlc.packed_slivers = 32 : i64}
// CHECK: scf.for %[[C:.*]] = %c0 to %c1024 step %c128
// CHECK: memref.subview %reinterpret_cast[%{{.*}}, 0, 0, %[[C]], 0] [1, 3, 3, 128, 32] [1, 1, 1, 1, 1] : memref<2x3x3x1024x32xf32> to memref<3x3x128x32xf32, strided<[98304, 32768, 32, 1], offset: ?>>
// CHECK-NOT: memref.alloca() {{.*}} : memref<3x3x128x32xf32>
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, y + ky, x + kx, c)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func private @conv_1024_channels(%I: memref<1x9x9x1024xf32>, %W: memref<3x3x1024x64xf32> {mlc.constant}, %O: memref<1x7x7x64xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x9x9x1024xf32>, memref<3x3x1024x64xf32>) outs(%O : memref<1x7x7x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A 3x3 convolution's weights, read in place as 16-column slivers of
// 3 x 3 x 256 each, one per column task: the panel read after a task's is
// the next sliver (+ 3 x 3 x 256 x 16). The prefetches go into the channel
// loop (9216 steps for 2304 lines), not into a loop around it.
// CHECK-LABEL: func.func private @prepacked_conv3x3
// CHECK-SAME: {mlc.constant, mlc.packed_slivers = 16 : i64}
// CHECK: %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [147456], strides: [1]
// CHECK: scf.for {{.*}} = %c0 to %c3 step %c1
// CHECK-NOT: locality<2>
// CHECK: scf.for {{.*}} = %c0 to %c3 step %c1
// CHECK-NOT: locality<2>
// CHECK: scf.for {{.*}} = %c0 to %c256 step %c1
// CHECK: memref.prefetch %[[FLAT]][%{{.*}}], read, locality<2>, data : memref<147456xf32>
// CHECK-NOT: locality<2>
// CHECK: vector.fma {{.*}} : vector<16xf32>
#in = affine_map<(n, y, x, f, ky, kx, c) -> (n, y + ky, x + kx, c)>
#w = affine_map<(n, y, x, f, ky, kx, c) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, ky, kx, c) -> (n, y, x, f)>
func.func private @prepacked_conv3x3(%I: memref<1x10x10x256xf32>, %W: memref<3x3x256x64xf32> {mlc.constant}, %O: memref<1x8x8x64xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x10x10x256xf32>, memref<3x3x256x64xf32>) outs(%O : memref<1x8x8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
