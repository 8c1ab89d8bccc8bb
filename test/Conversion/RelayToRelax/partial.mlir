// RUN: not mlc-opt %s -split-input-file -relay-to-relax 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: mlc-opt %s -split-input-file -relay-to-relax="allow-relay-ops" | FileCheck %s --check-prefix=ALLOW

// A relay op without a relax equivalent is an error, or is kept with
// allow-relay-ops (inside the dataflow block: relay ops are pure).
// ERR: error: relay-to-relax: 'relay.nn.prelu' has no relax equivalent yet (set allow-relay-ops to keep it)
// ALLOW-LABEL: func.func @partial(
// ALLOW-NEXT: relax.dataflow
// ALLOW-NEXT: relax.add
// ALLOW-NEXT: relay.nn.prelu
// ALLOW-NEXT: relax.output
func.func @partial(%x: tensor<1x4xf32> {relay.name = "x"}, %a: tensor<4xf32> {relay.name = "a"}) -> tensor<1x4xf32> {
  %0 = relay.add %x, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = relay.nn.prelu %0, %a : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return %1 : tensor<1x4xf32>
}

// -----

// Ops with a relax equivalent convert around an unsupported one (here
// prelu, still missing in relax).
// ERR: error: relay-to-relax: 'relay.nn.prelu' has no relax equivalent yet
// ALLOW-LABEL: func.func @unsupported(
// ALLOW: relax.permute_dims
// ALLOW: relax.matmul
// ALLOW: relay.nn.prelu
func.func @unsupported(%a: tensor<4x8xf32> {relay.name = "a"}, %c: tensor<2x8xf32> {relay.name = "c"}, %s: tensor<2xf32> {relay.name = "s"}) -> tensor<4x2xf32> {
  %0 = relay.nn.matmul %a, %c {transpose_b = true} : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<4x2xf32>
  %1 = relay.nn.prelu %0, %s {axis = 1} : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}
