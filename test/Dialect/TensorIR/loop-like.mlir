// tensorir.for implements LoopLikeOpInterface: upstream loop-invariant code
// motion hoists binding arithmetic that does not depend on the inner loop, and
// leaves blocks (which have memory effects) in place. Canonicalization and CSE
// keep the IR valid (constants move to the prim_func, which a block body may
// use).
// RUN: mlc-opt %s --loop-invariant-code-motion | FileCheck %s
// RUN: mlc-opt %s --canonicalize --cse --verify-each | FileCheck %s --check-prefix=CANON

// CHECK-LABEL: tensorir.prim_func @licm
// CHECK:         tensorir.for %i0 = 0 to 16 {
// CHECK-NEXT:      %[[BASE:.*]] = affine.apply #{{.*}}(%i0)
// CHECK-NEXT:      tensorir.for %i1 = 0 to 4 {
// CHECK-NEXT:        %[[B:.*]] = affine.apply #{{.*}}(%[[BASE]], %i1)
// CHECK-NEXT:        tensorir.block "B"(%vi = spatial(64, %[[B]])) {

// CANON-LABEL: tensorir.prim_func @licm
// CANON-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CANON:         tensorir.block "B"
// CANON-NEXT:      memref.store %[[ZERO]], %A[%vi]
tensorir.prim_func @licm(%A: memref<64xf32>) {
  tensorir.for %i0 = 0 to 16 {
    tensorir.for %i1 = 0 to 4 {
      %base = affine.apply affine_map<(d0) -> (d0 * 4)>(%i0)
      %b = affine.apply affine_map<(d0, d1) -> (d0 + d1)>(%base, %i1)
      tensorir.block "B"(%vi = spatial(64, %b)) {
        %zero = arith.constant 0.0 : f32
        memref.store %zero, %A[%vi] : memref<64xf32>
      }
    }
  }
  tensorir.return
}
