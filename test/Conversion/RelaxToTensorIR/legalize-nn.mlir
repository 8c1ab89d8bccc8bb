// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --verify-diagnostics | FileCheck %s
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --verify-diagnostics --mlc-cpu-pipeline --verify-each -o /dev/null

// numpy matmul: batch dimensions broadcast (the size-1 dimension of %a reads
// index 0), one reduction block `T_matmul_NN` with a zero init. A 1-D lhs
// drops its row dimension; out_dtype casts the operands before multiplying.
// CHECK-LABEL: tensorir.prim_func private @matmul(
// CHECK-SAME:      %A: memref<2x1x3x4xf32>, %B: memref<5x4x6xf32>, %T_matmul: memref<2x5x3x6xf32>)
// CHECK:         tensorir.for %k0 = 0 to 4 {
// CHECK-NEXT:      tensorir.block "T_matmul_NN"(%v_i0 = spatial(2, %i0), %v_i1 = spatial(5, %i1), %v_i2 = spatial(3, %i2), %v_i3 = spatial(6, %i3), %v_k0 = reduce(4, %k0))
// CHECK-SAME:        reads(%A[%v_i0, 0, %v_i2, %v_k0], %B[%v_i1, %v_k0, %v_i3] : memref<2x1x3x4xf32>, memref<5x4x6xf32>)
// CHECK-NEXT:        tensorir.init {
// CHECK-NEXT:          %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:          memref.store %[[ZERO]], %T_matmul[%v_i0, %v_i1, %v_i2, %v_i3]
// CHECK-NEXT:        }
// CHECK:             %[[X:.*]] = memref.load %A[%v_i0, %{{.*}}, %v_i2, %v_k0]
// CHECK-NEXT:        %[[Y:.*]] = memref.load %B[%v_i1, %v_k0, %v_i3]
// CHECK-NEXT:        %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:        %[[ACC:.*]] = memref.load %T_matmul[%v_i0, %v_i1, %v_i2, %v_i3]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT:        memref.store %[[S]], %T_matmul[%v_i0, %v_i1, %v_i2, %v_i3]
// CHECK-LABEL: tensorir.prim_func private @matmul_0(
// CHECK-SAME:      %A: memref<4xi8>, %B: memref<4x6xi8>, %T_matmul: memref<6xi32>)
// CHECK:           tensorir.block "T_matmul_NN"(%v_i0 = spatial(6, %i0), %v_k0 = reduce(4, %k0))
// CHECK:             arith.constant 0 : i32
// CHECK:             %[[X:.*]] = memref.load %A[%v_k0]
// CHECK-NEXT:        %[[XC:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK-NEXT:        %[[Y:.*]] = memref.load %B[%v_k0, %v_i0]
// CHECK-NEXT:        %[[YC:.*]] = arith.extsi %[[Y]] : i8 to i32
// CHECK-NEXT:        arith.muli %[[XC]], %[[YC]] : i32
// CHECK-LABEL: func.func @main(
// CHECK:         relax.call_tir @matmul(%arg0, %arg1)
// CHECK:         relax.call_tir @matmul_0(%arg2, %arg3)
func.func @main(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>, %v: tensor<4xi8>, %m: tensor<4x6xi8>) -> (tensor<2x5x3x6xf32>, tensor<6xi32>) {
  %0 = relax.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
  %1 = relax.matmul %v, %m {out_dtype = i32} : (tensor<4xi8>, tensor<4x6xi8>) -> tensor<6xi32>
  return %0, %1 : tensor<2x5x3x6xf32>, tensor<6xi32>
}

// -----

// A unit batch dimension that does not broadcast (the result's is 1 too)
// reads the loop index, not 0: the access stays a projected permutation and
// the kernel a linalg contraction that the CPU schedule tiles and packs
// (a transformer's (1, m, k) x (k, n) dense).
// CHECK-LABEL: tensorir.prim_func private @matmul(
// CHECK-SAME:      %A: memref<1x3x4xf32>, %B: memref<4x6xf32>, %T_matmul: memref<1x3x6xf32>)
// CHECK:           tensorir.block "T_matmul_NN"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(3, %i1), %v_i2 = spatial(6, %i2), %v_k0 = reduce(4, %k0))
// CHECK-SAME:        reads(%A[%v_i0, %v_i1, %v_k0], %B[%v_k0, %v_i2] : memref<1x3x4xf32>, memref<4x6xf32>)
// CHECK:             memref.load %A[%v_i0, %v_i1, %v_k0]
func.func @unit_batch(%x: tensor<1x3x4xf32>, %w: tensor<4x6xf32>) -> tensor<1x3x6xf32> {
  %0 = relax.matmul %x, %w : (tensor<1x3x4xf32>, tensor<4x6xf32>) -> tensor<1x3x6xf32>
  return %0 : tensor<1x3x6xf32>
}

// -----

// Symbolic batch: the extent comes from the output buffer.
// CHECK-LABEL: tensorir.prim_func private @matmul(
// CHECK-SAME:      %A: memref<?x16xf32>, %B: memref<16x4xf32>, %T_matmul: memref<?x4xf32>)
// CHECK:         %[[N:.*]] = memref.dim %T_matmul, %{{.*}} : memref<?x4xf32>
// CHECK:         tensorir.block "T_matmul_NN"(%v_i0 = spatial(%[[N]], %i0), %v_i1 = spatial(4, %i1), %v_k0 = reduce(16, %k0))
// CHECK-LABEL: func.func @symbolic_matmul(
// CHECK:         relax.call_tir @matmul(%arg0, %arg1) {{ *}}: (tensor<?x16xf32, #relax.shape<[n, 16]>>, tensor<16x4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
func.func @symbolic_matmul(%x: tensor<?x16xf32, #relax.shape<[n, 16]>>, %w: tensor<16x4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>> {
  %0 = relax.matmul %x, %w : (tensor<?x16xf32, #relax.shape<[n, 16]>>, tensor<16x4xf32>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
  return %0 : tensor<?x4xf32, #relax.shape<[n, 4]>>
}

// -----

// conv2d (TOPI conv2d_nchw): a `pad_temp` stage selects zeros outside the
// input (clamped loads), then the reduction over (rc, ry, rx) reads
// pad_temp[n, rc, y * stride + ry * dilation, ...].
// CHECK-LABEL: tensorir.prim_func private @conv2d(
// CHECK-SAME:      %A: memref<1x3x9x11xf32>, %B: memref<4x3x3x3xf32>, %T_conv2d: memref<1x4x5x6xf32>)
// CHECK-NEXT:    %[[PAD:.*]] = tensorir.alloc_buffer : memref<1x3x11x13xf32>
// CHECK:         tensorir.block "pad_temp"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(3, %i1), %v_i2 = spatial(11, %i2), %v_i3 = spatial(13, %i3))
// CHECK:           arith.cmpi sge
// CHECK:           arith.cmpi slt
// CHECK:           arith.andi
// CHECK:           %[[V:.*]] = memref.load %A[%v_i0, %v_i1, %{{.*}}, %{{.*}}] : memref<1x3x9x11xf32>
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %{{.*}}, %[[V]], %[[Z]] : f32
// CHECK-NEXT:      memref.store %[[SEL]], %[[PAD]][%v_i0, %v_i1, %v_i2, %v_i3]
// CHECK:         tensorir.block "conv2d_nchw"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(4, %i1), %v_i2 = spatial(5, %i2), %v_i3 = spatial(6, %i3), %v_k0 = reduce(3, %k0), %v_k1 = reduce(3, %k1), %v_k2 = reduce(3, %k2))
// CHECK-SAME:      reads(%[[PAD]][%v_i0, %v_k0, %v_i2 * 2 + %v_k1, %v_i3 * 2 + %v_k2], %B[%v_i1, %v_k0, %v_k1, %v_k2]
// CHECK:           tensorir.init
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @conv(%x: tensor<1x3x9x11xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32> {
  %0 = relax.nn.conv2d %x, %w {padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<1x3x9x11xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32>
  return %0 : tensor<1x4x5x6xf32>
}

// -----

// NHWC data with an HWIO kernel, no padding (no pad_temp), groups: the
// group of output channel f is f / (O / groups); loads follow the layouts.
// CHECK-LABEL: tensorir.prim_func private @conv2d(
// CHECK-SAME:      %A: memref<1x6x7x4xf32>, %B: memref<2x2x2x6xf32>, %T_conv2d: memref<1x5x6x6xf32>)
// CHECK-NOT:     alloc_buffer
// CHECK:         tensorir.block "group_conv2d_nhwc"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(5, %i1), %v_i2 = spatial(6, %i2), %v_i3 = spatial(6, %i3), %v_k0 = reduce(2, %k0), %v_k1 = reduce(2, %k1), %v_k2 = reduce(2, %k2))
// CHECK:           %[[G:.*]] = arith.divsi %v_i3, %{{.*}} : index
// CHECK:           %[[GC:.*]] = arith.muli %[[G]], %{{.*}} : index
// CHECK-NEXT:      %[[IC:.*]] = arith.addi %[[GC]], %v_k0 : index
// CHECK-NEXT:      %[[Y:.*]] = arith.addi %v_i1, %v_k1 : index
// CHECK-NEXT:      %[[X:.*]] = arith.addi %v_i2, %v_k2 : index
// CHECK-NEXT:      memref.load %A[%v_i0, %[[Y]], %[[X]], %[[IC]]] : memref<1x6x7x4xf32>
// CHECK-NEXT:      memref.load %B[%v_k1, %v_k2, %v_k0, %v_i3] : memref<2x2x2x6xf32>
// CHECK-LABEL: tensorir.prim_func private @conv2d_0(
// CHECK:         tensorir.block "depthwise_conv2d_nchw"
func.func @conv2d_layouts(%x: tensor<1x6x7x4xf32>, %w: tensor<2x2x2x6xf32>, %d: tensor<1x4x5x5xf32>, %k: tensor<4x1x3x3xf32>) -> (tensor<1x5x6x6xf32>, tensor<1x4x5x5xf32>) {
  %0 = relax.nn.conv2d %x, %w {groups = 2 : i64, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x7x4xf32>, tensor<2x2x2x6xf32>) -> tensor<1x5x6x6xf32>
  %1 = relax.nn.conv2d %d, %k {groups = 4 : i64, padding = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  return %0, %1 : tensor<1x5x6x6xf32>, tensor<1x4x5x5xf32>
}

// -----

// A symbolic batch: pad_temp is allocated with the input's batch size.
// CHECK-LABEL: tensorir.prim_func private @conv2d(
// CHECK-SAME:      %A: memref<?x3x8x8xf32>
// CHECK:         %[[N:.*]] = memref.dim %A, %{{.*}} : memref<?x3x8x8xf32>
// CHECK-NEXT:    %[[PAD:.*]] = tensorir.alloc_buffer(%[[N]]) : memref<?x3x10x10xf32>
// CHECK:         tensorir.block "conv2d_nchw"
func.func @symbolic_conv2d(%d: tensor<?x3x8x8xf32, #relax.shape<[n, 3, 8, 8]>>, %k: tensor<4x3x3x3xf32>) -> tensor<?x4x4x4xf32, #relax.shape<[n, 4, 4, 4]>> {
  %0 = relax.nn.conv2d %d, %k {padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<?x3x8x8xf32, #relax.shape<[n, 3, 8, 8]>>, tensor<4x3x3x3xf32>) -> tensor<?x4x4x4xf32, #relax.shape<[n, 4, 4, 4]>>
  return %0 : tensor<?x4x4x4xf32, #relax.shape<[n, 4, 4, 4]>>
}

// -----

// conv2d_transpose (TOPI conv2d_transpose_nchw): dilate the input by the
// stride, pad it by (K - 1) - padding (+ output_padding after), flip the
// IOHW kernel into OIHW, then a stride-1 convolution.
// CHECK-LABEL: tensorir.prim_func private @conv2d_transpose(
// CHECK-SAME:      %A: memref<1x3x5x6xf32>, %B: memref<3x4x3x3xf32>, %T_conv2d_transpose: memref<1x4x10x12xf32>)
// CHECK:         %[[DIL:.*]] = tensorir.alloc_buffer : memref<1x3x9x11xf32>
// CHECK:         tensorir.block "data_dilate"
// CHECK:           arith.remsi
// CHECK:           arith.divsi
// CHECK:           arith.select
// CHECK:         %[[PAD:.*]] = tensorir.alloc_buffer : memref<1x3x12x14xf32>
// CHECK:         tensorir.block "data_pad"
// CHECK:           memref.load %[[DIL]]
// CHECK:         %[[KT:.*]] = tensorir.alloc_buffer : memref<4x3x3x3xf32>
// CHECK:         tensorir.block "kernel_transform"(%v_i0 = spatial(4, %i0), %v_i1 = spatial(3, %i1), %v_i2 = spatial(3, %i2), %v_i3 = spatial(3, %i3))
// CHECK:           %[[H:.*]] = arith.subi %{{.*}}, %v_i2 : index
// CHECK:           %[[W:.*]] = arith.subi %{{.*}}, %v_i3 : index
// CHECK-NEXT:      memref.load %B[%v_i1, %v_i0, %[[H]], %[[W]]]
// CHECK:         tensorir.block "conv2d_transpose_nchw"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(4, %i1), %v_i2 = spatial(10, %i2), %v_i3 = spatial(12, %i3), %v_k0 = reduce(3, %k0), %v_k1 = reduce(3, %k1), %v_k2 = reduce(3, %k2))
// CHECK-SAME:      reads(%[[PAD]][%v_i0, %v_k0, %v_i2 + %v_k1, %v_i3 + %v_k2], %[[KT]][%v_i1, %v_k0, %v_k1, %v_k2]
func.func @conv_transpose(%x: tensor<1x3x5x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x4x10x12xf32> {
  %0 = relax.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x3x5x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x10x12xf32>
  return %0 : tensor<1x4x10x12xf32>
}

// -----

// max_pool2d: pad_temp pads with -inf (ceil_mode adds stride - 1 after), then
// `pool_max` reduces with maximumf from -inf.
// CHECK-LABEL: tensorir.prim_func private @max_pool2d(
// CHECK-SAME:      %A: memref<1x2x7x8xf32>, %T_max_pool2d: memref<1x2x4x5xf32>)
// CHECK:         %[[PAD:.*]] = tensorir.alloc_buffer : memref<1x2x10x11xf32>
// CHECK:         tensorir.block "pad_temp"
// CHECK:           %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT:      arith.select %{{.*}}, %{{.*}}, %[[NEGINF]] : f32
// CHECK:         tensorir.block "pool_max"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(2, %i1), %v_i2 = spatial(4, %i2), %v_i3 = spatial(5, %i3), %v_k0 = reduce(3, %k0), %v_k1 = reduce(3, %k1))
// CHECK-SAME:      reads(%[[PAD]][%v_i0, %v_i1, %v_i2 * 2 + %v_k0, %v_i3 * 2 + %v_k1]
// CHECK-NEXT:      tensorir.init {
// CHECK-NEXT:        arith.constant 0xFF800000 : f32
// CHECK:           arith.maximumf
func.func @maxpool(%x: tensor<1x2x7x8xf32>) -> tensor<1x2x4x5xf32> {
  %0 = relax.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1>, ceil_mode = true} : (tensor<1x2x7x8xf32>) -> tensor<1x2x4x5xf32>
  return %0 : tensor<1x2x4x5xf32>
}

// -----

// avg_pool2d (NHWC, no padding): `pool_sum` into an intermediate buffer,
// then `pool_avg` divides by the window's element count, computed from the
// output indices.
// CHECK-LABEL: tensorir.prim_func private @avg_pool2d(
// CHECK-SAME:      %A: memref<1x6x6x3xf32>, %T_avg_pool2d: memref<1x3x3x3xf32>)
// CHECK-NOT:     pad_temp
// CHECK:         %[[SUM:.*]] = tensorir.alloc_buffer : memref<1x3x3x3xf32>
// CHECK:         tensorir.block "pool_sum"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(3, %i1), %v_i2 = spatial(3, %i2), %v_i3 = spatial(3, %i3), %v_k0 = reduce(2, %k0), %v_k1 = reduce(2, %k1))
// CHECK-SAME:      reads(%A[%v_i0, %v_i1 * 2 + %v_k0, %v_i2 * 2 + %v_k1, %v_i3]
// CHECK:         tensorir.block "pool_avg"
// CHECK:           %[[S:.*]] = memref.load %[[SUM]]
// CHECK:           %[[C:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK-NEXT:      arith.divf %[[S]], %[[C]] : f32
func.func @avgpool(%x: tensor<1x6x6x3xf32>) -> tensor<1x3x3x3xf32> {
  %0 = relax.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, layout = "NHWC"} : (tensor<1x6x6x3xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

// adaptive_avg_pool2d 7x9 -> 5x4: the row bins have sizes 2, 2, 3, 2, 2, so
// the sum runs over the largest bin (3x3) and masks rows past a bin's end
// (clamping the load); a 1x1 output (global pooling) has one bin and no
// mask.
// CHECK-LABEL: tensorir.prim_func private @adaptive_avg_pool2d(
// CHECK-SAME:      %A: memref<1x2x7x9xf32>, %T_adaptive_avg_pool2d: memref<1x2x5x4xf32>)
// CHECK:         %[[SUM:.*]] = tensorir.alloc_buffer : memref<1x2x5x4xf32>
// CHECK:         tensorir.block "adaptive_pool_sum"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(2, %i1), %v_i2 = spatial(5, %i2), %v_i3 = spatial(4, %i3), %v_k0 = reduce(3, %k0), %v_k1 = reduce(3, %k1))
// CHECK:           %[[START:.*]] = arith.divsi
// CHECK:           %[[END:.*]] = arith.divsi
// CHECK-NEXT:      %[[ROW:.*]] = arith.addi %[[START]], %v_k0 : index
// CHECK-NEXT:      %[[IN:.*]] = arith.cmpi slt, %[[ROW]], %[[END]] : index
// CHECK:           %[[CLAMPED:.*]] = arith.minsi %[[ROW]], %{{.*}} : index
// CHECK:           %[[V:.*]] = memref.load %A[%v_i0, %v_i1, %[[CLAMPED]], %{{.*}}]
// CHECK:           arith.select %[[IN]], %[[V]], %{{.*}} : f32
// CHECK:         tensorir.block "adaptive_pool_avg"
// CHECK:           arith.divf
// CHECK-LABEL: tensorir.prim_func private @adaptive_avg_pool2d_0(
// CHECK:         tensorir.block "adaptive_pool_sum"(%v_i0 = spatial(1, %i0), %v_i1 = spatial(2, %i1), %v_i2 = spatial(1, %i2), %v_i3 = spatial(1, %i3), %v_k0 = reduce(7, %k0), %v_k1 = reduce(9, %k1))
// CHECK-NOT:       arith.select
// CHECK:         tensorir.block "adaptive_pool_avg"
func.func @adaptive(%x: tensor<1x2x7x9xf32>) -> (tensor<1x2x5x4xf32>, tensor<1x2x1x1xf32>) {
  %0 = relax.nn.adaptive_avg_pool2d %x {output_size = array<i64: 5, 4>} : (tensor<1x2x7x9xf32>) -> tensor<1x2x5x4xf32>
  %1 = relax.nn.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>} : (tensor<1x2x7x9xf32>) -> tensor<1x2x1x1xf32>
  return %0, %1 : tensor<1x2x5x4xf32>, tensor<1x2x1x1xf32>
}

// -----

// Bins need static sizes.
func.func @adaptive_dynamic(%x: tensor<1x3x?x8xf32>) -> tensor<1x3x2x2xf32> {
  // expected-error @+1 {{'relax.nn.adaptive_avg_pool2d' op needs static input and output heights and widths (the bins' sizes); got 'tensor<1x3x?x8xf32>' -> 'tensor<1x3x2x2xf32>'}}
  %0 = relax.nn.adaptive_avg_pool2d %x {output_size = array<i64: 2, 2>} : (tensor<1x3x?x8xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

// The padding of conv2d_transpose's input depends on the kernel size.
func.func @conv2d_transpose_dynamic_kernel(%x: tensor<1x3x4x4xf32>, %w: tensor<3x2x?x3xf32>) -> tensor<1x2x?x6xf32> {
  // expected-error @+1 {{'relax.nn.conv2d_transpose' op needs a static kernel height and width to pad the input; weight has type 'tensor<3x2x?x3xf32>'}}
  %0 = relax.nn.conv2d_transpose %x, %w : (tensor<1x3x4x4xf32>, tensor<3x2x?x3xf32>) -> tensor<1x2x?x6xf32>
  return %0 : tensor<1x2x?x6xf32>
}
