// One case per tensorir parser/verifier rule.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// prim_func / return
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'tensorir.prim_func' op has 1 results, but a prim_func returns nothing: outputs are buffer arguments}}
tensorir.prim_func @results(%A: memref<4xf32>) -> f32 {
  tensorir.return
}

// -----

// expected-error @+1 {{'tensorir.prim_func' op argument #1 has type 'tensor<4xf32>', expected a buffer (memref) or a scalar (index, integer, float)}}
tensorir.prim_func @tensor_arg(%A: memref<4xf32>, %B: tensor<4xf32>) {
  tensorir.return
}

// -----

// expected-error @+1 {{custom op 'tensorir.prim_func' expects a body: a prim_func cannot be a declaration}}
tensorir.prim_func @declaration(%A: memref<4xf32>)

// -----

// expected-error @+1 {{'tensorir.noalias' must be a unit attribute, got true}}
tensorir.prim_func @noalias_bool(%A: memref<4xf32>) attributes {tensorir.noalias = true} {
  tensorir.return
}

// -----

func.func @noalias_elsewhere() attributes {tensorir.noalias} {
  // expected-error @-1 {{'tensorir.noalias' is only meaningful on a 'tensorir.prim_func'}}
  return
}

// -----

func.func @annotations_not_dict() attributes {tensorir.annotations = "mma_sync"} {
  // expected-error @-1 {{'tensorir.annotations' must be a dictionary, got "mma_sync"}}
  return
}

// -----

// expected-error @+1 {{unknown tensorir attribute 'tensorir.no_alias'}}
tensorir.prim_func @typo(%A: memref<4xf32>) attributes {tensorir.no_alias} {
  tensorir.return
}

// -----

// expected-error @+1 {{'tensorir.name' of argument #0 must be a string, got 1 : i64}}
tensorir.prim_func @bad_name(%A: memref<4xf32> {tensorir.name = 1}) {
  tensorir.return
}

// -----

tensorir.prim_func @duplicate_block_names(%A: memref<4xf32>) {
  // expected-note @+1 {{previous block named 'B' is here}}
  tensorir.block "B" {
  }
  // expected-error @+1 {{'tensorir.block' op name 'B' is already used by another block in prim_func @duplicate_block_names}}
  tensorir.block "B" {
  }
  tensorir.return
}

// -----

func.func @return_outside() {
  // expected-error @+1 {{'tensorir.return' op expects parent op 'tensorir.prim_func'}}
  tensorir.return
}

//===----------------------------------------------------------------------===//
// alloc_buffer
//===----------------------------------------------------------------------===//

// -----

tensorir.prim_func @alloc_sizes(%n: index) {
  // expected-error @+1 {{'tensorir.alloc_buffer' op has 1 dynamic sizes, but 'memref<?x?xf32>' has 2 dynamic dimensions}}
  %T = tensorir.alloc_buffer(%n) : memref<?x?xf32>
  tensorir.return
}

// -----

tensorir.prim_func @alloc_in_loop() {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.alloc_buffer' op must be directly inside a 'tensorir.prim_func' or a 'tensorir.block' (its scope), not inside 'tensorir.for'}}
    %T = tensorir.alloc_buffer : memref<4xf32>
  }
  tensorir.return
}

//===----------------------------------------------------------------------===//
// for
//===----------------------------------------------------------------------===//

// -----

tensorir.prim_func @zero_step() {
  // expected-error @+1 {{'tensorir.for' op step must be positive, got 0}}
  tensorir.for %i = 0 to 4 step 0 {
  }
  tensorir.return
}

// -----

tensorir.prim_func @bad_thread_tag() {
  // expected-error @+1 {{unknown thread tag "threadIdx.w", expected blockIdx.{x,y,z}, threadIdx.{x,y,z} or vthread[.{x,y,z}]}}
  tensorir.for %i = 0 to 4 thread_binding("threadIdx.w") {
  }
  tensorir.return
}

// -----

tensorir.prim_func @thread_binding_without_tag() {
  // expected-error @+1 {{'tensorir.for' op kind thread_binding requires a thread tag}}
  "tensorir.for"() <{kind = #tensorir.for_kind<thread_binding>, static_bounds = array<i64: 0, 4, 1>}> ({
  ^bb0(%i: index):
    tensorir.yield
  }) : () -> ()
  tensorir.return
}

// -----

tensorir.prim_func @tag_on_parallel() {
  // expected-error @+1 {{'tensorir.for' op has thread tag "threadIdx.x" but kind parallel; only thread_binding loops are bound to threads}}
  "tensorir.for"() <{kind = #tensorir.for_kind<parallel>, static_bounds = array<i64: 0, 4, 1>, thread_tag = "threadIdx.x"}> ({
  ^bb0(%i: index):
    tensorir.yield
  }) : () -> ()
  tensorir.return
}

// -----

tensorir.prim_func @for_bounds_count() {
  // expected-error @+1 {{'tensorir.for' op expects 3 static bounds (lower, upper, step), got 2}}
  "tensorir.for"() <{static_bounds = array<i64: 0, 4>}> ({
  ^bb0(%i: index):
    tensorir.yield
  }) : () -> ()
  tensorir.return
}

// -----

tensorir.prim_func @for_two_ivs() {
  // expected-error @+1 {{'tensorir.for' op body must have exactly one 'index' argument (the induction variable)}}
  "tensorir.for"() <{static_bounds = array<i64: 0, 4, 1>}> ({
  ^bb0(%i: index, %j: index):
    tensorir.yield
  }) : () -> ()
  tensorir.return
}

//===----------------------------------------------------------------------===//
// block: structure
//===----------------------------------------------------------------------===//

// -----

tensorir.prim_func @empty_name() {
  // expected-error @+1 {{'tensorir.block' op name must not be empty}}
  tensorir.block "" {
  }
  tensorir.return
}

// -----

tensorir.prim_func @unknown_kind() {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{expected iteration variable kind 'spatial' or 'reduce', got 'scan'}}
    tensorir.block "B"(%vi = scan(4, %i)) {
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @binding_count() {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op has 2 iteration variables but 1 bindings}}
    "tensorir.block"(%i) <{name = "B", iter_types = [#tensorir.iter_var_type<spatial>, #tensorir.iter_var_type<spatial>], static_extents = array<i64: 4, 4>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0>}> ({
    ^bb0(%vi: index, %vj: index):
      tensorir.yield
    }) : (index) -> ()
  }
  tensorir.return
}

// -----

tensorir.prim_func @extent_count() {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op has 1 iteration variable kinds but 2 extents}}
    "tensorir.block"(%i) <{name = "B", iter_types = [#tensorir.iter_var_type<spatial>], static_extents = array<i64: 4, 4>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0>}> ({
    ^bb0(%vi: index):
      tensorir.yield
    }) : (index) -> ()
  }
  tensorir.return
}

// -----

tensorir.prim_func @block_args() {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op body must have one 'index' argument per iteration variable (1), got 0 arguments}}
    "tensorir.block"(%i) <{name = "B", iter_types = [#tensorir.iter_var_type<spatial>], static_extents = array<i64: 4>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0>}> ({
      tensorir.yield
    }) : (index) -> ()
  }
  tensorir.return
}

// -----

tensorir.prim_func @zero_extent() {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op iteration variable #0 'vi' has extent 0, expected a positive extent}}
    tensorir.block "B"(%vi = spatial(0, %i)) {
    }
  }
  tensorir.return
}

//===----------------------------------------------------------------------===//
// block: bindings
//===----------------------------------------------------------------------===//

// -----

tensorir.prim_func @binding_outside_domain() {
  tensorir.for %i = 0 to 128 {
    // expected-error @+1 {{'tensorir.block' op binding of iteration variable #0 'vi' ranges over [0, 128), outside its domain [0, 64)}}
    tensorir.block "B"(%vi = spatial(64, %i)) {
    }
  }
  tensorir.return
}

// -----

// A binding whose range int64_t cannot hold (15 * 2^62) has no static range:
// it is not checked, rather than overflowing.
tensorir.prim_func @binding_range_overflows() {
  tensorir.for %i = 0 to 4611686018427387904 {
    %b = affine.apply affine_map<(d0) -> (d0 * 15)>(%i)
    tensorir.block "B"(%vi = spatial(64, %b)) {
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @binding_at_int64_max() {
  %c = arith.constant 9223372036854775807 : index
  // expected-error @+1 {{'tensorir.block' op binding of iteration variable #0 'vi' ranges over [9223372036854775807, 9223372036854775807], outside its domain [0, 64)}}
  tensorir.block "B"(%vi = spatial(64, %c)) {
  }
  tensorir.return
}

// -----

tensorir.prim_func @split_binding_outside_domain() {
  tensorir.for %i0 = 0 to 16 {
    tensorir.for %i1 = 0 to 4 {
      %b = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1 + 1)>(%i0, %i1)
      // expected-error @+1 {{'tensorir.block' op binding of iteration variable #0 'vi' ranges over [1, 65), outside its domain [0, 64)}}
      tensorir.block "B"(%vi = spatial(64, %b)) {
      }
    }
  }
  tensorir.return
}

// -----

// A non-divisible split without T.where.
tensorir.prim_func @split_tail_without_where(%A: memref<100xf32>) {
  tensorir.for %i0 = 0 to 4 {
    tensorir.for %i1 = 0 to 32 {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%i0, %i1)
      // expected-error @+1 {{'tensorir.block' op binding of iteration variable #0 'vi' ranges over [0, 128), outside its domain [0, 100)}}
      tensorir.block "B"(%vi = spatial(100, %v)) {
      }
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @fused_binding_outside_domain() {
  tensorir.for %f = 0 to 64 {
    %i = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%f)
    // expected-error @+1 {{'tensorir.block' op binding of iteration variable #0 'vi' ranges over [0, 16), outside its domain [0, 15)}}
    tensorir.block "B"(%vi = spatial(15, %i)) {
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @body_uses_loop_var(%A: memref<4xf32>) {
  // expected-note @+1 {{loop is here}}
  tensorir.for %i = 0 to 4 {
    tensorir.block "B"(%vi = spatial(4, %i)) {
      %zero = arith.constant 0.0 : f32
      // expected-error @+1 {{'memref.store' op uses a value that depends on the induction variable of an enclosing 'tensorir.for' of block 'B'; the block body may only see loop variables through its iteration variable bindings}}
      memref.store %zero, %A[%i] : memref<4xf32>
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @body_uses_loop_var_indirectly(%A: memref<8xf32>) {
  tensorir.for %i = 0 to 4 {
    // expected-note @+1 {{loop is here}}
    tensorir.for %j = 0 to 2 {
      %c1 = arith.constant 1 : index
      %n = arith.addi %j, %c1 : index
      tensorir.block "B"(%vi = spatial(4, %i)) {
        %zero = arith.constant 0.0 : f32
        // expected-error @+1 {{'memref.store' op uses a value that depends on the induction variable of an enclosing 'tensorir.for' of block 'B'}}
        memref.store %zero, %A[%n] : memref<8xf32>
      }
    }
  }
  tensorir.return
}

//===----------------------------------------------------------------------===//
// block: reads / writes
//===----------------------------------------------------------------------===//

// -----

tensorir.prim_func @region_not_iter_var(%A: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'%i' in a buffer region is not an iteration variable of this block}}
    tensorir.block "B"(%vi = spatial(4, %i)) reads(%A[%i] : memref<4xf32>) {
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @region_rank(%A: memref<4x4xf32>) {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op read region #0 has 1 dimensions but the buffer 'memref<4x4xf32>' has rank 2}}
    tensorir.block "B"(%vi = spatial(4, %i)) reads(%A[%vi] : memref<4x4xf32>) {
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @region_out_of_bounds(%A: memref<128xf32>) {
  tensorir.for %i = 0 to 128 {
    // expected-error @+1 {{'tensorir.block' op read region #0 of dimension 0 ranges over [1, 129) which is outside the buffer's [0, 128)}}
    tensorir.block "B"(%vi = spatial(128, %i)) reads(%A[%vi + 1] : memref<128xf32>) {
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @region_empty(%A: memref<128xf32>) {
  tensorir.for %i = 0 to 128 {
    // expected-error @+1 {{'tensorir.block' op write region #0 is empty in dimension 0 (size 0)}}
    tensorir.block "B"(%vi = spatial(128, %i)) writes(%A[%vi:%vi] : memref<128xf32>) {
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @reduce_var_in_write_region(%A: memref<8x8xf32>, %S: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      // expected-error @+1 {{'tensorir.block' op reduce iteration variable #1 'vk' is used in dimension 0 of write region #0; reduce variables may only index what is read}}
      tensorir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) writes(%S[%vk] : memref<8xf32>) {
      }
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @buffers_without_regions(%A: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op has 1 read buffers but no read regions}}
    "tensorir.block"(%i, %A) <{name = "B", iter_types = [#tensorir.iter_var_type<spatial>], static_extents = array<i64: 4>, operandSegmentSizes = array<i32: 0, 1, 0, 1, 0>}> ({
    ^bb0(%vi: index):
      tensorir.yield
    }) : (index, memref<4xf32>) -> ()
  }
  tensorir.return
}

//===----------------------------------------------------------------------===//
// block: body accesses and init
//===----------------------------------------------------------------------===//

// -----

tensorir.prim_func @reduce_var_in_store(%A: memref<8x8xf32>, %S: memref<8xf32>) {
  tensorir.for %i = 0 to 8 {
    tensorir.for %k = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        %a = memref.load %A[%vi, %vk] : memref<8x8xf32>
        %idx = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%vk)
        // expected-error @+1 {{'memref.store' op index 0 of this write depends on reduce iteration variable #1 'vk' of block 'B'; reduce variables may only index what is read}}
        memref.store %a, %S[%idx] : memref<8xf32>
      }
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @load_out_of_bounds(%A: memref<128xf32>, %B: memref<128xf32>) {
  tensorir.for %i = 0 to 128 {
    tensorir.block "B"(%vi = spatial(128, %i)) {
      %c1 = arith.constant 1 : index
      %next = arith.addi %vi, %c1 : index
      // expected-error @+1 {{'memref.load' op index 0 ranges over [1, 129) but dimension 0 of the buffer has size 128 (in block 'B')}}
      %a = memref.load %A[%next] : memref<128xf32>
      memref.store %a, %B[%vi] : memref<128xf32>
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @constant_index_out_of_bounds(%A: memref<4x4xf32>) {
  tensorir.block "B" {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{'memref.store' op index 1 ranges over [4, 5) but dimension 1 of the buffer has size 4 (in block 'B')}}
    memref.store %zero, %A[%c0, %c4] : memref<4x4xf32>
  }
  tensorir.return
}

// -----

// An index at INT64_MAX: the range is printed closed (its half-open end
// would overflow; found by the mlc-opt fuzzer, UBSan).
tensorir.prim_func @index_at_int64_max(%A: memref<4xf32>) {
  tensorir.block "B" {
    %c = arith.constant 9223372036854775807 : index
    %zero = arith.constant 0.0 : f32
    // expected-error @+1 {{'memref.store' op index 0 ranges over [9223372036854775807, 9223372036854775807] but dimension 0 of the buffer has size 4 (in block 'B')}}
    memref.store %zero, %A[%c] : memref<4xf32>
  }
  tensorir.return
}

// -----

tensorir.prim_func @init_without_reduce(%A: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.block "B"(%vi = spatial(4, %i)) {
      // expected-error @+1 {{'tensorir.init' op is only allowed in a block with a reduce iteration variable, but block 'B' has none}}
      tensorir.init {
      }
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @init_not_first(%S: memref<1xf32>) {
  tensorir.for %k = 0 to 4 {
    tensorir.block "B"(%vk = reduce(4, %k)) {
      %zero = arith.constant 0.0 : f32
      // expected-error @+1 {{'tensorir.init' op must be the first op of block 'B' (at most one init per block)}}
      tensorir.init {
      }
    }
  }
  tensorir.return
}

// -----

func.func @init_outside_block() {
  // expected-error @+1 {{'tensorir.init' op expects parent op 'tensorir.block'}}
  tensorir.init {
  }
  return
}

// -----

tensorir.prim_func @yield_in_prim_func() {
  // expected-error @+1 {{'tensorir.yield' op expects parent op to be one of 'tensorir.for, tensorir.block, tensorir.init'}}
  tensorir.yield
}

//===----------------------------------------------------------------------===//
// More parser and structure checks
//===----------------------------------------------------------------------===//

// -----

tensorir.prim_func @region_symbol(%A: memref<4xf32>, %n: index) {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{buffer regions take no symbols, only iteration variables of the block}}
    tensorir.block "B"(%vi = spatial(4, %i)) reads(%A[symbol(%n)] : memref<4xf32>) {
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @region_types(%A: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{expected 1 buffer types, got 2}}
    tensorir.block "B"(%vi = spatial(4, %i)) reads(%A[%vi] : memref<4xf32>, memref<4xf32>) {
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @region_count(%A: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op has 1 write buffers but 0 write regions}}
    "tensorir.block"(%i, %A) <{name = "B", iter_types = [#tensorir.iter_var_type<spatial>], static_extents = array<i64: 4>, writes = [], operandSegmentSizes = array<i32: 0, 1, 0, 0, 1>}> ({
    ^bb0(%vi: index):
      tensorir.yield
    }) : (index, memref<4xf32>) -> ()
  }
  tensorir.return
}

// -----

tensorir.prim_func @dynamic_extent_count() {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op has 0 dynamic extent operands but 1 extents are marked dynamic}}
    "tensorir.block"(%i) <{name = "B", iter_types = [#tensorir.iter_var_type<spatial>], static_extents = array<i64: -9223372036854775808>, operandSegmentSizes = array<i32: 0, 1, 0, 0, 0>}> ({
    ^bb0(%vi: index):
      tensorir.yield
    }) : (index) -> ()
  }
  tensorir.return
}

// -----

tensorir.prim_func @dynamic_bound_count() {
  // expected-error @+1 {{'tensorir.for' op has 0 dynamic bound operands, but 1 bounds are marked dynamic}}
  "tensorir.for"() <{static_bounds = array<i64: 0, -9223372036854775808, 1>}> ({
  ^bb0(%i: index):
    tensorir.yield
  }) : () -> ()
  tensorir.return
}

// -----

tensorir.prim_func @name_count() {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op has 1 iteration variables but 2 iteration variable names}}
    "tensorir.block"(%i) <{name = "B", iter_types = [#tensorir.iter_var_type<spatial>], static_extents = array<i64: 4>, iter_var_names = ["a", "b"], operandSegmentSizes = array<i32: 0, 1, 0, 0, 0>}> ({
    ^bb0(%vi: index):
      tensorir.yield
    }) : (index) -> ()
  }
  tensorir.return
}

// -----

tensorir.prim_func @region_map_dims(%A: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    // expected-error @+1 {{'tensorir.block' op read region #0 must be a function of the block's 1 iteration variables (and no symbols), got affine_map<(d0, d1) -> (d0)>}}
    "tensorir.block"(%i, %A) <{name = "B", iter_types = [#tensorir.iter_var_type<spatial>], static_extents = array<i64: 4>, reads = [#tensorir.region<affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0 + 1)>>], operandSegmentSizes = array<i32: 0, 1, 0, 1, 0>}> ({
    ^bb0(%vi: index):
      tensorir.yield
    }) : (index, memref<4xf32>) -> ()
  }
  tensorir.return
}

// -----

tensorir.prim_func @iter_var_in_other_region(%A: memref<4xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.block "outer"(%vo = spatial(4, %i)) {
      // expected-error @+1 {{'%vo' in a buffer region is not an iteration variable of this block}}
      tensorir.block "inner"(%vi = spatial(4, %vo)) reads(%A[%vo] : memref<4xf32>) {
      }
    }
  }
  tensorir.return
}

// -----

tensorir.prim_func @int64_min_literal() {
  // expected-error @+1 {{integer -9223372036854775808 is out of range (it marks a dynamic value)}}
  tensorir.for %i = -9223372036854775808 to 4 {
  }
}

// -----

// Zero-width integers are no TVM dtype, and LLVM cannot load or store them
// (found by the gpu-pipeline fuzzer, seed 47: its optimizer crashed).
// expected-error @+1 {{'tensorir.prim_func' op argument #0 has type 'memref<?xi0>', whose zero-width integers are no TVM dtype}}
tensorir.prim_func @i0_buffer(%A: memref<?xi0>) {
  tensorir.return
}

// -----

tensorir.prim_func @i0_alloc_buffer() {
  // expected-error @+1 {{'tensorir.alloc_buffer' op allocates 'memref<4xi0>', whose zero-width integers are no TVM dtype}}
  %0 = tensorir.alloc_buffer : memref<4xi0>
  tensorir.return
}
