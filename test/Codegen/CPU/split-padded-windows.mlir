// RUN: mlc-opt %s --split-input-file --mlc-cpu-split-padded-windows | FileCheck %s

// A 3x3 depthwise convolution, padding 1, with its fill and bias + relu
// epilogue (as mlc-cpu-bufferize leaves a fused kernel): four border parts
// (rows 0 and 5, then columns 0 and 5 of rows 1-4) and the interior, each
// with a fill, the op and the epilogue on a buffer of its own. The interior
// reads %img itself; the copy shrinks to the rows and columns next to the
// border that the border parts read.
#win = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d3 + d4)>
#wts = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#acc = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>
// CHECK-LABEL: func.func @depthwise(
// CHECK-SAME: %[[IMG:[^:]+]]: memref<1x6x6x16xf32>
// 16 channels are one cache line: no channel tasks (below).
// CHECK-NOT: scf.forall
// CHECK: %[[PAD:.*]] = memref.alloc() : memref<1x8x8x16xf32>
// CHECK-COUNT-4: linalg.fill
// CHECK: %[[S0:.*]] = memref.subview %[[IMG]][0, 0, 0, 0] [1, 2, 6, 16]
// CHECK: %[[D0:.*]] = memref.subview %[[PAD]][0, 1, 1, 0] [1, 2, 6, 16]
// CHECK: linalg.copy ins(%[[S0]] {{.*}}) outs(%[[D0]]
// CHECK: memref.subview %[[IMG]][0, 4, 0, 0] [1, 2, 6, 16]
// CHECK: memref.subview %[[IMG]][0, 0, 0, 0] [1, 6, 2, 16]
// CHECK: memref.subview %[[IMG]][0, 0, 4, 0] [1, 6, 2, 16]
// CHECK: linalg.copy
// CHECK-NOT: linalg.copy
// The first border part: row 0, from the padded buffer, marked to run on
// one thread.
// CHECK: %[[B0:.*]] = memref.alloc() : memref<1x1x6x16xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[B0]] : memref<1x1x6x16xf32>)
// CHECK: memref.subview %[[PAD]][0, 0, 0, 0] [1, 3, 8, 16]
// CHECK: linalg.generic {{.*}}"reduction"{{.*}} outs(%[[B0]] : memref<1x1x6x16xf32>) attrs = {mlc.single_thread}
// CHECK: linalg.generic {{.*}} ins(%[[B0]], %{{.*}}) outs(%{{.*}} : memref<1x1x6x16xf32, strided<[576, 96, 16, 1]>>)
// CHECK: memref.dealloc %[[B0]]
// The interior: rows and columns 1-4, from the image itself (its own
// parallel loop).
// CHECK: %[[I:.*]] = memref.alloc() : memref<1x4x4x16xf32>
// CHECK: %[[IV:.*]] = memref.subview %[[IMG]][0, 0, 0, 0] [1, 6, 6, 16]
// CHECK: linalg.generic {{.*}}"reduction"{{.*}} ins(%[[IV]], %{{.*}}) outs(%[[I]] : memref<1x4x4x16xf32>) {
// CHECK: linalg.generic {{.*}} ins(%[[I]], %{{.*}}) outs(%{{.*}} : memref<1x4x4x16xf32, strided<[576, 96, 16, 1], offset: 112>>)
// CHECK: memref.dealloc %[[I]]
// CHECK-NOT: linalg.generic
// CHECK: memref.dealloc %[[PAD]]
func.func @depthwise(%img: memref<1x6x6x16xf32>, %w: memref<3x3x1x16xf32>, %b: memref<1x1x1x16xf32>, %res: memref<1x6x6x16xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %acc = memref.alloc() : memref<1x6x6x16xf32>
  %pad = memref.alloc() : memref<1x8x8x16xf32>
  %t = memref.subview %pad[0, 0, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : memref<1x8x8x16xf32> to memref<1x1x8x16xf32, strided<[1024, 128, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x1x8x16xf32, strided<[1024, 128, 16, 1]>>)
  %bo = memref.subview %pad[0, 7, 0, 0] [1, 1, 8, 16] [1, 1, 1, 1] : memref<1x8x8x16xf32> to memref<1x1x8x16xf32, strided<[1024, 128, 16, 1], offset: 896>>
  linalg.fill ins(%zero : f32) outs(%bo : memref<1x1x8x16xf32, strided<[1024, 128, 16, 1], offset: 896>>)
  %l = memref.subview %pad[0, 0, 0, 0] [1, 8, 1, 16] [1, 1, 1, 1] : memref<1x8x8x16xf32> to memref<1x8x1x16xf32, strided<[1024, 128, 16, 1]>>
  linalg.fill ins(%zero : f32) outs(%l : memref<1x8x1x16xf32, strided<[1024, 128, 16, 1]>>)
  %r = memref.subview %pad[0, 0, 7, 0] [1, 8, 1, 16] [1, 1, 1, 1] : memref<1x8x8x16xf32> to memref<1x8x1x16xf32, strided<[1024, 128, 16, 1], offset: 112>>
  linalg.fill ins(%zero : f32) outs(%r : memref<1x8x1x16xf32, strided<[1024, 128, 16, 1], offset: 112>>)
  %in = memref.subview %pad[0, 1, 1, 0] [1, 6, 6, 16] [1, 1, 1, 1] : memref<1x8x8x16xf32> to memref<1x6x6x16xf32, strided<[1024, 128, 16, 1], offset: 144>>
  linalg.copy ins(%img : memref<1x6x6x16xf32>) outs(%in : memref<1x6x6x16xf32, strided<[1024, 128, 16, 1], offset: 144>>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%acc : memref<1x6x6x16xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#win, #wts, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pad, %w : memref<1x8x8x16xf32>, memref<3x3x1x16xf32>) outs(%acc : memref<1x6x6x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#acc, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x6x6x16xf32>, memref<1x1x1x16xf32>) outs(%res : memref<1x6x6x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x6x6x16xf32>
  memref.dealloc %pad : memref<1x8x8x16xf32>
  return
}

// -----

// The same convolution on a 4x4 image of 32 channels: the border parts hold
// 12 of the 16 outputs, so the kernel becomes channel tasks (scf.forall) of
// 16 channels (a cache line), each with its own bordered image and part
// buffers on its stack, then split as above: one parallel loop for
// everything, no heap buffers.
#win = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d3 + d4)>
#wts = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#acc = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>
// CHECK-LABEL: func.func @depthwise_channel_tasks(
// CHECK-SAME: %[[IMG:[^:]+]]: memref<1x4x4x32xf32>, %[[W:[^:]+]]: memref<3x3x1x32xf32>, %[[B:[^:]+]]: memref<1x1x1x32xf32>, %[[RES:[^:]+]]: memref<1x4x4x32xf32>
// CHECK-NOT: memref.alloc()
// CHECK: scf.forall (%[[C:.*]]) = (0) to (32) step (16) {
// CHECK-NEXT: %[[PAD:.*]] = memref.alloca() : memref<1x6x6x16xf32>
// CHECK: %[[TIMG:.*]] = memref.subview %[[IMG]][0, 0, 0, %[[C]]] [1, 4, 4, 16]
// CHECK: memref.subview %[[W]][0, 0, 0, %[[C]]] [3, 3, 1, 16]
// CHECK: memref.subview %[[B]][0, 0, 0, %[[C]]] [1, 1, 1, 16]
// CHECK: memref.subview %[[RES]][0, 0, 0, %[[C]]] [1, 4, 4, 16]
// CHECK-COUNT-4: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<{{1x1x6x16|1x6x1x16}}xf32
// CHECK: memref.subview %[[TIMG]][0, 0, 0, 0] [1, 2, 4, 16]
// CHECK: memref.subview %[[PAD]][0, 1, 1, 0] [1, 2, 4, 16]
// CHECK-COUNT-4: linalg.copy
// CHECK: %[[B0:.*]] = memref.alloca() : memref<1x1x4x16xf32>
// CHECK: memref.subview %[[PAD]][0, 0, 0, 0] [1, 3, 6, 16]
// CHECK: linalg.generic {{.*}}"reduction"{{.*}} outs(%{{.*}} : memref<1x1x4x16xf32>) attrs = {mlc.single_thread}
// CHECK-COUNT-3: "reduction"{{.*}} attrs = {mlc.single_thread}
// The interior reads the task's channels of the image itself.
// CHECK: %[[I:.*]] = memref.alloca() : memref<1x2x2x16xf32>
// CHECK: %[[IV:.*]] = memref.subview %[[TIMG]][0, 0, 0, 0] [1, 4, 4, 16]
// CHECK: linalg.generic {{.*}}"reduction"{{.*}} ins(%[[IV]], %{{.*}}) outs(%[[I]] : memref<1x2x2x16xf32>) {
// CHECK: linalg.generic {{.*}} ins(%[[I]], %{{.*}}) outs(%{{.*}} : memref<1x2x2x16xf32, strided<[512, 128, 32, 1], offset: ?>>)
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @depthwise_channel_tasks(%img: memref<1x4x4x32xf32>, %w: memref<3x3x1x32xf32>, %b: memref<1x1x1x32xf32>, %res: memref<1x4x4x32xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %acc = memref.alloc() : memref<1x4x4x32xf32>
  %pad = memref.alloc() : memref<1x6x6x32xf32>
  %t = memref.subview %pad[0, 0, 0, 0] [1, 1, 6, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x1x6x32xf32, strided<[1152, 192, 32, 1]>>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x1x6x32xf32, strided<[1152, 192, 32, 1]>>)
  %bo = memref.subview %pad[0, 5, 0, 0] [1, 1, 6, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x1x6x32xf32, strided<[1152, 192, 32, 1], offset: 960>>
  linalg.fill ins(%zero : f32) outs(%bo : memref<1x1x6x32xf32, strided<[1152, 192, 32, 1], offset: 960>>)
  %l = memref.subview %pad[0, 0, 0, 0] [1, 6, 1, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x6x1x32xf32, strided<[1152, 192, 32, 1]>>
  linalg.fill ins(%zero : f32) outs(%l : memref<1x6x1x32xf32, strided<[1152, 192, 32, 1]>>)
  %r = memref.subview %pad[0, 0, 5, 0] [1, 6, 1, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x6x1x32xf32, strided<[1152, 192, 32, 1], offset: 160>>
  linalg.fill ins(%zero : f32) outs(%r : memref<1x6x1x32xf32, strided<[1152, 192, 32, 1], offset: 160>>)
  %in = memref.subview %pad[0, 1, 1, 0] [1, 4, 4, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x4x4x32xf32, strided<[1152, 192, 32, 1], offset: 224>>
  linalg.copy ins(%img : memref<1x4x4x32xf32>) outs(%in : memref<1x4x4x32xf32, strided<[1152, 192, 32, 1], offset: 224>>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%acc : memref<1x4x4x32xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#win, #wts, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pad, %w : memref<1x6x6x32xf32>, memref<3x3x1x32xf32>) outs(%acc : memref<1x4x4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#acc, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x4x4x32xf32>, memref<1x1x1x32xf32>) outs(%res : memref<1x4x4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x4x4x32xf32>
  memref.dealloc %pad : memref<1x6x6x32xf32>
  return
}


// -----

// A 40x40 image: the border parts hold 10 % of the outputs, less than an
// eighth; the interior's rows are the parallel tasks (no channel tasks).
#win = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d3 + d4)>
#wts = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#acc = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>
// CHECK-LABEL: func.func @depthwise_large_image(
// CHECK-NOT: scf.forall
// CHECK: memref.alloc() : memref<1x42x42x32xf32>
// CHECK-COUNT-4: attrs = {mlc.single_thread}
// CHECK: memref.dealloc
func.func @depthwise_large_image(%img: memref<1x40x40x32xf32>, %w: memref<3x3x1x32xf32>, %b: memref<1x1x1x32xf32>, %res: memref<1x40x40x32xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %acc = memref.alloc() : memref<1x40x40x32xf32>
  %pad = memref.alloc() : memref<1x42x42x32xf32>
  %t = memref.subview %pad[0, 0, 0, 0] [1, 1, 42, 32] [1, 1, 1, 1] : memref<1x42x42x32xf32> to memref<1x1x42x32xf32, strided<[56448, 1344, 32, 1]>>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x1x42x32xf32, strided<[56448, 1344, 32, 1]>>)
  %bo = memref.subview %pad[0, 41, 0, 0] [1, 1, 42, 32] [1, 1, 1, 1] : memref<1x42x42x32xf32> to memref<1x1x42x32xf32, strided<[56448, 1344, 32, 1], offset: 55104>>
  linalg.fill ins(%zero : f32) outs(%bo : memref<1x1x42x32xf32, strided<[56448, 1344, 32, 1], offset: 55104>>)
  %l = memref.subview %pad[0, 0, 0, 0] [1, 42, 1, 32] [1, 1, 1, 1] : memref<1x42x42x32xf32> to memref<1x42x1x32xf32, strided<[56448, 1344, 32, 1]>>
  linalg.fill ins(%zero : f32) outs(%l : memref<1x42x1x32xf32, strided<[56448, 1344, 32, 1]>>)
  %r = memref.subview %pad[0, 0, 41, 0] [1, 42, 1, 32] [1, 1, 1, 1] : memref<1x42x42x32xf32> to memref<1x42x1x32xf32, strided<[56448, 1344, 32, 1], offset: 1312>>
  linalg.fill ins(%zero : f32) outs(%r : memref<1x42x1x32xf32, strided<[56448, 1344, 32, 1], offset: 1312>>)
  %in = memref.subview %pad[0, 1, 1, 0] [1, 40, 40, 32] [1, 1, 1, 1] : memref<1x42x42x32xf32> to memref<1x40x40x32xf32, strided<[56448, 1344, 32, 1], offset: 1376>>
  linalg.copy ins(%img : memref<1x40x40x32xf32>) outs(%in : memref<1x40x40x32xf32, strided<[56448, 1344, 32, 1], offset: 1376>>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%acc : memref<1x40x40x32xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#win, #wts, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pad, %w : memref<1x42x42x32xf32>, memref<3x3x1x32xf32>) outs(%acc : memref<1x40x40x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#acc, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x40x40x32xf32>, memref<1x1x1x32xf32>) outs(%res : memref<1x40x40x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x40x40x32xf32>
  memref.dealloc %pad : memref<1x42x42x32xf32>
  return
}

// -----

// A 3x3 max pooling at stride 2 into the kernel's output (no buffer of its
// own): the last window of each dimension ends inside the image, so one
// border part per dimension, each writing a view of the output.
#win = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>
#shape = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#out = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @max_pool(
// CHECK-SAME: %[[IMG:[^:]+]]: memref<1x8x8x16xf32>, %[[RES:[^:]+]]: memref<1x4x4x16xf32>
// CHECK: linalg.fill ins(%{{.*}}) outs(%[[RES]]
// CHECK: linalg.generic {{.*}}"reduction"{{.*}} outs(%{{.*}} : memref<1x1x4x16xf32, strided<[256, 64, 16, 1]>>)
// CHECK: linalg.generic {{.*}}"reduction"{{.*}} outs(%{{.*}} : memref<1x3x1x16xf32, strided<[256, 64, 16, 1], offset: 64>>)
// CHECK: %[[IV:.*]] = memref.subview %[[IMG]][0, 1, 1, 0] [1, 7, 7, 16]
// CHECK: linalg.generic {{.*}}"reduction"{{.*}} ins(%[[IV]], {{.*}}) outs(%{{.*}} : memref<1x3x3x16xf32, strided<[256, 64, 16, 1], offset: 80>>)
// CHECK-NOT: linalg.generic
func.func @max_pool(%img: memref<1x8x8x16xf32>, %res: memref<1x4x4x16xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %window = memref.alloca() : memref<3x3xi8>
  %pad = memref.alloc() : memref<1x10x10x16xf32>
  %t = memref.subview %pad[0, 0, 0, 0] [1, 1, 10, 16] [1, 1, 1, 1] : memref<1x10x10x16xf32> to memref<1x1x10x16xf32, strided<[1600, 160, 16, 1]>>
  linalg.fill ins(%ninf : f32) outs(%t : memref<1x1x10x16xf32, strided<[1600, 160, 16, 1]>>)
  %l = memref.subview %pad[0, 0, 0, 0] [1, 10, 1, 16] [1, 1, 1, 1] : memref<1x10x10x16xf32> to memref<1x10x1x16xf32, strided<[1600, 160, 16, 1]>>
  linalg.fill ins(%ninf : f32) outs(%l : memref<1x10x1x16xf32, strided<[1600, 160, 16, 1]>>)
  %in = memref.subview %pad[0, 1, 1, 0] [1, 8, 8, 16] [1, 1, 1, 1] : memref<1x10x10x16xf32> to memref<1x8x8x16xf32, strided<[1600, 160, 16, 1], offset: 176>>
  linalg.copy ins(%img : memref<1x8x8x16xf32>) outs(%in : memref<1x8x8x16xf32, strided<[1600, 160, 16, 1], offset: 176>>)
  linalg.fill ins(%ninf : f32) outs(%res : memref<1x4x4x16xf32>)
  linalg.generic {indexing_maps = [#win, #shape, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%pad, %window : memref<1x10x10x16xf32>, memref<3x3xi8>) outs(%res : memref<1x4x4x16xf32>) {
  ^bb0(%x: f32, %s: i8, %o: f32):
    %0 = arith.maximumf %o, %x : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %pad : memref<1x10x10x16xf32>
  return
}

// -----

// Left alone: the image is written between the copy and the op (the
// interior would read the new values), the padded buffer is read by
// another op too, and an image without a padded copy.
#win = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 + d3, d2 + d4)>
#shape = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>
#out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @written_between(
// CHECK: linalg.copy ins(%{{.*}} : memref<1x6x16xf32>)
// CHECK-COUNT-1: "reduction", "reduction"]
// CHECK-LABEL: func.func @padded_read_twice(
// CHECK: linalg.copy ins(%{{.*}} : memref<1x6x16xf32>)
// CHECK-COUNT-2: "reduction", "reduction"]
// CHECK-LABEL: func.func @not_padded(
// CHECK-COUNT-1: "reduction", "reduction"]
// CHECK-NOT: "reduction"
func.func @written_between(%img: memref<1x6x16xf32>, %res: memref<1x6x16xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %window = memref.alloca() : memref<3x1xi8>
  %pad = memref.alloc() : memref<1x8x16xf32>
  %in = memref.subview %pad[0, 1, 0] [1, 6, 16] [1, 1, 1] : memref<1x8x16xf32> to memref<1x6x16xf32, strided<[128, 16, 1], offset: 16>>
  linalg.copy ins(%img : memref<1x6x16xf32>) outs(%in : memref<1x6x16xf32, strided<[128, 16, 1], offset: 16>>)
  linalg.fill ins(%zero : f32) outs(%img : memref<1x6x16xf32>)
  linalg.fill ins(%zero : f32) outs(%res : memref<1x6x16xf32>)
  linalg.generic {indexing_maps = [#win, #shape, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%pad, %window : memref<1x8x16xf32>, memref<3x1xi8>) outs(%res : memref<1x6x16xf32>) {
  ^bb0(%x: f32, %s: i8, %o: f32):
    %0 = arith.addf %o, %x : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %pad : memref<1x8x16xf32>
  return
}
func.func @padded_read_twice(%img: memref<1x6x16xf32>, %res: memref<1x6x16xf32>, %res2: memref<1x6x16xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %window = memref.alloca() : memref<3x1xi8>
  %pad = memref.alloc() : memref<1x8x16xf32>
  %in = memref.subview %pad[0, 1, 0] [1, 6, 16] [1, 1, 1] : memref<1x8x16xf32> to memref<1x6x16xf32, strided<[128, 16, 1], offset: 16>>
  linalg.copy ins(%img : memref<1x6x16xf32>) outs(%in : memref<1x6x16xf32, strided<[128, 16, 1], offset: 16>>)
  linalg.fill ins(%zero : f32) outs(%res : memref<1x6x16xf32>)
  linalg.generic {indexing_maps = [#win, #shape, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%pad, %window : memref<1x8x16xf32>, memref<3x1xi8>) outs(%res : memref<1x6x16xf32>) {
  ^bb0(%x: f32, %s: i8, %o: f32):
    %0 = arith.addf %o, %x : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%res2 : memref<1x6x16xf32>)
  linalg.generic {indexing_maps = [#win, #shape, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%pad, %window : memref<1x8x16xf32>, memref<3x1xi8>) outs(%res2 : memref<1x6x16xf32>) {
  ^bb0(%x: f32, %s: i8, %o: f32):
    %0 = arith.maximumf %o, %x : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %pad : memref<1x8x16xf32>
  return
}
func.func @not_padded(%img: memref<1x8x16xf32>, %res: memref<1x6x16xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %window = memref.alloca() : memref<3x1xi8>
  linalg.fill ins(%zero : f32) outs(%res : memref<1x6x16xf32>)
  linalg.generic {indexing_maps = [#win, #shape, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%img, %window : memref<1x8x16xf32>, memref<3x1xi8>) outs(%res : memref<1x6x16xf32>) {
  ^bb0(%x: f32, %s: i8, %o: f32):
    %0 = arith.addf %o, %x : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Negative: a 0 x 0 window computes nothing and is left alone (tiling its
// empty loops into channel tasks crashed; found by the mlc-opt fuzzer).
#win = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d3 + d4)>
#wts = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>
#out = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#acc = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#bias = affine_map<(d0, d1, d2, d3) -> (0, 0, 0, d3)>
// CHECK-LABEL: func.func @empty_window
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<1x6x6x32xf32>, memref<0x0x1x32xf32>)
func.func @empty_window(%img: memref<1x4x4x32xf32>, %w: memref<0x0x1x32xf32>, %b: memref<1x1x1x32xf32>, %res: memref<1x4x4x32xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %acc = memref.alloc() : memref<1x4x4x32xf32>
  %pad = memref.alloc() : memref<1x6x6x32xf32>
  %t = memref.subview %pad[0, 0, 0, 0] [1, 1, 6, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x1x6x32xf32, strided<[1152, 192, 32, 1]>>
  linalg.fill ins(%zero : f32) outs(%t : memref<1x1x6x32xf32, strided<[1152, 192, 32, 1]>>)
  %bo = memref.subview %pad[0, 5, 0, 0] [1, 1, 6, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x1x6x32xf32, strided<[1152, 192, 32, 1], offset: 960>>
  linalg.fill ins(%zero : f32) outs(%bo : memref<1x1x6x32xf32, strided<[1152, 192, 32, 1], offset: 960>>)
  %l = memref.subview %pad[0, 0, 0, 0] [1, 6, 1, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x6x1x32xf32, strided<[1152, 192, 32, 1]>>
  linalg.fill ins(%zero : f32) outs(%l : memref<1x6x1x32xf32, strided<[1152, 192, 32, 1]>>)
  %r = memref.subview %pad[0, 0, 5, 0] [1, 6, 1, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x6x1x32xf32, strided<[1152, 192, 32, 1], offset: 160>>
  linalg.fill ins(%zero : f32) outs(%r : memref<1x6x1x32xf32, strided<[1152, 192, 32, 1], offset: 160>>)
  %in = memref.subview %pad[0, 1, 1, 0] [1, 4, 4, 32] [1, 1, 1, 1] : memref<1x6x6x32xf32> to memref<1x4x4x32xf32, strided<[1152, 192, 32, 1], offset: 224>>
  linalg.copy ins(%img : memref<1x4x4x32xf32>) outs(%in : memref<1x4x4x32xf32, strided<[1152, 192, 32, 1], offset: 224>>)
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%acc : memref<1x4x4x32xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  }
  linalg.generic {indexing_maps = [#win, #wts, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%pad, %w : memref<1x6x6x32xf32>, memref<0x0x1x32xf32>) outs(%acc : memref<1x4x4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#acc, #bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x4x4x32xf32>, memref<1x1x1x32xf32>) outs(%res : memref<1x4x4x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x4x4x32xf32>
  memref.dealloc %pad : memref<1x6x6x32xf32>
  return
}
