// RUN: mlc-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: mlc-opt %s -split-input-file -verify-diagnostics -mlir-print-op-generic | mlc-opt -split-input-file | FileCheck %s

// relax.call_tir against tensorir.prim_func callees: #args + #results
// buffers whose element types and shapes match the tensors.

// CHECK-LABEL: tensorir.prim_func @add1
tensorir.prim_func @add1(%A: memref<?x4xf32>, %B: memref<?x4xf32>) {
}

// CHECK-LABEL: func.func @main
// CHECK: relax.call_tir @add1(%{{.*}}) : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
func.func @main(%x: tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>> {
  %r = relax.dataflow -> tensor<?x4xf32, #relax.shape<[n, 4]>> {
    %y = relax.call_tir @add1(%x) : (tensor<?x4xf32, #relax.shape<[n, 4]>>) -> tensor<?x4xf32, #relax.shape<[n, 4]>>
    relax.output %y : tensor<?x4xf32, #relax.shape<[n, 4]>>
  }
  return %r : tensor<?x4xf32, #relax.shape<[n, 4]>>
}

// -----

tensorir.prim_func @mm(%A: memref<8x16xf32>, %B: memref<16x4xf32>, %C: memref<8x4xf32>) {
}

func.func @wrong_result(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x5xf32> {
  // expected-error @+1 {{'relax.call_tir' op result #0 ('tensor<8x5xf32>') does not match parameter #2 of @mm ('memref<8x4xf32>'): dimension 1: 5 vs 4}}
  %0 = relax.call_tir @mm(%a, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x5xf32>
  return %0 : tensor<8x5xf32>
}

// -----

tensorir.prim_func @mm(%A: memref<8x16xf32>, %B: memref<16x4xf32>, %C: memref<8x4xf32>) {
}

func.func @missing_output(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) {
  // expected-error @+1 {{'@mm' takes 3 parameters, but destination-passing style needs 2 (arguments) + 0 (results) = 2}}
  relax.call_tir @mm(%a, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> ()
  return
}

// -----

tensorir.prim_func @sized(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
}

func.func @scalar_param(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'@sized' takes 3 parameters, but destination-passing style needs 1 (arguments) + 1 (results) = 2}}
  %0 = relax.call_tir @sized(%a) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

tensorir.prim_func @int_buf(%A: memref<4xi32>, %B: memref<4xf32>) {
}

func.func @dtype(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #0 ('tensor<4xf32>') does not match parameter #0 of @int_buf ('memref<4xi32>'): element type 'f32' vs 'i32'}}
  %0 = relax.call_tir @int_buf(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// tir_vars: symbolic sizes passed as scalars after the output buffers.
// CHECK-LABEL: func.func @tir_vars
// CHECK: relax.call_tir @scale(%{{.*}}) tir_vars [n, n * 2] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n * 2]>>
tensorir.prim_func @scale(%A: memref<?xf32>, %B: memref<?xf32>, %n: index, %m: i64) {
}

func.func @tir_vars(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n * 2]>> {
  %0 = relax.call_tir @scale(%x) tir_vars [n, 2 * n] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[n * 2]>>
  return %0 : tensor<?xf32, #relax.shape<[n * 2]>>
}

// -----

tensorir.prim_func @scale(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
}

func.func @tir_vars_unbound(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32> {
  // expected-error @+1 {{'relax.call_tir' op tir_vars uses 'k', which no operand's #relax.shape binds}}
  %0 = relax.call_tir @scale(%x) tir_vars [k] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

tensorir.prim_func @scale(%A: memref<?xf32>, %B: memref<?xf32>, %n: f32) {
}

func.func @tir_vars_type(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32> {
  // expected-error @+1 {{parameter #2 of @scale has type 'f32'; expected an integer or index for tir_vars entry #0}}
  %0 = relax.call_tir @scale(%x) tir_vars [n] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

tensorir.prim_func @scale(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
}

func.func @tir_vars_count(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32> {
  // expected-error @+1 {{'@scale' takes 3 parameters, but destination-passing style needs 1 (arguments) + 1 (results) + 2 (tir_vars) = 4}}
  %0 = relax.call_tir @scale(%x) tir_vars [n, n] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

tensorir.prim_func @scale(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
}

func.func @tir_vars_unknown(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32> {
  // expected-error @+1 {{tir_vars entry #0 is unknown ('?')}}
  %0 = relax.call_tir @scale(%x) tir_vars [?] : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
