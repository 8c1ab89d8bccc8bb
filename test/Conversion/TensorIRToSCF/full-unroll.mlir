// convert-tensorir-to-scf{full-unroll}: `unrolled` loops with constant trip
// counts are unrolled here (a register tile indexed by constants only);
// without the option, and for a dynamic trip count, they stay loops with
// LLVM unroll metadata.
// RUN: mlc-opt %s --convert-tensorir-to-scf=full-unroll | FileCheck %s
// RUN: mlc-opt %s --convert-tensorir-to-scf | FileCheck %s --check-prefix=METADATA

// CHECK-LABEL: func.func @tile(
// CHECK-NOT: scf.for
// CHECK-COUNT-4: memref.store %{{.*}} : memref<2x2xf32>
// CHECK-NOT: memref.store
// CHECK-LABEL: func.func @dynamic(
// CHECK: scf.for
// CHECK: } {llvm.loop_annotation = {{.*}}, tensorir.loop_kind = #tensorir.for_kind<unrolled>}
// METADATA-LABEL: func.func @tile(
// METADATA: scf.for
// METADATA: scf.for
// METADATA: } {llvm.loop_annotation = {{.*}}, tensorir.loop_kind = #tensorir.for_kind<unrolled>}
// METADATA: } {llvm.loop_annotation = {{.*}}, tensorir.loop_kind = #tensorir.for_kind<unrolled>}
tensorir.prim_func @tile(%T: memref<2x2xf32>) {
  tensorir.for %i = 0 to 2 unrolled {
    tensorir.for %j = 0 to 2 unrolled {
      tensorir.block "T"(%vi = spatial(2, %i), %vj = spatial(2, %j)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %T[%vi, %vj] : memref<2x2xf32>
      }
    }
  }
}
tensorir.prim_func @dynamic(%T: memref<?xf32>, %n: index) {
  tensorir.for %i = 0 to %n unrolled {
    tensorir.block "T"(%vi = spatial(%n, %i)) {
      %zero = arith.constant 0.0 : f32
      memref.store %zero, %T[%vi] : memref<?xf32>
    }
  }
}
