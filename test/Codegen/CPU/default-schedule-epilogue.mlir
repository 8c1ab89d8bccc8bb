// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mlc-default-schedule))' | FileCheck %s
// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mlc-default-schedule{fuse-epilogues=false}))' | FileCheck %s --check-prefix=OFF

// A fused kernel's matmul + bias + relu (what relax-fuse-tir writes, after
// bufferization): the zero fill and the epilogue run on each 6x64 register
// tile. The accumulators start at zero in registers, the epilogue takes them
// from the k loop's result, and the temporary buffer is gone.
// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK-NOT: memref.alloc() : memref<64x96xf32>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<6x64xf32>
// CHECK: scf.parallel
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<6x64xf32>)
// CHECK: vector.fma
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %{{.*}} : vector<6x64xf32>
// CHECK: %[[RELU:.*]] = arith.maximumf %[[SUM]], %{{.*}} : vector<6x64xf32>
// CHECK: vector.transfer_write %[[RELU]], %{{.*}} : vector<6x64xf32>, memref<6x64xf32, strided<[96, 1], offset: ?>>
// CHECK-NOT: linalg.generic
// Without fuse-epilogues, the fill is a loop nest of its own, writing the
// temporary buffer one vector of 16 at a time.
// OFF-LABEL: func.func @matmul_bias_relu
// OFF: %[[ACC:.*]] = memref.alloc() : memref<64x96xf32>
// OFF: memref.subview %[[ACC]][%{{.*}}, %{{.*}}] [1, 16]
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @matmul_bias_relu(%A: memref<64x256xf32>, %B: memref<256x96xf32>, %bias: memref<96xf32>, %out: memref<64x96xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<64x96xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%acc : memref<64x96xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<64x256xf32>, memref<256x96xf32>) outs(%acc : memref<64x96xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %bias : memref<64x96xf32>, memref<96xf32>) outs(%out : memref<64x96xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %0 = arith.addf %c, %b : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<64x96xf32>
  return
}

// -----

// k split into cache tiles (1024 = 2 x 512): the fill runs in the first k
// tile and the epilogue in the last, each on the register tile that the
// k loop has just written (12x32: the 16 rows are two column tasks of 32
// columns, each 12 + 4 rows).
// CHECK-LABEL: func.func @matmul_k_tiles
// CHECK: memref.alloc() : memref<16x64xf32>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %[[KC:.*]] {
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: vector.transfer_write
// CHECK: }
// CHECK: %[[ACC:.*]] = scf.for {{.*}} -> (vector<12x32xf32>)
// CHECK: vector.transfer_write %[[ACC]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[K]], %[[KC]] : index
// CHECK: %[[LAST:.*]] = arith.cmpi sge, %[[NEXT]], %{{.*}} : index
// CHECK: scf.if %[[LAST]] {
// CHECK: %[[T:.*]] = math.tanh %[[ACC]] : vector<12x32xf32>
// CHECK: vector.transfer_write %[[T]]
// CHECK-NOT: linalg.generic
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_k_tiles(%A: memref<16x1024xf32>, %B: memref<1024x64xf32>, %out: memref<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16x64xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%acc : memref<16x64xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<16x1024xf32>, memref<1024x64xf32>) outs(%acc : memref<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<16x64xf32>) outs(%out : memref<16x64xf32>) {
  ^bb0(%c: f32, %o: f32):
    %0 = math.tanh %c : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %acc : memref<16x64xf32>
  return
}

// -----

// A 1x1 convolution (NCHW) + bias + clip, MobileNet's pointwise layer: it
// becomes a matmul of the weights (32x16) by the image as 16 channels x 256
// pixels, and its fill, epilogue and temporary buffer collapse alike, so
// that the epilogue still runs on the 6x64 register tile, the accumulators
// start at zero and the temporary buffer is gone.
// CHECK-LABEL: func.func @conv1x1_bias_clip
// CHECK-NOT: memref.alloc(
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<6x64xf32>
// CHECK-DAG: %[[OUT:.*]] = memref.collapse_shape %arg3 {{\[}}[0, 1], [2, 3]] : memref<1x32x16x16xf32> into memref<32x256xf32>
// CHECK-DAG: memref.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : memref<32x16x1x1xf32> into memref<32x16xf32>
// CHECK-DAG: memref.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : memref<1x16x16x16xf32> into memref<16x256xf32>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<6x64xf32>)
// CHECK: %[[TILE:.*]] = memref.subview %[[OUT]]
// CHECK: arith.addf %[[ACC]], %{{.*}} : vector<6x64xf32>
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: vector.transfer_write %{{.*}}, %[[TILE]]{{.*}} : vector<6x64xf32>, memref<6x64xf32
// CHECK-NOT: linalg.generic
#in = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y + ky, x + kx)>
#w = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#o7 = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
#id4 = affine_map<(n, f, y, x) -> (n, f, y, x)>
#acc4 = affine_map<(n, f, y, x) -> (0, f, y, x)>
#ch = affine_map<(n, f, y, x) -> (f)>
func.func @conv1x1_bias_clip(%I: memref<1x16x16x16xf32>, %W: memref<32x16x1x1xf32>, %bias: memref<32xf32>, %out: memref<1x32x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %acc = memref.alloc() : memref<1x32x16x16xf32>
  linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%acc : memref<1x32x16x16xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#in, #w, #o7], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x16x16x16xf32>, memref<32x16x1x1xf32>) outs(%acc : memref<1x32x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#acc4, #ch, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc, %bias : memref<1x32x16x16xf32>, memref<32xf32>) outs(%out : memref<1x32x16x16xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %0 = arith.addf %c, %b : f32
    %1 = arith.minimumf %0, %six : f32
    %2 = arith.maximumf %1, %zero : f32
    linalg.yield %2 : f32
  }
  memref.dealloc %acc : memref<1x32x16x16xf32>
  return
}

// -----

// Not fused: the epilogue's output is the matmul's lhs (written tile by
// tile while later tiles still read it), so the fill and the epilogue stay
// loop nests of their own around the temporary buffer.
// CHECK-LABEL: func.func @output_is_input
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK: memref.subview %[[ACC]][%{{.*}}, %{{.*}}] [1, 16]
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @output_is_input(%A: memref<64x64xf32>, %B: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%acc : memref<64x64xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%acc : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<64x64xf32>) outs(%A : memref<64x64xf32>) {
  ^bb0(%c: f32, %o: f32):
    linalg.yield %c : f32
  }
  memref.dealloc %acc : memref<64x64xf32>
  return
}

// -----

// Not fused: a second reader of the buffer (the kernel returns the matmul
// result as well as its relu).
// CHECK-LABEL: func.func @two_readers
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<64x64xf32>
// CHECK: memref.subview %[[ACC]][%{{.*}}, %{{.*}}] [1, 16]
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_readers(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %out: memref<64x64xf32>, %copy: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%acc : memref<64x64xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%acc : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%c: f32, %o: f32):
    %0 = arith.maximumf %c, %zero : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<64x64xf32>) outs(%copy : memref<64x64xf32>) {
  ^bb0(%c: f32, %o: f32):
    linalg.yield %c : f32
  }
  memref.dealloc %acc : memref<64x64xf32>
  return
}

// -----

// Not fused: the reduction (k = 1021, no cache tile divides it) is split
// into two contractions, neither of which finishes a tile by itself.
// CHECK-LABEL: func.func @split_reduction
// CHECK: %[[ACC:.*]] = memref.alloc() : memref<16x64xf32>
// CHECK-NOT: scf.if
// CHECK: memref.subview %[[ACC]][%{{.*}}, %{{.*}}] [1, 16]
// CHECK-NOT: scf.if
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @split_reduction(%A: memref<16x1021xf32>, %B: memref<1021x64xf32>, %out: memref<16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16x64xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%acc : memref<16x64xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<16x1021xf32>, memref<1021x64xf32>) outs(%acc : memref<16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<16x64xf32>) outs(%out : memref<16x64xf32>) {
  ^bb0(%c: f32, %o: f32):
    %0 = math.tanh %c : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %acc : memref<16x64xf32>
  return
}

// -----

// A channels-last depthwise convolution (a window reduction) with a fused
// bias + relu: the fill and the epilogue run on its register tile (16
// channels of one pixel), whose accumulator starts at zero in registers,
// and the temporary buffer is gone.
// CHECK-LABEL: func.func @depthwise_bias_relu
// CHECK-NOT: memref.alloc() : memref<1x8x8x32xf32>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<16xf32>)
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %{{.*}} : vector<16xf32>
// CHECK: %[[RELU:.*]] = arith.maximumf %[[SUM]], %{{.*}} : vector<16xf32>
// CHECK: vector.store %[[RELU]]
// CHECK-NOT: linalg.generic
// OFF-LABEL: func.func @depthwise_bias_relu
// OFF: memref.alloc() : memref<1x8x8x32xf32>
#dwImage = affine_map<(n, y, x, c, rc, ky, kx) -> (n, y + ky, x + kx, c + rc)>
#dwWeights = affine_map<(n, y, x, c, rc, ky, kx) -> (ky, kx, rc, c)>
#dwOut = affine_map<(n, y, x, c, rc, ky, kx) -> (n, y, x, c)>
#id4 = affine_map<(n, y, x, c) -> (n, y, x, c)>
#channel = affine_map<(n, y, x, c) -> (c)>
func.func @depthwise_bias_relu(%I: memref<1x10x10x32xf32>, %W: memref<3x3x1x32xf32>, %bias: memref<32xf32>, %out: memref<1x8x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x8x8x32xf32>
  linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%acc : memref<1x8x8x32xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#dwImage, #dwWeights, #dwOut], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x10x10x32xf32>, memref<3x3x1x32xf32>) outs(%acc : memref<1x8x8x32xf32>) {
  ^bb0(%a: f32, %w: f32, %c: f32):
    %0 = arith.mulf %a, %w : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id4, #channel, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%acc, %bias : memref<1x8x8x32xf32>, memref<32xf32>) outs(%out : memref<1x8x8x32xf32>) {
  ^bb0(%c: f32, %b: f32, %o: f32):
    %0 = arith.addf %c, %b : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x8x8x32xf32>
  return
}
