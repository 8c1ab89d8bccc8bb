// RUN: mlc-opt %s -split-input-file -mlc-deduplicate-functions | FileCheck %s

// Two private prim_funcs with the same body under different names (what
// relax-fuse-tir makes for two call sites of one layer): the second goes
// and its call sites call the first.
// CHECK-LABEL: module @repeated_layer
// CHECK:         tensorir.prim_func private @relu(
// CHECK-NOT:     tensorir.prim_func private @relu_1(
// CHECK:         tensorir.prim_func private @exp(
// CHECK:         func.func @main
// CHECK:           relax.call_tir @relu(%arg0)
// CHECK:           relax.call_tir @exp(
// CHECK:           relax.call_tir @relu(
module @repeated_layer {
  tensorir.prim_func private @relu(%A: memref<8xf32>, %B: memref<8xf32>) {
    tensorir.for %i = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i)) {
        %a = memref.load %A[%vi] : memref<8xf32>
        %z = arith.constant 0.0 : f32
        %r = arith.maximumf %a, %z : f32
        memref.store %r, %B[%vi] : memref<8xf32>
      }
    }
    tensorir.return
  }
  tensorir.prim_func private @exp(%A: memref<8xf32>, %B: memref<8xf32>) {
    tensorir.for %i = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i)) {
        %a = memref.load %A[%vi] : memref<8xf32>
        %r = math.exp %a : f32
        memref.store %r, %B[%vi] : memref<8xf32>
      }
    }
    tensorir.return
  }
  tensorir.prim_func private @relu_1(%A: memref<8xf32>, %B: memref<8xf32>) {
    tensorir.for %i = 0 to 8 {
      tensorir.block "B"(%vi = spatial(8, %i)) {
        %a = memref.load %A[%vi] : memref<8xf32>
        %z = arith.constant 0.0 : f32
        %r = arith.maximumf %a, %z : f32
        memref.store %r, %B[%vi] : memref<8xf32>
      }
    }
    tensorir.return
  }
  func.func @main(%x: tensor<8xf32>) -> tensor<8xf32> {
    %0 = relax.call_tir @relu(%x) : (tensor<8xf32>) -> tensor<8xf32>
    %1 = relax.call_tir @exp(%0) : (tensor<8xf32>) -> tensor<8xf32>
    %2 = relax.call_tir @relu_1(%1) : (tensor<8xf32>) -> tensor<8xf32>
    return %2 : tensor<8xf32>
  }
}

// -----

// Left alone: public functions (entry points) even when identical, private
// ones that differ in a constant, in an attribute or in an argument
// attribute, and declarations.
// CHECK-LABEL: module @kept
// CHECK:         func.func @entry_a(
// CHECK:         func.func @entry_b(
// CHECK:         func.func private @add_one(
// CHECK:         func.func private @add_two(
// CHECK:         func.func private @add_one_noinline(
// CHECK:         func.func private @add_one_named(
// CHECK:         func.func private @decl(
// CHECK:         func.func private @decl_1(
module @kept {
  func.func @entry_a(%x: f32) -> f32 {
    return %x : f32
  }
  func.func @entry_b(%x: f32) -> f32 {
    return %x : f32
  }
  func.func private @add_one(%x: f32) -> f32 {
    %c = arith.constant 1.0 : f32
    %r = arith.addf %x, %c : f32
    return %r : f32
  }
  func.func private @add_two(%x: f32) -> f32 {
    %c = arith.constant 2.0 : f32
    %r = arith.addf %x, %c : f32
    return %r : f32
  }
  func.func private @add_one_noinline(%x: f32) -> f32 attributes {no_inline} {
    %c = arith.constant 1.0 : f32
    %r = arith.addf %x, %c : f32
    return %r : f32
  }
  func.func private @add_one_named(%x: f32 {relax.name = "x"}) -> f32 {
    %c = arith.constant 1.0 : f32
    %r = arith.addf %x, %c : f32
    return %r : f32
  }
  func.func private @decl(f32) -> f32
  func.func private @decl_1(f32) -> f32
}
