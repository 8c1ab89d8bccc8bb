// RUN: mlc-opt %s -split-input-file --pass-pipeline='builtin.module(tensorir.prim_func(convert-tensorir-to-linalg))' | FileCheck %s

// Elementwise add with a broadcast operand: one generic, the broadcast as a
// projected map.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BC:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: tensorir.prim_func @add
// CHECK-NOT: tensorir.for
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[BC]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : memref<7x13xf32>, memref<13xf32>) outs(%{{.*}} : memref<7x13xf32>)
// CHECK: arith.addf
// CHECK-NEXT: linalg.yield
tensorir.prim_func @add(%A: memref<7x13xf32>, %B: memref<13xf32>, %T_add: memref<7x13xf32>) {
  tensorir.for %i0 = 0 to 7 {
    tensorir.for %i1 = 0 to 13 {
      tensorir.block "T_add"(%v_i0 = spatial(7, %i0), %v_i1 = spatial(13, %i1)) {
        %0 = memref.load %A[%v_i0, %v_i1] : memref<7x13xf32>
        %1 = memref.load %B[%v_i1] : memref<13xf32>
        %2 = arith.addf %0, %1 : f32
        memref.store %2, %T_add[%v_i0, %v_i1] : memref<7x13xf32>
      }
    }
  }
  tensorir.return
}

// -----

// An iteration variable used as a value becomes linalg.index; a transposed
// store gives a permuted output map.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: tensorir.prim_func @iota_t
// CHECK: linalg.generic {indexing_maps = [#[[T]]], iterator_types = ["parallel", "parallel"]} outs(
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: arith.index_cast %[[I]]
tensorir.prim_func @iota_t(%out: memref<5x3xi32>) {
  tensorir.for %i = 0 to 3 {
    tensorir.for %j = 0 to 5 {
      tensorir.block "T_iota"(%vi = spatial(3, %i), %vj = spatial(5, %j)) {
        %0 = arith.index_cast %vi : index to i32
        memref.store %0, %out[%vj, %vi] : memref<5x3xi32>
      }
    }
  }
  tensorir.return
}

// -----

// Matmul: the init becomes a generic over the output, the update a
// contraction with the accumulator as the output argument.
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[MA:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MB:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: tensorir.prim_func private @matmul
// CHECK: linalg.generic {indexing_maps = [#[[O]]], iterator_types = ["parallel", "parallel"]} outs(%[[C:.*]] : memref<64x32xf32>)
// CHECK: arith.constant 0.0
// CHECK: linalg.generic {indexing_maps = [#[[MA]], #[[MB]], #[[MC]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: outs(%[[C]] : memref<64x32xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[B]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[M]]
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK-NOT: tensorir.block
  tensorir.prim_func private @matmul(%A: memref<64x48xf32>, %B: memref<48x32xf32>, %T_matmul: memref<64x32xf32>) attributes {tensorir.noalias} {
    tensorir.for %i0 = 0 to 64 {
      tensorir.for %i1 = 0 to 32 {
        tensorir.for %k0 = 0 to 48 {
          tensorir.block "T_matmul_NN"(%v_i0 = spatial(64, %i0), %v_i1 = spatial(32, %i1), %v_k0 = reduce(48, %k0)) reads(%A[%v_i0, %v_k0], %B[%v_k0, %v_i1] : memref<64x48xf32>, memref<48x32xf32>) writes(%T_matmul[%v_i0, %v_i1] : memref<64x32xf32>) {
            tensorir.init {
              %cst = arith.constant 0.000000e+00 : f32
              memref.store %cst, %T_matmul[%v_i0, %v_i1] : memref<64x32xf32>
            }
            %0 = memref.load %A[%v_i0, %v_k0] : memref<64x48xf32>
            %1 = memref.load %B[%v_k0, %v_i1] : memref<48x32xf32>
            %2 = arith.mulf %0, %1 : f32
            %3 = memref.load %T_matmul[%v_i0, %v_i1] : memref<64x32xf32>
            %4 = arith.addf %3, %2 : f32
            memref.store %4, %T_matmul[%v_i0, %v_i1] : memref<64x32xf32>
          }
        }
      }
    }
    tensorir.return
    }

// -----

// Conv2d: the pad stage (topi.nn.pad: clamped, non-affine indices and a
// select) becomes fills of the padded buffer's border with the pad value
// (a slab per side of each padded dimension, the corners twice) and a copy
// of the input into its interior; the convolution with `y + ky` accesses is
// raised.
// CHECK-DAG: #[[PAD:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>
// CHECK-LABEL: tensorir.prim_func private @conv2d
// CHECK-NOT: tensorir.block "pad_temp"
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[TOP:.*]] = memref.subview %pad_temp[0, 0, 0, 0] [1, 3, 1, 10] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[TOP]] :
// CHECK: %[[BOTTOM:.*]] = memref.subview %pad_temp[0, 0, 9, 0] [1, 3, 1, 10] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[BOTTOM]] :
// CHECK: %[[LEFT:.*]] = memref.subview %pad_temp[0, 0, 0, 0] [1, 3, 10, 1] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[LEFT]] :
// CHECK: %[[RIGHT:.*]] = memref.subview %pad_temp[0, 0, 0, 9] [1, 3, 10, 1] [1, 1, 1, 1]
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[RIGHT]] :
// CHECK-NOT: linalg.fill
// CHECK: %[[INTERIOR:.*]] = memref.subview %pad_temp[0, 0, 1, 1] [1, 3, 8, 8] [1, 1, 1, 1]
// CHECK: linalg.copy ins(%{{.*}} : memref<1x3x8x8xf32>) outs(%[[INTERIOR]] :
// CHECK-NOT: arith.minsi
// CHECK: linalg.generic
// CHECK: linalg.generic {indexing_maps = [#[[PAD]], #[[W]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%pad_temp, %{{.*}} : memref<1x3x10x10xf32>, memref<4x3x3x3xf32>)
  tensorir.prim_func private @conv2d(%A: memref<1x3x8x8xf32>, %B: memref<4x3x3x3xf32>, %T_conv2d: memref<1x4x8x8xf32>) attributes {tensorir.noalias} {
    %pad_temp = tensorir.alloc_buffer : memref<1x3x10x10xf32>
    tensorir.for %i0 = 0 to 1 {
      tensorir.for %i1 = 0 to 3 {
        tensorir.for %i2 = 0 to 10 {
          tensorir.for %i3 = 0 to 10 {
            tensorir.block "pad_temp"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(3, %i1), %v_i2 = spatial(10, %i2), %v_i3 = spatial(10, %i3)) reads(%A[%v_i0, %v_i1, 0:8, 0:8] : memref<1x3x8x8xf32>) writes(%pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x3x10x10xf32>) {
              %c-1 = arith.constant -1 : index
              %0 = arith.addi %v_i2, %c-1 : index
              %c8 = arith.constant 8 : index
              %c0 = arith.constant 0 : index
              %1 = arith.cmpi sge, %0, %c0 : index
              %2 = arith.cmpi slt, %0, %c8 : index
              %3 = arith.andi %1, %2 : i1
              %c7 = arith.constant 7 : index
              %4 = arith.minsi %0, %c7 : index
              %5 = arith.maxsi %4, %c0 : index
              %6 = arith.addi %v_i3, %c-1 : index
              %7 = arith.cmpi sge, %6, %c0 : index
              %8 = arith.andi %3, %7 : i1
              %9 = arith.cmpi slt, %6, %c8 : index
              %10 = arith.andi %8, %9 : i1
              %11 = arith.minsi %6, %c7 : index
              %12 = arith.maxsi %11, %c0 : index
              %13 = memref.load %A[%v_i0, %v_i1, %5, %12] : memref<1x3x8x8xf32>
              %cst = arith.constant 0.000000e+00 : f32
              %14 = arith.select %10, %13, %cst : f32
              memref.store %14, %pad_temp[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x3x10x10xf32>
            }
          }
        }
      }
    }
    tensorir.for %i0 = 0 to 1 {
      tensorir.for %i1 = 0 to 4 {
        tensorir.for %i2 = 0 to 8 {
          tensorir.for %i3 = 0 to 8 {
            tensorir.for %k0 = 0 to 3 {
              tensorir.for %k1 = 0 to 3 {
                tensorir.for %k2 = 0 to 3 {
                  tensorir.block "conv2d_nchw"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(4, %i1), %v_i2 = spatial(8, %i2), %v_i3 = spatial(8, %i3), %v_k0 = reduce(3, %k0), %v_k1 = reduce(3, %k1), %v_k2 = reduce(3, %k2)) reads(%pad_temp[%v_i0, %v_k0, %v_i2 + %v_k1, %v_i3 + %v_k2], %B[%v_i1, %v_k0, %v_k1, %v_k2] : memref<1x3x10x10xf32>, memref<4x3x3x3xf32>) writes(%T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x4x8x8xf32>) {
                    tensorir.init {
                      %cst = arith.constant 0.000000e+00 : f32
                      memref.store %cst, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x4x8x8xf32>
                    }
                    %0 = arith.addi %v_i2, %v_k1 : index
                    %1 = arith.addi %v_i3, %v_k2 : index
                    %2 = memref.load %pad_temp[%v_i0, %v_k0, %0, %1] : memref<1x3x10x10xf32>
                    %3 = memref.load %B[%v_i1, %v_k0, %v_k1, %v_k2] : memref<4x3x3x3xf32>
                    %4 = arith.mulf %2, %3 : f32
                    %5 = memref.load %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x4x8x8xf32>
                    %6 = arith.addf %5, %4 : f32
                    memref.store %6, %T_conv2d[%v_i0, %v_i1, %v_i2, %v_i3] : memref<1x4x8x8xf32>
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

// -----

// Softmax: every stage (max, exp, sum, normalize) is raised; reductions over
// the last axis keep the row as the output map.
// CHECK-LABEL: tensorir.prim_func private @softmax
// CHECK-NOT: tensorir.block
// CHECK: arith.constant 0xFF800000
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: math.exp
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]}
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: arith.divf
  tensorir.prim_func private @softmax(%A: memref<7x13xf32>, %T_softmax: memref<7x13xf32>) attributes {tensorir.noalias} {
    %T_softmax_maxelem = tensorir.alloc_buffer : memref<7xf32>
    tensorir.for %i0 = 0 to 7 {
      tensorir.for %k0 = 0 to 13 {
        tensorir.block "T_softmax_maxelem"(%v_i0 = spatial(7, %i0), %v_k0 = reduce(13, %k0)) reads(%A[%v_i0, %v_k0] : memref<7x13xf32>) writes(%T_softmax_maxelem[%v_i0] : memref<7xf32>) {
          tensorir.init {
            %cst = arith.constant 0xFF800000 : f32
            memref.store %cst, %T_softmax_maxelem[%v_i0] : memref<7xf32>
          }
          %0 = memref.load %A[%v_i0, %v_k0] : memref<7x13xf32>
          %1 = memref.load %T_softmax_maxelem[%v_i0] : memref<7xf32>
          %2 = arith.maximumf %1, %0 : f32
          memref.store %2, %T_softmax_maxelem[%v_i0] : memref<7xf32>
        }
      }
    }
    %T_softmax_expsum = tensorir.alloc_buffer : memref<7xf32>
    %T_softmax_exp = tensorir.alloc_buffer : memref<7x13xf32>
    tensorir.for %i0 = 0 to 7 {
      tensorir.for %i1 = 0 to 13 {
        tensorir.block "T_softmax_exp"(%v_i0 = spatial(7, %i0), %v_i1 = spatial(13, %i1)) reads(%A[%v_i0, %v_i1], %T_softmax_maxelem[%v_i0] : memref<7x13xf32>, memref<7xf32>) writes(%T_softmax_exp[%v_i0, %v_i1] : memref<7x13xf32>) {
          %0 = memref.load %A[%v_i0, %v_i1] : memref<7x13xf32>
          %1 = memref.load %T_softmax_maxelem[%v_i0] : memref<7xf32>
          %2 = arith.subf %0, %1 : f32
          %3 = math.exp %2 : f32
          memref.store %3, %T_softmax_exp[%v_i0, %v_i1] : memref<7x13xf32>
        }
      }
    }
    tensorir.for %i0 = 0 to 7 {
      tensorir.for %k0 = 0 to 13 {
        tensorir.block "T_softmax_expsum"(%v_i0 = spatial(7, %i0), %v_k0 = reduce(13, %k0)) reads(%T_softmax_exp[%v_i0, %v_k0] : memref<7x13xf32>) writes(%T_softmax_expsum[%v_i0] : memref<7xf32>) {
          tensorir.init {
            %cst = arith.constant 0.000000e+00 : f32
            memref.store %cst, %T_softmax_expsum[%v_i0] : memref<7xf32>
          }
          %0 = memref.load %T_softmax_exp[%v_i0, %v_k0] : memref<7x13xf32>
          %1 = memref.load %T_softmax_expsum[%v_i0] : memref<7xf32>
          %2 = arith.addf %1, %0 : f32
          memref.store %2, %T_softmax_expsum[%v_i0] : memref<7xf32>
        }
      }
    }
    tensorir.for %i0 = 0 to 7 {
      tensorir.for %i1 = 0 to 13 {
        tensorir.block "T_softmax_norm"(%v_i0 = spatial(7, %i0), %v_i1 = spatial(13, %i1)) reads(%T_softmax_expsum[%v_i0], %T_softmax_exp[%v_i0, %v_i1] : memref<7xf32>, memref<7x13xf32>) writes(%T_softmax[%v_i0, %v_i1] : memref<7x13xf32>) {
          %0 = memref.load %T_softmax_expsum[%v_i0] : memref<7xf32>
          %1 = memref.load %T_softmax_exp[%v_i0, %v_i1] : memref<7x13xf32>
          %2 = arith.divf %1, %0 : f32
          memref.store %2, %T_softmax[%v_i0, %v_i1] : memref<7x13xf32>
        }
      }
    }
    tensorir.return
    }

// -----

// Not raised: a predicated block, a non-affine (i * j) index, a loop that is
// not serial, a bound not starting at 0, a load of the output at another
// element, a scalar op with a region-free but non-arith op (a call).
// CHECK-LABEL: tensorir.prim_func @negatives
// CHECK-NOT: linalg.generic
// CHECK-COUNT-6: tensorir.block
// CHECK-NOT: linalg.generic
func.func private @ext(f32) -> f32
tensorir.prim_func @negatives(%A: memref<8x8xf32>, %B: memref<8x8xf32>, %T: memref<8xf32>) {
  %true = arith.constant true
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "where"(%vi = spatial(8, %i), %vj = spatial(8, %j)) where(%true) {
        %0 = memref.load %A[%vi, %vj] : memref<8x8xf32>
        memref.store %0, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "nonaffine"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %p = arith.muli %vi, %vj : index
        %c7 = arith.constant 7 : index
        %q = arith.andi %p, %c7 : index
        %0 = memref.load %A[%vi, %q] : memref<8x8xf32>
        memref.store %0, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 parallel {
    tensorir.for %j = 0 to 8 {
      tensorir.block "parallel"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %0 = memref.load %A[%vi, %vj] : memref<8x8xf32>
        memref.store %0, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 8 step 2 {
      tensorir.block "step"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %0 = memref.load %A[%vi, %vj] : memref<8x8xf32>
        memref.store %0, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.for %j = 0 to 7 {
      tensorir.block "shift"(%vi = spatial(8, %i), %vj = spatial(7, %j)) {
        %c1 = arith.constant 1 : index
        %n = arith.addi %vj, %c1 : index
        %0 = memref.load %B[%vi, %n] : memref<8x8xf32>
        memref.store %0, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  tensorir.for %i = 0 to 8 {
    tensorir.block "call"(%vi = spatial(8, %i)) {
      %0 = memref.load %T[%vi] : memref<8xf32>
      %1 = func.call @ext(%0) : (f32) -> f32
      memref.store %1, %T[%vi] : memref<8xf32>
    }
  }
  tensorir.return
}

// -----

// Reduce iteration variables that index only through sums (a pooling
// window's y * 2 + ky, group norm's channel g * 4 + c) take their ranges
// from a shape-only window operand on the stack, which the body never
// reads, as upstream's linalg pooling ops do.
// CHECK-DAG: #[[IMG:.*]] = affine_map<(d0, d1, d2, d3) -> (d0 * 2 + d2, d1 * 2 + d3)>
// CHECK-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[GIN:.*]] = affine_map<(d0, d1, d2) -> (d0 * 4 + d1, d2)>
// CHECK-DAG: #[[GWIN:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: tensorir.prim_func @windows
// CHECK-DAG: %[[W:.*]] = memref.alloca() : memref<2x2xi8>
// CHECK-DAG: %[[G:.*]] = memref.alloca() : memref<4xi8>
// CHECK: linalg.generic {indexing_maps = [#[[IMG]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%{{.*}}, %[[W]] : memref<8x8xf32>, memref<2x2xi8>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: i8, %[[ACC:.*]]: f32):
// CHECK-NEXT: arith.maximumf %[[ACC]], %[[IN]]
// CHECK: linalg.generic {indexing_maps = [#[[GIN]], #[[GWIN]], #{{.*}}], iterator_types = ["parallel", "reduction", "reduction"]}
// CHECK-SAME: ins(%{{.*}}, %[[G]] : memref<8x8xf32>, memref<4xi8>)
// CHECK-NOT: tensorir.block
tensorir.prim_func @windows(%A: memref<8x8xf32>, %P: memref<4x4xf32>, %S: memref<2xf32>) {
  tensorir.for %y = 0 to 4 {
    tensorir.for %x = 0 to 4 {
      tensorir.for %ky = 0 to 2 {
        tensorir.for %kx = 0 to 2 {
          tensorir.block "pool"(%vy = spatial(4, %y), %vx = spatial(4, %x), %vky = reduce(2, %ky), %vkx = reduce(2, %kx)) {
            tensorir.init {
              %lo = arith.constant 0xFF800000 : f32
              memref.store %lo, %P[%vy, %vx] : memref<4x4xf32>
            }
            %c2 = arith.constant 2 : index
            %y2 = arith.muli %vy, %c2 : index
            %iy = arith.addi %y2, %vky : index
            %x2 = arith.muli %vx, %c2 : index
            %ix = arith.addi %x2, %vkx : index
            %0 = memref.load %A[%iy, %ix] : memref<8x8xf32>
            %1 = memref.load %P[%vy, %vx] : memref<4x4xf32>
            %2 = arith.maximumf %1, %0 : f32
            memref.store %2, %P[%vy, %vx] : memref<4x4xf32>
          }
        }
      }
    }
  }
  tensorir.for %g = 0 to 2 {
    tensorir.for %c = 0 to 4 {
      tensorir.for %k = 0 to 8 {
        tensorir.block "group"(%vg = spatial(2, %g), %vc = reduce(4, %c), %vk = reduce(8, %k)) {
          %c4 = arith.constant 4 : index
          %gc = arith.muli %vg, %c4 : index
          %ch = arith.addi %gc, %vc : index
          %0 = memref.load %A[%ch, %vk] : memref<8x8xf32>
          %1 = memref.load %S[%vg] : memref<2xf32>
          %2 = arith.addf %1, %0 : f32
          memref.store %2, %S[%vg] : memref<2xf32>
        }
      }
    }
  }
  tensorir.return
}

// -----

// Not a pad: the output (8 elements) is shorter than the padding before
// (1) plus the input (8): the padding after is negative (a crop), so the
// input would not fit in the interior; the block stays.
// CHECK-LABEL: tensorir.prim_func @crop
// CHECK: tensorir.block "crop"
// CHECK-NOT: linalg.copy
tensorir.prim_func @crop(%A: memref<8xf32>, %B: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    tensorir.block "crop"(%v = spatial(8, %i)) {
      %c-1 = arith.constant -1 : index
      %0 = arith.addi %v, %c-1 : index
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %1 = arith.cmpi sge, %0, %c0 : index
      %2 = arith.cmpi slt, %0, %c8 : index
      %3 = arith.andi %1, %2 : i1
      %c7 = arith.constant 7 : index
      %4 = arith.minsi %0, %c7 : index
      %5 = arith.maxsi %4, %c0 : index
      %6 = memref.load %A[%5] : memref<8xf32>
      %cst = arith.constant 0.000000e+00 : f32
      %7 = arith.select %3, %6, %cst : f32
      memref.store %7, %B[%v] : memref<8xf32>
    }
  }
  tensorir.return
}

// -----

// Not a pad: the condition checks only the lower bound, so the clamped
// reads past the end are kept (an edge-replicating pad); the block stays.
// CHECK-LABEL: tensorir.prim_func @replicate_end
// CHECK: tensorir.block "edge"
// CHECK-NOT: linalg.copy
tensorir.prim_func @replicate_end(%A: memref<8xf32>, %B: memref<10xf32>) {
  tensorir.for %i = 0 to 10 {
    tensorir.block "edge"(%v = spatial(10, %i)) {
      %c-1 = arith.constant -1 : index
      %0 = arith.addi %v, %c-1 : index
      %c0 = arith.constant 0 : index
      %1 = arith.cmpi sge, %0, %c0 : index
      %c7 = arith.constant 7 : index
      %4 = arith.minsi %0, %c7 : index
      %5 = arith.maxsi %4, %c0 : index
      %6 = memref.load %A[%5] : memref<8xf32>
      %cst = arith.constant 0.000000e+00 : f32
      %7 = arith.select %1, %6, %cst : f32
      memref.store %7, %B[%v] : memref<10xf32>
    }
  }
  tensorir.return
}

// -----

// A pool's pad with -inf: the fills take the pad value (2 columns before,
// 1 after).
// CHECK-LABEL: tensorir.prim_func @pad_neg_inf
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: memref.subview %{{.*}}[0, 0] [2, 2] [1, 1]
// CHECK: linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK: memref.subview %{{.*}}[0, 10] [2, 1] [1, 1]
// CHECK: linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK: memref.subview %{{.*}}[0, 2] [2, 8] [1, 1]
// CHECK: linalg.copy
tensorir.prim_func @pad_neg_inf(%A: memref<2x8xf32>, %B: memref<2x11xf32>) {
  tensorir.for %i = 0 to 2 {
    tensorir.for %j = 0 to 11 {
      tensorir.block "pad"(%vi = spatial(2, %i), %vj = spatial(11, %j)) {
        %c-2 = arith.constant -2 : index
        %0 = arith.addi %vj, %c-2 : index
        %c0 = arith.constant 0 : index
        %c8 = arith.constant 8 : index
        %1 = arith.cmpi sge, %0, %c0 : index
        %2 = arith.cmpi slt, %0, %c8 : index
        %3 = arith.andi %1, %2 : i1
        %c7 = arith.constant 7 : index
        %4 = arith.minsi %0, %c7 : index
        %5 = arith.maxsi %4, %c0 : index
        %6 = memref.load %A[%vi, %5] : memref<2x8xf32>
        %cst = arith.constant 0xFF800000 : f32
        %7 = arith.select %3, %6, %cst : f32
        memref.store %7, %B[%vi, %vj] : memref<2x11xf32>
      }
    }
  }
  tensorir.return
}

// -----

// Not a pad: a shift of INT64_MIN (no padding before can be its negation);
// the block stays.
// CHECK-LABEL: tensorir.prim_func @shift_min
// CHECK: tensorir.block "shift"
// CHECK-NOT: linalg.copy
tensorir.prim_func @shift_min(%A: memref<8xf32>, %B: memref<10xf32>) {
  tensorir.for %i = 0 to 10 {
    tensorir.block "shift"(%v = spatial(10, %i)) {
      %cmin = arith.constant -9223372036854775808 : index
      %0 = arith.addi %v, %cmin : index
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %1 = arith.cmpi sge, %0, %c0 : index
      %2 = arith.cmpi slt, %0, %c8 : index
      %3 = arith.andi %1, %2 : i1
      %c7 = arith.constant 7 : index
      %4 = arith.minsi %0, %c7 : index
      %5 = arith.maxsi %4, %c0 : index
      %6 = memref.load %A[%5] : memref<8xf32>
      %cst = arith.constant 0.000000e+00 : f32
      %7 = arith.select %3, %6, %cst : f32
      memref.store %7, %B[%v] : memref<10xf32>
    }
  }
  tensorir.return
}

// -----

// Negative: a block without a body (no store) stays as it is. The pad
// match read the op before the terminator without checking there was one
// (a crash the mlc-opt fuzzer found with this extent).
// CHECK-LABEL: tensorir.prim_func @empty
// CHECK:         tensorir.for %{{.*}} = 0 to 1099511627776
// CHECK:           tensorir.block "Y"
// CHECK-NOT:     linalg
tensorir.prim_func @empty() {
  tensorir.for %i = 0 to 1099511627776 {
    tensorir.block "Y"(%vi = spatial(1099511627776, %i)) {
    }
  }
}
