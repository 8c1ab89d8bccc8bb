// pad_einsum, and reverse_compute_inline of its copy back.
// RUN: mlc-opt %s --transform-interpreter --split-input-file | FileCheck %s

// sch.pad_einsum(C, [64, 64, 1]): M = 100 and N = 72 grow to 128; K = 64
// stays. A and B are read through zero-padded copies (loads clamped into
// the buffer, zero selected beyond it), C is accumulated in a padded copy
// that a block after the nest copies back over 100 x 72.
// CHECK-LABEL: tensorir.prim_func @gemm(
// CHECK:         %[[CPAD:C_pad]] = tensorir.alloc_buffer : memref<128x128xf32>
// CHECK:         %[[APAD:A_pad]] = tensorir.alloc_buffer : memref<128x64xf16>
// CHECK:         tensorir.for %ax0 = 0 to 128 {
// CHECK-NEXT:      tensorir.for %ax1 = 0 to 64 {
// CHECK-NEXT:        tensorir.block "A_pad"(%v0 = spatial(128, %ax0), %v1 = spatial(64, %ax1)) reads(%A[0:100, %v1] : memref<100x64xf16>) writes(%[[APAD]][%v0, %v1] : memref<128x64xf16>) {
// CHECK-DAG:           %[[C100:.*]] = arith.constant 100 : index
// CHECK-DAG:           %[[C99:.*]] = arith.constant 99 : index
// CHECK:               %[[IN:.*]] = arith.cmpi ult, %v0, %[[C100]] : index
// CHECK-NEXT:          %[[ROW:.*]] = arith.minui %v0, %[[C99]] : index
// CHECK-NEXT:          %[[A:.*]] = memref.load %A[%[[ROW]], %v1]
// CHECK-NEXT:          %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT:          %[[SEL:.*]] = arith.select %[[IN]], %[[A]], %[[Z]] : f16
// CHECK-NEXT:          memref.store %[[SEL]], %[[APAD]][%v0, %v1]
// CHECK:         %[[BPAD:B_pad]] = tensorir.alloc_buffer : memref<64x128xf16>
// CHECK:           tensorir.block "B_pad"(%v0 = spatial(64, %ax0), %v1 = spatial(128, %ax1))
// CHECK:             arith.cmpi ult, %v1, %{{.*}} : index
// CHECK:         tensorir.for %i = 0 to 128 {
// CHECK-NEXT:      tensorir.for %j = 0 to 128 {
// CHECK-NEXT:        tensorir.for %k = 0 to 64 {
// CHECK-NEXT:          tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(64, %k)) {
// CHECK:                 memref.store %{{.*}}, %[[CPAD]][%vi, %vj]
// CHECK:                 memref.load %[[APAD]][%vi, %vk]
// CHECK-NEXT:            memref.load %[[BPAD]][%vk, %vj]
// CHECK:         tensorir.for %ax0 = 0 to 100 {
// CHECK-NEXT:      tensorir.for %ax1 = 0 to 72 {
// CHECK-NEXT:        tensorir.block "C_pad"(%v0 = spatial(100, %ax0), %v1 = spatial(72, %ax1)) reads(%[[CPAD]][%v0, %v1] : memref<128x128xf32>) writes(%C[%v0, %v1] : memref<100x72xf32>) {
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[CPAD]][%v0, %v1]
// CHECK-NEXT:        memref.store %[[V]], %C[%v0, %v1]
tensorir.prim_func @gemm(%A: memref<100x64xf16>, %B: memref<64x72xf16>, %C: memref<100x72xf32>) {
  tensorir.for %i = 0 to 100 {
    tensorir.for %j = 0 to 72 {
      tensorir.for %k = 0 to 64 {
        tensorir.block "C"(%vi = spatial(100, %i), %vj = spatial(72, %j), %vk = reduce(64, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<100x72xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<100x64xf16>
          %b = memref.load %B[%vk, %vj] : memref<64x72xf16>
          %af = arith.extf %a : f16 to f32
          %bf = arith.extf %b : f16 to f32
          %c = memref.load %C[%vi, %vj] : memref<100x72xf32>
          %m = arith.mulf %af, %bf : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<100x72xf32>
        }
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.pad_einsum %b [64, 64, 1] : !transform.any_op
    transform.yield
  }
}

// -----

// The copy back inlined into a cache_write's write-back: the write-back's
// domain shrinks to the copy back's 100 x 72, under a predicate for the
// padded rows and columns of its 128 x 128 loops; K padded from 60 to 64
// (zeros in both A and B).
// CHECK-LABEL: tensorir.prim_func @write_back(
// CHECK:         tensorir.block "A_pad"(%v0 = spatial(128, %ax0), %v1 = spatial(64, %ax1))
// CHECK:           %[[INI:.*]] = arith.cmpi ult, %v0, %{{.*}} : index
// CHECK:           %[[INK:.*]] = arith.cmpi ult, %v1, %{{.*}} : index
// CHECK:           %[[IN:.*]] = arith.andi %[[INI]], %[[INK]] : i1
// CHECK:         tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(64, %k))
// CHECK-NOT:     tensorir.block "C_pad"
// CHECK:         tensorir.for %ax0 = 0 to 128 {
// CHECK-NEXT:      tensorir.for %ax1 = 0 to 128 {
// CHECK-NEXT:        %[[C100:.*]] = arith.constant 100 : index
// CHECK-NEXT:        %[[ROW:.*]] = arith.cmpi ult, %ax0, %[[C100]] : index
// CHECK-NEXT:        %[[C72:.*]] = arith.constant 72 : index
// CHECK-NEXT:        %[[COL:.*]] = arith.cmpi ult, %ax1, %[[C72]] : index
// CHECK-NEXT:        %[[P:.*]] = arith.andi %[[ROW]], %[[COL]] : i1
// CHECK-NEXT:        tensorir.block "C_pad_local"(%v0 = spatial(100, %ax0), %v1 = spatial(72, %ax1)) where(%[[P]]) reads(%C_pad_local[%v0, %v1] : memref<128x128xf32>) writes(%C[%v0, %v1] : memref<100x72xf32>) {
// CHECK-NEXT:          %[[V:.*]] = memref.load %C_pad_local[%v0, %v1]
// CHECK-NEXT:          memref.store %[[V]], %C[%v0, %v1]
// CHECK-NOT:     tensorir.block
tensorir.prim_func @write_back(%A: memref<100x60xf32>, %B: memref<60x72xf32>, %C: memref<100x72xf32>) {
  tensorir.for %i = 0 to 100 {
    tensorir.for %j = 0 to 72 {
      tensorir.for %k = 0 to 60 {
        tensorir.block "C"(%vi = spatial(100, %i), %vj = spatial(72, %j), %vk = reduce(60, %k)) {
          tensorir.init {
            %z = arith.constant 0.0 : f32
            memref.store %z, %C[%vi, %vj] : memref<100x72xf32>
          }
          %a = memref.load %A[%vi, %vk] : memref<100x60xf32>
          %b = memref.load %B[%vk, %vj] : memref<60x72xf32>
          %c = memref.load %C[%vi, %vj] : memref<100x72xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<100x72xf32>
        }
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.pad_einsum %b [64, 64, 32] : !transform.any_op
    %w = transform.tensorir.cache_write %b 0 "local" : (!transform.any_op) -> !transform.any_op
    %back = transform.tensorir.get_block "C_pad" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.reverse_compute_inline %back : !transform.any_op
    transform.yield
  }
}

// -----

// Extents that are multiples already, and a constant index: nothing to do.
// CHECK-LABEL: tensorir.prim_func @multiples(
// CHECK-NOT:     alloc_buffer
// CHECK:         tensorir.block "C"(%vi = spatial(64, %i), %vk = reduce(32, %k))
// CHECK:           memref.load %A[%vi, %vk]
tensorir.prim_func @multiples(%A: memref<64x32xf32>, %C: memref<64x2xf32>) {
  tensorir.for %i = 0 to 64 {
    tensorir.for %k = 0 to 32 {
      tensorir.block "C"(%vi = spatial(64, %i), %vk = reduce(32, %k)) {
        tensorir.init {
          %z = arith.constant 0.0 : f32
          %c0i = arith.constant 0 : index
          memref.store %z, %C[%vi, %c0i] : memref<64x2xf32>
        }
        %c0 = arith.constant 0 : index
        %a = memref.load %A[%vi, %vk] : memref<64x32xf32>
        %c = memref.load %C[%vi, %c0] : memref<64x2xf32>
        %s = arith.addf %c, %a : f32
        memref.store %s, %C[%vi, %c0] : memref<64x2xf32>
      }
    }
  }
  tensorir.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tensorir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tensorir.pad_einsum %b [16, 8] : !transform.any_op
    transform.yield
  }
}
