// Placeholder example until the relay dialect lands: a 784-128-10 MLP layer
// written with upstream linalg.
func.func @main(%x: tensor<1x784xf32>, %w: tensor<784x128xf32>) -> tensor<1x128xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<1x128xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<1x128xf32>) -> tensor<1x128xf32>
  %y = linalg.matmul ins(%x, %w : tensor<1x784xf32>, tensor<784x128xf32>)
                     outs(%fill : tensor<1x128xf32>) -> tensor<1x128xf32>
  return %y : tensor<1x128xf32>
}
