// RUN: mlc-opt %s -split-input-file -relax-fuse-tir -verify-diagnostics | FileCheck %s

// matmul + bias add + relu after relax-fuse-ops: one prim_func; the matmul
// output stays a buffer, the bias add is inlined into the relu block.

tensorir.prim_func @matmul(%A: memref<4x16xf32>, %B: memref<16x8xf32>, %C: memref<4x8xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.for %k = 0 to 16 {
        tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j), %vk = reduce(16, %k))
            reads(%A[%vi, %vk], %B[%vk, %vj] : memref<4x16xf32>, memref<16x8xf32>)
            writes(%C[%vi, %vj] : memref<4x8xf32>) {
          tensorir.init {
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %C[%vi, %vj] : memref<4x8xf32>
          }
          %c = memref.load %C[%vi, %vj] : memref<4x8xf32>
          %a = memref.load %A[%vi, %vk] : memref<4x16xf32>
          %b = memref.load %B[%vk, %vj] : memref<16x8xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          memref.store %s, %C[%vi, %vj] : memref<4x8xf32>
        }
      }
    }
  }
}
tensorir.prim_func @bias_add(%A: memref<4x8xf32>, %B: memref<8xf32>, %C: memref<4x8xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "T"(%vi = spatial(4, %i), %vj = spatial(8, %j))
          reads(%A[%vi, %vj], %B[%vj] : memref<4x8xf32>, memref<8xf32>) writes(%C[%vi, %vj] : memref<4x8xf32>) {
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %b = memref.load %B[%vj] : memref<8xf32>
        %r = arith.addf %a, %b : f32
        memref.store %r, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
}
tensorir.prim_func @relu(%A: memref<4x8xf32>, %C: memref<4x8xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "T"(%vi = spatial(4, %i), %vj = spatial(8, %j))
          reads(%A[%vi, %vj] : memref<4x8xf32>) writes(%C[%vi, %vj] : memref<4x8xf32>) {
        %zero = arith.constant 0.0 : f32
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %r = arith.maximumf %a, %zero : f32
        memref.store %r, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
}

func.func private @fused_matmul_bias_add_relu(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> attributes {relax.primitive} {
  %0 = relax.call_tir @matmul(%x, %w) : (tensor<4x16xf32>, tensor<16x8xf32>) -> tensor<4x8xf32>
  %1 = relax.call_tir @bias_add(%0, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %2 = relax.call_tir @relu(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// The fused prim_funcs go unless still called (@relu, by @main).
// CHECK-NOT:   tensorir.prim_func @matmul
// CHECK-NOT:   tensorir.prim_func @bias_add
// CHECK:       tensorir.prim_func @relu(
// CHECK-LABEL: tensorir.prim_func private @fused_matmul_bias_add_relu(
// CHECK-SAME:    %[[X:.*]]: memref<4x16xf32>, %[[W:.*]]: memref<16x8xf32>, %[[B:.*]]: memref<8xf32>, %[[OUT:.*]]: memref<4x8xf32>) attributes {tensorir.noalias} {
// CHECK-NEXT:    %[[Y:.*]] = tensorir.alloc_buffer : memref<4x8xf32>
// CHECK:           tensorir.block "C"
// CHECK-SAME:        writes(%[[Y]][%vi, %vj] : memref<4x8xf32>)
// CHECK-NOT:     tensorir.alloc_buffer
// CHECK:           tensorir.block "T_1"(%vi = spatial(4, %i), %vj = spatial(8, %j))
// CHECK-SAME:        reads(%[[Y]][%vi, %vj], %[[B]][%vj] : memref<4x8xf32>, memref<8xf32>) writes(%[[OUT]][%vi, %vj] : memref<4x8xf32>)
// CHECK:             %[[L:.*]] = memref.load %[[Y]][%vi, %vj]
// CHECK-NEXT:        %[[LB:.*]] = memref.load %[[B]][%vj]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[L]], %[[LB]]
// CHECK-NEXT:        %[[R:.*]] = arith.maximumf %[[S]]
// CHECK-NEXT:        memref.store %[[R]], %[[OUT]][%vi, %vj]
// CHECK-NOT:     tensorir.block
// CHECK:         tensorir.return
// CHECK-NOT:     func.func private @fused_matmul_bias_add_relu
// CHECK-LABEL: func.func @main(
// CHECK:         %[[F:.*]] = relax.call_tir @fused_matmul_bias_add_relu(%arg0, %arg1, %arg2) : (tensor<4x16xf32>, tensor<16x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    relax.call_tir @relu(%[[F]])
// CHECK-NOT:     func.call
func.func @main(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %r = relax.dataflow -> tensor<4x8xf32> {
    %0 = func.call @fused_matmul_bias_add_relu(%x, %w, %b) : (tensor<4x16xf32>, tensor<16x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %1 = relax.call_tir @relu(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    relax.output %1 : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// Two results; the first is also read by the second call, so it is an
// output buffer and is not inlined. Block names are made unique, and a
// callee over a dynamic shape gets a memref.cast of the static buffer.

tensorir.prim_func @exp(%A: memref<?xf32>, %C: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  tensorir.for %i = 0 to %n {
    tensorir.block "T"(%vi = spatial(%n, %i)) {
      %a = memref.load %A[%vi] : memref<?xf32>
      %r = math.exp %a : f32
      memref.store %r, %C[%vi] : memref<?xf32>
    }
  }
}

func.func private @fused_exp_exp(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {relax.primitive} {
  %0 = relax.call_tir @exp(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = relax.call_tir @exp(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// CHECK-LABEL: tensorir.prim_func private @fused_exp_exp(
// CHECK-SAME:    %[[X:.*]]: memref<8xf32>, %[[O0:.*]]: memref<8xf32>, %[[O1:.*]]: memref<8xf32>) {
// CHECK:         memref.cast %[[X]] : memref<8xf32> to memref<?xf32>
// CHECK:         memref.cast %[[O0]] : memref<8xf32> to memref<?xf32>
// CHECK:         tensorir.block "T"(
// CHECK:         memref.cast %[[O0]] : memref<8xf32> to memref<?xf32>
// CHECK:         memref.cast %[[O1]] : memref<8xf32> to memref<?xf32>
// CHECK:         tensorir.block "T_1"(
// CHECK-LABEL: func.func @two_results(
// CHECK:         %[[R:.*]]:2 = relax.call_tir @fused_exp_exp(%arg0) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT:    relax.output %[[R]]#0, %[[R]]#1
func.func @two_results(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r:2 = relax.dataflow -> tensor<8xf32>, tensor<8xf32> {
    %0:2 = func.call @fused_exp_exp(%x) : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
    relax.output %0#0, %0#1 : tensor<8xf32>, tensor<8xf32>
  }
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

func.func private @fused_add(%x: tensor<8xf32>) -> tensor<8xf32> attributes {relax.primitive} {
  // expected-error @+1 {{'relax.add' op cannot be fused into a prim_func by relax-fuse-tir: primitive function @fused_add may only hold relax.call_tir}}
  %0 = relax.add %x, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func private @ext(memref<8xf32>, memref<8xf32>)

func.func private @fused_ext(%x: tensor<8xf32>) -> tensor<8xf32> attributes {relax.primitive} {
  // expected-error @+1 {{'relax.call_tir' op callee @ext is not a tensorir.prim_func; relax-fuse-tir cannot fuse it}}
  %0 = relax.call_tir @ext(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

tensorir.prim_func @scale(%A: memref<?xf32>, %C: memref<?xf32>, %n: index) {
}

func.func private @fused_scale(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n]>> attributes {relax.primitive} {
  // expected-error @+1 {{'relax.call_tir' op with tir_vars is not supported by relax-fuse-tir}}
  %0 = relax.call_tir @scale(%x) tir_vars [n] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n]>>
  return %0 : tensor<?xf32, #relax.shape<[n]>>
}

// -----

tensorir.prim_func @copy(%A: memref<?xf32>, %C: memref<?xf32>) {
}

func.func private @fused_copy_copy(%x: tensor<?xf32>) -> tensor<?xf32> attributes {relax.primitive} {
  // expected-error @+1 {{'relax.call_tir' op result 'tensor<?xf32>' has a dynamic shape; relax-fuse-tir needs static intermediates}}
  %0 = relax.call_tir @copy(%x) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = relax.call_tir @copy(%0) : (tensor<?xf32>) -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

tensorir.prim_func @copy(%A: memref<8xf32>, %C: memref<8xf32>) {
}

func.func private @fused_passthrough(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {relax.primitive} {
  %0 = relax.call_tir @copy(%x) : (tensor<8xf32>) -> tensor<8xf32>
  // expected-error @+1 {{'func.return' op returns value #1, which is not the result of a relax.call_tir; relax-fuse-tir cannot fuse @fused_passthrough}}
  return %0, %x : tensor<8xf32>, tensor<8xf32>
}

// -----

tensorir.prim_func @copy(%A: memref<8xf32>, %C: memref<8xf32>) {
}

func.func private @fused_twice(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {relax.primitive} {
  %0 = relax.call_tir @copy(%x) : (tensor<8xf32>) -> tensor<8xf32>
  // expected-error @+1 {{'func.return' op returns value #1 twice; relax-fuse-tir cannot fuse @fused_twice}}
  return %0, %0 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Two primitive functions, one called twice: every call of each becomes a
// call_tir of its prim_func, and @neg, which only they called, goes.

tensorir.prim_func @neg(%A: memref<8xf32>, %C: memref<8xf32>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 8 {
    tensorir.block "T"(%vi = spatial(8, %i)) reads(%A[%vi] : memref<8xf32>) writes(%C[%vi] : memref<8xf32>) {
      %a = memref.load %A[%vi] : memref<8xf32>
      %r = arith.negf %a : f32
      memref.store %r, %C[%vi] : memref<8xf32>
    }
  }
}
func.func private @fused_neg(%x: tensor<8xf32>) -> tensor<8xf32> attributes {relax.primitive} {
  %0 = relax.call_tir @neg(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func private @fused_neg_neg(%x: tensor<8xf32>) -> tensor<8xf32> attributes {relax.primitive} {
  %0 = relax.call_tir @neg(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = relax.call_tir @neg(%0) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// CHECK-NOT: tensorir.prim_func @neg(
// CHECK-LABEL: tensorir.prim_func private @fused_neg(
// CHECK-LABEL: tensorir.prim_func private @fused_neg_neg(
// CHECK-LABEL: func.func @three_calls(
// CHECK:         %[[A:.*]] = relax.call_tir @fused_neg(%arg0)
// CHECK:         %[[B:.*]] = relax.call_tir @fused_neg_neg(%[[A]])
// CHECK:         %[[C:.*]] = relax.call_tir @fused_neg(%[[B]])
// CHECK-NEXT:    relax.output %[[C]]
func.func @three_calls(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = relax.dataflow -> tensor<8xf32> {
    %0 = func.call @fused_neg(%x) : (tensor<8xf32>) -> tensor<8xf32>
    %1 = func.call @fused_neg_neg(%0) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = func.call @fused_neg(%1) : (tensor<8xf32>) -> tensor<8xf32>
    relax.output %2 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

tensorir.prim_func @neg(%A: memref<8xf32>, %C: memref<8xf32>) {
}
func.func private @fused_neg(%x: tensor<8xf32>) -> tensor<8xf32> attributes {relax.primitive} {
  %0 = relax.call_tir @neg(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
func.func @takes_address() -> ((tensor<8xf32>) -> tensor<8xf32>) {
  // expected-error @+1 {{'func.constant' op refers to primitive function @fused_neg other than by func.call; relax-fuse-tir cannot replace it}}
  %f = func.constant @fused_neg : (tensor<8xf32>) -> tensor<8xf32>
  return %f : (tensor<8xf32>) -> tensor<8xf32>
}
