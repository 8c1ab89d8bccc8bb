// mlc-compile with num-input (relax-lift-transform-params): the library
// exports @main, now taking its input and the transformed weights, and
// @main_transform_params, taking the weights; the header declares both with
// the prepared graph's parameters. mlc-run, which runs one entry, refuses
// to lift; a num-input beyond the parameters is an error naming the
// function, and no output is written.
// RUN: mlc-compile %s --pipeline-options=num-input=1 -o %t.o --emit-header=%t.h
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=SYMBOLS
// RUN: FileCheck %s --check-prefix=HEADER < %t.h
// RUN: %python -c "import numpy as np; np.savez('%t.npz', x=np.ones((2, 8), np.float32), w=np.ones((4, 8), np.float32))"
// RUN: not mlc-run %s --pipeline-options=num-input=1 --inputs=%t.npz 2>&1 | FileCheck %s --check-prefix=ONE-ENTRY
// RUN: rm -f %t.bad.o
// RUN: not mlc-compile %s --pipeline-options=num-input=3 -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not test -e %t.bad.o

// SYMBOLS-DAG: T _mlir_ciface_main
// SYMBOLS-DAG: T _mlir_ciface_main_transform_params

// HEADER:      void _mlir_ciface_main(mlc_memref_2d_f32 *x, mlc_memref_2d_f32 *transformed_0, mlc_memref_2d_f32 *out0);
// HEADER:      void _mlir_ciface_main_transform_params(mlc_memref_2d_f32 *w, mlc_memref_2d_f32 *out0);

// ONE-ENTRY: mlc-run: error: num-input lifts the weights' transforms into main_transform_params

// BAD: error: 'func.func' op has 'relax.num_input' 3 : i64; expected an integer in [0, 2], the number of its parameters that are inputs

func.func @main(%x: tensor<2x8xf32> {relax.name = "x"}, %w: tensor<4x8xf32> {relax.name = "w"}) -> tensor<2x4xf32> {
  %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  %y = relax.matmul %x, %wt : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
