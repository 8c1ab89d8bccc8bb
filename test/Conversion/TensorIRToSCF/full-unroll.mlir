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

// A vectorized loop whose block is masked by a condition that does not
// depend on the lane (row < 3, rows of 4 lanes) is put inside one scf.if:
// the unrolled lanes share a block. A mask that depends on the lane
// (column < 3) stays one scf.if per lane.
// CHECK-LABEL: func.func @lane_invariant_mask(
// CHECK:       scf.for
// CHECK:         %[[ROW_OK:.*]] = arith.cmpi ult, %{{.*}}, %c3
// CHECK-NEXT:    scf.if %[[ROW_OK]] {
// CHECK-COUNT-4:   memref.store
// CHECK-NOT:     scf.if
// CHECK:         return
// CHECK-LABEL: func.func @lane_mask(
// CHECK-COUNT-4: scf.if
// A column mask that the vector of lanes divides (column 4 * k + lane <
// 8: every lane of a vector agrees) is the same for all lanes: it is
// asked once, at lane 0, and the lanes share one scf.if. With 6 columns
// (no multiple of 4) it stays one scf.if per lane.
// CHECK-LABEL: func.func @lane_uniform_column_mask(
// CHECK:       scf.for %[[K:.*]] =
// CHECK:         %[[COL0:.*]] = affine.apply #{{.*}}(%[[K]], %{{.*}})
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi ult, %[[COL0]], %c8
// CHECK-NEXT:    scf.if %[[OK]] {
// CHECK-COUNT-4:   memref.store
// CHECK-NOT:     scf.if
// CHECK:         return
// CHECK-LABEL: func.func @lane_column_mask_not_divided(
// CHECK-COUNT-4: scf.if
// A load through a reshape's div and rem by the buffer's last dimension
// (16) indexes the buffer with its last two dimensions collapsed by the
// linear index, which is consecutive across the lanes; a div and rem by
// another number (8, of a 16-wide buffer) stay.
// CHECK-LABEL: func.func @delinearized_load(
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<4x16xf16> into memref<64xf16>
// CHECK:         memref.load %[[FLAT]][%{{.*}}] : memref<64xf16>
// CHECK-COUNT-3: memref.load %{{.*}}[%{{.*}}] : memref<64xf16>
// CHECK-NOT:     memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x16xf16>
// CHECK-LABEL: func.func @delinearized_other_divisor(
// CHECK-NOT:     memref.collapse_shape
// CHECK-COUNT-4: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<8x16xf16>
// A lane's x = x0 + lane with x0 a multiple of the lane count (2), which
// divides the divisor (4): x div 4 is x0 div 4 for every lane and x rem 4
// is (x0 rem 4) + lane, so the lanes' addresses are visibly consecutive
// (the head merge of a transformer: its innermost index x rem 64 under a
// dimension of size 1). Not with x0 = 3 k, which need not be even.
// CHECK-LABEL: func.func @lane_div_rem(
// CHECK:         %[[Q0:.*]] = arith.divui %[[X0:.*]], %c4
// CHECK:         %[[R0:.*]] = arith.remui %{{.*}}, %c4
// CHECK:         %[[L0:.*]] = arith.addi %[[R0]], %c0
// CHECK:         memref.load %{{.*}}[%[[Q0]], %[[L0]]]
// CHECK:         %[[Q1:.*]] = arith.divui %{{.*}}, %c4
// CHECK:         %[[R1:.*]] = arith.remui %{{.*}}, %c4
// CHECK:         %[[L1:.*]] = arith.addi %[[R1]], %[[ONE:.*]] : index
// CHECK:         memref.load %{{.*}}[%[[Q1]], %[[L1]]]
// CHECK-LABEL: func.func @lane_div_rem_unaligned(
// CHECK:         %[[X:.*]] = affine.apply #{{.*}}(%{{.*}}, %c0)
// CHECK-NEXT:    arith.divui %[[X]], %c4
// CHECK-NEXT:    arith.remui %[[X]], %c4
// CHECK-NEXT:    memref.load
tensorir.prim_func @lane_invariant_mask(%T: memref<3x4xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 4 vectorized {
      %c3 = arith.constant 3 : index
      %row_ok = arith.cmpi ult, %i, %c3 : index
      tensorir.block "T"(%vi = spatial(3, %i), %vj = spatial(4, %j)) where(%row_ok) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %T[%vi, %vj] : memref<3x4xf32>
      }
    }
  }
}
tensorir.prim_func @lane_mask(%T: memref<4x3xf32>) {
  tensorir.for %i = 0 to 4 {
    tensorir.for %j = 0 to 4 vectorized {
      %c3 = arith.constant 3 : index
      %column_ok = arith.cmpi ult, %j, %c3 : index
      tensorir.block "T"(%vi = spatial(4, %i), %vj = spatial(3, %j)) where(%column_ok) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %T[%vi, %vj] : memref<4x3xf32>
      }
    }
  }
}
#column = affine_map<(d0, d1) -> (d0 * 4 + d1)>
tensorir.prim_func @lane_uniform_column_mask(%T: memref<2x8xf32>) {
  tensorir.for %k = 0 to 3 {
    tensorir.for %j = 0 to 4 vectorized {
      %c8 = arith.constant 8 : index
      %col = affine.apply #column(%k, %j)
      %column_ok = arith.cmpi ult, %col, %c8 : index
      tensorir.block "T"(%vj = spatial(8, %col)) where(%column_ok) {
        %zero = arith.constant 0.0 : f32
        %c1 = arith.constant 1 : index
        memref.store %zero, %T[%c1, %vj] : memref<2x8xf32>
      }
    }
  }
}
tensorir.prim_func @lane_column_mask_not_divided(%T: memref<2x6xf32>) {
  tensorir.for %k = 0 to 2 {
    tensorir.for %j = 0 to 4 vectorized {
      %c6 = arith.constant 6 : index
      %col = affine.apply #column(%k, %j)
      %column_ok = arith.cmpi ult, %col, %c6 : index
      tensorir.block "T"(%vj = spatial(6, %col)) where(%column_ok) {
        %zero = arith.constant 0.0 : f32
        %c1 = arith.constant 1 : index
        memref.store %zero, %T[%c1, %vj] : memref<2x6xf32>
      }
    }
  }
}
tensorir.prim_func @delinearized_load(%X: memref<4x16xf16>, %Y: memref<16x4xf16>) {
  %c16 = arith.constant 16 : index
  tensorir.for %k = 0 to 16 {
    tensorir.for %j = 0 to 4 vectorized {
      %x = affine.apply #column(%k, %j)
      %q = arith.divui %x, %c16 : index
      %r = arith.remui %x, %c16 : index
      %v = memref.load %X[%q, %r] : memref<4x16xf16>
      memref.store %v, %Y[%k, %j] : memref<16x4xf16>
    }
  }
}
tensorir.prim_func @delinearized_other_divisor(%X: memref<8x16xf16>, %Y: memref<16x4xf16>) {
  %c8 = arith.constant 8 : index
  tensorir.for %k = 0 to 16 {
    tensorir.for %j = 0 to 4 vectorized {
      %x = affine.apply #column(%k, %j)
      %q = arith.divui %x, %c8 : index
      %r = arith.remui %x, %c8 : index
      %v = memref.load %X[%q, %r] : memref<8x16xf16>
      memref.store %v, %Y[%k, %j] : memref<16x4xf16>
    }
  }
}
#three = affine_map<(d0, d1) -> (d0 * 3 + d1)>
tensorir.prim_func @lane_div_rem(%X: memref<8x8xf16>, %Y: memref<16x2xf16>) {
  %c4 = arith.constant 4 : index
  tensorir.for %k = 0 to 16 {
    tensorir.for %j = 0 to 2 vectorized {
      %x = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%k, %j)
      %q = arith.divui %x, %c4 : index
      %r = arith.remui %x, %c4 : index
      %v = memref.load %X[%q, %r] : memref<8x8xf16>
      memref.store %v, %Y[%k, %j] : memref<16x2xf16>
    }
  }
}
tensorir.prim_func @lane_div_rem_unaligned(%X: memref<16x8xf16>, %Y: memref<16x2xf16>) {
  %c4 = arith.constant 4 : index
  tensorir.for %k = 0 to 16 {
    tensorir.for %j = 0 to 2 vectorized {
      %x = affine.apply #three(%k, %j)
      %q = arith.divui %x, %c4 : index
      %r = arith.remui %x, %c4 : index
      %v = memref.load %X[%q, %r] : memref<16x8xf16>
      memref.store %v, %Y[%k, %j] : memref<16x2xf16>
    }
  }
}

// The unrolled lanes of a write-back that stores two outputs (a float32
// result and its float16 copy) and reads a third buffer: with
// tensorir.noalias the stores move after the loads, grouped by buffer in
// their order, so that LLVM (not told that the buffers are distinct) can
// merge each buffer's accesses into vector ones.
// CHECK-LABEL: func.func @two_outputs(
// CHECK-COUNT-4: memref.load %arg0
// CHECK-NOT:     memref.load
// CHECK-COUNT-4: memref.store %{{.*}}, %arg1[
// CHECK-COUNT-4: memref.store %{{.*}}, %arg2[
// CHECK-NEXT:    return
tensorir.prim_func @two_outputs(%A: memref<4xf32>, %B: memref<4xf32>, %H: memref<4xf16>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 4 vectorized {
    tensorir.block "B"(%vi = spatial(4, %i)) {
      %a = memref.load %A[%vi] : memref<4xf32>
      %e = math.exp %a : f32
      memref.store %e, %B[%vi] : memref<4xf32>
      %h = arith.truncf %e : f32 to f16
      memref.store %h, %H[%vi] : memref<4xf16>
    }
  }
}
// Without noalias (the buffers may overlap), and when a lane loads what
// another one stores (the stores would pass the load), the order stays.
// CHECK-LABEL: func.func @may_alias(
// CHECK:         memref.load %arg0[%c0]
// CHECK-NEXT:    memref.store %{{.*}}, %arg1[%c0]
// CHECK-NEXT:    arith.truncf
// CHECK-NEXT:    memref.store %{{.*}}, %arg2[%c0]
// CHECK:         memref.load %arg0
// CHECK-LABEL: func.func @reads_stored(
// CHECK:         memref.load %arg0[%c0]
// CHECK-NEXT:    arith.constant 1
// CHECK-NEXT:    %[[N:.*]] = arith.addi
// CHECK-NEXT:    memref.store %{{.*}}, %arg0[%[[N]]]
// CHECK-NEXT:    arith.truncf
// CHECK-NEXT:    memref.store %{{.*}}, %arg1[%c0]
// CHECK:         memref.load %arg0
tensorir.prim_func @may_alias(%A: memref<4xf32>, %B: memref<4xf32>, %H: memref<4xf16>) {
  tensorir.for %i = 0 to 4 vectorized {
    tensorir.block "B"(%vi = spatial(4, %i)) {
      %a = memref.load %A[%vi] : memref<4xf32>
      memref.store %a, %B[%vi] : memref<4xf32>
      %h = arith.truncf %a : f32 to f16
      memref.store %h, %H[%vi] : memref<4xf16>
    }
  }
}
tensorir.prim_func @reads_stored(%A: memref<5xf32>, %H: memref<4xf16>) attributes {tensorir.noalias} {
  tensorir.for %i = 0 to 4 unrolled {
    tensorir.block "B"(%vi = spatial(4, %i)) {
      %a = memref.load %A[%vi] : memref<5xf32>
      %c1 = arith.constant 1 : index
      %n = arith.addi %vi, %c1 : index
      memref.store %a, %A[%n] : memref<5xf32>
      %h = arith.truncf %a : f32 to f16
      memref.store %h, %H[%vi] : memref<4xf16>
    }
  }
}
