// RUN: mlc-opt %s -split-input-file -verify-diagnostics

func.func @constant_type_mismatch() {
  // expected-error @+1 {{'relay.constant' op result #0 has type 'tensor<3xf32>', but the operands and attributes give 'tensor<2xf32>'}}
  %0 = "relay.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return
}

// -----

func.func @constant_not_elements() {
  // expected-error @+1 {{invalid properties {value = 1.000000e+00 : f32} for op relay.constant: Invalid attribute `value` in property conversion: 1.000000e+00 : f32}}
  %0 = "relay.constant"() <{value = 1.0 : f32}> : () -> tensor<f32>
  return
}

// -----

func.func @tuple_wrong_result(%a: tensor<2xf32>) {
  // expected-error @+1 {{'relay.tuple' op result #0 has type 'tuple<tensor<3xf32>>', but the operands and attributes give 'tuple<tensor<2xf32>>'}}
  %0 = relay.tuple %a : (tensor<2xf32>) -> tuple<tensor<3xf32>>
  return
}

// -----

func.func @tuple_get_item_out_of_range(%t: tuple<tensor<2xf32>, tensor<3xi32>>) {
  // expected-error @+1 {{'relay.tuple_get_item' op index 2 is out of range for 'tuple<tensor<2xf32>, tensor<3xi32>>' with 2 fields}}
  %0 = relay.tuple_get_item %t {index = 2 : i64} : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<3xi32>
  return
}

// -----

func.func @tuple_get_item_wrong_type(%t: tuple<tensor<2xf32>, tensor<3xi32>>) {
  // expected-error @+1 {{'relay.tuple_get_item' op result #0 has type 'tensor<3xi32>', but the operands and attributes give 'tensor<2xf32>'}}
  %0 = relay.tuple_get_item %t {index = 0 : i64} : (tuple<tensor<2xf32>, tensor<3xi32>>) -> tensor<3xi32>
  return
}

// -----

func.func @add_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'relay.add' op operands are not broadcast-compatible: lhs 'tensor<2x3xf32>', rhs 'tensor<4xf32>' (dimension 1: 3 vs 4)}}
  %0 = relay.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @subtract_dtype_mismatch(%a: tensor<3xf32>, %b: tensor<3xf16>) {
  // expected-error @+1 {{'relay.subtract' op operands must have the same element type: lhs 'tensor<3xf32>', rhs 'tensor<3xf16>'}}
  %0 = relay.subtract %a, %b : (tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return
}

// -----

func.func @multiply_wrong_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'relay.multiply' op result #0 has type 'tensor<3xf32>', but the operands and attributes give 'tensor<2x3xf32>'}}
  %0 = relay.multiply %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @divide_not_broadcastable(%a: tensor<5x?xi32>, %b: tensor<4x1xi32>) {
  // expected-error @+1 {{'relay.divide' op operands are not broadcast-compatible: lhs 'tensor<5x?xi32>', rhs 'tensor<4x1xi32>' (dimension 0: 5 vs 4)}}
  %0 = relay.divide %a, %b : (tensor<5x?xi32>, tensor<4x1xi32>) -> tensor<5x?xi32>
  return
}

// -----

func.func @power_unranked(%a: tensor<*xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'relay.power' op operand #0 must be ranked tensor of a TVM dtype (bool, int8-64, uint8-64, float16, bfloat16, float32, float64) values, but got 'tensor<*xf32>'}}
  %0 = relay.power %a, %b : (tensor<*xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @maximum_dtype_mismatch(%a: tensor<3xi32>, %b: tensor<3xi64>) {
  // expected-error @+1 {{'relay.maximum' op operands must have the same element type: lhs 'tensor<3xi32>', rhs 'tensor<3xi64>'}}
  %0 = relay.maximum %a, %b : (tensor<3xi32>, tensor<3xi64>) -> tensor<3xi32>
  return
}

// -----

func.func @minimum_wrong_result(%a: tensor<3xi32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'relay.minimum' op result #0 has type 'tensor<?xi32>', but the operands and attributes give 'tensor<3xi32>'}}
  %0 = relay.minimum %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<?xi32>
  return
}

// -----

func.func @less_result_not_bool(%a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'relay.less' op result #0 has type 'tensor<3xf32>', but the operands and attributes give 'tensor<3xi1>'}}
  %0 = relay.less %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @greater_not_broadcastable(%a: tensor<3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'relay.greater' op operands are not broadcast-compatible: lhs 'tensor<3xf32>', rhs 'tensor<2xf32>' (dimension 0: 3 vs 2)}}
  %0 = relay.greater %a, %b : (tensor<3xf32>, tensor<2xf32>) -> tensor<3xi1>
  return
}

// -----

func.func @equal_dtype_mismatch(%a: tensor<3xi1>, %b: tensor<3xi8>) {
  // expected-error @+1 {{'relay.equal' op operands must have the same element type: lhs 'tensor<3xi1>', rhs 'tensor<3xi8>'}}
  %0 = relay.equal %a, %b : (tensor<3xi1>, tensor<3xi8>) -> tensor<3xi1>
  return
}

// -----

func.func @less_equal_wrong_shape(%a: tensor<3xf32>, %b: tensor<1xf32>) {
  // expected-error @+1 {{'relay.less_equal' op result #0 has type 'tensor<1xi1>', but the operands and attributes give 'tensor<3xi1>'}}
  %0 = relay.less_equal %a, %b : (tensor<3xf32>, tensor<1xf32>) -> tensor<1xi1>
  return
}

// -----

func.func @greater_equal_not_broadcastable(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) {
  // expected-error @+1 {{'relay.greater_equal' op operands are not broadcast-compatible: lhs 'tensor<2x3xf32>', rhs 'tensor<3x3xf32>' (dimension 0: 2 vs 3)}}
  %0 = relay.greater_equal %a, %b : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xi1>
  return
}

// -----

func.func @not_equal_dtype_mismatch(%a: tensor<3xf32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'relay.not_equal' op operands must have the same element type: lhs 'tensor<3xf32>', rhs 'tensor<3xi32>'}}
  %0 = relay.not_equal %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xi1>
  return
}

// -----

func.func @negative_wrong_result(%a: tensor<3xf32>) {
  // expected-error @+1 {{'relay.negative' op result #0 has type 'tensor<3xf16>', but the operands and attributes give 'tensor<3xf32>'}}
  %0 = relay.negative %a : (tensor<3xf32>) -> tensor<3xf16>
  return
}

// -----

func.func @abs_wrong_result(%a: tensor<3xi32>) {
  // expected-error @+1 {{'relay.abs' op result #0 has type 'tensor<4xi32>', but the operands and attributes give 'tensor<3xi32>'}}
  %0 = relay.abs %a : (tensor<3xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @exp_int(%a: tensor<3xi32>) {
  // expected-error @+1 {{'relay.exp' op operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values, but got 'tensor<3xi32>'}}
  %0 = relay.exp %a : (tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @log_int(%a: tensor<3xi64>) {
  // expected-error @+1 {{'relay.log' op operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values, but got 'tensor<3xi64>'}}
  %0 = relay.log %a : (tensor<3xi64>) -> tensor<3xi64>
  return
}

// -----

func.func @sqrt_int(%a: tensor<3xi8>) {
  // expected-error @+1 {{'relay.sqrt' op operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values, but got 'tensor<3xi8>'}}
  %0 = relay.sqrt %a : (tensor<3xi8>) -> tensor<3xi8>
  return
}

// -----

func.func @rsqrt_bool(%a: tensor<3xi1>) {
  // expected-error @+1 {{'relay.rsqrt' op operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values, but got 'tensor<3xi1>'}}
  %0 = relay.rsqrt %a : (tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

func.func @tanh_int(%a: tensor<3xi32>) {
  // expected-error @+1 {{'relay.tanh' op operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values, but got 'tensor<3xi32>'}}
  %0 = relay.tanh %a : (tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @sigmoid_wrong_result(%a: tensor<3xf32>) {
  // expected-error @+1 {{'relay.sigmoid' op result #0 has type 'tensor<3xf64>', but the operands and attributes give 'tensor<3xf32>'}}
  %0 = relay.sigmoid %a : (tensor<3xf32>) -> tensor<3xf64>
  return
}

// -----

func.func @erf_int(%a: tensor<3xui8>) {
  // expected-error @+1 {{'relay.erf' op operand #0 must be ranked tensor of float16, bfloat16, float32 or float64 values, but got 'tensor<3xui8>'}}
  %0 = relay.erf %a : (tensor<3xui8>) -> tensor<3xui8>
  return
}

// -----

func.func @clip_missing_attr(%a: tensor<3xf32>) {
  // expected-error @+1 {{'relay.clip' op requires attribute 'a_max'}}
  %0 = relay.clip %a {a_min = 0.0 : f64} : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @clip_f32_attr(%a: tensor<3xf32>) {
  // expected-error @+1 {{custom op 'relay.clip' 'relay.clip' op attribute 'a_min' failed to satisfy constraint: 64-bit float attribute}}
  %0 = relay.clip %a {a_min = 0.0 : f32, a_max = 1.0 : f64} : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @cast_bad_dtype(%a: tensor<3xf32>) {
  // expected-error @+1 {{'relay.cast' op result #0 must be ranked tensor of a TVM dtype}}
  %0 = relay.cast %a {dtype = index} : (tensor<3xf32>) -> tensor<3xindex>
  return
}

// -----

func.func @cast_wrong_result(%a: tensor<3xf32>) {
  // expected-error @+1 {{'relay.cast' op result #0 has type 'tensor<3xf32>', but the operands and attributes give 'tensor<3xf16>'}}
  %0 = relay.cast %a {dtype = f16} : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @where_cond_not_bool(%c: tensor<3xi32>, %a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'relay.where' op operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<3xi32>'}}
  %0 = relay.where %c, %a, %b : (tensor<3xi32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @where_dtype_mismatch(%c: tensor<3xi1>, %a: tensor<3xf32>, %b: tensor<3xf16>) {
  // expected-error @+1 {{'relay.where' op x and y must have the same element type: x 'tensor<3xf32>', y 'tensor<3xf16>'}}
  %0 = relay.where %c, %a, %b : (tensor<3xi1>, tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return
}

// -----

func.func @where_cond_not_broadcastable(%c: tensor<2xi1>, %a: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'relay.where' op operands are not broadcast-compatible: condition 'tensor<2xi1>', x and y broadcast to [3] (dimension 0: 2 vs 3)}}
  %0 = relay.where %c, %a, %b : (tensor<2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @reshape_bad_total(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.reshape' op newshape [4, 2] is invalid for input shape [2, 3]: the result shape [4, 2] has 8 elements, the input 6}}
  %0 = relay.reshape %a {newshape = array<i64: 4, 2>} : (tensor<2x3xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @reshape_two_minus_one(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.reshape' op newshape [-1, -1] is invalid for input shape [2, 3]: only one dimension can be -1}}
  %0 = relay.reshape %a {newshape = array<i64: -1, -1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reshape_minus_one_not_divisible(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.reshape' op newshape [4, -1] is invalid for input shape [2, 3]: the result shape [4, 1] has 4 elements, the input 6}}
  %0 = relay.reshape %a {newshape = array<i64: 4, -1>} : (tensor<2x3xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @reshape_zero_past_end(%a: tensor<6xf32>) {
  // expected-error @+1 {{'relay.reshape' op newshape [0, 0] is invalid for input shape [6]: 0 at position 1 copies an input dimension that does not exist}}
  %0 = relay.reshape %a {newshape = array<i64: 0, 0>} : (tensor<6xf32>) -> tensor<6x1xf32>
  return
}

// -----

func.func @reshape_minus_three_short(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.reshape' op newshape [0, -3] is invalid for input shape [2, 3]: -3 at position 1 needs two remaining input dimensions}}
  %0 = relay.reshape %a {newshape = array<i64: 0, -3>} : (tensor<2x3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @reshape_minus_four_both_inferred(%a: tensor<6xf32>) {
  // expected-error @+1 {{'relay.reshape' op newshape [-4, -1, -1] is invalid for input shape [6]: the two values after -4 cannot both be -1}}
  %0 = relay.reshape %a {newshape = array<i64: -4, -1, -1>} : (tensor<6xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reshape_minus_four_truncated(%a: tensor<6xf32>) {
  // expected-error @+1 {{'relay.reshape' op newshape [-4, 2] is invalid for input shape [6]: -4 at position 0 must be followed by two values}}
  %0 = relay.reshape %a {newshape = array<i64: -4, 2>} : (tensor<6xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reshape_bad_special_value(%a: tensor<6xf32>) {
  // expected-error @+1 {{'relay.reshape' op newshape [-5] is invalid for input shape [6]: unsupported special value -5}}
  %0 = relay.reshape %a {newshape = array<i64: -5>} : (tensor<6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @reshape_overflow(%a: tensor<6xf32>) {
  // expected-error @+1 {{'relay.reshape' op newshape [4294967296, 4294967296, -1] is invalid for input shape [6]: the element count overflows}}
  %0 = relay.reshape %a {newshape = array<i64: 4294967296, 4294967296, -1>} : (tensor<6xf32>) -> tensor<4294967296x4294967296x0xf32>
  return
}

// -----

func.func @reshape_wrong_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.reshape' op result #0 has type 'tensor<2x3xf32>', but the operands and attributes give 'tensor<3x2xf32>'}}
  %0 = relay.reshape %a {newshape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_not_permutation(%a: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'relay.transpose' op invalid 'axes' for data 'tensor<2x3x4xf32>': axes [0, 1, -2] is not a permutation (axis -2 repeats)}}
  %0 = relay.transpose %a {axes = array<i64: 0, 1, -2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @transpose_wrong_length(%a: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'relay.transpose' op invalid 'axes' for data 'tensor<2x3x4xf32>': axes [1, 0] has 2 entries, expected one per dimension (3)}}
  %0 = relay.transpose %a {axes = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----

func.func @transpose_empty_axes(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.transpose' op invalid 'axes' for data 'tensor<2x3xf32>': axes [] has 0 entries, expected one per dimension (2)}}
  %0 = relay.transpose %a {axes = array<i64>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_axis_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.transpose' op invalid 'axes' for data 'tensor<2x3xf32>': axis 2 is out of range for rank 2}}
  %0 = relay.transpose %a {axes = array<i64: 0, 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @expand_dims_axis_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.expand_dims' op invalid attributes for data 'tensor<2x3xf32>': axis 3 is out of range for rank 2}}
  %0 = relay.expand_dims %a {axis = 3 : i64} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  return
}

// -----

func.func @expand_dims_negative_num(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.expand_dims' op invalid attributes for data 'tensor<2x3xf32>': num_newaxis must be in [0, 65536], got -1}}
  %0 = relay.expand_dims %a {axis = 0 : i64, num_newaxis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @expand_dims_too_many(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.expand_dims' op invalid attributes for data 'tensor<2x3xf32>': num_newaxis must be in [0, 65536], got 9223372036854775807}}
  %0 = relay.expand_dims %a {axis = 0 : i64, num_newaxis = 9223372036854775807 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @squeeze_not_one(%a: tensor<2x1xf32>) {
  // expected-error @+1 {{'relay.squeeze' op invalid 'axis' for data 'tensor<2x1xf32>': cannot squeeze axis 0 of shape [2, 1]: its size is 2, not 1}}
  %0 = relay.squeeze %a {axis = array<i64: 0>} : (tensor<2x1xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @squeeze_dynamic_without_axis(%a: tensor<2x1x?xf32>) {
  // expected-error @+1 {{'relay.squeeze' op invalid 'axis' for data 'tensor<2x1x?xf32>': 'axis' must be given for shape [2, 1, ?] with unknown dimensions}}
  %0 = relay.squeeze %a : (tensor<2x1x?xf32>) -> tensor<2x?xf32>
  return
}

// -----

func.func @squeeze_wrong_result(%a: tensor<2x1xf32>) {
  // expected-error @+1 {{'relay.squeeze' op result #0 has type 'tensor<2x1xf32>', but the operands and attributes give 'tensor<2xf32>'}}
  %0 = relay.squeeze %a : (tensor<2x1xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @concatenate_rank_mismatch(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'relay.concatenate' op cannot concatenate: input 1 has rank 1, input 0 has rank 2}}
  %0 = relay.concatenate %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @concatenate_size_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{'relay.concatenate' op cannot concatenate: input 1 has shape [2, 4], expected size 3 in dimension 1 like the previous inputs}}
  %0 = relay.concatenate %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_dtype_mismatch(%a: tensor<2x3xf32>, %b: tensor<2x3xi32>) {
  // expected-error @+1 {{'relay.concatenate' op inputs must have the same element type: input 0 is 'tensor<2x3xf32>', input 1 is 'tensor<2x3xi32>'}}
  %0 = relay.concatenate %a, %b : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concatenate_size_overflow(%a: tensor<2x4611686018427387904xf32>) {
  // expected-error @+1 {{'relay.concatenate' op cannot concatenate: the concatenated size along axis 1 overflows int64_t}}
  %0 = relay.concatenate %a, %a {axis = 1 : i64} : (tensor<2x4611686018427387904xf32>, tensor<2x4611686018427387904xf32>) -> tensor<2x?xf32>
  return
}

// -----

func.func @concatenate_axis_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.concatenate' op cannot concatenate: axis 2 is out of range for rank 2}}
  %0 = relay.concatenate %a {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @concatenate_empty() {
  // expected-error @+1 {{'relay.concatenate' op needs at least one input}}
  %0 = relay.concatenate : () -> tensor<2x3xf32>
  return
}

// -----

func.func @split_not_divisible(%a: tensor<2x5xf32>) {
  // expected-error @+1 {{'relay.split' op invalid split of data 'tensor<2x5xf32>': axis 1 of shape [2, 5] (size 5) is not divisible into 2 sections}}
  %0:2 = relay.split %a {indices_or_sections = 2 : i64, axis = 1 : i64} : (tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>)
  return
}

// -----

func.func @split_too_many_sections(%a: tensor<2x?xf32>) {
  // expected-error @+1 {{'relay.split' op invalid split of data 'tensor<2x?xf32>': indices_or_sections must be in [1, 65536], got 1000000000}}
  %0 = relay.split %a {indices_or_sections = 1000000000 : i64, axis = 1 : i64} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return
}

// -----

func.func @split_not_ascending(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{'relay.split' op invalid split of data 'tensor<2x6xf32>': indices_or_sections [3, 2] must be a strictly ascending list of positive indices}}
  %0:3 = relay.split %a {indices_or_sections = array<i64: 3, 2>, axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x4xf32>)
  return
}

// -----

func.func @split_index_past_end(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{'relay.split' op invalid split of data 'tensor<2x6xf32>': index 6 of indices_or_sections is not inside axis 1 (size 6)}}
  %0:2 = relay.split %a {indices_or_sections = array<i64: 6>, axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x6xf32>, tensor<2x0xf32>)
  return
}

// -----

func.func @split_wrong_result_count(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{'relay.split' op has 2 results, but the operands and attributes give 3}}
  %0:2 = relay.split %a {indices_or_sections = 3 : i64, axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  return
}

// -----

func.func @split_bad_attr(%a: tensor<2x6xf32>) {
  // expected-error @+1 {{custom op 'relay.split' 'relay.split' op attribute 'indices_or_sections' failed to satisfy constraint: 64-bit signless integer attribute or i64 dense array attribute}}
  %0:2 = relay.split %a {indices_or_sections = "two", axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return
}

// -----

func.func @strided_slice_reversed(%a: tensor<4x5xf32>) {
  // expected-error @+1 {{'relay.strided_slice' op invalid slice of data 'tensor<4x5xf32>': slice [3, 1) with stride 1 (after canonicalization) is empty or reversed for axis 0 of size 4}}
  %0 = relay.strided_slice %a {begin = array<i64: 3>, end = array<i64: 1>} : (tensor<4x5xf32>) -> tensor<0x5xf32>
  return
}

// -----

func.func @strided_slice_zero_stride(%a: tensor<4x5xf32>) {
  // expected-error @+1 {{'relay.strided_slice' op invalid slice of data 'tensor<4x5xf32>': stride of axis 0 is 0}}
  %0 = relay.strided_slice %a {begin = array<i64: 0>, end = array<i64: 2>, strides = array<i64: 0>} : (tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @strided_slice_axes_length(%a: tensor<4x5xf32>) {
  // expected-error @+1 {{'relay.strided_slice' op invalid slice of data 'tensor<4x5xf32>': axes, begin, end and strides must have the same length, got 1, 2, 1 and 1}}
  %0 = relay.strided_slice %a {begin = array<i64: 0, 0>, end = array<i64: 2>, strides = array<i64: 1>, axes = array<i64: 1>} : (tensor<4x5xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @strided_slice_too_many(%a: tensor<4x5xf32>) {
  // expected-error @+1 {{'relay.strided_slice' op invalid slice of data 'tensor<4x5xf32>': begin, end and strides (3, 3 and 1 entries) address more dimensions than the input has (2)}}
  %0 = relay.strided_slice %a {begin = array<i64: 0, 0, 0>, end = array<i64: 1, 1, 1>} : (tensor<4x5xf32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @strided_slice_bad_mode(%a: tensor<4x5xf32>) {
  // expected-error @+1 {{'relay.strided_slice' op invalid slice of data 'tensor<4x5xf32>': slice_mode must be "end" or "size", got "stride"}}
  %0 = relay.strided_slice %a {begin = array<i64: 0>, end = array<i64: 1>, slice_mode = "stride"} : (tensor<4x5xf32>) -> tensor<1x5xf32>
  return
}

// -----

func.func @strided_slice_wrong_result(%a: tensor<4x5xf32>) {
  // expected-error @+1 {{'relay.strided_slice' op result #0 has type 'tensor<4x5xf32>', but the operands and attributes give 'tensor<1x5xf32>'}}
  %0 = relay.strided_slice %a {begin = array<i64: -1>, end = array<i64: 4>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @take_float_indices(%a: tensor<4x5xf32>, %i: tensor<3xf32>) {
  // expected-error @+1 {{'relay.take' op operand #1 must be ranked tensor of bool, int8-64 or uint8-64 values, but got 'tensor<3xf32>'}}
  %0 = relay.take %a, %i {axis = 0 : i64} : (tensor<4x5xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @take_axis_out_of_range(%a: tensor<4x5xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'relay.take' op invalid take from data 'tensor<4x5xf32>' with indices 'tensor<3xi32>': axis 2 is out of range for rank 2}}
  %0 = relay.take %a, %i {axis = 2 : i64} : (tensor<4x5xf32>, tensor<3xi32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @take_bad_mode(%a: tensor<4x5xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{'relay.take' op 'mode' must be "clip", "wrap" or "fast", got "raise"}}
  %0 = relay.take %a, %i {mode = "raise"} : (tensor<4x5xf32>, tensor<3xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @broadcast_to_incompatible(%a: tensor<3xf32>) {
  // expected-error @+1 {{'relay.broadcast_to' op input shape [3] cannot be broadcast to [2, 4] (dimension 1: 3 vs 4)}}
  %0 = relay.broadcast_to %a {shape = array<i64: 2, 4>} : (tensor<3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @broadcast_to_smaller(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.broadcast_to' op input shape [2, 3] cannot be broadcast to [3]}}
  %0 = relay.broadcast_to %a {shape = array<i64: 3>} : (tensor<2x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @sum_axis_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.sum' op invalid 'axis' for data 'tensor<2x3xf32>': axis 2 is out of range for rank 2}}
  %0 = relay.sum %a {axis = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @mean_duplicate_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.mean' op invalid 'axis' for data 'tensor<2x3xf32>': axis [1, -1] lists dimension 1 twice}}
  %0 = relay.mean %a {axis = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @max_wrong_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.max' op result #0 has type 'tensor<2x1xf32>', but the operands and attributes give 'tensor<2xf32>'}}
  %0 = relay.max %a {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @min_wrong_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.min' op result #0 has type 'tensor<3xf32>', but the operands and attributes give 'tensor<2xf32>'}}
  %0 = relay.min %a {axis = array<i64: 0>, exclude = true} : (tensor<2x3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @prod_axis_out_of_range(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{'relay.prod' op invalid 'axis' for data 'tensor<2x3xi32>': axis -3 is out of range for rank 2}}
  %0 = relay.prod %a {axis = array<i64: -3>} : (tensor<2x3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @argmax_result_not_i32(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.argmax' op result #0 must be ranked tensor of 32-bit signless integer values, but got 'tensor<2xi64>'}}
  %0 = relay.argmax %a {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @argmin_wrong_shape(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'relay.argmin' op result #0 has type 'tensor<2xi32>', but the operands and attributes give 'tensor<2x1xi32>'}}
  %0 = relay.argmin %a {axis = array<i64: 1>, keepdims = true} : (tensor<2x3xf32>) -> tensor<2xi32>
  return
}

// -----

// The index of an extremum of no elements does not exist (relay-to-relax
// aborted on this before: its rewrite of multi-axis argmin built a reshape
// whose type inference failed).
func.func @argmin_empty_axis(%x: tensor<2x3x0xf32>) {
  // expected-error @+1 {{'relay.argmin' op reduces axis 2 of data 'tensor<2x3x0xf32>', which has no elements: no index to return}}
  %0 = relay.argmin %x {axis = array<i64: 2, 1>} : (tensor<2x3x0xf32>) -> tensor<2xi32>
  return
}

// -----

// Tensors hold TVM's dtypes: bool, int8-64, uint8-64 and the four floats.
func.func @i0_elements(%x: tensor<1x1x4x4xi0>, %w: tensor<1x1x3x3xi0>) -> tensor<1x1x2x2xi0> {
  // expected-error @+1 {{'relay.nn.conv2d' op operand #0 must be ranked tensor of a TVM dtype (bool, int8-64, uint8-64, float16, bfloat16, float32, float64) values, but got 'tensor<1x1x4x4xi0>'}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x1x4x4xi0>, tensor<1x1x3x3xi0>) -> tensor<1x1x2x2xi0>
  return %0 : tensor<1x1x2x2xi0>
}

// -----

func.func @index_elements(%x: tensor<4xindex>) -> tensor<4xindex> {
  // expected-error @+1 {{'relay.add' op operand #0 must be ranked tensor of a TVM dtype}}
  %0 = relay.add %x, %x : (tensor<4xindex>, tensor<4xindex>) -> tensor<4xindex>
  return %0 : tensor<4xindex>
}
