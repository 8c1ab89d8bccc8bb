// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(mlc-default-schedule))' | FileCheck %s

// A channels-last convolution (NHWC image, HWIO weights: the vectors run
// along the output channels and come from the weights). Its tasks are
// columns of output channels over the output rows (two columns of 32
// channels: fewer than 8 tasks, so the 7 rows are split into tasks of 2
// too); each task packs its
// weight columns into a contiguous stack buffer, 128 of the 256 input
// channels at a time (a 3x3x256x32 panel is 288 KiB, over the 256 KiB
// chunk), and its 7-pixel rows get a 7x32 register tile. Its pixels are
// 1 KiB apart (256 channels), which would put a tile's pixels into a few L1
// sets: the image is first copied into a buffer with 16 more floats per
// pixel, freed at the end.
// CHECK-LABEL: func.func @nhwc_7x7
// CHECK: %[[PIXELS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x9x9x272xf32>
// CHECK: memref.subview %[[PIXELS]][0, 0, 0, 0] [1, 9, 9, 256] [1, 1, 1, 1]
// CHECK: scf.parallel (%{{.*}}, %[[F:.*]]) = (%{{.*}}, %{{.*}}) to (%c7, %c64) step (%c2, %c32)
// CHECK: %[[PANEL:.*]] = memref.alloca() {alignment = 64 : i64} : memref<3x3x128x32xf32>
// CHECK: memref.subview %arg1[0, 0, 0, %[[F]]] [3, 3, 256, 32]
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %c256 step %c128
// CHECK: vector.store {{.*}}, vector<16xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1
// CHECK: vector.transfer_read {{.*}} : memref<7x32xf32, strided<[64, 1], offset: ?>>, vector<7x32xf32>
// CHECK: memref.subview %[[PANEL]]
// CHECK: vector.fma {{.*}} : vector<32xf32>
// CHECK: vector.transfer_write {{.*}} : vector<7x32xf32>, memref<7x32xf32
// CHECK: memref.dealloc %[[PIXELS]]
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, y + ky, x + kx, c)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func @nhwc_7x7(%I: memref<1x9x9x256xf32>, %W: memref<3x3x256x64xf32>, %O: memref<1x7x7x64xf32>) {
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

// Rows of four or more contraction tiles (32 pixels) take the
// contraction's 6x64 register tile; 64 channels are one column, so the
// output rows are split into 8 tasks, each packing the whole panel (72 KiB,
// under 256 KiB: no channel chunks). An NCHW image with HWIO weights and a
// channels-last output is scheduled alike.
// CHECK-LABEL: func.func @nchw_in_nhwc_out
// CHECK-NOT: memref.alloc()
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c32) step (%c4)
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<3x3x32x64xf32>
// CHECK-NOT: step %c128
// CHECK: vector<6x64xf32>
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, c, y + ky, x + kx)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func @nchw_in_nhwc_out(%I: memref<1x32x34x34xf32>, %W: memref<3x3x32x64xf32>, %O: memref<1x32x32x64xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x32x34x34xf32>, memref<3x3x32x64xf32>) outs(%O : memref<1x32x32x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// NCHW (the vectors come from the image): tasks stay output rows (and
// blocks of output channels when there are many), nothing is packed, and a
// 7-pixel row stays one vector of 16 lanes.
// CHECK-LABEL: func.func @nchw_7x7
// CHECK-NOT: memref.alloca
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c7) step (%c1)
// CHECK-NOT: memref.alloca
// CHECK: vector<16x7xf32>
#in = affine_map<(n, f, y, x, c, ky, kx) -> (n, c, y + ky, x + kx)>
#w = affine_map<(n, f, y, x, c, ky, kx) -> (f, c, ky, kx)>
#out = affine_map<(n, f, y, x, c, ky, kx) -> (n, f, y, x)>
func.func @nchw_7x7(%I: memref<1x256x9x9xf32>, %W: memref<64x256x3x3xf32>, %O: memref<1x64x7x7xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x256x9x9xf32>, memref<64x256x3x3xf32>) outs(%O : memref<1x64x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// At stride 2 the register tile reads every other pixel: 128 channels put
// those pixels 1 KiB apart, so the image is copied with 16 more floats per
// pixel as for 256 channels at stride 1 (a 3x3 stride-2 layer of
// ResNet-50, 56x56x128: 3.15 -> 2.94 ms); 64 channels (512 bytes) are not.
// CHECK-LABEL: func.func @stride2_128
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<1x17x17x144xf32>
// CHECK-LABEL: func.func @stride2_64
// CHECK-NOT: x80xf32>
// CHECK: return
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, y * 2 + ky, x * 2 + kx, c)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func @stride2_128(%I: memref<1x17x17x128xf32>, %W: memref<3x3x128x32xf32>, %O: memref<1x8x8x32xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x17x17x128xf32>, memref<3x3x128x32xf32>) outs(%O : memref<1x8x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
func.func @stride2_64(%I: memref<1x17x17x64xf32>, %W: memref<3x3x64x32xf32>, %O: memref<1x8x8x32xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x17x17x64xf32>, memref<3x3x64x32xf32>) outs(%O : memref<1x8x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A padded convolution's bordered copy of its image, allocated in the
// kernel (zero border, image copied inside): that buffer is allocated with
// the padded pixels itself, the fill and the copy writing through its
// view, instead of being copied once more (56x56x128 at stride 2: 1.93 ->
// 1.80 ms with one copy fewer).
// CHECK-LABEL: func.func @stride2_bordered
// CHECK: %[[PADDED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x17x17x144xf32>
// CHECK: %[[VIEW:.*]] = memref.subview %[[PADDED]][0, 0, 0, 0] [1, 17, 17, 128] [1, 1, 1, 1]
// CHECK-NOT: memref.alloc(
// CHECK: memref.subview %[[VIEW]][0, 1, 1, 0] [1, 15, 15, 128]
// CHECK-NOT: memref.alloc(
// CHECK: memref.dealloc %[[PADDED]] : memref<1x17x17x144xf32>
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, y * 2 + ky, x * 2 + kx, c)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func @stride2_bordered(%I: memref<1x15x15x128xf32>, %W: memref<3x3x128x32xf32>, %O: memref<1x8x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<1x17x17x128xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x17x17x128xf32>)
  %inside = memref.subview %padded[0, 1, 1, 0] [1, 15, 15, 128] [1, 1, 1, 1] : memref<1x17x17x128xf32> to memref<1x15x15x128xf32, strided<[36992, 2176, 128, 1], offset: 2304>>
  linalg.copy ins(%I : memref<1x15x15x128xf32>) outs(%inside : memref<1x15x15x128xf32, strided<[36992, 2176, 128, 1], offset: 2304>>)
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%padded, %W : memref<1x17x17x128xf32>, memref<3x3x128x32xf32>) outs(%O : memref<1x8x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %padded : memref<1x17x17x128xf32>
  return
}

// -----

// Rows of 16 to 23 pixels keep the 16x16 tile (6x64 lost on 14-pixel
// rows); four column tasks, the 16 output rows in two.
// CHECK-LABEL: func.func @rows16
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%c16, %c64) step (%c8, %c16)
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<3x3x32x16xf32>
// CHECK: vector<16x16xf32>
#in = affine_map<(n, y, x, f, c, ky, kx) -> (n, y + ky, x + kx, c)>
#w = affine_map<(n, y, x, f, c, ky, kx) -> (ky, kx, c, f)>
#out = affine_map<(n, y, x, f, c, ky, kx) -> (n, y, x, f)>
func.func @rows16(%I: memref<1x18x18x32xf32>, %W: memref<3x3x32x64xf32>, %O: memref<1x16x16x64xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%I, %W : memref<1x18x18x32xf32>, memref<3x3x32x64xf32>) outs(%O : memref<1x16x16x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %c, %0 : f32
    linalg.yield %1 : f32
  }
  return
}
