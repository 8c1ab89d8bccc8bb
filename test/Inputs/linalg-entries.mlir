// Tensor functions that mlc-compile turns into library entries, shared by
// the tests that call its libraries (Tools/mlc-compile/execute.py through
// the C interface, Integration/runtime-load-module.py through
// mlc.runtime.load_module): a libm call, a strided slice (MLIR's memrefCopy)
// with a 0-d result, and dynamic shapes with a scalar, into a fresh buffer or
// into the input's.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

func.func @dense_atan(%x: tensor<4x8xf32> {relay.name = "x"}, %w: tensor<8x3xf32> {relay.name = "w"},
                      %b: tensor<3xf32> {relay.name = "b"}) -> tensor<4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x3xf32>) -> tensor<4x3xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>) outs(%init : tensor<4x3xf32>) -> tensor<4x3xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4x3xf32>, tensor<3xf32>) outs(%empty : tensor<4x3xf32>) {
  ^bb0(%m: f32, %bias: f32, %o: f32):
    %s = arith.addf %m, %bias : f32
    %t = math.atan %s : f32
    linalg.yield %t : f32
  } -> tensor<4x3xf32>
  return %out : tensor<4x3xf32>
}

func.func @slice_and_sum(%x: tensor<4x8xf32> {relay.name = "x"}) -> (tensor<4x2xf32>, tensor<f32>) {
  %s = tensor.extract_slice %x[0, 1] [4, 2] [1, 3] : tensor<4x8xf32> to tensor<4x2xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %total = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%zero : tensor<f32>) dimensions = [0, 1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %s, %total : tensor<4x2xf32>, tensor<f32>
}

func.func @scale(%x: tensor<?x?xf32> {relay.name = "x"}, %alpha: f32 {relay.name = "alpha"}) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %empty = tensor.empty(%m, %n) : tensor<?x?xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%empty : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %alpha : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// The result is computed in the input's buffer (the entry writes its input).
func.func @scale_in_place(%x: tensor<?x?xf32>, %alpha: f32) -> tensor<?x?xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%x : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %alpha : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
