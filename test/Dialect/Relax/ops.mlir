// RUN: mlc-opt %s | FileCheck %s
// Round trip: the printed form parses back to the same thing.
// RUN: mlc-opt %s | mlc-opt | FileCheck %s
// RUN: mlc-opt %s -mlir-print-op-generic | mlc-opt | FileCheck %s

// The MLC course's two-layer MLP with a symbolic batch size, one layer as a
// call_tir of a destination-passing buffer function, one as an extern call.

// CHECK-LABEL: func.func private @linear0
// CHECK-SAME: memref<?x784xf32>, memref<128x784xf32>, memref<128xf32>, memref<?x128xf32>
func.func private @linear0(memref<?x784xf32>, memref<128x784xf32>, memref<128xf32>, memref<?x128xf32>)

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<?x784xf32> {relax.name = "x"}, %[[W0:.*]]: tensor<128x784xf32> {relax.name = "w0"}
func.func @main(%x: tensor<?x784xf32> {relax.name = "x"},
                %w0: tensor<128x784xf32> {relax.name = "w0"},
                %b0: tensor<128xf32> {relax.name = "b0"},
                %w1: tensor<128x10xf32> {relax.name = "w1"})
    -> tensor<?x10xf32, #relax.shape<[n, 10]>> {
  // CHECK: %[[X1:.*]] = relax.match_cast %[[X]] : tensor<?x784xf32> to tensor<?x784xf32, #relax.shape<[n, 784]>>
  %x1 = relax.match_cast %x : tensor<?x784xf32> to tensor<?x784xf32, #relax.shape<[n, 784]>>
  // CHECK: %[[GV:.*]] = relax.dataflow -> tensor<?x10xf32, #relax.shape<[n, 10]>> {
  %gv = relax.dataflow -> tensor<?x10xf32, #relax.shape<[n, 10]>> {
    // CHECK-NEXT: %[[LV0:.*]] = relax.call_tir @linear0(%[[X1]], %[[W0]], %{{.*}}) : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<128x784xf32>, tensor<128xf32>) -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    %lv0 = relax.call_tir @linear0(%x1, %w0, %b0)
        : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<128x784xf32>, tensor<128xf32>)
        -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    // CHECK-NEXT: %[[LV1:.*]] = relax.call_dps_packed "env.relu"(%[[LV0]]) : (tensor<?x128xf32, #relax.shape<[n, 128]>>) -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    %lv1 = relax.call_dps_packed "env.relu"(%lv0)
        : (tensor<?x128xf32, #relax.shape<[n, 128]>>) -> tensor<?x128xf32, #relax.shape<[n, 128]>>
    // CHECK-NEXT: %[[LV2:.*]] = relax.matmul %[[LV1]], %{{.*}} : (tensor<?x128xf32, #relax.shape<[n, 128]>>, tensor<128x10xf32>) -> tensor<?x10xf32, #relax.shape<[n, 10]>>
    %lv2 = relax.matmul %lv1, %w1
        : (tensor<?x128xf32, #relax.shape<[n, 128]>>, tensor<128x10xf32>) -> tensor<?x10xf32, #relax.shape<[n, 10]>>
    // CHECK-NEXT: relax.output %[[LV2]] : tensor<?x10xf32, #relax.shape<[n, 10]>>
    relax.output %lv2 : tensor<?x10xf32, #relax.shape<[n, 10]>>
  }
  // CHECK: return %[[GV]]
  return %gv : tensor<?x10xf32, #relax.shape<[n, 10]>>
}

// Dataflow blocks with several results, and with none.
// CHECK-LABEL: func.func @multi
func.func @multi(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %{{.*}}:2 = relax.dataflow -> tensor<4xf32>, tensor<4xf32> {
  // CHECK: relax.output %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
  %r:2 = relax.dataflow -> tensor<4xf32>, tensor<4xf32> {
    %s = relax.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relax.output %s, %a : tensor<4xf32>, tensor<4xf32>
  }
  // CHECK: relax.dataflow {
  // CHECK-NEXT: }
  relax.dataflow {
    relax.output
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// call_tir with tir_vars: symbolic sizes passed after the output buffers.
// CHECK-LABEL: func.func @tir_vars
// CHECK: relax.call_tir @repeat(%{{.*}}) tir_vars [n, n * 3] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n * 3]>>
func.func private @repeat(memref<?xf32>, memref<?xf32>, index, index)
func.func @tir_vars(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n * 3]>> {
  %0 = relax.call_tir @repeat(%x) tir_vars [n, 3 * n] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n * 3]>>
  return %0 : tensor<?xf32, #relax.shape<[n * 3]>>
}

// An extern call with side effects stays outside dataflow blocks.
// CHECK-LABEL: func.func @effects
// CHECK: relax.call_dps_packed "env.print"(%{{.*}}) {has_side_effects} : (tensor<4xf32>) -> tensor<1xi32>
func.func @effects(%a: tensor<4xf32>) {
  %0 = relax.call_dps_packed "env.print"(%a) {has_side_effects} : (tensor<4xf32>) -> tensor<1xi32>
  return
}

// Constants: inline and resource blobs.
// CHECK-LABEL: func.func @constants
func.func @constants() -> (tensor<2xf32>, tensor<2x2xi32>, tensor<3xf32>) {
  // CHECK: relax.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %0 = relax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHECK: relax.constant dense<7> : tensor<2x2xi32>
  %1 = relax.constant dense<7> : tensor<2x2xi32>
  // CHECK: relax.constant dense_resource<blob1> : tensor<3xf32>
  %2 = relax.constant dense_resource<blob1> : tensor<3xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2x2xi32>, tensor<3xf32>
}

// Symbolic expressions are canonicalized (AffineExpr simplification) and
// names are sorted.
// CHECK-LABEL: func.func @exprs
// CHECK-SAME: tensor<?x?xf32, #relax.shape<[n * 2, m floordiv 2]>>
// CHECK-SAME: tensor<?x4xf32, #relax.shape<[m * n - n * 3, 4]>>
// CHECK-SAME: tensor<?x?x?xf32, #relax.shape<[?, b ceildiv 4, (b + 1) mod 8]>>
// CHECK-SAME: tensor<?x?x?xf32, #relax.shape<[-n + 3, -m - n * 2, -m - n]>>
func.func @exprs(%x: tensor<?x?xf32, #relax.shape<[n + n, m floordiv 2]>>,
                 %y: tensor<?x4xf32, #relax.shape<[m * n - 3 * n, 2 + 2]>>,
                 %z: tensor<?x?x?xf32, #relax.shape<[?, b ceildiv 4, (b + 1) mod 8]>>,
                 %w: tensor<?x?x?xf32, #relax.shape<[3 - n, -2 * n - m, -(n + m)]>>) {
  return
}

// Shape propagation: broadcasting (n, 1) + (1, m) -> (n, m); matmul with
// batch broadcasting and 1-D operands.
// CHECK-LABEL: func.func @propagate
func.func @propagate(%a: tensor<?x1xf32, #relax.shape<[n, 1]>>,
                     %b: tensor<1x?xf32, #relax.shape<[1, m]>>,
                     %c: tensor<?x?x8xf32, #relax.shape<[b, n, 8]>>,
                     %d: tensor<8x16xf32>, %v: tensor<8xf32>,
                     %e: tensor<?x?xf16, #relax.shape<[k + 1, k]>>,
                     %f: tensor<?x?xf16, #relax.shape<[k, k + 1]>>,
                     %g: tensor<?x?x?xf32, #relax.shape<[n, ?, m]>>,
                     %h: tensor<5x?xf32>) {
  // CHECK: relax.add {{.*}} -> tensor<?x?xf32, #relax.shape<[n, m]>>
  %0 = relax.add %a, %b : (tensor<?x1xf32, #relax.shape<[n, 1]>>, tensor<1x?xf32, #relax.shape<[1, m]>>) -> tensor<?x?xf32, #relax.shape<[n, m]>>
  // CHECK: relax.matmul {{.*}} -> tensor<?x?x16xf32, #relax.shape<[b, n, 16]>>
  %1 = relax.matmul %c, %d : (tensor<?x?x8xf32, #relax.shape<[b, n, 8]>>, tensor<8x16xf32>) -> tensor<?x?x16xf32, #relax.shape<[b, n, 16]>>
  // CHECK: relax.matmul {{.*}} -> tensor<?x?xf32, #relax.shape<[b, n]>>
  %2 = relax.matmul %c, %v : (tensor<?x?x8xf32, #relax.shape<[b, n, 8]>>, tensor<8xf32>) -> tensor<?x?xf32, #relax.shape<[b, n]>>
  // CHECK: relax.matmul {{.*}} -> tensor<16xf32>
  %3 = relax.matmul %v, %d : (tensor<8xf32>, tensor<8x16xf32>) -> tensor<16xf32>
  // CHECK: relax.matmul {{.*}} {out_dtype = f32} : {{.*}} -> tensor<?x?xf32, #relax.shape<[k + 1, k + 1]>>
  %4 = relax.matmul %e, %f {out_dtype = f32} : (tensor<?x?xf16, #relax.shape<[k + 1, k]>>, tensor<?x?xf16, #relax.shape<[k, k + 1]>>) -> tensor<?x?xf32, #relax.shape<[k + 1, k + 1]>>
  // The declared result type may drop the symbolic encoding.
  // CHECK: relax.add {{.*}} -> tensor<?x?xf32>
  %5 = relax.add %a, %b : (tensor<?x1xf32, #relax.shape<[n, 1]>>, tensor<1x?xf32, #relax.shape<[1, m]>>) -> tensor<?x?xf32>
  // An unknown '?' takes the other side (the static rule of the shared
  // ShapeFunctions.h, extended to names); missing leading dims are 1.
  // CHECK: relax.add {{.*}} -> tensor<?x5x?xf32, #relax.shape<[n, 5, m]>>
  %6 = relax.add %g, %h : (tensor<?x?x?xf32, #relax.shape<[n, ?, m]>>, tensor<5x?xf32>) -> tensor<?x5x?xf32, #relax.shape<[n, 5, m]>>
  return
}

// Elementwise and shape ops of an MLP; symbolic shapes propagate.
// CHECK-LABEL: func.func @mlp_ops
func.func @mlp_ops(%x: tensor<?x4xf32, #relax.shape<[n, 4]>>,
                   %b: tensor<4xf32>, %w: tensor<8x4xf32>,
                   %y: tensor<?x1xf32, #relax.shape<[n, 1]>>,
                   %z: tensor<1x?xf32, #relax.shape<[1, m]>>,
                   %t: tensor<?x3x?xf32, #relax.shape<[n, 3, m]>>) {
  // CHECK: relax.subtract {{.*}} -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %0 = relax.subtract %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.multiply {{.*}} -> tensor<?x?xf32, #relax.shape<[n, m]>>
  %1 = relax.multiply %y, %z : (tensor<?x1xf32, #relax.shape<[n, 1]>>, tensor<1x?xf32, #relax.shape<[1, m]>>) -> tensor<?x?xf32, #relax.shape<[n, m]>>
  // CHECK: relax.divide {{.*}} -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %2 = relax.divide %b, %x : (tensor<4xf32>, tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.nn.relu %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %3 = relax.nn.relu %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.nn.softmax %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %4 = relax.nn.softmax %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.nn.log_softmax %{{.*}} {axis = 0 : i64} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %5 = relax.nn.log_softmax %x {axis = 0} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.permute_dims %{{.*}} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %6 = relax.permute_dims %w : (tensor<8x4xf32>) -> tensor<4x8xf32>
  // CHECK: relax.permute_dims %{{.*}} : (tensor<?x3x?xf32, #relax.shape<[n, 3, m]>>) -> tensor<?x3x?xf32, #relax.shape<[m, 3, n]>>
  %7 = relax.permute_dims %t : (tensor<?x3x?xf32, #relax.shape<[n, 3, m]>>) -> tensor<?x3x?xf32, #relax.shape<[m, 3, n]>>
  // CHECK: relax.permute_dims %{{.*}} {axes = array<i64: 1, -1, 0>} : (tensor<?x3x?xf32, #relax.shape<[n, 3, m]>>) -> tensor<3x?x?xf32, #relax.shape<[3, m, n]>>
  %8 = relax.permute_dims %t {axes = array<i64: 1, -1, 0>} : (tensor<?x3x?xf32, #relax.shape<[n, 3, m]>>) -> tensor<3x?x?xf32, #relax.shape<[3, m, n]>>
  // CHECK: relax.reshape %{{.*}} {shape = array<i64: 2, -1>} : (tensor<8x4xf32>) -> tensor<2x16xf32>
  %9 = relax.reshape %w {shape = array<i64: 2, -1>} : (tensor<8x4xf32>) -> tensor<2x16xf32>
  // CHECK: relax.expand_dims %{{.*}} {axis = array<i64: 1, 2>} : (tensor<4xf32>) -> tensor<4x1x1xf32>
  %10 = relax.expand_dims %b {axis = array<i64: 1, 2>} : (tensor<4xf32>) -> tensor<4x1x1xf32>
  // CHECK: relax.expand_dims %{{.*}} {axis = array<i64: 0, -1>} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<1x?x4x1xf32, #relax.shape<[1, n, 4, 1]>>
  %11 = relax.expand_dims %x {axis = array<i64: 0, -1>} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<1x?x4x1xf32, #relax.shape<[1, n, 4, 1]>>
  return
}

// CNN ops: convolution and pooling (static shapes), reductions and concat
// (symbolic dims propagate).
// CHECK-LABEL: func.func @cnn_ops
func.func @cnn_ops(%x: tensor<1x3x32x32xf32>, %w: tensor<16x3x3x3xf32>,
                   %g: tensor<1x4x8x8xf32>, %gw: tensor<8x2x3x3xf32>,
                   %n: tensor<?x64x7x7xf32, #relax.shape<[n, 64, 7, 7]>>,
                   %a: tensor<?x3xf32, #relax.shape<[n, 3]>>,
                   %b: tensor<?x3xf32, #relax.shape<[m, 3]>>) {
  // CHECK: relax.nn.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
  %0 = relax.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
  // CHECK: relax.nn.conv2d %{{.*}}, %{{.*}} {dilation = array<i64: 2, 2>, groups = 2 : i64, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x2x2xf32>
  %1 = relax.nn.conv2d %g, %gw {strides = array<i64: 2, 2>, dilation = array<i64: 2, 2>, groups = 2} : (tensor<1x4x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x2x2xf32>
  // CHECK: relax.nn.max_pool2d %{{.*}} {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>) -> tensor<1x16x16x16xf32>
  %2 = relax.nn.max_pool2d %0 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x16x32x32xf32>) -> tensor<1x16x16x16xf32>
  // CHECK: relax.nn.avg_pool2d %{{.*}} {ceil_mode = true, count_include_pad = true, padding = array<i64: 1, 1, 1, 1>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x16x16x16xf32>) -> tensor<1x16x9x9xf32>
  %3 = relax.nn.avg_pool2d %2 {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, ceil_mode = true, count_include_pad = true} : (tensor<1x16x16x16xf32>) -> tensor<1x16x9x9xf32>
  // CHECK: relax.nn.adaptive_avg_pool2d %{{.*}} {output_size = array<i64: 1, 1>} : (tensor<1x16x9x9xf32>) -> tensor<1x16x1x1xf32>
  %4 = relax.nn.adaptive_avg_pool2d %3 {output_size = array<i64: 1, 1>} : (tensor<1x16x9x9xf32>) -> tensor<1x16x1x1xf32>
  // CHECK: relax.nn.adaptive_avg_pool2d %{{.*}} : (tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
  %5 = relax.nn.adaptive_avg_pool2d %3 : (tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
  // CHECK: relax.sum %{{.*}} {axis = array<i64: 2, 3>, keepdims = true} : (tensor<?x64x7x7xf32, #relax.shape<[n, 64, 7, 7]>>) -> tensor<?x64x1x1xf32, #relax.shape<[n, 64, 1, 1]>>
  %6 = relax.sum %n {axis = array<i64: 2, 3>, keepdims = true} : (tensor<?x64x7x7xf32, #relax.shape<[n, 64, 7, 7]>>) -> tensor<?x64x1x1xf32, #relax.shape<[n, 64, 1, 1]>>
  // CHECK: relax.mean %{{.*}} {axis = array<i64: -1, 1>} : (tensor<?x64x7x7xf32, #relax.shape<[n, 64, 7, 7]>>) -> tensor<?x7xf32, #relax.shape<[n, 7]>>
  %7 = relax.mean %n {axis = array<i64: -1, 1>} : (tensor<?x64x7x7xf32, #relax.shape<[n, 64, 7, 7]>>) -> tensor<?x7xf32, #relax.shape<[n, 7]>>
  // CHECK: relax.sum %{{.*}} : (tensor<?x64x7x7xf32, #relax.shape<[n, 64, 7, 7]>>) -> tensor<f32>
  %8 = relax.sum %n : (tensor<?x64x7x7xf32, #relax.shape<[n, 64, 7, 7]>>) -> tensor<f32>
  // CHECK: relax.concat %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<?x3xf32, #relax.shape<[m, 3]>>, tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x3xf32, #relax.shape<[m + n * 2, 3]>>
  %9 = relax.concat %a, %b, %a : (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<?x3xf32, #relax.shape<[m, 3]>>, tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x3xf32, #relax.shape<[m + n * 2, 3]>>
  // CHECK: relax.concat %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x6xf32, #relax.shape<[n, 6]>>
  %10 = relax.concat %a, %a {axis = -1} : (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x6xf32, #relax.shape<[n, 6]>>
  return
}

// Normalization: batch_norm has three results; layer_norm keeps symbolic dims.
// CHECK-LABEL: func.func @norm_ops
func.func @norm_ops(%x: tensor<1x16x8x8xf32>, %c: tensor<16xf32>,
                    %t: tensor<?x8x768xf32, #relax.shape<[n, 8, 768]>>,
                    %g: tensor<8x768xf32>) {
  // CHECK: relax.nn.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
  %0:3 = relax.nn.batch_norm %x, %c, %c, %c, %c {epsilon = 1.0e-3 : f64} : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
  // CHECK: relax.nn.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {axes = array<i64: -2, -1>} : (tensor<?x8x768xf32, #relax.shape<[n, 8, 768]>>, tensor<8x768xf32>, tensor<8x768xf32>) -> tensor<?x8x768xf32, #relax.shape<[n, 8, 768]>>
  %1 = relax.nn.layer_norm %t, %g, %g {axes = array<i64: -2, -1>} : (tensor<?x8x768xf32, #relax.shape<[n, 8, 768]>>, tensor<8x768xf32>, tensor<8x768xf32>) -> tensor<?x8x768xf32, #relax.shape<[n, 8, 768]>>
  return
}

{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F0000004000004040"
    }
  }
#-}

// Symbolic shapes have one canonical form: the terms of a sum are ordered by
// name, whatever the spelling, so `n + m` and `m + n` are the same type and
// either spelling of a declared result agrees with inference.
// CHECK-LABEL: func.func @canonical_shape
// CHECK-SAME: (%{{.*}}: tensor<?xf32, #relax.shape<[m + n]>>, %{{.*}}: tensor<?xf32, #relax.shape<[m + n]>>,
func.func @canonical_shape(%p: tensor<?xf32, #relax.shape<[n + m]>>,
                           %q: tensor<?xf32, #relax.shape<[m + n]>>,
                           %a: tensor<?x3xf32, #relax.shape<[n, 3]>>,
                           %b: tensor<?x3xf32, #relax.shape<[m, 3]>>) {
  // CHECK: relax.add %{{.*}}, %{{.*}} : (tensor<?xf32, #relax.shape<[m + n]>>, tensor<?xf32, #relax.shape<[m + n]>>) -> tensor<?xf32, #relax.shape<[m + n]>>
  %0 = relax.add %p, %q : (tensor<?xf32, #relax.shape<[n + m]>>, tensor<?xf32, #relax.shape<[m + n]>>) -> tensor<?xf32, #relax.shape<[m + n]>>
  // CHECK: relax.concat {{.*}} -> tensor<?x3xf32, #relax.shape<[m + n * 2, 3]>>
  %1 = relax.concat %a, %b, %a : (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<?x3xf32, #relax.shape<[m, 3]>>, tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x3xf32, #relax.shape<[m + n * 2, 3]>>
  // CHECK: relax.concat {{.*}} -> tensor<?x3xf32, #relax.shape<[m + n * 2, 3]>>
  %2 = relax.concat %a, %b, %a : (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<?x3xf32, #relax.shape<[m, 3]>>, tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x3xf32, #relax.shape<[m + n * 2, 3]>>
  // CHECK: tensor<?xf32, #relax.shape<[m floordiv 2 + n]>>
  %4 = relax.match_cast %p : tensor<?xf32, #relax.shape<[n + m]>> to tensor<?xf32, #relax.shape<[(n + m + n) floordiv 2]>>
  // CHECK: tensor<?xf32, #relax.shape<[(m + n) floordiv 2]>>
  %3 = relax.match_cast %p : tensor<?xf32, #relax.shape<[n + m]>> to tensor<?xf32, #relax.shape<[(n + m) floordiv 2]>>
  return
}

// Rounding, trigonometric and hyperbolic math keep the type; float class
// tests give i1 of the same shape; remainders broadcast.
// CHECK-LABEL: func.func @rounding_trig_mod
func.func @rounding_trig_mod(%x: tensor<?x4xf32, #relax.shape<[n, 4]>>, %b: tensor<4xf32>, %i: tensor<3x4xi32>, %j: tensor<4xi32>) {
  // CHECK: relax.floor %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %0 = relax.floor %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.ceil %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %1 = relax.ceil %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.round %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %2 = relax.round %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.trunc %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %3 = relax.trunc %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.sin %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %4 = relax.sin %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.cos %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %5 = relax.cos %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.tan %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %6 = relax.tan %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.asin %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %7 = relax.asin %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.acos %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %8 = relax.acos %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.atan %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %9 = relax.atan %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.sinh %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %10 = relax.sinh %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.cosh %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %11 = relax.cosh %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.asinh %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %12 = relax.asinh %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.acosh %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %13 = relax.acosh %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.atanh %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %14 = relax.atanh %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.isnan %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  %15 = relax.isnan %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  // CHECK: relax.isinf %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  %16 = relax.isinf %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  // CHECK: relax.isfinite %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  %17 = relax.isfinite %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  // CHECK: relax.floor_mod %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %18 = relax.floor_mod %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.floor_mod %{{.*}}, %{{.*}} : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  %19 = relax.floor_mod %i, %j : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  // CHECK: relax.mod %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %20 = relax.mod %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.mod %{{.*}}, %{{.*}} : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  %21 = relax.mod %i, %j : (tensor<3x4xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  return
}

// Elementwise math keeps the type; comparisons broadcast to i1.
// CHECK-LABEL: func.func @elementwise_math
func.func @elementwise_math(%x: tensor<?x4xf32, #relax.shape<[n, 4]>>, %b: tensor<4xf32>, %i: tensor<4xi32>) {
  // CHECK: relax.exp %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %0 = relax.exp %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.log %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %1 = relax.log %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.sqrt %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %2 = relax.sqrt %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.rsqrt %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %3 = relax.rsqrt %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.tanh %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %4 = relax.tanh %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.sigmoid %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %5 = relax.sigmoid %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.erf %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %6 = relax.erf %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.abs %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %7 = relax.abs %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.negative %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %8 = relax.negative %x : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.negative %{{.*}} : (tensor<4xi32>) -> tensor<4xi32>
  %9 = relax.negative %i : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: relax.power %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %10 = relax.power %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.maximum %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %11 = relax.maximum %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.minimum %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %12 = relax.minimum %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.less %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  %13 = relax.less %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  // CHECK: relax.greater %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  %14 = relax.greater %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  // CHECK: relax.less_equal %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  %15 = relax.less_equal %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  // CHECK: relax.greater_equal %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  %16 = relax.greater_equal %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  // CHECK: relax.equal %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  %17 = relax.equal %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  // CHECK: relax.not_equal %{{.*}}, %{{.*}} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  %18 = relax.not_equal %x, %b : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xi1, #relax.shape<[n, 4]>>
  return
}

// astype keeps the symbolic shape; where broadcasts its three operands.
// CHECK-LABEL: func.func @select_cast
func.func @select_cast(%x: tensor<?x4xf32, #relax.shape<[n, 4]>>, %c: tensor<?x1xi1, #relax.shape<[n, 1]>>, %y: tensor<f32>) {
  // CHECK: relax.astype %{{.*}} {dtype = f16} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf16, #relax.shape<[n, 4]>>
  %0 = relax.astype %x {dtype = f16} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf16, #relax.shape<[n, 4]>>
  // CHECK: relax.clip %{{.*}} {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %1 = relax.clip %x {min = 0.0 : f64, max = 6.0 : f64} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.where %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x1xi1, #relax.shape<[n, 1]>>, tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<f32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %2 = relax.where %c, %x, %y : (tensor<?x1xi1, #relax.shape<[n, 1]>>, tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<f32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  return
}

// Tensor ops: dimensions passed through keep their symbolic expressions.
// CHECK-LABEL: func.func @tensor_ops
func.func @tensor_ops(%x: tensor<?x1x8xf32, #relax.shape<[n, 1, 8]>>, %w: tensor<10x4xf32>, %i: tensor<2x3xi32>, %v: tensor<3xf32>, %g: tensor<12x3xi32>, %gn: tensor<?x1x2xi64, #relax.shape<[n, 1, 2]>>, %su: tensor<2x3xf32>, %ni: tensor<2x3x1xi32>, %nu: tensor<2x3x4xf32>) {
  // CHECK: relax.squeeze %{{.*}} {axis = array<i64: 1>} : (tensor<?x1x8xf32, #relax.shape<[n, 1, 8]>>) -> tensor<?x8xf32, #relax.shape<[n, 8]>>
  %0 = relax.squeeze %x {axis = array<i64: 1>} : (tensor<?x1x8xf32, #relax.shape<[n, 1, 8]>>) -> tensor<?x8xf32, #relax.shape<[n, 8]>>
  // CHECK: relax.squeeze %{{.*}} : (tensor<10x1x4xf32>) -> tensor<10x4xf32>
  %r = relax.reshape %w {shape = array<i64: 10, 1, 4>} : (tensor<10x4xf32>) -> tensor<10x1x4xf32>
  %1 = relax.squeeze %r : (tensor<10x1x4xf32>) -> tensor<10x4xf32>
  // CHECK: relax.split %{{.*}} {axis = 2 : i64, indices_or_sections = 2 : i64} : (tensor<?x1x8xf32, #relax.shape<[n, 1, 8]>>) -> (tensor<?x1x4xf32, #relax.shape<[n, 1, 4]>>, tensor<?x1x4xf32, #relax.shape<[n, 1, 4]>>)
  %2:2 = relax.split %x {indices_or_sections = 2 : i64, axis = 2 : i64} : (tensor<?x1x8xf32, #relax.shape<[n, 1, 8]>>) -> (tensor<?x1x4xf32, #relax.shape<[n, 1, 4]>>, tensor<?x1x4xf32, #relax.shape<[n, 1, 4]>>)
  // CHECK: relax.split %{{.*}} {indices_or_sections = array<i64: 3, 7>} : (tensor<10x4xf32>) -> (tensor<3x4xf32>, tensor<4x4xf32>, tensor<3x4xf32>)
  %3:3 = relax.split %w {indices_or_sections = array<i64: 3, 7>} : (tensor<10x4xf32>) -> (tensor<3x4xf32>, tensor<4x4xf32>, tensor<3x4xf32>)
  // CHECK: relax.strided_slice %{{.*}} {axes = array<i64: 2>, begin = array<i64: 1>, end = array<i64: 7>, strides = array<i64: 2>} : (tensor<?x1x8xf32, #relax.shape<[n, 1, 8]>>) -> tensor<?x1x3xf32, #relax.shape<[n, 1, 3]>>
  %4 = relax.strided_slice %x {axes = array<i64: 2>, begin = array<i64: 1>, end = array<i64: 7>, strides = array<i64: 2>} : (tensor<?x1x8xf32, #relax.shape<[n, 1, 8]>>) -> tensor<?x1x3xf32, #relax.shape<[n, 1, 3]>>
  // CHECK: relax.take %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  %5 = relax.take %w, %i {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  // CHECK: relax.take %{{.*}}, %{{.*}} {mode = "wrap"} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  %6 = relax.take %w, %i {mode = "wrap"} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  // CHECK: relax.broadcast_to %{{.*}} {shape = array<i64: 2, 3>} : (tensor<3xf32>) -> tensor<2x3xf32>
  %7 = relax.broadcast_to %v {shape = array<i64: 2, 3>} : (tensor<3xf32>) -> tensor<2x3xf32>
  // The indices' shape (and symbolic shape) is the result's.
  // CHECK: relax.gather_elements %{{.*}}, %{{.*}} : (tensor<10x4xf32>, tensor<12x3xi32>) -> tensor<12x3xf32>
  %8 = relax.gather_elements %w, %g : (tensor<10x4xf32>, tensor<12x3xi32>) -> tensor<12x3xf32>
  // CHECK: relax.gather_elements %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<?x1x8xf32, #relax.shape<[n, 1, 8]>>, tensor<?x1x2xi64, #relax.shape<[n, 1, 2]>>) -> tensor<?x1x2xf32, #relax.shape<[n, 1, 2]>>
  %9 = relax.gather_elements %x, %gn {axis = -1 : i64} : (tensor<?x1x8xf32, #relax.shape<[n, 1, 8]>>, tensor<?x1x2xi64, #relax.shape<[n, 1, 2]>>) -> tensor<?x1x2xf32, #relax.shape<[n, 1, 2]>>
  // Scatters keep the data's type.
  // CHECK: relax.scatter_elements %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, reduction = "add"} : (tensor<10x4xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<10x4xf32>
  %10 = relax.scatter_elements %w, %i, %su {axis = 1 : i64, reduction = "add"} : (tensor<10x4xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<10x4xf32>
  // CHECK: relax.scatter_nd %{{.*}}, %{{.*}}, %{{.*}} : (tensor<10x4xf32>, tensor<2x3x1xi32>, tensor<2x3x4xf32>) -> tensor<10x4xf32>
  %11 = relax.scatter_nd %w, %ni, %nu : (tensor<10x4xf32>, tensor<2x3x1xi32>, tensor<2x3x4xf32>) -> tensor<10x4xf32>
  return
}

// Reductions max/min/prod; argmax/argmin give i64 indices.
// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<?x10xf32, #relax.shape<[n, 10]>>) {
  // CHECK: relax.max %{{.*}} {axis = array<i64: 1>} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<?xf32, #relax.shape<[n]>>
  %0 = relax.max %x {axis = array<i64: 1>} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<?xf32, #relax.shape<[n]>>
  // CHECK: relax.min %{{.*}} {axis = array<i64: 0>, keepdims = true} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<1x10xf32>
  %1 = relax.min %x {axis = array<i64: 0>, keepdims = true} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<1x10xf32>
  // CHECK: relax.prod %{{.*}} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<f32>
  %2 = relax.prod %x : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<f32>
  // CHECK: relax.argmax %{{.*}} {axis = 1 : i64} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<?xi64, #relax.shape<[n]>>
  %3 = relax.argmax %x {axis = 1 : i64} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<?xi64, #relax.shape<[n]>>
  // CHECK: relax.argmin %{{.*}} {axis = -2 : i64, keepdims = true} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<1x10xi64>
  %4 = relax.argmin %x {axis = -2 : i64, keepdims = true} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<1x10xi64>
  // CHECK: relax.argmax %{{.*}} : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<i64>
  %5 = relax.argmax %x : (tensor<?x10xf32, #relax.shape<[n, 10]>>) -> tensor<i64>
  return
}

// leaky_relu keeps the type; pad keeps symbolic dimensions it does not pad.
// CHECK-LABEL: func.func @nn_more
func.func @nn_more(%x: tensor<?x4xf32, #relax.shape<[n, 4]>>, %z: tensor<f32>) {
  // CHECK: relax.nn.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f64} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  %0 = relax.nn.leaky_relu %x {alpha = 0.2 : f64} : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  // CHECK: relax.nn.pad %{{.*}}, %{{.*}} {pad_width = array<i64: 0, 0, 1, 2>} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<f32>) -> tensor<?x7xf32, #relax.shape<[n, 7]>>
  %1 = relax.nn.pad %x, %z {pad_width = array<i64: 0, 0, 1, 2>} : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<f32>) -> tensor<?x7xf32, #relax.shape<[n, 7]>>
  return
}

// CHECK-LABEL: func.func @conv2d_transpose
func.func @conv2d_transpose(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x2x2xf32>) {
  // CHECK: relax.nn.conv2d_transpose %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x16x16xf32>
  %0 = relax.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>} : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf32>) -> tensor<1x8x16x16xf32>
  return
}

// CHECK-LABEL: func.func @channel_norms
func.func @channel_norms(%x: tensor<?x4x8x8xf32, #relax.shape<[n, 4, 8, 8]>>, %g: tensor<4xf32>) {
  // CHECK: relax.nn.instance_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64} : (tensor<?x4x8x8xf32, #relax.shape<[n, 4, 8, 8]>>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32, #relax.shape<[n, 4, 8, 8]>>
  %0 = relax.nn.instance_norm %x, %g, %g {epsilon = 1.0e-3 : f64} : (tensor<?x4x8x8xf32, #relax.shape<[n, 4, 8, 8]>>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32, #relax.shape<[n, 4, 8, 8]>>
  // CHECK: relax.nn.group_norm %{{.*}}, %{{.*}}, %{{.*}} {num_groups = 2 : i64} : (tensor<?x4x8x8xf32, #relax.shape<[n, 4, 8, 8]>>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32, #relax.shape<[n, 4, 8, 8]>>
  %1 = relax.nn.group_norm %x, %g, %g {num_groups = 2 : i64} : (tensor<?x4x8x8xf32, #relax.shape<[n, 4, 8, 8]>>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32, #relax.shape<[n, 4, 8, 8]>>
  return
}

// CHECK-LABEL: func.func @attention
func.func @attention(%q: tensor<?x16x4x8xf16, #relax.shape<[n, 16, 4, 8]>>, %k: tensor<?x24x4x8xf16, #relax.shape<[n, 24, 4, 8]>>, %v: tensor<?x24x4x32xf16, #relax.shape<[n, 24, 4, 32]>>, %m: tensor<?x1x1x24xf16, #relax.shape<[n, 1, 1, 24]>>) {
  // CHECK: relax.nn.attention %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x16x4x8xf16, #relax.shape<[n, 16, 4, 8]>>, tensor<?x24x4x8xf16, #relax.shape<[n, 24, 4, 8]>>, tensor<?x24x4x32xf16, #relax.shape<[n, 24, 4, 32]>>) -> tensor<?x16x4x32xf16>
  %0 = relax.nn.attention %q, %k, %v : (tensor<?x16x4x8xf16, #relax.shape<[n, 16, 4, 8]>>, tensor<?x24x4x8xf16, #relax.shape<[n, 24, 4, 8]>>, tensor<?x24x4x32xf16, #relax.shape<[n, 24, 4, 32]>>) -> tensor<?x16x4x32xf16>
  // CHECK: relax.nn.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {causal_mask = "BottomRight", scale = 1.250000e-01 : f64} : {{.*}} -> tensor<?x16x4x32xf16, #relax.shape<[n, 16, 4, 32]>>
  %1 = relax.nn.attention %q, %k, %v, %m {scale = 0.125 : f64, causal_mask = "BottomRight"} : (tensor<?x16x4x8xf16, #relax.shape<[n, 16, 4, 8]>>, tensor<?x24x4x8xf16, #relax.shape<[n, 24, 4, 8]>>, tensor<?x24x4x32xf16, #relax.shape<[n, 24, 4, 32]>>, tensor<?x1x1x24xf16, #relax.shape<[n, 1, 1, 24]>>) -> tensor<?x16x4x32xf16, #relax.shape<[n, 16, 4, 32]>>
  return
}
