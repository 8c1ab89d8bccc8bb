// An entry whose result the entry allocates (with
// --pipeline-options=hoist-result-allocs=false): returned through the
// first parameter of its C interface; the caller frees it.

#id = affine_map<(i, j) -> (i, j)>
func.func @twice(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %empty = tensor.empty() : tensor<3x5xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x5xf32>) outs(%empty : tensor<3x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
