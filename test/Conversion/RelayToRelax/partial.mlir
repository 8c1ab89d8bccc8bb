// RUN: not mlc-opt %s -split-input-file -relay-to-relax 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: mlc-opt %s -split-input-file -relay-to-relax="allow-relay-ops" | FileCheck %s --check-prefix=ALLOW

// A relay op without a relax equivalent is an error, or is kept with
// allow-relay-ops (inside the dataflow block: relay ops are pure).
// ERR: error: relay-to-relax: 'relay.take' is not converted: take with batch_dims=1 has no relax equivalent (relax.take has no batch dimensions) (set allow-relay-ops to keep it)
// ALLOW-LABEL: func.func @partial(
// ALLOW-NEXT: relax.dataflow
// ALLOW-NEXT: relax.add
// ALLOW-NEXT: relay.take
// ALLOW-NEXT: relax.output
func.func @partial(%x: tensor<1x4xf32> {relay.name = "x"}, %i: tensor<1x2xi32> {relay.name = "i"}) -> tensor<1x2xf32> {
  %0 = relay.add %x, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = relay.take %0, %i {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<1x4xf32>, tensor<1x2xi32>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}

// -----

// Ops with a relax equivalent convert around an unsupported one (here
// argmax with select_last_index, which relax lacks).
// ERR: error: relay-to-relax: 'relay.argmax' is not converted: select_last_index=True has no relax equivalent
// ALLOW-LABEL: func.func @unsupported(
// ALLOW: relax.permute_dims
// ALLOW: relax.matmul
// ALLOW: relay.argmax
func.func @unsupported(%a: tensor<4x8xf32> {relay.name = "a"}, %c: tensor<2x8xf32> {relay.name = "c"}) -> tensor<4xi32> {
  %0 = relay.nn.matmul %a, %c {transpose_b = true} : (tensor<4x8xf32>, tensor<2x8xf32>) -> tensor<4x2xf32>
  %1 = relay.argmax %0 {axis = array<i64: 1>, select_last_index = true} : (tensor<4x2xf32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}
