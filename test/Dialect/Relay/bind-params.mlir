// RUN: rm -rf %t && %python %S/../Relax/Inputs/make_params.py %t
// RUN: mlc-opt %s -relay-bind-params="params=%t/mlp.npz" | FileCheck %s
// RUN: mlc-opt %s -relay-bind-params="params=%t/mlp.safetensors" | FileCheck %s
// RUN: mlc-opt %s -relay-bind-params="params=%t/b0.npz func-name=dynamic" | FileCheck %s --check-prefix=DYN
// RUN: not mlc-opt %s -relay-bind-params="params=%t/unknown.npz" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mlc-opt %s -relay-bind-params="params=%t/shape.npz" 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not mlc-opt %s -relay-bind-params="params=%t/truncated.npz" 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: not mlc-opt %s -relay-bind-params 2>&1 | FileCheck %s --check-prefix=NOPARAMS

// Parameters are found by relay.name; relay.constant replaces them.
// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4xf32> {relay.name = "x"}) -> (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) {
// CHECK-DAG: %[[W0:.*]] = relay.constant dense_resource<w0> : tensor<4x3xf32>
// CHECK-DAG: %[[B0:.*]] = relay.constant dense_resource<b0> : tensor<3xf32>
// CHECK: return %[[X]], %[[W0]], %[[B0]]
func.func @main(%x: tensor<2x4xf32> {relay.name = "x"},
                %w0: tensor<4x3xf32> {relay.name = "w0"},
                %b0: tensor<3xf32> {relay.name = "b0"})
    -> (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) {
  return %x, %w0, %b0 : tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>
}

// DYN-LABEL: func.func @dynamic()
// DYN-NEXT: %[[C:.*]] = relay.constant dense_resource<b0> : tensor<3xf32>
// DYN-NEXT: %[[M:.*]] = tensor.cast %[[C]] : tensor<3xf32> to tensor<?xf32>
// DYN-NEXT: return %[[M]]
func.func @dynamic(%b: tensor<?xf32> {relay.name = "b0"}) -> tensor<?xf32> {
  return %b : tensor<?xf32>
}

// UNKNOWN: error: cannot bind parameters of @main from '{{.*}}unknown.npz': 'w9' is not a parameter of @main (its named parameters: x, w0, b0)
// SHAPE: error: cannot bind parameters of @main from '{{.*}}shape.npz': shape mismatch for parameter 'w0': the file has (3, 4), the parameter is 'tensor<4x3xf32>'
// TRUNC: error: cannot read parameters: {{.*}}truncated.npz: not a valid zip file
// NOPARAMS: error: relay-bind-params needs the 'params' option (a .npz or .safetensors file)
