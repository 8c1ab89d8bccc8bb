// RUN: rm -rf %t && %python %S/Inputs/make_params.py %t
// RUN: mlc-opt %s -relax-bind-params="params=%t/mlp.npz" | FileCheck %s
// RUN: mlc-opt %s -relax-bind-params="params=%t/mlp_compressed.npz" | FileCheck %s
// RUN: mlc-opt %s -relax-bind-params="params=%t/mlp.safetensors" | FileCheck %s
// The result parses again and binding again with nothing to bind is a no-op.
// RUN: mlc-opt %s -relax-bind-params="params=%t/mlp.npz" | mlc-opt -relax-bind-params="params=%t/empty.npz" | FileCheck %s
// RUN: mlc-opt %s -relax-bind-params="params=%t/b0.npz func-name=dynamic" | FileCheck %s --check-prefix=DYN

// Errors: one diagnostic naming the parameter and the file; the pass fails.
// RUN: not mlc-opt %s -relax-bind-params="params=%t/unknown.npz" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mlc-opt %s -relax-bind-params="params=%t/dup.npz" 2>&1 | FileCheck %s --check-prefix=DUPNPZ
// RUN: not mlc-opt %s -relax-bind-params="params=%t/dup.safetensors" 2>&1 | FileCheck %s --check-prefix=DUPST
// RUN: not mlc-opt %s -relax-bind-params="params=%t/shape.npz" 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not mlc-opt %s -relax-bind-params="params=%t/dtype.npz" 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not mlc-opt %s -relax-bind-params="params=%t/truncated.npz" 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: not mlc-opt %s -relax-bind-params="params=%t/truncated.safetensors" 2>&1 | FileCheck %s --check-prefix=TRUNCST
// RUN: not mlc-opt %s -relax-bind-params="params=%t/garbage.bin" 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: not mlc-opt %s -relax-bind-params="params=%t/missing.npz" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mlc-opt %s -relax-bind-params 2>&1 | FileCheck %s --check-prefix=NOPARAMS
// RUN: not mlc-opt %s -relax-bind-params="params=%t/b0.npz func-name=nope" 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not mlc-opt %s -relax-bind-params="params=%t/b0.npz func-name=same_name" 2>&1 | FileCheck %s --check-prefix=SAMENAME
// RUN: not mlc-opt %s -relax-bind-params="params=%t/b0.npz func-name=tir_like" 2>&1 | FileCheck %s --check-prefix=NONCALL
// RUN: not mlc-opt %s -relax-bind-params="params=%t/b0.npz func-name=decl" 2>&1 | FileCheck %s --check-prefix=DECL

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:[^:]*]]: tensor<2x4xf32> {relax.name = "x"}) -> tensor<2x3xf32> {
// CHECK-DAG: %[[W0:.*]] = relax.constant dense_resource<w0> : tensor<4x3xf32>
// CHECK-DAG: %[[B0:.*]] = relax.constant dense_resource<b0> : tensor<3xf32>
// CHECK: relax.matmul %[[X]], %[[W0]]
// CHECK: relax.add %{{.*}}, %[[B0]]
func.func @main(%x: tensor<2x4xf32> {relax.name = "x"},
                %w0: tensor<4x3xf32> {relax.name = "w0"},
                %b0: tensor<3xf32> {relax.name = "b0"}) -> tensor<2x3xf32> {
  %r = relax.dataflow -> tensor<2x3xf32> {
    %m = relax.matmul %x, %w0 : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    %a = relax.add %m, %b0 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    relax.output %a : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}

// Calls lose the bound operands.
// CHECK-LABEL: func.func @caller
// CHECK: call @main(%arg0) : (tensor<2x4xf32>) -> tensor<2x3xf32>
func.func @caller(%x: tensor<2x4xf32>, %w: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = func.call @main(%x, %w, %b) : (tensor<2x4xf32>, tensor<4x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// The tensors' bytes (b0 = [1, 2, 3] as f32, after a 4-byte alignment word).
// CHECK: dialect_resources
// CHECK: b0: "0x040000000000803F0000004000004040"

// A parameter with a symbolic dimension takes the file's size through a
// match_cast (binding k = 3).
// DYN-LABEL: func.func @dynamic()
// DYN-NEXT: %[[C:.*]] = relax.constant dense_resource<b0> : tensor<3xf32>
// DYN-NEXT: %[[M:.*]] = relax.match_cast %[[C]] : tensor<3xf32> to tensor<?xf32, #relax.shape<[k]>>
// DYN-NEXT: return %[[M]]
func.func @dynamic(%b: tensor<?xf32, #relax.shape<[k]>> {relax.name = "b0"}) -> tensor<?xf32, #relax.shape<[k]>> {
  return %b : tensor<?xf32, #relax.shape<[k]>>
}

func.func @same_name(%a: tensor<3xf32> {relax.name = "b0"}, %b: tensor<3xf32> {relax.name = "b0"}) {
  return
}

func.func @tir_like(%a: tensor<3xf32> {relax.name = "b0"}, %out: tensor<3xf32>) {
  return
}
func.func @uses_tir_like(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = relax.call_tir @tir_like(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

func.func private @decl(tensor<3xf32> {relax.name = "b0"})

// UNKNOWN: error: cannot bind parameters of @main from '{{.*}}unknown.npz': 'w9' is not a parameter of @main (its named parameters: x, w0, b0)
// DUPNPZ: error: cannot read parameters: {{.*}}dup.npz{{.*}}w0{{.*}}appears twice in the archive
// DUPST: error: cannot read parameters: {{.*}}dup.safetensors: entry 'b0' appears twice in the header
// SHAPE: error: cannot bind parameters of @main from '{{.*}}shape.npz': shape mismatch for parameter 'w0': the file has (3, 4), the parameter is 'tensor<4x3xf32>'
// DTYPE: error: cannot bind parameters of @main from '{{.*}}dtype.npz': dtype mismatch for parameter 'w0': the file has 'f64', the parameter is 'tensor<4x3xf32>'
// TRUNC: error: cannot read parameters: {{.*}}truncated.npz: not a valid zip file
// TRUNCST: error: cannot read parameters: {{.*}}truncated.safetensors: entry 'b0': data lies outside the file (truncated?)
// GARBAGE: error: cannot read parameters: {{.*}}garbage.bin
// MISSING: error: cannot read parameters: {{.*}}missing.npz
// NOPARAMS: error: relax-bind-params needs the 'params' option (a .npz or .safetensors file)
// NOFUNC: error: relax-bind-params: no function '@nope' in the module (set 'func-name')
// SAMENAME: error: cannot bind parameters of @same_name from '{{.*}}b0.npz': parameters #0 and #1 are both named 'b0'
// NONCALL: error: cannot bind parameters of @tir_like from '{{.*}}b0.npz': @tir_like is used by 'relax.call_tir', which is not a call whose arguments can be dropped
// DECL: error: cannot bind parameters of @decl from '{{.*}}b0.npz': the function has no body
