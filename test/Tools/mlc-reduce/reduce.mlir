// mlc-reduce: mlir-reduce with mlc's dialects and passes. The module is
// reduced while Inputs/has-softmax.sh finds it interesting (it still holds a
// relax.nn.softmax). An mlc pass as a reduction (relax-dce) and the
// reduction tree both drop the unused private function; the tree keeps the
// softmax.
// RUN: mlc-reduce %s --opt-reduction-pass='opt-pass=relax-dce test=%S/Inputs/has-softmax.sh' \
// RUN:   | FileCheck %s --check-prefix=DCE
// RUN: mlc-reduce %s --reduction-tree='traversal-mode=0 test=%S/Inputs/has-softmax.sh' 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=TREE

// DCE-NOT: @unused
// DCE: relax.nn.softmax
// DCE-NOT: @unused
// TREE-NOT: @unused
// TREE: relax.nn.softmax
// TREE-NOT: @unused
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %0 = relax.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = relax.nn.relu %0 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %2 = relax.nn.softmax %1 : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

func.func private @unused(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relax.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
