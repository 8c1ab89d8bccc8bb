// RUN: mlc-opt %s -split-input-file -mlc-pack-constant-globals='min-bytes=64' | FileCheck %s
// RUN: mlc-opt %s -split-input-file -mlc-pack-constant-globals | FileCheck %s --check-prefix=DEFAULT

// A dense constant of 4x8 f32 (128 bytes) and a dense_resource one of
// 16x4 f32 (256 bytes): flat byte arrays of the same bytes (1.0f is
// 0x3F800000, little-endian), the resource's blob shared. The users only
// take their address. Under the default threshold (4096 bytes) they stay.
// CHECK-LABEL: module @packed
// CHECK:         llvm.mlir.global private constant @dense(dense<"0x0000803F{{.*}}"> : tensor<128xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<128 x i8>
// CHECK:         llvm.mlir.global private constant @resource(dense_resource<blob> : tensor<256xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<256 x i8>
// CHECK:         gpu.module @kernels
// CHECK:           llvm.mlir.global private constant @weights(dense<"0x0000803F{{.*}}"> : tensor<128xi8>) {{.*}} : !llvm.array<128 x i8>
// CHECK:         llvm.mlir.addressof @dense : !llvm.ptr
// DEFAULT-LABEL: module @packed
// DEFAULT:         : !llvm.array<4 x array<8 x f32>>
// DEFAULT:         : !llvm.array<16 x array<4 x f32>>
module @packed attributes {gpu.container_module} {
  llvm.mlir.global private constant @dense(dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0]]> : tensor<4x8xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<4 x array<8 x f32>>
  llvm.mlir.global private constant @resource(dense_resource<blob> : tensor<16x4xf32>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<16 x array<4 x f32>>
  gpu.module @kernels {
    llvm.mlir.global private constant @weights(dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0]]> : tensor<4x8xf32>) {addr_space = 0 : i32} : !llvm.array<4 x array<8 x f32>>
  }
  llvm.func @use() -> !llvm.ptr {
    %0 = llvm.mlir.addressof @dense : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
}
{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F"
    }
  }
#-}

// -----

// Left alone: a splat (LLVM keeps it as one value; one of more bytes than
// int64_t counts too, found by the mlc-run fuzzer, seed 43), booleans
// (packed as bits, not bytes), a mutable global, and one below min-bytes.
// CHECK-LABEL: module @kept
// CHECK:         @splat(dense<1.000000e+00> : tensor<64xf32>) {{.*}} : !llvm.array<64 x f32>
// CHECK:         @huge_splat(dense<0> : tensor<9223372036854775807xi64>)
// CHECK:         @bools({{.*}} : tensor<1024xi1>) {{.*}} : !llvm.array<1024 x i1>
// CHECK:         @mutable({{.*}} : tensor<32xf32>) {{.*}} : !llvm.array<32 x f32>
// CHECK:         @small(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) {{.*}} : !llvm.array<2 x f32>
module @kept {
  llvm.mlir.global private constant @splat(dense<1.0> : tensor<64xf32>) {addr_space = 0 : i32} : !llvm.array<64 x f32>
  llvm.mlir.global private constant @huge_splat(dense<0> : tensor<9223372036854775807xi64>) {addr_space = 0 : i32} : !llvm.array<9223372036854775807 x i64>
  llvm.mlir.global private constant @bools(dense<true> : tensor<1024xi1>) {addr_space = 0 : i32} : !llvm.array<1024 x i1>
  llvm.mlir.global private @mutable(dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<32xf32>) {addr_space = 0 : i32} : !llvm.array<32 x f32>
  llvm.mlir.global private constant @small(dense<[1.0, 2.0]> : tensor<2xf32>) {addr_space = 0 : i32} : !llvm.array<2 x f32>
}
