// reindex: a block's buffer accessed through one indexed by exactly the
// iteration variables its access uses; and reverse_compute_inline into a
// producer whose store decomposes its iteration variables (a reindexed
// output's copy back).
// RUN: mlc-opt %s --transform-interpreter --split-input-file | FileCheck %s

// dlight's normalize_to_matmul on a convolution: after
// transform_block_layout, reindex of the output and of both inputs gives a
// GEMM over T_reindex[i, j], P_reindex[i, k] and W_reindex[j, k], with the
// im2col copy of P before it and the copy back into T after it.
// CHECK-LABEL: tensorir.prim_func @conv(
// CHECK:         %[[TR:T_reindex]] = tensorir.alloc_buffer : memref<16x8xf32>
// CHECK:         %[[PR:P_reindex]] = tensorir.alloc_buffer : memref<16x36xf16>
// CHECK:         tensorir.block "P_reindex"(%v0 = spatial(16, %ax0), %v1 = spatial(36, %ax1)) reads(%P[%v0 floordiv 16, %v1 floordiv 9, (%v0 floordiv 4) mod 4 + (%v1 floordiv 3) mod 3, %v0 mod 4 + %v1 mod 3] : memref<1x4x6x6xf16>) writes(%[[PR]][%v0, %v1] : memref<16x36xf16>) {
// CHECK:           %[[V:.*]] = memref.load %P[
// CHECK-NEXT:      memref.store %[[V]], %[[PR]][%v0, %v1]
// CHECK:         %[[WR:W_reindex]] = tensorir.alloc_buffer : memref<8x36xf16>
// CHECK:         tensorir.block "W_reindex"(%v0 = spatial(8, %ax0), %v1 = spatial(36, %ax1)) reads(%W[%v0, %v1 floordiv 9, (%v1 floordiv 3) mod 3, %v1 mod 3] : memref<8x4x3x3xf16>) writes(%[[WR]][%v0, %v1] : memref<8x36xf16>)
// CHECK:         tensorir.block "conv"(%vn_vy_vx = spatial(16, %n_y_x), %vf = spatial(8, %f), %vc_vry_vrx = reduce(36, %rc_ry_rx)) reads(%[[PR]][%vn_vy_vx, %vc_vry_vrx], %[[WR]][%vf, %vc_vry_vrx] : memref<16x36xf16>, memref<8x36xf16>) writes(%[[TR]][%vn_vy_vx, %vf] : memref<16x8xf32>) {
// CHECK-NEXT:      tensorir.init {
// CHECK-NEXT:        %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        memref.store %[[Z]], %[[TR]][%vn_vy_vx, %vf]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[A:.*]] = memref.load %[[PR]][%vn_vy_vx, %vc_vry_vrx]
// CHECK-NEXT:      %[[B:.*]] = memref.load %[[WR]][%vf, %vc_vry_vrx]
// CHECK:           memref.load %[[TR]][%vn_vy_vx, %vf]
// CHECK:           memref.store %{{.*}}, %[[TR]][%vn_vy_vx, %vf]
// CHECK:         tensorir.block "T_reindex"(%v0 = spatial(16, %ax0), %v1 = spatial(8, %ax1)) reads(%[[TR]][%v0, %v1] : memref<16x8xf32>) writes(%T[%v0 floordiv 16, %v1, (%v0 floordiv 4) mod 4, %v0 mod 4] : memref<1x8x4x4xf32>) {
// CHECK:           %[[C:.*]] = memref.load %[[TR]][%v0, %v1]
// CHECK-NEXT:      memref.store %[[C]], %T[
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
    %gemm = transform.tensorir.get_block "conv" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tensorir.reindex %gemm "write" 0 : (!transform.any_op) -> !transform.any_op
    %p = transform.tensorir.reindex %gemm "read" 0 : (!transform.any_op) -> !transform.any_op
    %w = transform.tensorir.reindex %gemm "read" 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The copy back of a reindexed output stores T at a decomposition of its
// iteration variable v0 (n, y, x of the GEMM row): an elementwise consumer
// of T is inlined into it, storing at the same decomposed index.
// CHECK-LABEL: tensorir.prim_func @copy_back(
// CHECK:         tensorir.block "T_reindex"(%v0 = spatial(16, %ax0), %v1 = spatial(8, %ax1))
// CHECK-NEXT:      %[[C:.*]] = memref.load %T_reindex[%v0, %v1]
// CHECK-NEXT:      %[[N:.*]] = affine.apply #{{.*}}(%v0)
// CHECK-NEXT:      %[[Y:.*]] = affine.apply #{{.*}}(%v0)
// CHECK-NEXT:      %[[X:.*]] = affine.apply #{{.*}}(%v0)
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[R:.*]] = arith.maximumf %[[C]], %[[Z]] : f32
// CHECK-NEXT:      memref.store %[[R]], %Out[%[[N]], %v1, %[[Y]], %[[X]]]
// CHECK-NOT:     tensorir.block "relu"
tensorir.prim_func @copy_back(%T_reindex: memref<16x8xf32>, %Out: memref<1x8x4x4xf32>) {
  %T = tensorir.alloc_buffer : memref<1x8x4x4xf32>
  tensorir.for %ax0 = 0 to 16 {
    tensorir.for %ax1 = 0 to 8 {
      tensorir.block "T_reindex"(%v0 = spatial(16, %ax0), %v1 = spatial(8, %ax1)) {
        %c = memref.load %T_reindex[%v0, %v1] : memref<16x8xf32>
        %n = affine.apply affine_map<(d0) -> (d0 floordiv 16)>(%v0)
        %y = affine.apply affine_map<(d0) -> ((d0 floordiv 4) mod 4)>(%v0)
        %x = affine.apply affine_map<(d0) -> (d0 mod 4)>(%v0)
        memref.store %c, %T[%n, %v1, %y, %x] : memref<1x8x4x4xf32>
      }
    }
  }
  tensorir.for %n = 0 to 1 {
    tensorir.for %f = 0 to 8 {
      tensorir.for %y = 0 to 4 {
        tensorir.for %x = 0 to 4 {
          tensorir.block "relu"(%vn = spatial(1, %n), %vf = spatial(8, %f), %vy = spatial(4, %y), %vx = spatial(4, %x)) {
            %t = memref.load %T[%vn, %vf, %vy, %vx] : memref<1x8x4x4xf32>
            %z = arith.constant 0.0 : f32
            %r = arith.maximumf %t, %z : f32
            memref.store %r, %Out[%vn, %vf, %vy, %vx] : memref<1x8x4x4xf32>
          }
        }
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "relu" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_inline %b : !transform.any_op
    transform.yield
  }
}
