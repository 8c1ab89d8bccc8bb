// RUN: mlc-opt %s -split-input-file -relax-fold-constant | FileCheck %s

// The TensorIR reference interpreter, driven through relax-fold-constant on
// relax.call_tir of constants. Expected values are worked out by hand.

// A reduction with tensorir.init into an alloc_buffer intermediate, then a
// spatial stage: C = A * rowsum(A).
// CHECK-LABEL: func.func @reduce_then_scale
// CHECK-NEXT:    %[[C:.*]] = relax.constant dense<{{\[}}[1.000000e+01, 2.000000e+01, 3.000000e+01, 4.000000e+01], [1.300000e+02, 1.560000e+02, 1.820000e+02, 2.080000e+02]]> : tensor<2x4xf32>
// CHECK-NEXT:    return %[[C]]
tensorir.prim_func private @sum_then_scale(%A: memref<2x4xf32>, %C: memref<2x4xf32>) {
  %S = tensorir.alloc_buffer : memref<2xf32>
  tensorir.for %i = 0 to 2 {
    tensorir.for %j = 0 to 4 {
      tensorir.block "S"(%vi = spatial(2, %i), %vj = reduce(4, %j)) {
        tensorir.init {
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<2xf32>
        }
        %s = memref.load %S[%vi] : memref<2xf32>
        %a = memref.load %A[%vi, %vj] : memref<2x4xf32>
        %t = arith.addf %s, %a : f32
        memref.store %t, %S[%vi] : memref<2xf32>
      }
    }
  }
  tensorir.for %i = 0 to 2 parallel {
    tensorir.for %j = 0 to 4 vectorized {
      tensorir.block "C"(%vi = spatial(2, %i), %vj = spatial(4, %j)) {
        %a = memref.load %A[%vi, %vj] : memref<2x4xf32>
        %s = memref.load %S[%vi] : memref<2xf32>
        %d = arith.mulf %a, %s : f32
        memref.store %d, %C[%vi, %vj] : memref<2x4xf32>
      }
    }
  }
}
func.func @reduce_then_scale() -> tensor<2x4xf32> {
  %a = relax.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %0 = relax.call_tir @sum_then_scale(%a) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// A split loop (3 x 4 over 10 elements) with an affine.apply binding and a
// `where` predicate that masks the tail; i32 arithmetic.
// CHECK-LABEL: func.func @split_where
// CHECK-NEXT:    %[[C:.*]] = relax.constant dense<[1, 3, 5, 7, 9, 11, 13, 15, 17, 19]> : tensor<10xi32>
tensorir.prim_func private @double_plus_one(%A: memref<10xi32>, %B: memref<10xi32>) {
  tensorir.for %io = 0 to 3 {
    tensorir.for %ii = 0 to 4 {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%io, %ii)
      %c10 = arith.constant 10 : index
      %in = arith.cmpi slt, %v, %c10 : index
      tensorir.block "B"(%vi = spatial(10, %v)) where(%in) {
        %a = memref.load %A[%vi] : memref<10xi32>
        %two = arith.constant 2 : i32
        %one = arith.constant 1 : i32
        %m = arith.muli %a, %two : i32
        %r = arith.addi %m, %one : i32
        memref.store %r, %B[%vi] : memref<10xi32>
      }
    }
  }
}
func.func @split_where() -> tensor<10xi32> {
  %a = relax.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]> : tensor<10xi32>
  %0 = relax.call_tir @double_plus_one(%a) : (tensor<10xi32>) -> tensor<10xi32>
  return %0 : tensor<10xi32>
}

// -----

// Integer division and remainder semantics, casts, an i1 output, scf.if
// and scf.for, several results, and a dynamic buffer sized by memref.dim.
// CHECK-LABEL: func.func @ints
// CHECK-DAG:     relax.constant dense<[-4, 3, 4, -5]> : tensor<4xi32>
// CHECK-DAG:     relax.constant dense<[-3, 3, 1, -1]> : tensor<4xi32>
// CHECK-DAG:     relax.constant dense<[-3.500000e+00, 3.500000e+00, 4.500000e+00, -4.500000e+00]> : tensor<4xf32>
// CHECK-DAG:     relax.constant dense<[true, false, false, true]> : tensor<4xi1>
// CHECK-DAG:     relax.constant dense<[13, 13, 15, 15]> : tensor<4xi64>
// CHECK-NOT:     relax.call_tir
tensorir.prim_func private @int_ops(%X: memref<?xi32>, %Q: memref<4xi32>, %R: memref<4xi32>,
                                    %F: memref<4xf32>, %N: memref<4xi1>, %S: memref<4xi64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %X, %c0 : memref<?xi32>
  tensorir.for %i = 0 to %n {
    tensorir.block "ints"(%vi = spatial(%n, %i)) {
      %x = memref.load %X[%vi] : memref<?xi32>
      %c2 = arith.constant 2 : i32
      %c4 = arith.constant 4 : i32
      %c0_i32 = arith.constant 0 : i32
      %q = arith.floordivsi %x, %c2 : i32
      memref.store %q, %Q[%vi] : memref<4xi32>
      %r = arith.remsi %x, %c4 : i32
      memref.store %r, %R[%vi] : memref<4xi32>
      %f = arith.sitofp %x : i32 to f32
      %half = arith.constant 0.5 : f32
      %h = arith.mulf %f, %half : f32
      memref.store %h, %F[%vi] : memref<4xf32>
      %neg = arith.cmpi slt, %x, %c0_i32 : i32
      memref.store %neg, %N[%vi] : memref<4xi1>
      // |x| through scf.if, plus sum(0..3) = 6 through scf.for.
      %abs = scf.if %neg -> (i32) {
        %m = arith.subi %c0_i32, %x : i32
        scf.yield %m : i32
      } else {
        scf.yield %x : i32
      }
      %wide = arith.extsi %abs : i32 to i64
      %lb = arith.constant 0 : index
      %ub = arith.constant 4 : index
      %step = arith.constant 1 : index
      %zero = arith.constant 0 : i64
      %sum = scf.for %k = %lb to %ub step %step iter_args(%acc = %zero) -> (i64) {
        %ki = arith.index_cast %k : index to i64
        %next = arith.addi %acc, %ki : i64
        scf.yield %next : i64
      }
      %t = arith.addi %wide, %sum : i64
      memref.store %t, %S[%vi] : memref<4xi64>
    }
  }
}
func.func @ints() -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi64>) {
  %x = relax.constant dense<[-7, 7, 9, -9]> : tensor<4xi32>
  %0:5 = relax.call_tir @int_ops(%x) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi64>)
  return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xi1>, tensor<4xi64>
}

// -----

// math ops in f32 (sqrt(x) + exp(x - x) + tanh(0 * x) + erf(0 * x)), and f16
// rounding after every op: (2048 + 1) + 1 is 2048 in f16, not 2050.
// CHECK-LABEL: func.func @floats
// CHECK-DAG:     relax.constant dense<[1.000000e+00, 5.000000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK-DAG:     relax.constant dense<[2.048000e+03, 4.000000e+00, 3.000000e+00]> : tensor<3xf16>
tensorir.prim_func private @float_ops(%X: memref<3xf32>, %H: memref<3xf16>,
                                      %Y: memref<3xf32>, %G: memref<3xf16>) {
  tensorir.for %i = 0 to 3 {
    tensorir.block "floats"(%vi = spatial(3, %i)) {
      %x = memref.load %X[%vi] : memref<3xf32>
      %s = math.sqrt %x : f32
      %d = arith.subf %x, %x : f32
      %e = math.exp %d : f32
      %zero = arith.constant 0.0 : f32
      %z = arith.mulf %zero, %x : f32
      %t = math.tanh %z : f32
      %r = math.erf %z : f32
      %a0 = arith.addf %s, %e : f32
      %a1 = arith.addf %a0, %t : f32
      %a2 = arith.addf %a1, %r : f32
      memref.store %a2, %Y[%vi] : memref<3xf32>
      %h = memref.load %H[%vi] : memref<3xf16>
      %one = arith.constant 1.0 : f16
      %h1 = arith.addf %h, %one : f16
      %h2 = arith.addf %h1, %one : f16
      memref.store %h2, %G[%vi] : memref<3xf16>
    }
  }
}
func.func @floats() -> (tensor<3xf32>, tensor<3xf16>) {
  %x = relax.constant dense<[0.0, 16.0, 9.0]> : tensor<3xf32>
  %h = relax.constant dense<[2048.0, 2.0, 1.0]> : tensor<3xf16>
  %0:2 = relax.call_tir @float_ops(%x, %h) : (tensor<3xf32>, tensor<3xf16>) -> (tensor<3xf32>, tensor<3xf16>)
  return %0#0, %0#1 : tensor<3xf32>, tensor<3xf16>
}

// -----

// math.ipowi (integer power in the elementwise kernels): negative exponents
// give 0 unless the base is 1 or -1.
// CHECK-LABEL: func.func @ipow
// CHECK-NEXT:    relax.constant dense<[-27, 1, 25, 0, -1]> : tensor<5xi32>
tensorir.prim_func private @ipowi(%A: memref<5xi32>, %B: memref<5xi32>, %C: memref<5xi32>) {
  tensorir.for %i = 0 to 5 {
    tensorir.block "C"(%vi = spatial(5, %i)) {
      %a = memref.load %A[%vi] : memref<5xi32>
      %b = memref.load %B[%vi] : memref<5xi32>
      %c = math.ipowi %a, %b : i32
      memref.store %c, %C[%vi] : memref<5xi32>
    }
  }
}
func.func @ipow() -> tensor<5xi32> {
  %a = relax.constant dense<[-3, 7, 5, 2, -1]> : tensor<5xi32>
  %b = relax.constant dense<[3, 0, 2, -1, -3]> : tensor<5xi32>
  %0 = relax.call_tir @ipowi(%a, %b) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  return %0 : tensor<5xi32>
}
