// RUN: mlc-opt %s -split-input-file -tensorir-annotate-op-pattern -verify-diagnostics | FileCheck %s

// TVM's PatternKindAnalyzer on TE-style prim_funcs: one block per output,
// one memref.store per block.

// C[i, j] = max(A[i, j], 0)
// CHECK-LABEL: tensorir.prim_func @relu(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<elemwise>
tensorir.prim_func @relu(%A: memref<4x8xf32>, %C: memref<4x8xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %r = arith.maximumf %a, %zero : f32
        memref.store %r, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
}

// C[i, j] = A[i, j] + B[j]: one elementwise load makes the broadcast one
// elementwise too (TVM).
// CHECK-LABEL: tensorir.prim_func @bias_add(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<elemwise>
tensorir.prim_func @bias_add(%A: memref<4x8xf32>, %B: memref<8xf32>, %C: memref<4x8xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %b = memref.load %B[%vj] : memref<8xf32>
        %r = arith.addf %a, %b : f32
        memref.store %r, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
}

// C[i, j] = B[0, j] with a unit dimension: broadcast_to.
// CHECK-LABEL: tensorir.prim_func @broadcast_to(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<broadcast>
tensorir.prim_func @broadcast_to(%B: memref<1x8xf32>, %C: memref<4x8xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %c0 = arith.constant 0 : index
        %b = memref.load %B[%c0, %vj] : memref<1x8xf32>
        memref.store %b, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
}

// C[i, j] = A[j, i]
// CHECK-LABEL: tensorir.prim_func @transpose(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<injective>
tensorir.prim_func @transpose(%A: memref<8x4xf32>, %C: memref<4x8xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = memref.load %A[%vj, %vi] : memref<8x4xf32>
        memref.store %a, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
}

// C[i, j] = A[i * 8 + j]: reshape.
// CHECK-LABEL: tensorir.prim_func @reshape(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<injective>
tensorir.prim_func @reshape(%A: memref<32xf32>, %C: memref<4x8xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %c8 = arith.constant 8 : index
        %m = arith.muli %vi, %c8 : index
        %k = arith.addi %m, %vj : index
        %a = memref.load %A[%k] : memref<32xf32>
        memref.store %a, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
}

// C[i] = sum_j A[i, j]
// CHECK-LABEL: tensorir.prim_func @sum(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<comm_reduce>
tensorir.prim_func @sum(%A: memref<4x8xf32>, %C: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = reduce(8, %j)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %C[%vi] : memref<4xf32>
        }
        %c = memref.load %C[%vi] : memref<4xf32>
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %s = arith.addf %c, %a : f32
        memref.store %s, %C[%vi] : memref<4xf32>
      }
    }
  }
}

// C[i, j] += A[i, k] * B[k, j]
// CHECK-LABEL: tensorir.prim_func @matmul(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>
tensorir.prim_func @matmul(%A: memref<4x16xf32>, %B: memref<16x8xf32>, %C: memref<4x8xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.for %k = 0 to 16 {
        tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j), %vk = reduce(16, %k)) {
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

// 1-D max pooling, window 2: C[i, j] = max_k A[i, 2 * j + k] is not a pure
// reduction (an index is an expression of the reduce variable).
// CHECK-LABEL: tensorir.prim_func @max_pool(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>
tensorir.prim_func @max_pool(%A: memref<4x8xf32>, %C: memref<4x4xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 4 {
      tensorir.for %k = 0 to 2 {
        tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(4, %j), %vk = reduce(2, %k)) {
          tensorir.init {
            %ninf = arith.constant 0xFF800000 : f32
            memref.store %ninf, %C[%vi, %vj] : memref<4x4xf32>
          }
          %c2 = arith.constant 2 : index
          %w = arith.muli %vj, %c2 : index
          %x = arith.addi %w, %vk : index
          %c = memref.load %C[%vi, %vj] : memref<4x4xf32>
          %a = memref.load %A[%vi, %x] : memref<4x8xf32>
          %m = arith.maximumf %c, %a : f32
          memref.store %m, %C[%vi, %vj] : memref<4x4xf32>
        }
      }
    }
  }
}

// A reduction into an intermediate, then an elementwise output block
// (softmax-like): TVM's "reduce + injective" rule.
// CHECK-LABEL: tensorir.prim_func @sum_then_scale(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<out_ewise_fusable>
tensorir.prim_func @sum_then_scale(%A: memref<4x8xf32>, %C: memref<4x8xf32>) {
  %S = tensorir.alloc_buffer : memref<4xf32>
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "S"(%vi = spatial(4, %i), %vj = reduce(8, %j)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<4xf32>
        }
        %s = memref.load %S[%vi] : memref<4xf32>
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %t = arith.addf %s, %a : f32
        memref.store %t, %S[%vi] : memref<4xf32>
      }
    }
  }
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        %s = memref.load %S[%vi] : memref<4xf32>
        %d = arith.divf %a, %s : f32
        memref.store %d, %C[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
}

// Two stores to different indices in one block.
// CHECK-LABEL: tensorir.prim_func @two_stores(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<opaque>
tensorir.prim_func @two_stores(%A: memref<8xf32>, %C: memref<8xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.block "C"(%vi = spatial(4, %i)) {
      %c4 = arith.constant 4 : index
      %hi = arith.addi %vi, %c4 : index
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %C[%vi] : memref<8xf32>
      memref.store %a, %C[%hi] : memref<8xf32>
    }
  }
}

// An access the analysis does not model (memref.copy).
// CHECK-LABEL: tensorir.prim_func @copy(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<opaque>
tensorir.prim_func @copy(%A: memref<8xf32>, %C: memref<8xf32>) {
  tensorir.block "C"() {
    memref.copy %A, %C : memref<8xf32> to memref<8xf32>
  }
}

// A spatial block loading an index that is not a store variable (a gather
// over a reduction-free window): opaque.
// CHECK-LABEL: tensorir.prim_func @window(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<opaque>
tensorir.prim_func @window(%A: memref<4x8xf32>, %C: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 8 {
      tensorir.block "C"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<4x8xf32>
        memref.store %a, %C[%vi] : memref<4xf32>
      }
    }
  }
}

// A pre-set kind is kept, even where the analysis would say otherwise.
// CHECK-LABEL: tensorir.prim_func @preset(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<opaque>
// CHECK-NOT:     op_pattern<elemwise>
tensorir.prim_func @preset(%A: memref<8xf32>, %C: memref<8xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<opaque>} {
  tensorir.for %i = 0 to 8 {
    tensorir.block "C"(%vi = spatial(8, %i)) {
      %a = memref.load %A[%vi] : memref<8xf32>
      memref.store %a, %C[%vi] : memref<8xf32>
    }
  }
}

// CHECK-LABEL: tensorir.prim_func @preset_tuple(
// CHECK-SAME:    tensorir.op_pattern = #tensorir.op_pattern<tuple>
tensorir.prim_func @preset_tuple(%A: memref<8xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<tuple>} {
}

// -----

// expected-error @+1 {{'tensorir.op_pattern' must be a #tensorir.op_pattern, got 1 : i32}}
tensorir.prim_func @bad_kind(%A: memref<8xf32>) attributes {tensorir.op_pattern = 1 : i32} {
}

// -----

// expected-error @+1 {{'tensorir.op_pattern' is only meaningful on a 'tensorir.prim_func'}}
func.func @not_prim_func() attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {
  return
}

// -----

// expected-error @+2 {{expected ::mlc::tensorir::OpPatternKind to be one of: elemwise, broadcast, injective, comm_reduce, out_ewise_fusable, tuple, opaque}}
// expected-error @+1 {{failed to parse TensorIR_OpPatternKindAttr parameter 'value'}}
tensorir.prim_func @unknown_kind(%A: memref<8xf32>) attributes {tensorir.op_pattern = #tensorir.op_pattern<fancy>} {
}
