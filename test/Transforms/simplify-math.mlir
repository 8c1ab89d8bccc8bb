// RUN: mlc-opt %s -mlc-simplify-math | FileCheck %s

// Constant exponents become multiplications / sqrt / a division; other
// exponents (2.5, or not a constant) stay powf.
// CHECK-LABEL: func.func @pow
// CHECK-SAME:    (%[[X:.*]]: f32, %[[E:.*]]: f32)
// CHECK:         %[[SQ:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK:         %[[CUBE:.*]] = arith.mulf %[[X]], %[[SQ]] : f32
// CHECK:         %[[SQ2:.*]] = arith.mulf %[[X]], %[[X]] : f32
// CHECK:         %[[ROOT:.*]] = math.sqrt %[[X]] : f32
// CHECK:         %[[INV:.*]] = arith.divf %{{.*}}, %[[X]] : f32
// CHECK:         %[[P25:.*]] = math.powf %[[X]], %{{.*}} : f32
// CHECK:         %[[PE:.*]] = math.powf %[[X]], %[[E]] : f32
// CHECK:         return %[[CUBE]], %[[SQ2]], %[[ROOT]], %[[INV]], %[[P25]], %[[PE]]
func.func @pow(%x: f32, %e: f32) -> (f32, f32, f32, f32, f32, f32) {
  %c3 = arith.constant 3.0 : f32
  %c2 = arith.constant 2.0 : f32
  %half = arith.constant 0.5 : f32
  %m1 = arith.constant -1.0 : f32
  %c25 = arith.constant 2.5 : f32
  %0 = math.powf %x, %c3 : f32
  %1 = math.powf %x, %c2 : f32
  %2 = math.powf %x, %half : f32
  %3 = math.powf %x, %m1 : f32
  %4 = math.powf %x, %c25 : f32
  %5 = math.powf %x, %e : f32
  return %0, %1, %2, %3, %4, %5 : f32, f32, f32, f32, f32, f32
}
