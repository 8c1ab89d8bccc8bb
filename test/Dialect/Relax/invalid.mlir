// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @side_effect_in_dataflow(%a: tensor<4xf32>) -> tensor<1xi32> {
  // expected-error @+1 {{'relax.dataflow' op contains 'relax.call_dps_packed', which may have side effects; a dataflow block may only hold side-effect-free operations}}
  %r = relax.dataflow -> tensor<1xi32> {
    // expected-note @+1 {{side-effecting operation here}}
    %0 = relax.call_dps_packed "env.print"(%a) {has_side_effects} : (tensor<4xf32>) -> tensor<1xi32>
    relax.output %0 : tensor<1xi32>
  }
  return %r : tensor<1xi32>
}

// -----

func.func @memref_store_in_dataflow(%m: memref<4xf32>, %v: f32, %i: index) {
  // expected-error @+1 {{contains 'memref.store', which may have side effects}}
  relax.dataflow {
    // expected-note @+1 {{side-effecting operation here}}
    memref.store %v, %m[%i] : memref<4xf32>
    relax.output
  }
  return
}

// -----

func.func @nested(%a: tensor<4xf32>) {
  relax.dataflow {
    // expected-error @+1 {{'relax.dataflow' op cannot be nested in another relax.dataflow}}
    relax.dataflow {
      relax.output
    }
    relax.output
  }
  return
}

// -----

func.func @output_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'relax.dataflow' op has 1 results but its relax.output yields 2 values}}
  %r = relax.dataflow -> tensor<4xf32> {
    relax.output %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @output_type(%a: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'relax.dataflow' op result #0 has type 'tensor<4xf16>' but relax.output yields 'tensor<4xf32>'}}
  %r = relax.dataflow -> tensor<4xf16> {
    relax.output %a : tensor<4xf32>
  }
  return %r : tensor<4xf16>
}

// -----

func.func @output_outside(%a: tensor<4xf32>) {
  // expected-error @+1 {{'relax.output' op expects parent op 'relax.dataflow'}}
  relax.output %a : tensor<4xf32>
}

// -----

func.func @escape(%a: tensor<4xf32>) -> tensor<4xf32> {
  relax.dataflow {
    %0 = relax.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relax.output
  }
  // expected-error @+1 {{use of undeclared SSA value name}}
  return %0 : tensor<4xf32>
}

// -----

func.func @call_tir_missing(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'relax.call_tir' op '@nope' does not reference a function in the module}}
  %0 = relax.call_tir @nope(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @one_buffer(memref<4xf32>)

func.func @call_tir_arity(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'relax.call_tir' op '@one_buffer' takes 1 parameters, but destination-passing style needs 1 (arguments) + 1 (results) = 2}}
  %0 = relax.call_tir @one_buffer(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @f16_out(memref<4xf32>, memref<4xf16>)

func.func @call_tir_dtype(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'relax.call_tir' op result #0 ('tensor<4xf32>') does not match parameter #1 of @f16_out ('memref<4xf16>'): element type 'f32' vs 'f16'}}
  %0 = relax.call_tir @f16_out(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @shape8(memref<8xf32>, memref<4xf32>)

func.func @call_tir_shape(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'relax.call_tir' op operand #0 ('tensor<4xf32>') does not match parameter #0 of @shape8 ('memref<8xf32>'): dimension 0: 4 vs 8}}
  %0 = relax.call_tir @shape8(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func private @scalar(i32, memref<4xf32>)

func.func @call_tir_not_buffer(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{parameter #0 of @scalar has type 'i32'; expected a ranked buffer for operand #0 ('tensor<4xf32>')}}
  %0 = relax.call_tir @scalar(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

memref.global @g : memref<4xf32>

func.func @call_tir_not_function(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'@g' is a 'memref.global', not a function}}
  %0 = relax.call_tir @g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @call_dps_packed_empty(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{needs a non-empty callee name}}
  %0 = relax.call_dps_packed ""(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @match_cast_dtype(%a: tensor<?xf32>) {
  // expected-error @+1 {{cannot change the element type: 'f32' vs 'f16'}}
  %0 = relax.match_cast %a : tensor<?xf32> to tensor<?xf16, #relax.shape<[n]>>
  return
}

// -----

func.func @match_cast_rank(%a: tensor<?xf32>) {
  // expected-error @+1 {{cannot change the rank: 1 vs 2}}
  %0 = relax.match_cast %a : tensor<?xf32> to tensor<?x?xf32>
  return
}

// -----

func.func @match_cast_static(%a: tensor<4x?xf32>) {
  // expected-error @+1 {{dimension 0 is statically 4 but the target type has 5}}
  %0 = relax.match_cast %a : tensor<4x?xf32> to tensor<5x?xf32, #relax.shape<[5, m]>>
  return
}

// -----

func.func @constant_not_tensor() {
  // expected-error @+1 {{relax.constant value must have a ranked tensor type, got 'vector<2xf32>'}}
  %0 = relax.constant dense<1.0> : vector<2xf32>
  return
}

// -----

// expected-error @+1 {{#relax.shape has 2 dimensions but the tensor has rank 1}}
func.func private @shape_rank(tensor<?xf32, #relax.shape<[n, 4]>>)

// -----

// expected-error @+1 {{#relax.shape dimension 1 is '4' but the tensor dimension is '?' (a constant dimension must be static)}}
func.func private @shape_static(tensor<?x?xf32, #relax.shape<[n, 4]>>)

// -----

// expected-error @+1 {{#relax.shape dimension 0 is 'n + 1' but the tensor dimension is 5 (a symbolic dimension must be '?')}}
func.func private @shape_symbolic(tensor<5xf32, #relax.shape<[n + 1]>>)

// -----

// expected-error @+1 {{#relax.shape without symbolic dimensions is redundant; drop the encoding}}
func.func private @shape_redundant(tensor<?x4xf32, #relax.shape<[?, 4]>>)

// -----

// expected-error @+1 {{'floordiv' is an operator, not a dimension name}}
func.func private @shape_parse(tensor<?xf32, #relax.shape<[floordiv]>>)

// -----

// expected-error @+1 {{divisor must be positive, got 0}}
func.func private @shape_div0(tensor<?xf32, #relax.shape<[n floordiv 0]>>)

// -----

func.func @add_conflict(%a: tensor<?x?xf32, #relax.shape<[b, n]>>, %c: tensor<?x?xf32, #relax.shape<[b, m]>>) {
  // expected-error @+2 {{cannot broadcast (b, n) and (b, m): dimension 1: n vs m}}
  // expected-error @+1 {{'relax.add' op failed to infer returned types}}
  %0 = relax.add %a, %c : (tensor<?x?xf32, #relax.shape<[b, n]>>, tensor<?x?xf32, #relax.shape<[b, m]>>) -> tensor<?x?xf32>
  return
}

// -----

func.func @add_symbolic_vs_static(%a: tensor<?x?xf32, #relax.shape<[b, n]>>, %c: tensor<784xf32>) {
  // expected-error @+2 {{cannot broadcast (b, n) and (784): dimension 1: n vs 784}}
  // expected-error @+1 {{'relax.add' op failed to infer returned types}}
  %0 = relax.add %a, %c : (tensor<?x?xf32, #relax.shape<[b, n]>>, tensor<784xf32>) -> tensor<?x784xf32>
  return
}

// -----

func.func @add_static_conflict(%a: tensor<3x4xf32>, %c: tensor<5x1xf32>) {
  // expected-error @+2 {{cannot broadcast (3, 4) and (5, 1): dimension 0: 3 vs 5}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.add %a, %c : (tensor<3x4xf32>, tensor<5x1xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @add_dtype(%a: tensor<4xf32>, %c: tensor<4xf16>) {
  // expected-error @+2 {{element types differ: lhs 'f32' vs rhs 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.add %a, %c : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @add_wrong_result(%a: tensor<?x4xf32, #relax.shape<[n, 4]>>, %c: tensor<4xf32>) {
  // expected-error @+2 {{'relax.add' op inferred type(s) 'tensor<?x4xf32, #relax.shape<[n, 4]>>' are incompatible with return type(s) of operation 'tensor<?x4xf32, #relax.shape<[m, 4]>>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.add %a, %c : (tensor<?x4xf32, #relax.shape<[n, 4]>>, tensor<4xf32>) -> tensor<?x4xf32, #relax.shape<[m, 4]>>
  return
}

// -----

func.func @matmul_conflict(%a: tensor<?x?xf32, #relax.shape<[b, n]>>, %w: tensor<?x128xf32, #relax.shape<[m, 128]>>) {
  // expected-error @+2 {{reduction dimensions differ: lhs dimension 1 vs rhs dimension 0: n vs m}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.matmul %a, %w : (tensor<?x?xf32, #relax.shape<[b, n]>>, tensor<?x128xf32, #relax.shape<[m, 128]>>) -> tensor<?x128xf32>
  return
}

// -----

func.func @matmul_static(%a: tensor<?x784xf32, #relax.shape<[n, 784]>>, %w: tensor<100x128xf32>) {
  // expected-error @+2 {{reduction dimensions differ: lhs dimension 1 vs rhs dimension 0: 784 vs 100}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.matmul %a, %w : (tensor<?x784xf32, #relax.shape<[n, 784]>>, tensor<100x128xf32>) -> tensor<?x128xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<?x2x3xf32, #relax.shape<[b, 2, 3]>>, %w: tensor<?x3x4xf32, #relax.shape<[c, 3, 4]>>) {
  // expected-error @+2 {{cannot broadcast (b) and (c): dimension 0: b vs c}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.matmul %a, %w : (tensor<?x2x3xf32, #relax.shape<[b, 2, 3]>>, tensor<?x3x4xf32, #relax.shape<[c, 3, 4]>>) -> tensor<?x2x4xf32>
  return
}

// -----

func.func @matmul_scalar(%a: tensor<f32>, %w: tensor<3xf32>) {
  // expected-error @+2 {{operands must have rank >= 1, got lhs rank 0 and rhs rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.matmul %a, %w : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @matmul_dtype(%a: tensor<2x3xf16>, %w: tensor<3x4xf32>) {
  // expected-error @+2 {{element types differ: lhs 'f16' vs rhs 'f32' (set out_dtype to mix them)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.matmul %a, %w : (tensor<2x3xf16>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @sub_broadcast(%a: tensor<?xf32, #relax.shape<[n]>>, %b: tensor<?xf32, #relax.shape<[m]>>) {
  // expected-error @+2 {{cannot broadcast (n) and (m): dimension 0: n vs m}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.subtract %a, %b : (tensor<?xf32, #relax.shape<[n]>>, tensor<?xf32, #relax.shape<[m]>>) -> tensor<?xf32>
  return
}

// -----

func.func @mul_dtype(%a: tensor<2xf32>, %b: tensor<2xf16>) {
  // expected-error @+2 {{element types differ: lhs 'f32' vs rhs 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.multiply %a, %b : (tensor<2xf32>, tensor<2xf16>) -> tensor<2xf32>
  return
}

// -----

func.func @softmax_axis(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.softmax %a {axis = 2} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @permute_not_perm(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{is not a permutation}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.permute_dims %a {axes = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{newshape [4, 2] is invalid for input shape [2, 3]: the result shape [4, 2] has}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.reshape %a {shape = array<i64: 4, 2>} : (tensor<2x3xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @expand_dims_repeat(%a: tensor<3xf32>) {
  // expected-error @+2 {{axis -1 is repeated (result dimension 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.expand_dims %a {axis = array<i64: 2, -1>} : (tensor<3xf32>) -> tensor<3x1x1xf32>
  return
}

// -----

func.func @relu_result(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{'relax.nn.relu' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.relu %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @conv2d_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+2 {{weight has 2 input channels per group but data has 3 channels with groups=1 (expected 3; weight shape [4, 2, 3, 3] in OIHW layout)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @pool_no_size(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{requires attribute 'pool_size'}}
  %0 = relax.nn.max_pool2d %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @sum_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.sum %x {axis = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @concat_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+2 {{input 1 has shape [4, 5], expected size 2 in dimension 0 like the previous inputs}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.concat %a, %b {axis = 1} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @concat_size_overflow(%a: tensor<2x4611686018427387904xf32>) {
  // expected-error @+2 {{the concatenated size along axis 1 overflows int64_t}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.concat %a, %a {axis = 1} : (tensor<2x4611686018427387904xf32>, tensor<2x4611686018427387904xf32>) -> tensor<2x?xf32>
  return
}

// -----

// A symbolic size whose constant wraps (MLIR's affine arithmetic wraps) is
// printed, not negated past INT64_MIN.
func.func @concat_symbolic_overflow(%a: tensor<?x3xf32, #relax.shape<[n + 4611686018427387904, 3]>>) {
  // expected-error @+2 {{inferred type(s) 'tensor<?x3xf32, #relax.shape<[n * 2 - 9223372036854775808, 3]>>' are incompatible}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.concat %a, %a : (tensor<?x3xf32, #relax.shape<[n + 4611686018427387904, 3]>>, tensor<?x3xf32, #relax.shape<[n + 4611686018427387904, 3]>>) -> tensor<?x3xf32, #relax.shape<[m, 3]>>
  return
}

// -----

func.func @batch_norm_gamma(%x: tensor<1x16x8x8xf32>, %c: tensor<16xf32>, %d: tensor<8xf32>) {
  // expected-error @+2 {{gamma must have shape [16] (dimension 1 of data shape [1, 16, 8, 8]) but has shape [8]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = relax.nn.batch_norm %x, %d, %c, %c, %c : (tensor<1x16x8x8xf32>, tensor<8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

func.func @layer_norm_gamma(%x: tensor<2x8xf32>, %g: tensor<4xf32>) {
  // expected-error @+2 {{gamma has shape [4] but data has shape [8] at axes}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.layer_norm %x, %g, %g {axes = array<i64: 1>} : (tensor<2x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x8xf32>
  return
}

// -----

// Canonical symbolic shapes do not hide a real conflict.
func.func @concat_shape_conflict(%a: tensor<?x3xf32, #relax.shape<[n, 3]>>, %b: tensor<?x3xf32, #relax.shape<[m, 3]>>) {
  // expected-error @+2 {{inferred type(s) 'tensor<?x3xf32, #relax.shape<[m + n * 2, 3]>>' are incompatible with return type(s) of operation 'tensor<?x3xf32, #relax.shape<[m * 2 + n, 3]>>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.concat %a, %b, %a : (tensor<?x3xf32, #relax.shape<[n, 3]>>, tensor<?x3xf32, #relax.shape<[m, 3]>>, tensor<?x3xf32, #relax.shape<[n, 3]>>) -> tensor<?x3xf32, #relax.shape<[n + m * 2, 3]>>
  return
}

// -----

func.func @floor_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'relax.floor' op operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values, but got 'tensor<4xi32>'}}
  %0 = relax.floor %x : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @isnan_int(%x: tensor<4xi64>) {
  // expected-error @+1 {{'relax.isnan' op operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values, but got 'tensor<4xi64>'}}
  %0 = relax.isnan %x : (tensor<4xi64>) -> tensor<4xi1>
  return
}

// -----

func.func @isinf_result_not_bool(%x: tensor<4xf32>) {
  // expected-error @+2 {{'relax.isinf' op inferred type(s) 'tensor<4xi1>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.isinf %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @floor_mod_mixed_types(%x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+2 {{element types differ: lhs 'f32' vs rhs 'i32'}}
  // expected-error @+1 {{'relax.floor_mod' op failed to infer returned types}}
  %0 = relax.floor_mod %x, %y : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @mod_shape_conflict(%x: tensor<3x4xi32>, %y: tensor<5xi32>) {
  // expected-error @+2 {{cannot broadcast (3, 4) and (5): dimension 1: 4 vs 5}}
  // expected-error @+1 {{'relax.mod' op failed to infer returned types}}
  %0 = relax.mod %x, %y : (tensor<3x4xi32>, tensor<5xi32>) -> tensor<3x4xi32>
  return
}

// -----

func.func @exp_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{'relax.exp' op operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values}}
  %0 = relax.exp %x : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @less_result_type(%x: tensor<4xf32>) {
  // expected-error @+2 {{'relax.less' op inferred type(s) 'tensor<4xi1>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.less %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @maximum_element_types(%x: tensor<4xf32>, %y: tensor<4xf16>) {
  // expected-error @+2 {{element types differ: lhs 'f32' vs rhs 'f16'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.maximum %x, %y : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @clip_bounds(%x: tensor<4xf32>) {
  // expected-error @+2 {{min (6.000000e+00) is greater than max (0.000000e+00)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.clip %x {min = 6.0 : f64, max = 0.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @astype_shape(%x: tensor<4xf32>) {
  // expected-error @+2 {{inferred type(s) 'tensor<4xf16>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.astype %x {dtype = f16} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_conflict(%c: tensor<?xi1, #relax.shape<[n]>>, %x: tensor<?xf32, #relax.shape<[m]>>) {
  // expected-error @+2 {{cannot broadcast (n) and (m): dimension 0: n vs m}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.where %c, %x, %x : (tensor<?xi1, #relax.shape<[n]>>, tensor<?xf32, #relax.shape<[m]>>, tensor<?xf32, #relax.shape<[m]>>) -> tensor<?xf32>
  return
}

// -----

func.func @squeeze_not_one(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{cannot squeeze axis 0 of shape [2, 3]: its size is 2, not 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.squeeze %x {axis = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @split_uneven(%x: tensor<2x7xf32>) {
  // expected-error @+2 {{axis 1 of shape [2, 7] (size 7) is not divisible into 2 sections}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = relax.split %x {indices_or_sections = 2 : i64, axis = 1 : i64} : (tensor<2x7xf32>) -> (tensor<2x3xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @broadcast_to_bad(%x: tensor<3xf32>) {
  // expected-error @+2 {{input shape [3] cannot be broadcast to [2, 4] (dimension 1: 3 vs 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.broadcast_to %x {shape = array<i64: 2, 4>} : (tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_elements_rank(%x: tensor<3x4xf32>, %i: tensor<3xi64>) {
  // expected-error @+2 {{indices of rank 1 for data of rank 2; they must be equal}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.gather_elements %x, %i : (tensor<3x4xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_elements_axis(%x: tensor<3x4xf32>, %i: tensor<3x4xi64>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.gather_elements %x, %i {axis = 2 : i64} : (tensor<3x4xf32>, tensor<3x4xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_elements_too_large(%x: tensor<3x4xf32>, %i: tensor<5x4xi64>) {
  // expected-error @+2 {{indices dimension 0 (5) is larger than the data's (3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<5x4xi64>) -> tensor<5x4xf32>
  return
}

// -----

func.func @gather_elements_float_indices(%x: tensor<3x4xf32>, %i: tensor<3x4xf32>) {
  // expected-error @+1 {{'relax.gather_elements' op operand #1 must be ranked tensor of signless integer values, but got 'tensor<3x4xf32>'}}
  %0 = relax.gather_elements %x, %i : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_reduction(%x: tensor<3x4xf32>, %i: tensor<3x4xi64>, %u: tensor<3x4xf32>) {
  // expected-error @+2 {{reduction must be update, add, mul, min or max, not 'mean'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.scatter_elements %x, %i, %u {reduction = "mean"} : (tensor<3x4xf32>, tensor<3x4xi64>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_elements_shapes(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x4xf32>) {
  // expected-error @+2 {{indices of shape [3, 2] but updates of shape [3, 4]; they must be equal}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.scatter_elements %x, %i, %u : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_elements_dtype(%x: tensor<3x4xf32>, %i: tensor<3x4xi64>, %u: tensor<3x4xf16>) {
  // expected-error @+2 {{updates of element type 'f16' for data of 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.scatter_elements %x, %i, %u : (tensor<3x4xf32>, tensor<3x4xi64>, tensor<3x4xf16>) -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_nd_index_depth(%x: tensor<3x4xf32>, %i: tensor<2x3xi64>, %u: tensor<2xf32>) {
  // expected-error @+2 {{indices of shape [2, 3] must end in a static size from 1 to the data's rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.scatter_nd %x, %i, %u : (tensor<3x4xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @scatter_nd_updates(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) {
  // expected-error @+2 {{updates of shape [2, 3] for indices of shape [2, 1] and data of shape [3, 4]; expected [2, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.scatter_nd %x, %i, %u : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @take_mode(%x: tensor<3xf32>, %i: tensor<2xi32>) {
  // expected-error @+2 {{mode must be clip, wrap or fast, not 'raise'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.take %x, %i {mode = "raise"} : (tensor<3xf32>, tensor<2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @argmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{axis 2 is out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.argmax %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @argmin_i32(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'relax.argmin' op result #0 must be ranked tensor of 64-bit signless integer values}}
  %0 = relax.argmin %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2xi32>
  return
}

// -----

func.func @pad_mode(%x: tensor<2x3xf32>, %z: tensor<f32>) {
  // expected-error @+2 {{pad_mode must be constant, edge or reflect, not 'wrap'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.pad %x, %z {pad_width = array<i64: 0, 0, 1, 1>, pad_mode = "wrap"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @conv2d_transpose_dtype(%x: tensor<1x16x8x8xf32>, %w: tensor<16x8x2x2xf16>) {
  // expected-error @+2 {{element types differ: data 'f32' vs weight 'f16' (set out_dtype to mix them)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.conv2d_transpose %x, %w : (tensor<1x16x8x8xf32>, tensor<16x8x2x2xf16>) -> tensor<1x8x9x9xf32>
  return
}

// -----

func.func @group_norm_groups(%x: tensor<1x4x8x8xf32>, %g: tensor<4xf32>) {
  // expected-error @+2 {{data has 4 channels (dimension 1), which is not divisible by num_groups=3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.group_norm %x, %g, %g {num_groups = 3 : i64} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @instance_norm_gamma(%x: tensor<1x4x8x8xf32>, %g: tensor<3xf32>) {
  // expected-error @+2 {{gamma must have shape [4] (dimension 1 of data shape [1, 4, 8, 8]) but has shape [3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.instance_norm %x, %g, %g : (tensor<1x4x8x8xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

// Tensors hold TVM's dtypes; index, complex and i0 are none (the op library
// has no kernels for them).
func.func @index_elements(%x: tensor<2x3xindex>) -> tensor<2xindex> {
  // expected-error @+1 {{'relax.sum' op operand #0 must be ranked tensor of a TVM dtype (bool, int8-64, uint8-64, float16, bfloat16, float32, float64) values, but got 'tensor<2x3xindex>'}}
  %0 = relax.sum %x {axis = array<i64: 1>} : (tensor<2x3xindex>) -> tensor<2xindex>
  return %0 : tensor<2xindex>
}

// -----

func.func @complex_elements(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'relax.add' op operand #0 must be ranked tensor of a TVM dtype}}
  %0 = relax.add %x, %x : (tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @astype_to_i0(%x: tensor<4xf32>) -> tensor<4xi0> {
  // expected-error @+1 {{'relax.astype' op result #0 must be ranked tensor of a TVM dtype}}
  %0 = relax.astype %x {dtype = i0} : (tensor<4xf32>) -> tensor<4xi0>
  return %0 : tensor<4xi0>
}

// -----

func.func @attention_rank(%q: tensor<16x4x8xf32>, %k: tensor<24x4x8xf32>) {
  // expected-error @+2 {{query must have rank 4 (batch, sequence, heads, head dimension), got rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.attention %q, %k, %k : (tensor<16x4x8xf32>, tensor<24x4x8xf32>, tensor<24x4x8xf32>) -> tensor<16x4x8xf32>
  return
}

// -----

func.func @attention_int(%q: tensor<1x16x4x8xi32>) {
  // expected-error @+2 {{query must hold float16, bfloat16 or float32, got 'i32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.attention %q, %q, %q : (tensor<1x16x4x8xi32>, tensor<1x16x4x8xi32>, tensor<1x16x4x8xi32>) -> tensor<1x16x4x8xi32>
  return
}

// -----

func.func @attention_head_dim(%q: tensor<1x16x4x8xf32>, %k: tensor<1x24x4x16xf32>) {
  // expected-error @+2 {{query and key differ in head dimension: query dimension 3 is 8, key dimension 3 is 16}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.attention %q, %k, %k : (tensor<1x16x4x8xf32>, tensor<1x24x4x16xf32>, tensor<1x24x4x16xf32>) -> tensor<1x16x4x16xf32>
  return
}

// -----

func.func @attention_kv_length(%q: tensor<1x16x4x8xf32>, %k: tensor<1x24x4x8xf32>, %v: tensor<1x20x4x8xf32>) {
  // expected-error @+2 {{key and value differ in sequence length: key dimension 1 is 24, value dimension 1 is 20}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.attention %q, %k, %v : (tensor<1x16x4x8xf32>, tensor<1x24x4x8xf32>, tensor<1x20x4x8xf32>) -> tensor<1x16x4x8xf32>
  return
}

// -----

func.func @attention_types(%q: tensor<1x16x4x8xf32>, %k: tensor<1x24x4x8xf16>) {
  // expected-error @+2 {{key has element type 'f16' but query has 'f32'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.attention %q, %k, %k : (tensor<1x16x4x8xf32>, tensor<1x24x4x8xf16>, tensor<1x24x4x8xf16>) -> tensor<1x16x4x8xf32>
  return
}

// -----

func.func @attention_bias(%q: tensor<1x16x4x8xf32>, %k: tensor<1x24x4x8xf32>, %m: tensor<1x4x16x23xf32>) {
  // expected-error @+2 {{cannot broadcast (1, 4, 16, 23) and (1, 4, 16, 24)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.attention %q, %k, %k, %m : (tensor<1x16x4x8xf32>, tensor<1x24x4x8xf32>, tensor<1x24x4x8xf32>, tensor<1x4x16x23xf32>) -> tensor<1x16x4x8xf32>
  return
}

// -----

func.func @attention_bias_rank(%q: tensor<1x16x4x8xf32>, %k: tensor<1x24x4x8xf32>, %m: tensor<2x1x4x16x24xf32>) {
  // expected-error @+2 {{bias of shape (2, 1, 4, 16, 24) does not broadcast to the scores' shape (1, 4, 16, 24)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.attention %q, %k, %k, %m : (tensor<1x16x4x8xf32>, tensor<1x24x4x8xf32>, tensor<1x24x4x8xf32>, tensor<2x1x4x16x24xf32>) -> tensor<1x16x4x8xf32>
  return
}

// -----

func.func @attention_mask(%q: tensor<1x16x4x8xf32>) {
  // expected-error @+2 {{causal_mask must be "TopLeft" or "BottomRight", got "Upper"}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.attention %q, %q, %q {causal_mask = "Upper"} : (tensor<1x16x4x8xf32>, tensor<1x16x4x8xf32>, tensor<1x16x4x8xf32>) -> tensor<1x16x4x8xf32>
  return
}

// -----

func.func @attention_result(%q: tensor<1x16x4x8xf32>) {
  // expected-error @+2 {{'relax.nn.attention' op inferred type(s) 'tensor<1x16x4x8xf32>' are incompatible with return type(s) of operation 'tensor<1x16x4x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = relax.nn.attention %q, %q, %q : (tensor<1x16x4x8xf32>, tensor<1x16x4x8xf32>, tensor<1x16x4x8xf32>) -> tensor<1x16x4x4xf32>
  return
}
