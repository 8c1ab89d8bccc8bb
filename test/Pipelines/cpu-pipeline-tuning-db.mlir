// The CPU pipeline's tuning options are checked before it is built, and
// mlc-graph-to-kernels (the graph part, which tuning extracts tasks from)
// takes them too.
// RUN: not mlc-opt %s '--mlc-cpu-pipeline=tuning-db=db emulate-gpu-schedule=true' 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not mlc-opt %s '--mlc-cpu-pipeline=tuning-db=db default-schedule=false' 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not mlc-opt %s '--mlc-graph-to-kernels=tuning-num-cores=-2' 2>&1 | FileCheck %s --check-prefix=CORES
// RUN: not mlc-opt %s '--mlc-graph-to-kernels=tuning-db=%t.missing' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: mlc-opt %s --mlc-graph-to-kernels | FileCheck %s

// GPU: tuning-db holds CPU schedules; it cannot be combined with emulate-gpu-schedule
// DEFAULT: tuning-db needs default-schedule=true (tuned records set the default schedule's knobs)
// CORES: tuning-num-cores must not be negative, got -2
// MISSING: error: no tuning database: '{{.*}}.missing' is not a directory

// CHECK: tensorir.prim_func private @add(
// CHECK: func.func @main
// CHECK: relax.call_tir @add
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relax.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
