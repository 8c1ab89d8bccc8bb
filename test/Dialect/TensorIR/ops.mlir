// Round trip of every tensorir op through the custom syntax, and through the
// generic form back to the custom one.
// RUN: mlc-opt %s | mlc-opt | FileCheck %s
// RUN: mlc-opt %s --mlir-print-op-generic | mlc-opt | FileCheck %s
// RUN: mlc-opt %s --emit-bytecode | mlc-opt | FileCheck %s

// CHECK-DAG: #[[LO:.*]] = affine_map<(d0) -> (d0, 0)>
// CHECK-DAG: #[[HI:.*]] = affine_map<(d0) -> (d0 + 1, 128)>

// The MLC course's mm_relu (TVMScript):
//   @T.prim_func
//   def mm_relu(A: T.Buffer((128, 128), "float32"), B: ..., C: ...):
//     T.func_attr({"global_symbol": "mm_relu", "tir.noalias": True})
//     Y = T.alloc_buffer((128, 128), dtype="float32")
//     for i, j, k in T.grid(128, 128, 128):
//       with T.block("Y"):
//         vi, vj, vk = T.axis.remap("SSR", [i, j, k])
//         T.reads(A[vi, vk], B[vk, vj])
//         T.writes(Y[vi, vj])
//         with T.init():
//           Y[vi, vj] = T.float32(0)
//         Y[vi, vj] = Y[vi, vj] + A[vi, vk] * B[vk, vj]
//     for i, j in T.grid(128, 128):
//       with T.block("C"):
//         vi, vj = T.axis.remap("SS", [i, j])
//         T.reads(Y[vi, vj])
//         T.writes(C[vi, vj])
//         C[vi, vj] = T.max(Y[vi, vj], T.float32(0))

// CHECK-LABEL: tensorir.prim_func @mm_relu(
// CHECK-SAME:    %A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) attributes {tensorir.noalias} {
// CHECK-NEXT:    %Y = tensorir.alloc_buffer : memref<128x128xf32>
// CHECK-NEXT:    tensorir.for %i = 0 to 128 {
// CHECK-NEXT:      tensorir.for %j = 0 to 128 {
// CHECK-NEXT:        tensorir.for %k = 0 to 128 {
// CHECK-NEXT:          tensorir.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k))
// CHECK-SAME:            reads(%A[%vi, %vk], %B[%vk, %vj] : memref<128x128xf32>, memref<128x128xf32>)
// CHECK-SAME:            writes(%Y[%vi, %vj] : memref<128x128xf32>) {
// CHECK-NEXT:            tensorir.init {
// CHECK-NEXT:              %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:              memref.store %[[ZERO]], %Y[%vi, %vj] : memref<128x128xf32>
// CHECK-NEXT:            }
// CHECK-NEXT:            %[[Y:.*]] = memref.load %Y[%vi, %vj]
// CHECK-NEXT:            %[[A:.*]] = memref.load %A[%vi, %vk]
// CHECK-NEXT:            %[[B:.*]] = memref.load %B[%vk, %vj]
// CHECK-NEXT:            %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:            %[[S:.*]] = arith.addf %[[Y]], %[[M]] : f32
// CHECK-NEXT:            memref.store %[[S]], %Y[%vi, %vj] : memref<128x128xf32>
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    tensorir.for %i = 0 to 128 {
// CHECK-NEXT:      tensorir.for %j = 0 to 128 {
// CHECK-NEXT:        tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j))
// CHECK-SAME:          reads(%Y[%vi, %vj] : memref<128x128xf32>) writes(%C[%vi, %vj] : memref<128x128xf32>) {
// CHECK:               arith.maximumf
// CHECK:               memref.store {{.*}}, %C[%vi, %vj]
// CHECK:           tensorir.return
tensorir.prim_func @mm_relu(%A: memref<128x128xf32>, %B: memref<128x128xf32>, %C: memref<128x128xf32>) attributes {tensorir.noalias} {
  %Y = tensorir.alloc_buffer : memref<128x128xf32>
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.for %k = 0 to 128 {
        tensorir.block "Y"(%vi = spatial(128, %i), %vj = spatial(128, %j), %vk = reduce(128, %k))
            reads(%A[%vi, %vk], %B[%vk, %vj] : memref<128x128xf32>, memref<128x128xf32>)
            writes(%Y[%vi, %vj] : memref<128x128xf32>) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %Y[%vi, %vj] : memref<128x128xf32>
          }
          %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
          %a = memref.load %A[%vi, %vk] : memref<128x128xf32>
          %b = memref.load %B[%vk, %vj] : memref<128x128xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %y, %m : f32
          memref.store %s, %Y[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  tensorir.for %i = 0 to 128 {
    tensorir.for %j = 0 to 128 {
      tensorir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j))
          reads(%Y[%vi, %vj] : memref<128x128xf32>) writes(%C[%vi, %vj] : memref<128x128xf32>) {
        %zero = arith.constant 0.0 : f32
        %y = memref.load %Y[%vi, %vj] : memref<128x128xf32>
        %r = arith.maximumf %y, %zero : f32
        memref.store %r, %C[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
  tensorir.return
}

// ----------------------------------------------------------------------------
// Every loop kind, a dynamic bound, a step, annotations and other attributes.

// CHECK-LABEL: tensorir.prim_func @loop_kinds(%A: memref<64xf32>, %n: index)
// CHECK:       tensorir.for %i = 0 to %n step 2 parallel annotations {pragma_auto_unroll_max_step = 16 : i64} {
// CHECK:       tensorir.for %j = 0 to 64 vectorized {
// CHECK:       tensorir.for %k = 0 to 4 unrolled {
// CHECK:       tensorir.for %bx = 0 to 8 thread_binding("blockIdx.x") {
// CHECK:       tensorir.for %tx = 0 to 32 thread_binding("threadIdx.x") attributes {my.marker} {
// CHECK:       tensorir.for %s = 1 to 5 {
// CHECK:       tensorir.for %v = 0 to 4 thread_binding("vthread") {
tensorir.prim_func @loop_kinds(%A: memref<64xf32>, %n: index) {
  tensorir.for %i = 0 to %n step 2 parallel annotations {pragma_auto_unroll_max_step = 16 : i64} {
    tensorir.for %j = 0 to 64 vectorized {
      tensorir.for %k = 0 to 4 unrolled {
      }
    }
  }
  tensorir.for %bx = 0 to 8 thread_binding("blockIdx.x") {
    tensorir.for %tx = 0 to 32 thread_binding("threadIdx.x") attributes {my.marker} {
    }
  }
  // `serial` is the default and is not printed.
  tensorir.for %s = 1 to 5 serial {
  }
  tensorir.for %v = 0 to 4 thread_binding("vthread") {
  }
  tensorir.return
}

// ----------------------------------------------------------------------------
// Elementwise block without reads/writes (unknown until
// tensorir-infer-access-regions), `tensorir.return` left implicit.

// CHECK-LABEL: tensorir.prim_func @relu(%X: memref<16x32xf32>, %Out: memref<16x32xf32>)
// CHECK:         tensorir.block "relu"(%vi = spatial(16, %i), %vj = spatial(32, %j)) {
// CHECK:         tensorir.return
tensorir.prim_func @relu(%X: memref<16x32xf32>, %Out: memref<16x32xf32>) {
  tensorir.for %i = 0 to 16 {
    tensorir.for %j = 0 to 32 {
      tensorir.block "relu"(%vi = spatial(16, %i), %vj = spatial(32, %j)) {
        %zero = arith.constant 0.0 : f32
        %x = memref.load %X[%vi, %vj] : memref<16x32xf32>
        %r = arith.maximumf %x, %zero : f32
        memref.store %r, %Out[%vi, %vj] : memref<16x32xf32>
      }
    }
  }
}

// ----------------------------------------------------------------------------
// Row sum: a reduction with a range region, split loop bound through
// affine.apply (as sch.split(k, [None, 4]) produces), a dynamic extent.

// CHECK-LABEL: tensorir.prim_func @row_sum(%A: memref<8x64xf32>, %S: memref<8xf32>)
// CHECK:         tensorir.for %k0 = 0 to 16 {
// CHECK-NEXT:      tensorir.for %k1 = 0 to 4 {
// CHECK-NEXT:        %[[K:.*]] = affine.apply #{{.*}}(%k0, %k1)
// CHECK-NEXT:        tensorir.block "sum"(%vi = spatial(8, %i), %vk = reduce(64, %[[K]]))
// CHECK-SAME:          reads(%A[%vi, 0:64] : memref<8x64xf32>) writes(%S[%vi] : memref<8xf32>)
// CHECK-SAME:          annotations {schedule_rule = "None"} {
// CHECK-NEXT:          tensorir.init {
tensorir.prim_func @row_sum(%A: memref<8x64xf32>, %S: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    tensorir.for %k0 = 0 to 16 {
      tensorir.for %k1 = 0 to 4 {
        %k = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%k0, %k1)
        tensorir.block "sum"(%vi = spatial(8, %i), %vk = reduce(64, %k))
            reads(%A[%vi, 0:64] : memref<8x64xf32>) writes(%S[%vi] : memref<8xf32>)
            annotations {schedule_rule = "None"} {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %S[%vi] : memref<8xf32>
          }
          %s = memref.load %S[%vi] : memref<8xf32>
          %a = memref.load %A[%vi, %vk] : memref<8x64xf32>
          %r = arith.addf %s, %a : f32
          memref.store %r, %S[%vi] : memref<8xf32>
        }
      }
    }
  }
  tensorir.return
}

// ----------------------------------------------------------------------------
// Symbolic shapes: a dynamic block extent, a dynamic alloc_buffer, a root
// block with a block-scoped buffer, a block with no iteration variables, an
// explicit empty reads(), scalar arguments, and private visibility.

// CHECK-LABEL: tensorir.prim_func private @dynamic(%A: memref<?xf32>, %n: index, %alpha: f32)
// CHECK-NEXT:    %T = tensorir.alloc_buffer(%n) : memref<?xf32>
// CHECK-NEXT:    tensorir.block "root" {
// CHECK-NEXT:      %local = tensorir.alloc_buffer : memref<4xf32>
// CHECK-NEXT:      tensorir.for %i = 0 to %n {
// CHECK-NEXT:        tensorir.block "scale"(%vi = spatial(%n, %i)) reads() writes(%A[%vi] : memref<?xf32>) {
// CHECK:         tensorir.block "scalar" reads() writes() {
tensorir.prim_func private @dynamic(%A: memref<?xf32>, %n: index, %alpha: f32) {
  %T = tensorir.alloc_buffer(%n) : memref<?xf32>
  tensorir.block "root" {
    %local = tensorir.alloc_buffer : memref<4xf32>
    tensorir.for %i = 0 to %n {
      tensorir.block "scale"(%vi = spatial(%n, %i)) reads() writes(%A[%vi] : memref<?xf32>) {
        memref.store %alpha, %A[%vi] : memref<?xf32>
      }
    }
  }
  tensorir.block "scalar" reads() writes() {
  }
  tensorir.return
}

// ----------------------------------------------------------------------------
// The region attribute in its standalone form.

// CHECK-LABEL: tensorir.prim_func @attrs
// CHECK-SAME:    attributes {region = #tensorir.region<#[[LO]], #[[HI]]>}
tensorir.prim_func @attrs() attributes {region = #tensorir.region<affine_map<(d0) -> (d0, 0)>, affine_map<(d0) -> (d0 + 1, 128)>>} {
  tensorir.return
}

// ----------------------------------------------------------------------------
// T.where: sch.split(i, factors=[None, 32]) of a 100-long loop. The binding
// ranges over [0, 128), beyond the domain [0, 100), which the predicate makes
// valid.

// CHECK-LABEL: tensorir.prim_func @split_tail(%A: memref<100xf32>)
// CHECK:         %[[V:.*]] = affine.apply #{{.*}}(%i0, %i1)
// CHECK-NEXT:    %[[P:.*]] = arith.cmpi ult, %[[V]], %{{.*}} : index
// CHECK-NEXT:    tensorir.block "B"(%vi = spatial(100, %[[V]])) where(%[[P]]) writes(%A[%vi] : memref<100xf32>) {
tensorir.prim_func @split_tail(%A: memref<100xf32>) {
  %c100 = arith.constant 100 : index
  tensorir.for %i0 = 0 to 4 {
    tensorir.for %i1 = 0 to 32 {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%i0, %i1)
      %p = arith.cmpi ult, %v, %c100 : index
      tensorir.block "B"(%vi = spatial(100, %v)) where(%p) writes(%A[%vi] : memref<100xf32>) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi] : memref<100xf32>
      }
    }
  }
  tensorir.return
}

// ----------------------------------------------------------------------------
// A block body may use values computed in the loop body as long as they do not
// depend on the loop variables (CSE may share such values with the body).

// CHECK-LABEL: tensorir.prim_func @loop_invariant_use(%A: memref<?xf32>)
// CHECK:         tensorir.for %i = 0 to 4 {
// CHECK-NEXT:      %[[N:.*]] = memref.dim %A, %{{.*}} : memref<?xf32>
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK-NEXT:      tensorir.block "B"(%vi = spatial(4, %i)) {
// CHECK:             memref.store %{{.*}}, %A[%[[LAST]]] : memref<?xf32>
tensorir.prim_func @loop_invariant_use(%A: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tensorir.for %i = 0 to 4 {
    %n = memref.dim %A, %c0 : memref<?xf32>
    %last = arith.subi %n, %c1 : index
    tensorir.block "B"(%vi = spatial(4, %i)) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %A[%last] : memref<?xf32>
    }
  }
  tensorir.return
}

// ----------------------------------------------------------------------------
// sch.fuse(i, j): one loop, bindings through floordiv/mod, which the binding
// range check bounds exactly ([0, 16) and [0, 4)).

// CHECK-LABEL: tensorir.prim_func @fused(%A: memref<16x4xf32>)
// CHECK:         tensorir.for %f = 0 to 64 parallel {
// CHECK-NEXT:      %[[I:.*]] = affine.apply #{{.*}}(%f)
// CHECK-NEXT:      %[[J:.*]] = affine.apply #{{.*}}(%f)
// CHECK-NEXT:      tensorir.block "B"(%vi = spatial(16, %[[I]]), %vj = spatial(4, %[[J]])) {
tensorir.prim_func @fused(%A: memref<16x4xf32>) {
  tensorir.for %f = 0 to 64 parallel {
    %i = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%f)
    %j = affine.apply affine_map<(d0) -> (d0 mod 4)>(%f)
    tensorir.block "B"(%vi = spatial(16, %i), %vj = spatial(4, %j)) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %A[%vi, %vj] : memref<16x4xf32>
    }
  }
  tensorir.return
}
