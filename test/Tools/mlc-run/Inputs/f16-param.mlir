// An f16 parameter (bfloat16.mlir feeds it uint16 data, which only bf16
// parameters take).
func.func @main(%x: tensor<4xf16> {relax.name = "x"}) -> tensor<4xf16> {
  return %x : tensor<4xf16>
}
