// RUN: mlc-opt %s -split-input-file --mlc-cpu-winograd-convolution | FileCheck %s
// RUN: mlc-opt %s -split-input-file --mlc-cpu-winograd-convolution=output-tile=4 | FileCheck %s --check-prefix=OPTION

// A fused kernel's fill, 3x3 convolution and bias + relu epilogue with
// winograd_tile = 2 on a 4x4 output: 2x2 tiles of 2x2 pixels. The constant
// weight becomes its transform (16 x in x out) under a new global, which
// the call passes; the 16 input-tile views (stride 2) feed the input
// transform, 16 GEMMs of 4 tiles x 2 by 2 x 3, and the output transform
// computes the epilogue on each of its 4 pixels and writes the kernel's
// output (4 strided views) directly: no fill, no temporary buffer. The
// option does not override the function's attribute.

// CHECK-NOT: memref.global "private" constant @w :
// CHECK: memref.global "private" constant @w_winograd2 : memref<16x2x3xf32> = dense_resource<w_winograd2> {alignment = 64 : i64}
// CHECK-NOT: memref.global "private" constant @w :
// CHECK-LABEL: func.func private @conv_tile2(
// CHECK-SAME: %[[IMAGE:.*]]: memref<1x6x6x2xf32>, %[[U:.*]]: memref<16x2x3xf32> {mlc.constant}, %[[B:.*]]: memref<3xf32>, %[[OUT:.*]]: memref<1x4x4x3xf32>)
// CHECK-NOT: linalg.fill
// CHECK: %[[V:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x1x2x2x2xf32>
// CHECK: %[[M:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x1x2x2x3xf32>
// CHECK: %[[D00:.*]] = memref.subview %[[IMAGE]][0, 0, 0, 0] [1, 2, 2, 2] [1, 2, 2, 1]
// CHECK-COUNT-15: memref.subview %[[IMAGE]][0, {{[0-3]}}, {{[0-3]}}, 0] [1, 2, 2, 2] [1, 2, 2, 1]
// CHECK-COUNT-16: memref.subview %[[V]][{{[0-9]+}}, 0, 0, 0, 0] [1, 1, 2, 2, 2] [1, 1, 1, 1, 1]
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[D00]],
// CHECK: linalg.yield {{(%[0-9]+, ){15}%[0-9]+}} : f32
// CHECK: %[[VM:.*]] = memref.collapse_shape %[[V]] {{\[\[}}0], [1, 2, 3], [4]] : memref<16x1x2x2x2xf32> into memref<16x4x2xf32>
// CHECK: %[[MM:.*]] = memref.collapse_shape %[[M]] {{\[\[}}0], [1, 2, 3], [4]] : memref<16x1x2x2x3xf32> into memref<16x4x3xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[MM]] : memref<16x4x3xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[VM]], %[[U]] : memref<16x4x2xf32>, memref<16x2x3xf32>) outs(%[[MM]] : memref<16x4x3xf32>)
// CHECK-COUNT-16: memref.subview %[[M]][{{[0-9]+}}, 0, 0, 0, 0] [1, 1, 2, 2, 3] [1, 1, 1, 1, 1]
// CHECK: %[[Y00:.*]] = memref.subview %[[OUT]][0, 0, 0, 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK: %[[Y01:.*]] = memref.subview %[[OUT]][0, 0, 1, 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK: %[[Y10:.*]] = memref.subview %[[OUT]][0, 1, 0, 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK: %[[Y11:.*]] = memref.subview %[[OUT]][0, 1, 1, 0] [1, 2, 2, 3] [1, 2, 2, 1]
// CHECK: linalg.generic
// CHECK-SAME: %[[B]] : {{.*}}) outs(%[[Y00]], %[[Y01]], %[[Y10]], %[[Y11]] :
// CHECK-COUNT-4: arith.maximumf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: memref.dealloc %[[V]]
// CHECK: memref.dealloc %[[M]]
// CHECK-NEXT: return
// CHECK-LABEL: func.func @main(
// CHECK: %[[W:.*]] = memref.get_global @w_winograd2 : memref<16x2x3xf32>
// CHECK: call @conv_tile2(%{{.*}}, %[[W]], %{{.*}}, %{{.*}}) : (memref<1x6x6x2xf32>, memref<16x2x3xf32>, memref<3xf32>, memref<1x4x4x3xf32>) -> ()

// OPTION: memref.global "private" constant @w_winograd2 : memref<16x2x3xf32>
// OPTION-LABEL: func.func private @conv_tile2(

memref.global "private" constant @w : memref<3x3x2x3xf32> = dense<1.0>
memref.global "private" constant @b : memref<3xf32> = dense<0.5>

func.func private @conv_tile2(%image: memref<1x6x6x2xf32>, %w: memref<3x3x2x3xf32> {mlc.constant}, %b: memref<3xf32>, %out: memref<1x4x4x3xf32>) attributes {mlc.schedule.winograd_tile = 2 : i64} {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x4x4x3xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x4x4x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%image, %w : memref<1x6x6x2xf32>, memref<3x3x2x3xf32>) outs(%acc : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x4x4x3xf32>, memref<3xf32>) outs(%out : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x4x4x3xf32>
  return
}

func.func @main(%image: memref<1x6x6x2xf32>, %out: memref<1x4x4x3xf32>) {
  %w = memref.get_global @w : memref<3x3x2x3xf32>
  %b = memref.get_global @b : memref<3xf32>
  call @conv_tile2(%image, %w, %b, %out) : (memref<1x6x6x2xf32>, memref<3x3x2x3xf32>, memref<3xf32>, memref<1x4x4x3xf32>) -> ()
  return
}

// -----

// The option applies to functions without the attribute: tile 4 on a 4x4
// output is one tile, 36 transform planes.

// CHECK-LABEL: func.func private @conv_option(
// CHECK: linalg.generic {indexing_maps = [{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}

// OPTION: memref.global "private" constant @w_winograd4 : memref<36x2x3xf32>
// OPTION-LABEL: func.func private @conv_option(
// OPTION-SAME: memref<36x2x3xf32> {mlc.constant}
// OPTION: memref.alloc() {alignment = 64 : i64} : memref<36x1x1x1x2xf32>
// OPTION: memref.alloc() {alignment = 64 : i64} : memref<36x1x1x1x3xf32>
// OPTION-COUNT-16: memref.subview %arg3[0, {{[0-3]}}, {{[0-3]}}, 0] [1, 1, 1, 3] [1, 4, 4, 1]
// OPTION: linalg.generic
// OPTION-COUNT-16: arith.maximumf

memref.global "private" constant @w : memref<3x3x2x3xf32> = dense<1.0>
memref.global "private" constant @b : memref<3xf32> = dense<0.5>

func.func private @conv_option(%image: memref<1x6x6x2xf32>, %w: memref<3x3x2x3xf32> {mlc.constant}, %b: memref<3xf32>, %out: memref<1x4x4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x4x4x3xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x4x4x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%image, %w : memref<1x6x6x2xf32>, memref<3x3x2x3xf32>) outs(%acc : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x4x4x3xf32>, memref<3xf32>) outs(%out : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x4x4x3xf32>
  return
}

func.func @main(%image: memref<1x6x6x2xf32>, %out: memref<1x4x4x3xf32>) {
  %w = memref.get_global @w : memref<3x3x2x3xf32>
  %b = memref.get_global @b : memref<3xf32>
  call @conv_option(%image, %w, %b, %out) : (memref<1x6x6x2xf32>, memref<3x3x2x3xf32>, memref<3xf32>, memref<1x4x4x3xf32>) -> ()
  return
}

// -----

// Tile 4 does not divide a 6x6 output: tile 2 (3x3 tiles). Without an
// epilogue the output transform accumulates into the kernel's output, as
// the convolution did.

// CHECK: memref.global "private" constant @w_winograd2 : memref<16x2x2xf32>
// CHECK-LABEL: func.func private @conv_accumulate(
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<1x6x6x2xf32>)
// CHECK: %[[Y00:.*]] = memref.subview %[[OUT]][0, 0, 0, 0] [1, 3, 3, 2] [1, 2, 2, 1]
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[Y00]],
// CHECK-NEXT: ^bb0(%in: f32, {{.*}}, %out: f32,
// CHECK: arith.addf %out, %{{.*}} : f32

memref.global "private" constant @w : memref<3x3x2x2xf32> = dense<1.0>
memref.global "private" constant @b : memref<2xf32> = dense<0.5>

func.func private @conv_accumulate(%image: memref<1x8x8x2xf32>, %w: memref<3x3x2x2xf32> {mlc.constant}, %b: memref<2xf32>, %out: memref<1x6x6x2xf32>) attributes {mlc.schedule.winograd_tile = 4 : i64} {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%image, %w : memref<1x8x8x2xf32>, memref<3x3x2x2xf32>) outs(%out : memref<1x6x6x2xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

func.func @main(%image: memref<1x8x8x2xf32>, %out: memref<1x6x6x2xf32>) {
  %w = memref.get_global @w : memref<3x3x2x2xf32>
  %b = memref.get_global @b : memref<2xf32>
  call @conv_accumulate(%image, %w, %b, %out) : (memref<1x8x8x2xf32>, memref<3x3x2x2xf32>, memref<2xf32>, memref<1x6x6x2xf32>) -> ()
  return
}

// -----

// winograd_tile = 0 keeps the direct convolution, whatever the option.

// CHECK-LABEL: func.func private @conv_tile0(
// CHECK-SAME: memref<3x3x2x3xf32> {mlc.constant}
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// OPTION-LABEL: func.func private @conv_tile0(
// OPTION-SAME: memref<3x3x2x3xf32> {mlc.constant}
// OPTION: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]

memref.global "private" constant @w : memref<3x3x2x3xf32> = dense<1.0>
memref.global "private" constant @b : memref<3xf32> = dense<0.5>

func.func private @conv_tile0(%image: memref<1x6x6x2xf32>, %w: memref<3x3x2x3xf32> {mlc.constant}, %b: memref<3xf32>, %out: memref<1x4x4x3xf32>) attributes {mlc.schedule.winograd_tile = 0 : i64} {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x4x4x3xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x4x4x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%image, %w : memref<1x6x6x2xf32>, memref<3x3x2x3xf32>) outs(%acc : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x4x4x3xf32>, memref<3xf32>) outs(%out : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x4x4x3xf32>
  return
}

func.func @main(%image: memref<1x6x6x2xf32>, %out: memref<1x4x4x3xf32>) {
  %w = memref.get_global @w : memref<3x3x2x3xf32>
  %b = memref.get_global @b : memref<3xf32>
  call @conv_tile0(%image, %w, %b, %out) : (memref<1x6x6x2xf32>, memref<3x3x2x3xf32>, memref<3xf32>, memref<1x4x4x3xf32>) -> ()
  return
}

// -----

// Left alone: a weight that is no constant argument (its callers may pass
// anything).

// OPTION-LABEL: func.func private @conv_not_constant(
// OPTION-SAME: memref<3x3x2x3xf32>,
// OPTION: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]

memref.global "private" constant @w : memref<3x3x2x3xf32> = dense<1.0>
memref.global "private" constant @b : memref<3xf32> = dense<0.5>

func.func private @conv_not_constant(%image: memref<1x6x6x2xf32>, %w: memref<3x3x2x3xf32>, %b: memref<3xf32>, %out: memref<1x4x4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x4x4x3xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x4x4x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%image, %w : memref<1x6x6x2xf32>, memref<3x3x2x3xf32>) outs(%acc : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x4x4x3xf32>, memref<3xf32>) outs(%out : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x4x4x3xf32>
  return
}

func.func @main(%image: memref<1x6x6x2xf32>, %out: memref<1x4x4x3xf32>) {
  %w = memref.get_global @w : memref<3x3x2x3xf32>
  %b = memref.get_global @b : memref<3xf32>
  call @conv_not_constant(%image, %w, %b, %out) : (memref<1x6x6x2xf32>, memref<3x3x2x3xf32>, memref<3xf32>, memref<1x4x4x3xf32>) -> ()
  return
}

// -----

// Left alone: a caller passes a mutable global (nothing to transform at
// compile time).

// OPTION: memref.global "private" @w : memref<3x3x2x3xf32>
// OPTION-LABEL: func.func private @conv_mutable(
// OPTION-SAME: memref<3x3x2x3xf32> {mlc.constant}
// OPTION: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]

memref.global "private" @w : memref<3x3x2x3xf32> = dense<1.0>
memref.global "private" constant @b : memref<3xf32> = dense<0.5>

func.func private @conv_mutable(%image: memref<1x6x6x2xf32>, %w: memref<3x3x2x3xf32> {mlc.constant}, %b: memref<3xf32>, %out: memref<1x4x4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x4x4x3xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x4x4x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%image, %w : memref<1x6x6x2xf32>, memref<3x3x2x3xf32>) outs(%acc : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x4x4x3xf32>, memref<3xf32>) outs(%out : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x4x4x3xf32>
  return
}

func.func @main(%image: memref<1x6x6x2xf32>, %out: memref<1x4x4x3xf32>) {
  %w = memref.get_global @w : memref<3x3x2x3xf32>
  %b = memref.get_global @b : memref<3xf32>
  call @conv_mutable(%image, %w, %b, %out) : (memref<1x6x6x2xf32>, memref<3x3x2x3xf32>, memref<3xf32>, memref<1x4x4x3xf32>) -> ()
  return
}

// -----

// Left alone: an odd 5x5 output (no tile divides it).

// OPTION-LABEL: func.func private @conv_odd(
// OPTION-SAME: memref<3x3x2x3xf32> {mlc.constant}
// OPTION: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]

memref.global "private" constant @w : memref<3x3x2x3xf32> = dense<1.0>
memref.global "private" constant @b : memref<3xf32> = dense<0.5>

func.func private @conv_odd(%image: memref<1x7x7x2xf32>, %w: memref<3x3x2x3xf32> {mlc.constant}, %b: memref<3xf32>, %out: memref<1x5x5x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x5x5x3xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x5x5x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d5, d2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%image, %w : memref<1x7x7x2xf32>, memref<3x3x2x3xf32>) outs(%acc : memref<1x5x5x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x5x5x3xf32>, memref<3xf32>) outs(%out : memref<1x5x5x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x5x5x3xf32>
  return
}

func.func @main(%image: memref<1x7x7x2xf32>, %out: memref<1x5x5x3xf32>) {
  %w = memref.get_global @w : memref<3x3x2x3xf32>
  %b = memref.get_global @b : memref<3xf32>
  call @conv_odd(%image, %w, %b, %out) : (memref<1x7x7x2xf32>, memref<3x3x2x3xf32>, memref<3xf32>, memref<1x5x5x3xf32>) -> ()
  return
}

// -----

// Left alone: stride 2 (the image read at 2 * h + kh).

// OPTION-LABEL: func.func private @conv_stride2(
// OPTION-SAME: memref<3x3x2x3xf32> {mlc.constant}
// OPTION: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]

memref.global "private" constant @w : memref<3x3x2x3xf32> = dense<1.0>
memref.global "private" constant @b : memref<3xf32> = dense<0.5>

func.func private @conv_stride2(%image: memref<1x9x9x2xf32>, %w: memref<3x3x2x3xf32> {mlc.constant}, %b: memref<3xf32>, %out: memref<1x4x4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<1x4x4x3xf32>
  linalg.fill ins(%zero : f32) outs(%acc : memref<1x4x4x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d5, d2 * 2 + d6, d4)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d5, d6, d4, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%image, %w : memref<1x9x9x2xf32>, memref<3x3x2x3xf32>) outs(%acc : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.mulf %in, %in_1 : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<1x4x4x3xf32>, memref<3xf32>) outs(%out : memref<1x4x4x3xf32>) {
  ^bb0(%in: f32, %in_1: f32, %o: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %acc : memref<1x4x4x3xf32>
  return
}

func.func @main(%image: memref<1x9x9x2xf32>, %out: memref<1x4x4x3xf32>) {
  %w = memref.get_global @w : memref<3x3x2x3xf32>
  %b = memref.get_global @b : memref<3xf32>
  call @conv_stride2(%image, %w, %b, %out) : (memref<1x9x9x2xf32>, memref<3x3x2x3xf32>, memref<3xf32>, memref<1x4x4x3xf32>) -> ()
  return
}
