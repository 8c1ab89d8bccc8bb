// RUN: mlc-opt %s --mlc-approximate-math | FileCheck %s
// RUN: mlc-opt %s --mlc-approximate-math=ops=sin | FileCheck %s --check-prefix=SIN
// RUN: not mlc-opt %s --mlc-approximate-math=ops=exp,foo 2>&1 | FileCheck %s --check-prefix=ERR

// ERR: error: mlc-approximate-math: no approximation of 'math.foo' (known: atan, atan2, cbrt, cos, erf, erfc, exp, expm1, log, log1p, log2, sin, tanh)

// Vectors and scalars of f32 alike: arithmetic (a polynomial in fma) and
// an exponent built from the integer bits, no libm function left.
// CHECK-LABEL: func.func @exp_f32
// CHECK-NOT: math.exp
// CHECK: math.fma {{.*}} : vector<16xf32>
// CHECK: arith.shli {{.*}} : vector<16xi32>
// CHECK-NOT: math.exp
// CHECK: return
// SIN-LABEL: func.func @exp_f32
// SIN: math.exp {{.*}} : vector<16xf32>
// SIN: math.exp {{.*}} : f32
func.func @exp_f32(%x: vector<16xf32>, %y: f32) -> (vector<16xf32>, f32) {
  %0 = math.exp %x : vector<16xf32>
  %1 = math.exp %y : f32
  return %0, %1 : vector<16xf32>, f32
}

// Every default function is rewritten.
// CHECK-LABEL: func.func @defaults
// CHECK-NOT: math.{{(exp|expm1|log|log1p|log2|tanh|erf) }}
// CHECK: return
func.func @defaults(%x: vector<8xf32>) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
  %0 = math.expm1 %x : vector<8xf32>
  %1 = math.log %x : vector<8xf32>
  %2 = math.log1p %x : vector<8xf32>
  %3 = math.log2 %x : vector<8xf32>
  %4 = math.tanh %x : vector<8xf32>
  %5 = math.erf %x : vector<8xf32>
  return %0, %1, %2, %3, %4, %5 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
}

// Left alone: f64 (the approximations are for f32), and sin and atan
// (inaccurate for large |x| / 40 ulp) unless named.
// CHECK-LABEL: func.func @untouched
// CHECK: math.exp {{.*}} : f64
// CHECK: math.sin {{.*}} : vector<16xf32>
// CHECK: math.atan {{.*}} : vector<16xf32>
// SIN-LABEL: func.func @untouched
// SIN-NOT: math.sin
// SIN: math.atan
func.func @untouched(%d: f64, %x: vector<16xf32>) -> (f64, vector<16xf32>, vector<16xf32>) {
  %0 = math.exp %d : f64
  %1 = math.sin %x : vector<16xf32>
  %2 = math.atan %x : vector<16xf32>
  return %0, %1, %2 : f64, vector<16xf32>, vector<16xf32>
}
