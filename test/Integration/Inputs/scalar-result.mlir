// An entry with a scalar result beside a tensor: the C function returns the
// float (the tensor is an out-parameter).
#id = affine_map<(i) -> (i)>
#red = affine_map<(i) -> ()>
func.func @total(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, f32) {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["reduction"]}
      ins(%x : tensor<8xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<f32>
  %e = tensor.empty() : tensor<8xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %v = tensor.extract %s[] : tensor<f32>
  return %d, %v : tensor<8xf32>, f32
}
