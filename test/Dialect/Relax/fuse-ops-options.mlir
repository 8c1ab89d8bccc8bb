// RUN: mlc-opt %s -relax-fuse-ops | FileCheck %s --check-prefix=DEFAULT
// RUN: mlc-opt %s -relax-fuse-ops=max-depth=2 | FileCheck %s --check-prefix=DEPTH2
// RUN: mlc-opt %s -relax-fuse-ops=fuse-opt-level=0 | FileCheck %s --check-prefix=OPT0
// RUN: not mlc-opt %s -relax-fuse-ops=max-depth=many 2>&1 | FileCheck %s --check-prefix=BADOPT

!t = tensor<4xf32>
!m = memref<4xf32>

tensorir.prim_func @exp(%a: !m, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}
tensorir.prim_func @relu(%a: !m, %c: !m) attributes {tensorir.op_pattern = #tensorir.op_pattern<elemwise>} {}

// A chain of four elementwise ops: one group by default; with max-depth=2
// TVM's count refuses the second merge, giving two groups of two.

// DEFAULT: func.func private @fused_exp_relu_exp_relu(
// DEFAULT: func.func @chain(
// DEFAULT:   func.call @fused_exp_relu_exp_relu(%arg0)
// DEFAULT-NOT: relax.call_tir

// DEPTH2: func.func private @fused_exp_relu(
// DEPTH2-NEXT: relax.call_tir @exp
// DEPTH2-NEXT: relax.call_tir @relu
// DEPTH2-NEXT: return
// DEPTH2: func.func private @fused_exp_relu_0(
// DEPTH2: func.func @chain(
// DEPTH2:   %[[A:.*]] = func.call @fused_exp_relu(%arg0)
// DEPTH2-NEXT: %[[B:.*]] = func.call @fused_exp_relu_0(%[[A]])
// DEPTH2-NEXT: relax.output %[[B]]

// OPT0-NOT: func.call
// OPT0-NOT: relax.primitive
// OPT0: relax.call_tir @exp
// OPT0-NEXT: relax.call_tir @relu
// OPT0-NEXT: relax.call_tir @exp
// OPT0-NEXT: relax.call_tir @relu

// BADOPT: for the --max-depth option: 'many' value invalid for uint argument
func.func @chain(%x: !t) -> !t {
  %r = relax.dataflow -> !t {
    %0 = relax.call_tir @exp(%x) : (!t) -> !t
    %1 = relax.call_tir @relu(%0) : (!t) -> !t
    %2 = relax.call_tir @exp(%1) : (!t) -> !t
    %3 = relax.call_tir @relu(%2) : (!t) -> !t
    relax.output %3 : !t
  }
  return %r : !t
}
