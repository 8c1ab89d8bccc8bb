// RUN: mlc-opt %s --mlc-forward-loop-annotations | FileCheck %s

// The discardable attribute that convert-scf-to-cf leaves on a loop's back
// edge becomes the branch's loop_annotation (translated to !llvm.loop); a
// branch that already has one keeps it; branches without either stay as
// they are.
#vectorize = #llvm.loop_annotation<vectorize = #llvm.loop_vectorize<disable = false>>
#unroll = #llvm.loop_annotation<unroll = #llvm.loop_unroll<full = true>>

// CHECK-DAG: #[[VEC:.*]] = #llvm.loop_annotation<vectorize = #{{.*}}>
// CHECK-DAG: #[[UNROLL:.*]] = #llvm.loop_annotation<unroll = #{{.*}}>
// CHECK-LABEL: llvm.func @loops
// CHECK:         llvm.br ^bb1
// CHECK-NOT:     llvm.loop_annotation =
// CHECK:         llvm.cond_br %{{.*}}, ^bb1, ^bb2 {loop_annotation = #[[UNROLL]]}
// CHECK:         llvm.br ^bb1 {loop_annotation = #[[VEC]]}
// CHECK:         llvm.br ^bb3 {loop_annotation = #[[UNROLL]]}
// CHECK-NOT:     llvm.loop_annotation =
llvm.func @loops(%c: i1) {
  llvm.br ^bb1
^bb1:
  llvm.cond_br %c, ^bb1, ^bb2 {llvm.loop_annotation = #unroll}
^bb2:
  llvm.br ^bb1 {llvm.loop_annotation = #vectorize}
^bb3:
  llvm.br ^bb3 {loop_annotation = #unroll, llvm.loop_annotation = #vectorize}
}
