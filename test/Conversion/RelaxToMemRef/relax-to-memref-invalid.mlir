// What convert-relax-to-memref cannot lower is a diagnostic at the op.
// RUN: mlc-opt %s --convert-relax-to-memref --split-input-file --verify-diagnostics

func.func @unlegalized(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'relax.add' has no lowering; run relax-legalize-ops first}}
  %0 = relax.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unlegalized_in_dataflow(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %0 = relax.dataflow -> tensor<4x2xf32> {
    // expected-error @below {{'relax.matmul' has no lowering; run relax-legalize-ops first}}
    %1 = relax.matmul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    relax.output %1 : tensor<4x2xf32>
  }
  return %0 : tensor<4x2xf32>
}

// -----

tensorir.prim_func @add1(%A: memref<4xf32>, %B: memref<4xf32>) {
}

func.func @prim_func_callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{callee @add1 is still a tensorir.prim_func; run convert-tensorir-to-scf before convert-relax-to-memref}}
  %0 = relax.call_tir @add1(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @grow(memref<?xf32>, memref<?xf32>)

func.func @unbound(%x: tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[m]>> {
  // expected-error @below {{cannot compute the size of result 0 (tensor<?xf32, #relax.shape<[m]>>): symbolic dimension 'm' is not bound by a parameter, a relax.match_cast or an operand's shape}}
  %0 = relax.call_tir @grow(%x) : (tensor<?xf32, #relax.shape<[n]>>) -> tensor<?xf32, #relax.shape<[m]>>
  return %0 : tensor<?xf32, #relax.shape<[m]>>
}

// -----

func.func private @copy(memref<?xf32>, memref<?xf32>)

func.func @unnamed_dynamic_result(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @below {{cannot allocate result 0 of type 'tensor<?xf32>': dimension 0 is dynamic without a symbolic expression}}
  %0 = relax.call_tir @copy(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @match_cast_expression(%x: tensor<?xf32>) -> tensor<?xf32, #relax.shape<[n * 2]>> {
  // expected-error @below {{dimension 0 ('n * 2') uses 'n', which is not bound; only a plain name binds a symbolic dimension}}
  %0 = relax.match_cast %x : tensor<?xf32> to tensor<?xf32, #relax.shape<[n * 2]>>
  return %0 : tensor<?xf32, #relax.shape<[n * 2]>>
}

// -----

// expected-note @below {{symbol defined here}}
func.func @env.relu(%a: memref<8xf32>) {
  return
}

func.func @packed_conflict(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{calls "env.relu" as '(memref<4xf32>, memref<4xf32>) -> ()', but the module already has a symbol of that name of type '(memref<8xf32>) -> ()'}}
  %0 = relax.call_dps_packed "env.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @packed_twice(%x: tensor<4xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // expected-note @below {{symbol defined here}}
  %0 = relax.call_dps_packed "env.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error @below {{calls "env.relu" as '(memref<8xf32>, memref<8xf32>) -> ()', but the module already has a symbol of that name of type '(memref<4xf32>, memref<4xf32>) -> ()'}}
  %1 = relax.call_dps_packed "env.relu"(%y) : (tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

func.func @tensor_op(%x: tensor<4xf32> {relax.name = "x"}) -> tensor<4xf32> {
  %k = relax.constant dense<1.0> : tensor<4xf32>
  // expected-error @below {{'tensor.empty' op operates on tensors in relax function @tensor_op; only relax host ops (call_tir, call_dps_packed, match_cast, constant, static reshape, dataflow) are lowered to buffers}}
  %0 = tensor.empty() : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @calls_non_relax(%x: tensor<4xf32> {relax.name = "x"}) -> tensor<4xf32> {
  %k = relax.constant dense<1.0> : tensor<4xf32>
  // expected-error @below {{calls @plain with tensors, but it is not a relax function; only calls between relax functions are lowered}}
  %0 = func.call @plain(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @nested(%x: tensor<4xf32>, %c: i1) {
  scf.if %c {
    // expected-error @below {{'relax.constant' op is nested in 'scf.if'; only relax ops directly in a function body or its relax.dataflow are lowered}}
    %0 = relax.constant dense<1.0> : tensor<4xf32>
  }
  return
}

// -----

func.func @relax_fn(%x: tensor<4xf32> {relax.name = "x"}) -> tensor<4xf32> {
  %k = relax.constant dense<1.0> : tensor<4xf32>
  return %x : tensor<4xf32>
}

// A caller that also computes on tensors is not host code.
func.func @tensor_caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'func.call' op calls relax function @relax_fn from a function that is not a relax function; its signature becomes buffers}}
  %0 = func.call @relax_fn(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = arith.addf %0, %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// expected-error @below {{'func.func' op is a relax function with 2 blocks; only single-block relax functions are lowered}}
func.func @blocks(%x: tensor<4xf32> {relax.name = "x"}) -> tensor<4xf32> {
  %k = relax.constant dense<1.0> : tensor<4xf32>
  cf.br ^bb1
^bb1:
  return %x : tensor<4xf32>
}

// -----

func.func private @tensor_kernel(tensor<4xf32>, tensor<4xf32>)

func.func @tensor_callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{callee @tensor_kernel takes 'tensor<4xf32>' as parameter 0; call_tir lowers to a call of a buffer (memref) function}}
  %0 = relax.call_tir @tensor_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A reshape with a dynamic shape is no view this pass makes.
func.func @dynamic_reshape(%x: tensor<?x4xf32>) -> tensor<4x?xf32> {
  // expected-error @below {{'relax.reshape' has no lowering; run relax-legalize-ops first}}
  %0 = relax.reshape %x {shape = array<i64: 4, -1>} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  return %0 : tensor<4x?xf32>
}
