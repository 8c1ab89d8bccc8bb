// transform_block_layout: a convolution's iteration variables fused into
// those of a GEMM.
// RUN: mlc-opt %s --transform-interpreter --split-input-file | FileCheck %s

// sch.transform_block_layout(conv, (n, f, y, x, c, ry, rx) ->
// (n * 16 + y * 4 + x, f, c * 9 + ry * 3 + rx)): one loop per GEMM variable,
// named after the loops it fuses; the body recovers the old variables (the
// init its own copies, as it must stay first).
// CHECK-DAG:   #[[N:.*]] = affine_map<(d0) -> (d0 floordiv 16)>
// CHECK-DAG:   #[[Y:.*]] = affine_map<(d0) -> ((d0 floordiv 4) mod 4)>
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0) -> (d0 mod 4)>
// CHECK-DAG:   #[[C:.*]] = affine_map<(d0) -> (d0 floordiv 9)>
// CHECK-DAG:   #[[RY:.*]] = affine_map<(d0) -> ((d0 floordiv 3) mod 3)>
// CHECK-DAG:   #[[RX:.*]] = affine_map<(d0) -> (d0 mod 3)>
// CHECK-LABEL: tensorir.prim_func @conv(
// CHECK:         tensorir.for %n_y_x = 0 to 16 {
// CHECK-NEXT:      tensorir.for %f = 0 to 8 {
// CHECK-NEXT:        tensorir.for %rc_ry_rx = 0 to 36 {
// CHECK-NEXT:          tensorir.block "conv"(%vn_vy_vx = spatial(16, %n_y_x), %vf = spatial(8, %f), %vc_vry_vrx = reduce(36, %rc_ry_rx))
// CHECK-SAME:              reads(%P[%vn_vy_vx floordiv 16, %vc_vry_vrx floordiv 9, (%vn_vy_vx floordiv 4) mod 4 + (%vc_vry_vrx floordiv 3) mod 3, %vn_vy_vx mod 4 + %vc_vry_vrx mod 3], %W[%vf, %vc_vry_vrx floordiv 9, (%vc_vry_vrx floordiv 3) mod 3, %vc_vry_vrx mod 3] : memref<1x4x6x6xf16>, memref<8x4x3x3xf16>)
// CHECK-SAME:              writes(%T[%vn_vy_vx floordiv 16, %vf, (%vn_vy_vx floordiv 4) mod 4, %vn_vy_vx mod 4] : memref<1x8x4x4xf32>)
// CHECK-NEXT:            tensorir.init {
// CHECK-NEXT:              %[[IN:.*]] = affine.apply #[[N]](%vn_vy_vx)
// CHECK-NEXT:              %[[IY:.*]] = affine.apply #[[Y]](%vn_vy_vx)
// CHECK-NEXT:              %[[IX:.*]] = affine.apply #[[X]](%vn_vy_vx)
// CHECK-NEXT:              %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:              memref.store %[[Z]], %T[%[[IN]], %vf, %[[IY]], %[[IX]]]
// CHECK-NEXT:            }
// CHECK-NEXT:            %[[BN:.*]] = affine.apply #[[N]](%vn_vy_vx)
// CHECK-NEXT:            %[[BY:.*]] = affine.apply #[[Y]](%vn_vy_vx)
// CHECK-NEXT:            %[[BX:.*]] = affine.apply #[[X]](%vn_vy_vx)
// CHECK-NEXT:            %[[BC:.*]] = affine.apply #[[C]](%vc_vry_vrx)
// CHECK-NEXT:            %[[BRY:.*]] = affine.apply #[[RY]](%vc_vry_vrx)
// CHECK-NEXT:            %[[BRX:.*]] = affine.apply #[[RX]](%vc_vry_vrx)
// CHECK-NEXT:            %[[PY:.*]] = arith.addi %[[BY]], %[[BRY]] : index
// CHECK-NEXT:            %[[PX:.*]] = arith.addi %[[BX]], %[[BRX]] : index
// CHECK-NEXT:            memref.load %P[%[[BN]], %[[BC]], %[[PY]], %[[PX]]]
// CHECK-NEXT:            memref.load %W[%vf, %[[BC]], %[[BRY]], %[[BRX]]]
tensorir.prim_func @conv(%P: memref<1x4x6x6xf16>, %W: memref<8x4x3x3xf16>, %T: memref<1x8x4x4xf32>) {
  tensorir.for %n = 0 to 1 {
    tensorir.for %f = 0 to 8 {
      tensorir.for %y = 0 to 4 {
        tensorir.for %x = 0 to 4 {
          tensorir.for %rc = 0 to 4 {
            tensorir.for %ry = 0 to 3 {
              tensorir.for %rx = 0 to 3 {
                tensorir.block "conv"(%vn = spatial(1, %n), %vf = spatial(8, %f), %vy = spatial(4, %y), %vx = spatial(4, %x), %vc = reduce(4, %rc), %vry = reduce(3, %ry), %vrx = reduce(3, %rx)) reads(%P[%vn, %vc, %vy + %vry, %vx + %vrx], %W[%vf, %vc, %vry, %vrx] : memref<1x4x6x6xf16>, memref<8x4x3x3xf16>) writes(%T[%vn, %vf, %vy, %vx] : memref<1x8x4x4xf32>) {
                  tensorir.init {
                    %z = arith.constant 0.0 : f32
                    memref.store %z, %T[%vn, %vf, %vy, %vx] : memref<1x8x4x4xf32>
                  }
                  %iy = arith.addi %vy, %vry : index
                  %ix = arith.addi %vx, %vrx : index
                  %a = memref.load %P[%vn, %vc, %iy, %ix] : memref<1x4x6x6xf16>
                  %b = memref.load %W[%vf, %vc, %vry, %vrx] : memref<8x4x3x3xf16>
                  %af = arith.extf %a : f16 to f32
                  %bf = arith.extf %b : f16 to f32
                  %m = arith.mulf %af, %bf : f32
                  %c = memref.load %T[%vn, %vf, %vy, %vx] : memref<1x8x4x4xf32>
                  %s = arith.addf %c, %m : f32
                  memref.store %s, %T[%vn, %vf, %vy, %vx] : memref<1x8x4x4xf32>
                }
              }
            }
          }
        }
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "conv" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.transform_block_layout %b affine_map<(n, f, y, x, c, ry, rx) -> (n * 16 + y * 4 + x, f, c * 9 + ry * 3 + rx)> : !transform.any_op
    transform.yield
  }
}

// -----

// A permutation is a layout too: (i, j) -> (j, i) swaps the loops.
// CHECK-LABEL: tensorir.prim_func @transpose(
// CHECK:         tensorir.for %j = 0 to 6 {
// CHECK-NEXT:      tensorir.for %i = 0 to 4 {
// CHECK-NEXT:        tensorir.block "B"(%vj = spatial(6, %j), %vi = spatial(4, %i)) {
// CHECK-NEXT:          %[[A:.*]] = memref.load %A[%vi, %vj]
// CHECK-NEXT:          memref.store %[[A]], %B[%vj, %vi]
tensorir.prim_func @transpose(%A: memref<4x6xf32>, %B: memref<6x4xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 6 {
      tensorir.block "B"(%vi = spatial(4, %i), %vj = spatial(6, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x6xf32>
        memref.store %a, %B[%vj, %vi] : memref<6x4xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.transform_block_layout %b affine_map<(i, j) -> (j, i)> : !transform.any_op
    transform.yield
  }
}
