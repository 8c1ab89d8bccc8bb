// RUN: mlc-opt %s -split-input-file -verify-diagnostics -mlc-heap-buffer-cache | FileCheck %s
// RUN: mlc-opt %s -split-input-file -verify-diagnostics -mlc-heap-buffer-cache='slots=4 min-bytes=4096' | FileCheck %s --check-prefix=OPTS
// RUN: not mlc-opt %s -split-input-file -mlc-heap-buffer-cache='slots=0' 2>&1 | FileCheck %s --check-prefix=BADOPT
// BADOPT: error: mlc-heap-buffer-cache: slots must be positive and min-bytes non-negative, got slots = 0, min-bytes = 1048576

// What finalize-memref-to-llvm{use-generic-functions} leaves: declarations of
// the generic allocation functions. They get internal definitions that keep
// freed blocks of at least 1 MiB in 16 slots (atomic exchanges), malloc
// and free otherwise, and a destructor frees the cached blocks at unload.
// The module's own declaration of malloc stays as it is.
// CHECK-LABEL: module @generic
// CHECK:         llvm.func @malloc(i64) -> !llvm.ptr
// CHECK:         llvm.func @user
// CHECK:         llvm.mlir.global internal @__mlc_heap_cache() {{.*}} : !llvm.array<16 x ptr>
// CHECK-NOT:     llvm.func @malloc(
// CHECK:         llvm.func @free(!llvm.ptr)
// CHECK:         llvm.func @malloc_usable_size(!llvm.ptr) -> i64
// CHECK:         llvm.func internal @_mlir_memref_to_llvm_alloc(%{{.*}}: i64) -> !llvm.ptr
// CHECK:           llvm.mlir.constant(1048576 : i64)
// CHECK:           llvm.atomicrmw xchg
// CHECK:           llvm.call @malloc_usable_size
// CHECK:           llvm.call @malloc
// CHECK:         llvm.func internal @_mlir_memref_to_llvm_free(%{{.*}}: !llvm.ptr)
// CHECK:           llvm.cmpxchg
// CHECK:           llvm.call @free
// CHECK:         llvm.func internal @__mlc_heap_cache_release()
// CHECK:         llvm.mlir.global_dtors dtors = [@__mlc_heap_cache_release], priorities = [65535 : i32], data = [#llvm.zero]
// OPTS-LABEL: module @generic
// OPTS:         !llvm.array<4 x ptr>
// OPTS:         llvm.mlir.constant(4096 : i64)
module @generic {
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
  llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
  llvm.func @user(%n: i64) {
    %p = llvm.call @_mlir_memref_to_llvm_alloc(%n) : (i64) -> !llvm.ptr
    llvm.call @_mlir_memref_to_llvm_free(%p) : (!llvm.ptr) -> ()
    llvm.return
  }
}

// -----

// A module with destructors of its own keeps them; the cache is defined but
// has no destructor (its blocks stay until the process ends).
// CHECK-LABEL: module @own_dtors
// CHECK:         llvm.mlir.global_dtors dtors = [@cleanup]
// CHECK:         llvm.func internal @_mlir_memref_to_llvm_alloc
// CHECK-NOT:     llvm.mlir.global_dtors
module @own_dtors {
  llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
  llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
  llvm.func @cleanup() {
    llvm.return
  }
  llvm.mlir.global_dtors dtors = [@cleanup], priorities = [0 : i32], data = [#llvm.zero]
}

// -----

// Left alone: no generic allocation functions (malloc and free called
// directly).
// CHECK-LABEL: module @plain_malloc
// CHECK-NOT:     __mlc_heap_cache
module @plain_malloc {
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
}

// -----

// Left alone: the functions an embedder defines itself.
// CHECK-LABEL: module @embedder
// CHECK:         llvm.func @_mlir_memref_to_llvm_alloc(%{{.*}}: i64) -> !llvm.ptr {
// CHECK-NOT:     __mlc_heap_cache
module @embedder {
  llvm.func @malloc(i64) -> !llvm.ptr
  llvm.func @free(!llvm.ptr)
  llvm.func @_mlir_memref_to_llvm_alloc(%n: i64) -> !llvm.ptr {
    %p = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
    llvm.return %p : !llvm.ptr
  }
  llvm.func @_mlir_memref_to_llvm_free(%p: !llvm.ptr) {
    llvm.call @free(%p) : (!llvm.ptr) -> ()
    llvm.return
  }
}

// -----

// expected-error @+1 {{mlc-heap-buffer-cache: only one of _mlir_memref_to_llvm_alloc and _mlir_memref_to_llvm_free is defined}}
module @half_defined {
  llvm.func @_mlir_memref_to_llvm_alloc(%n: i64) -> !llvm.ptr {
    %p = llvm.mlir.zero : !llvm.ptr
    llvm.return %p : !llvm.ptr
  }
  llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
}

// -----

// expected-error @+1 {{mlc-heap-buffer-cache: the module already defines '__mlc_heap_cache'}}
module @name_taken {
  llvm.mlir.global internal @__mlc_heap_cache(0 : i64) : i64
  llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
  llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)
}
