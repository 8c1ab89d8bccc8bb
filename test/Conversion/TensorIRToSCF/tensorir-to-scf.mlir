// convert-tensorir-to-scf on each construct: prim_func, alloc_buffer (function
// and block scope, static and dynamic), every lowerable loop kind, block
// bindings, init, where.
// RUN: mlc-opt %s --convert-tensorir-to-scf --split-input-file | FileCheck %s
// RUN: mlc-opt %s --convert-tensorir-to-scf=insert-deallocs=false --split-input-file | FileCheck %s --check-prefix=NODEALLOC

// The MLC course's mm_relu. Y becomes an alloc freed before the return; the
// init runs when vk (bound to k) is 0.

// CHECK-LABEL: func.func @mm_relu(
// CHECK-SAME:      %[[A:[a-zA-Z0-9]+]]: memref<128x128xf32> {tensorir.name = "A"},
// CHECK-SAME:      %[[B:[a-zA-Z0-9]+]]: memref<128x128xf32> {tensorir.name = "B"},
// CHECK-SAME:      %[[C:[a-zA-Z0-9]+]]: memref<128x128xf32> {tensorir.name = "C"}) {
// CHECK-NOT:     tensorir.
// Index constants are created once, at the start of the function.
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[Y:.*]] = memref.alloc() : memref<128x128xf32>
// CHECK-NEXT:    scf.for %[[I:.*]] = %[[C0]] to %[[C128]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[J:.*]] = %[[C0]] to %[[C128]] step %[[C1]] {
// CHECK-NEXT:        scf.for %[[K:.*]] = %[[C0]] to %[[C128]] step %[[C1]] {
// CHECK-NEXT:          %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %[[C0]] : index
// CHECK-NEXT:          scf.if %[[FIRST]] {
// CHECK-NEXT:            %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:            memref.store %[[ZERO]], %[[Y]][%[[I]], %[[J]]]
// CHECK-NEXT:          }
// CHECK-NEXT:          %[[YV:.*]] = memref.load %[[Y]][%[[I]], %[[J]]]
// CHECK-NEXT:          %[[AV:.*]] = memref.load %[[A]][%[[I]], %[[K]]]
// CHECK-NEXT:          %[[BV:.*]] = memref.load %[[B]][%[[K]], %[[J]]]
// CHECK-NEXT:          %[[M:.*]] = arith.mulf %[[AV]], %[[BV]] : f32
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[YV]], %[[M]] : f32
// CHECK-NEXT:          memref.store %[[S]], %[[Y]][%[[I]], %[[J]]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK:         scf.for %[[I2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[J2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             %[[YV2:.*]] = memref.load %[[Y]][%[[I2]], %[[J2]]]
// CHECK-NEXT:        %[[R:.*]] = arith.maximumf %[[YV2]], %{{.*}} : f32
// CHECK-NEXT:        memref.store %[[R]], %[[C]][%[[I2]], %[[J2]]]
// CHECK:         memref.dealloc %[[Y]] : memref<128x128xf32>
// CHECK-NEXT:    return
// CHECK-NEXT:  }

// NODEALLOC-LABEL: func.func @mm_relu(
// NODEALLOC:         memref.alloc() : memref<128x128xf32>
// NODEALLOC-NOT:     memref.dealloc
// NODEALLOC:         return
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

// -----

// Loop kinds: parallel becomes scf.parallel, the others scf.for; non-serial
// kinds are kept as tensorir.loop_kind, and vectorized/unrolled loops get
// LLVM loop metadata (full unrolling for constant bounds, else enabled). A
// dynamic bound, a non-zero lower bound and a step.

// CHECK-DAG: #[[FULLU:.*]] = #llvm.loop_unroll<disable = false, full = true>
// CHECK-DAG: #[[ENABLEU:.*]] = #llvm.loop_unroll<disable = false>
// CHECK-DAG: #[[VECV:.*]] = #llvm.loop_vectorize<disable = false>
// CHECK-DAG: #[[FULL:.*]] = #llvm.loop_annotation<unroll = #[[FULLU]]>
// CHECK-DAG: #[[VEC:.*]] = #llvm.loop_annotation<vectorize = #[[VECV]]>
// CHECK-DAG: #[[ENABLE:.*]] = #llvm.loop_annotation<unroll = #[[ENABLEU]]>
// CHECK-LABEL: func.func @loop_kinds(
// CHECK-SAME:      %[[A:.*]]: memref<64xf32> {tensorir.name = "A"}, %[[N:.*]]: index {tensorir.name = "n"}) {
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK:         scf.parallel (%[[I:.*]]) = (%[[C0]]) to (%[[N]]) step (%[[C2]]) {
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             } {llvm.loop_annotation = #[[FULL]], tensorir.loop_kind = #tensorir.for_kind<unrolled>}
// CHECK:           } {llvm.loop_annotation = #[[VEC]], tensorir.loop_kind = #tensorir.for_kind<vectorized>}
// CHECK:           scf.reduce
// The loop's annotations stay with it, for later passes.
// CHECK:         } {tensorir.annotations = {pragma_auto_unroll_max_step = 16 : i64}, tensorir.loop_kind = #tensorir.for_kind<parallel>}
// CHECK-NEXT:    scf.for %{{.*}} = %[[C1]] to %[[C5]] step %{{.*}} {
// CHECK-NOT:       tensorir.loop_kind
// CHECK-NOT:       llvm.loop_annotation
// CHECK:         scf.for %{{.*}} = %[[C0]] to %[[N]] step %[[C1]] {
// CHECK:         } {llvm.loop_annotation = #[[ENABLE]], tensorir.loop_kind = #tensorir.for_kind<unrolled>}
// CHECK:         return
tensorir.prim_func @loop_kinds(%A: memref<64xf32>, %n: index) {
  tensorir.for %i = 0 to %n step 2 parallel annotations {pragma_auto_unroll_max_step = 16 : i64} {
    tensorir.for %j = 0 to 64 vectorized {
      tensorir.for %k = 0 to 4 unrolled {
      }
    }
  }
  tensorir.for %s = 1 to 5 serial {
  }
  tensorir.for %u = 0 to %n unrolled {
  }
  tensorir.return
}

// -----

// Split reduction: the binding (an affine.apply of the loops) replaces the
// iteration variable, in the init condition too.

// CHECK-LABEL: func.func @row_sum(
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[K0:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             scf.for %[[K1:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:          %[[K:.*]] = affine.apply #{{.*}}(%[[K0]], %[[K1]])
// CHECK:               %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %{{.*}} : index
// CHECK-NEXT:          scf.if %[[FIRST]] {
// CHECK:                 memref.store %{{.*}}, %{{.*}}[%[[I]]] : memref<8xf32>
// CHECK:               memref.load %{{.*}}[%[[I]], %[[K]]] : memref<8x64xf32>
tensorir.prim_func @row_sum(%A: memref<8x64xf32>, %S: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    tensorir.for %k0 = 0 to 16 {
      tensorir.for %k1 = 0 to 4 {
        %k = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%k0, %k1)
        tensorir.block "sum"(%vi = spatial(8, %i), %vk = reduce(64, %k))
            reads(%A[%vi, 0:64] : memref<8x64xf32>) writes(%S[%vi] : memref<8xf32>) {
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
}

// -----

// Two reduce iteration variables: init runs when both are 0.

// CHECK-LABEL: func.func @sum_all(
// CHECK:         scf.for %[[I:.*]] =
// CHECK:           scf.for %[[J:.*]] =
// CHECK:             %[[FI:.*]] = arith.cmpi eq, %[[I]], %[[Z:.*]] : index
// CHECK-NEXT:        %[[FJ:.*]] = arith.cmpi eq, %[[J]], %[[Z]] : index
// CHECK-NEXT:        %[[F:.*]] = arith.andi %[[FI]], %[[FJ]] : i1
// CHECK-NEXT:        scf.if %[[F]] {
tensorir.prim_func @sum_all(%A: memref<4x8xf32>, %S: memref<f32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "sum"(%vi = reduce(4, %i), %vj = reduce(8, %j)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[] : memref<f32>
        }
        %s = memref.load %S[] : memref<f32>
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %r = arith.addf %s, %a : f32
        memref.store %r, %S[] : memref<f32>
      }
    }
  }
}

// -----

// T.where: the block body runs under scf.if on the predicate.

// CHECK-LABEL: func.func @split_tail(
// CHECK:         scf.for %[[I0:.*]] =
// CHECK:           scf.for %[[I1:.*]] =
// CHECK-NEXT:        %[[V:.*]] = affine.apply #{{.*}}(%[[I0]], %[[I1]])
// CHECK-NEXT:        %[[P:.*]] = arith.cmpi ult, %[[V]], %{{.*}} : index
// CHECK-NEXT:        scf.if %[[P]] {
// CHECK-NEXT:          %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:          memref.store %[[ZERO]], %{{.*}}[%[[V]]] : memref<100xf32>
// CHECK-NEXT:        }
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

// -----

// Block-scoped and dynamic buffers: a block's alloc_buffer is freed at the
// end of the block's body; a dynamic one takes its size operand. Private
// visibility and other discardable attributes carry over.

// CHECK-LABEL: func.func private @scoped(
// CHECK-SAME:      %[[A:[a-zA-Z0-9]+]]: memref<?xf32> {tensorir.name = "A"}, %[[N:[a-zA-Z0-9]+]]: index
// CHECK-SAME:      attributes {my.attr}
// CHECK:         %[[T:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT:    %[[L:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT:      memref.store %{{.*}}, %[[A]][%[[I]]] : memref<?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[L]] : memref<4xf32>
// CHECK-NEXT:    memref.dealloc %[[T]] : memref<?xf32>
// CHECK-NEXT:    return
tensorir.prim_func private @scoped(%A: memref<?xf32>, %n: index, %alpha: f32) attributes {my.attr} {
  %T = tensorir.alloc_buffer(%n) : memref<?xf32>
  tensorir.block "root" {
    %local = tensorir.alloc_buffer : memref<4xf32>
    tensorir.for %i = 0 to %n {
      tensorir.block "scale"(%vi = spatial(%n, %i)) reads() writes(%A[%vi] : memref<?xf32>) {
        memref.store %alpha, %A[%vi] : memref<?xf32>
      }
    }
  }
  tensorir.return
}

// -----

// Functions that are not prim_funcs are left alone.

// CHECK-LABEL: func.func @tensor_level(
// CHECK-NEXT:    arith.addf
func.func @tensor_level(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// prim_funcs of nested modules are lowered too.

// CHECK-LABEL: module @inner
// CHECK-NEXT:    func.func @nested(
// CHECK-NEXT:      return
module @inner {
  tensorir.prim_func @nested(%A: memref<4xf32>) {
  }
}

// -----

// Bounds at the ends of the index range (the constants are made once each;
// INT64_MAX and INT64_MIN are valid values, not reserved keys).
// CHECK-LABEL: func.func @extreme_bounds
// CHECK-DAG:     %[[MAX:.*]] = arith.constant 9223372036854775807 : index
// CHECK-DAG:     %[[MAXM1:.*]] = arith.constant 9223372036854775806 : index
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[MAX]]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[MAXM1]]
tensorir.prim_func @extreme_bounds(%A: memref<?xf32>) {
  tensorir.for %i = 0 to 9223372036854775807 {
    tensorir.block "B"(%vi = spatial(9223372036854775807, %i)) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %A[%vi] : memref<?xf32>
    }
  }
  tensorir.for %j = 0 to 9223372036854775806 {
    tensorir.block "C"(%vj = spatial(9223372036854775806, %j)) {
      %one = arith.constant 1.0 : f32
      memref.store %one, %A[%vj] : memref<?xf32>
    }
  }
  tensorir.return
}
