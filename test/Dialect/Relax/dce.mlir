// RUN: mlc-opt %s -split-input-file -relax-dce | FileCheck %s
// RUN: not mlc-opt %s -split-input-file -relax-dce="entry=other" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOENTRY

// NOENTRY: error: relax-dce: entry function '@other' not found (set the 'entry' option)

// Unused pure ops go, inside and outside dataflow blocks; an unused dataflow
// result is dropped with everything only it needed; private functions that
// become unreachable go; effects and public functions stay.

// CHECK-LABEL: module
// CHECK-NOT: @dead_kernel
// CHECK: func.func private @live_kernel
// CHECK-NOT: @dead_kernel
// CHECK: func.func @main(%[[X:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[R:.*]] = relax.dataflow -> tensor<4xf32> {
// CHECK-NEXT:   %[[A:.*]] = relax.call_tir @live_kernel(%[[X]])
// CHECK-NEXT:   relax.output %[[A]] : tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: relax.call_dps_packed "env.print"(%[[R]]) {has_side_effects}
// CHECK-NEXT: return %[[R]]
// CHECK: func.func @public_helper
// CHECK-NOT: @dead_kernel
func.func private @live_kernel(memref<4xf32>, memref<4xf32>)
func.func private @dead_kernel(memref<4xf32>, memref<4xf32>)
func.func private @dead_helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %unused = relax.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r:3 = relax.dataflow -> tensor<4xf32>, tensor<4xf32>, tensor<4xf32> {
    %a = relax.call_tir @live_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %b = relax.call_tir @dead_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %c = relax.call_dps_packed "env.exp"(%b) : (tensor<4xf32>) -> tensor<4xf32>
    %d = relax.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relax.output %a, %c, %x : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  %p = relax.call_dps_packed "env.print"(%r#0) {has_side_effects} : (tensor<4xf32>) -> tensor<1xi32>
  %k = relax.constant dense<1.0> : tensor<4xf32>
  return %r#0 : tensor<4xf32>
}

func.func @public_helper(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// -----

// A dataflow block whose results are all unused disappears; calls through
// func.call keep private callees alive, transitively.

// CHECK-LABEL: module
// CHECK: func.func private @kernel
// CHECK: func.func private @helper
// CHECK: relax.call_tir @kernel
// CHECK: func.func @main
// CHECK-NOT: relax.dataflow
// CHECK: call @helper
func.func private @kernel(memref<2xf32>, memref<2xf32>)
func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relax.call_tir @kernel(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = relax.dataflow -> tensor<2xf32> {
    %m = relax.matmul %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
    %a = relax.add %m, %x : (tensor<f32>, tensor<2xf32>) -> tensor<2xf32>
    relax.output %a : tensor<2xf32>
  }
  %y = func.call @helper(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// A private entry is a root too; what it does not reach goes.

// CHECK-LABEL: module
// CHECK-NEXT: func.func private @main
// CHECK-NOT: func.func
func.func private @main() {
  return
}
func.func private @unreachable() {
  return
}

