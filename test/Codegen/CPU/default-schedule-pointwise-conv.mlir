// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mlc-default-schedule))' | FileCheck %s
// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mlc-default-schedule{pointwise-conv-as-matmul=false}))' | FileCheck %s --check-prefix=OFF

// A 1x1 stride-1 convolution (NCHW, what convert-tensorir-to-linalg raises)
// becomes a contraction: weights (64x32) times the image as 32 channels x 49
// pixels. Its 49 columns are a 32-wide register tile, a 16-wide one and a
// one-column rest, each 12 rows tall (narrower than 6x64, they take more
// rows); without the rewrite each register tile is one 7-pixel row in a
// 16-lane vector.
// CHECK-LABEL: func.func @conv1x1_7x7
// CHECK-DAG: %[[OUT:.*]] = memref.collapse_shape %arg2 {{\[}}[0, 1], [2, 3]] : memref<1x64x7x7xf32> into memref<64x49xf32>
// CHECK-DAG: memref.collapse_shape %arg1 {{\[}}[0], [1, 2, 3]] : memref<64x32x1x1xf32> into memref<64x32xf32>
// CHECK-DAG: memref.collapse_shape %arg0 {{\[}}[0, 1], [2, 3]] : memref<1x32x7x7xf32> into memref<32x49xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<12x32xf32>)
// CHECK: vector.fma {{.*}} : vector<32xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<12x16xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<12x1xf32>)
// CHECK-NOT: linalg.generic
// OFF-LABEL: func.func @conv1x1_7x7
// OFF-NOT: memref.collapse_shape
// OFF: vector<16x7xf32>
#in = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y + ky, x + kx)>
#w = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#out = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
func.func @conv1x1_7x7(%I: memref<1x32x7x7xf32>, %W: memref<64x32x1x1xf32>, %O: memref<1x64x7x7xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x32x7x7xf32>, memref<64x32x1x1xf32>) outs(%O : memref<1x64x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A batch of two stays a dimension of its own (walked one by one); the
// weights' operand order (image first here) does not matter.
// CHECK-LABEL: func.func @conv1x1_batch2
// CHECK-DAG: memref.collapse_shape %arg2 {{\[}}[0], [1], [2, 3]] : memref<2x32x8x8xf32> into memref<2x32x64xf32>
// CHECK-DAG: memref.collapse_shape %arg0 {{\[}}[0], [1, 2, 3]] : memref<32x16x1x1xf32> into memref<32x16xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<6x64xf32>)
#in = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y + ky, x + kx)>
#w = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#out = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
func.func @conv1x1_batch2(%W: memref<32x16x1x1xf32>, %I: memref<2x16x8x8xf32>, %O: memref<2x32x8x8xf32>) {
  linalg.generic {indexing_maps = [#w, #in, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%W, %I : memref<32x16x1x1xf32>, memref<2x16x8x8xf32>) outs(%O : memref<2x32x8x8xf32>) {
  ^bb0(%b: f32, %a: f32, %c: f32):
    %0 = arith.mulf %b, %a : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A 1x1 kernel at stride 2 (ResNet's downsampling shortcut): the image's
// every other row and column are copied into a dense buffer first (each
// row read as 13 contiguous elements and deinterleaved), freed after the
// contraction, which reads it as a pointwise convolution would.
// CHECK-LABEL: func.func @conv1x1_stride2
// CHECK: %[[DENSE:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x32x7x7xf32>
// CHECK: memref.collapse_shape %[[DENSE]] {{\[}}[0, 1], [2, 3]] : memref<1x32x7x7xf32> into memref<32x49xf32>
// CHECK: memref.subview %arg0[0, %{{.*}}, %{{.*}}, 0] [1, 1, 1, 13] [1, 1, 1, 1]
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<12x32xf32>)
// CHECK: memref.dealloc %[[DENSE]]
// OFF-LABEL: func.func @conv1x1_stride2
// OFF-NOT: memref.alloc
#s2 = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y * 2 + ky, x * 2 + kx)>
#w = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#out = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
func.func @conv1x1_stride2(%I: memref<1x32x14x14xf32>, %W: memref<64x32x1x1xf32>, %O: memref<1x64x7x7xf32>) {
  linalg.generic {indexing_maps = [#s2, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x32x14x14xf32>, memref<64x32x1x1xf32>) outs(%O : memref<1x64x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Not pointwise: a 3x3 kernel, a 1x1 kernel that reads the image's rows
// and columns transposed, and an output that is a strided view: they keep
// the convolution schedule.
// CHECK-LABEL: func.func @not_pointwise
// CHECK-NOT: memref.collapse_shape
// CHECK: vector<16x7xf32>
// CHECK: vector<16x7xf32>
// CHECK: vector<16x7xf32>
#in = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y + ky, x + kx)>
#tr = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, x + kx, y + ky)>
#w = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#out = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
func.func @not_pointwise(%J: memref<1x32x9x9xf32>, %W3: memref<64x32x3x3xf32>, %O: memref<1x64x7x7xf32>,
                         %K: memref<1x32x7x7xf32>, %W: memref<64x32x1x1xf32>, %P: memref<1x64x7x8xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%J, %W3 : memref<1x32x9x9xf32>, memref<64x32x3x3xf32>) outs(%O : memref<1x64x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#tr, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%K, %W : memref<1x32x7x7xf32>, memref<64x32x1x1xf32>) outs(%O : memref<1x64x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  %view = memref.subview %P[0, 0, 0, 0] [1, 64, 7, 7] [1, 1, 1, 1] : memref<1x64x7x8xf32> to memref<1x64x7x7xf32, strided<[3584, 56, 8, 1]>>
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%K, %W : memref<1x32x7x7xf32>, memref<64x32x1x1xf32>) outs(%view : memref<1x64x7x7xf32, strided<[3584, 56, 8, 1]>>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Channels last (NHWC image, HWIO weights): the pixels become the
// contraction's rows instead, the image is its lhs and the weights' 24
// columns (vectors along the output channels) a 16- and an 8-wide register
// tile, each 12 rows tall.
// CHECK-LABEL: func.func @conv1x1_nhwc
// CHECK-DAG: memref.collapse_shape %arg0 {{\[}}[0, 1, 2], [3]] : memref<1x14x14x64xf32> into memref<196x64xf32>
// CHECK-DAG: memref.collapse_shape %arg1 {{\[}}[0, 1, 2], [3]] : memref<1x1x64x24xf32> into memref<64x24xf32>
// CHECK-DAG: memref.collapse_shape %arg2 {{\[}}[0, 1, 2], [3]] : memref<1x14x14x24xf32> into memref<196x24xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<12x16xf32>)
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<12x8xf32>)
// CHECK-NOT: linalg.generic
// OFF-LABEL: func.func @conv1x1_nhwc
// OFF-NOT: memref.collapse_shape
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, y + ky, x + kx, c)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func @conv1x1_nhwc(%I: memref<1x14x14x64xf32>, %W: memref<1x1x64x24xf32>, %O: memref<1x14x14x24xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x14x14x64xf32>, memref<1x1x64x24xf32>) outs(%O : memref<1x14x14x24xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
