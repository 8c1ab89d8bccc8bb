// A C program calls a model through the header mlc-compile writes: once
// linked against the shared library, once against the object file. The
// driver checks the results against a double-precision loop in C on
// pseudo-random inputs (rtol 1e-5, atol 1e-6).
// REQUIRES: c-compiler
// RUN: rm -rf %t && mkdir -p %t
// RUN: mlc-compile %s -o %t/libmodel.so --emit-header=%t/model.h
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t %S/Inputs/driver.c -L%t -lmodel -Wl,-rpath,%t -lm -o %t/driver-so
// RUN: %t/driver-so | FileCheck %s
// RUN: mlc-compile %s -O2 -o %t/model.o
// Parallel loops run on OpenMP: an object file is linked with libomp.
// RUN: %cc -std=c99 -Wall -Wextra -Werror -I%t %S/Inputs/driver.c %t/model.o -L/usr/lib/llvm-22/lib -lomp -Wl,-rpath,/usr/lib/llvm-22/lib -lm -o %t/driver-o
// RUN: %t/driver-o | FileCheck %s

// CHECK: dense_relu 16x32x8: ok
// CHECK: scaled_sum: ok

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @dense_relu(%x: tensor<16x32xf32> {relay.name = "x"}, %w: tensor<32x8xf32> {relay.name = "w"},
                      %b: tensor<8xf32> {relay.name = "b"}) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x8xf32>) outs(%init : tensor<16x8xf32>) -> tensor<16x8xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<16x8xf32>, tensor<8xf32>) outs(%empty : tensor<16x8xf32>) {
  ^bb0(%m: f32, %bias: f32, %o: f32):
    %s = arith.addf %m, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %out : tensor<16x8xf32>
}

// A scalar parameter and a 0-d result.
func.func @scaled_sum(%x: tensor<100xf64> {relax.name = "x"}, %alpha: f64) -> tensor<f64> {
  %zero = arith.constant dense<0.0> : tensor<f64>
  %total = linalg.reduce ins(%x : tensor<100xf64>) outs(%zero : tensor<f64>) dimensions = [0]
    (%in: f64, %acc: f64) {
      %m = arith.mulf %in, %alpha : f64
      %a = arith.addf %m, %acc : f64
      linalg.yield %a : f64
    }
  return %total : tensor<f64>
}
