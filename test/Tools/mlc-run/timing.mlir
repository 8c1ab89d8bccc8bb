// mlc-run --mlir-timing (mlir-opt's timing options): a report on stderr of
// where compiling went, each pass of the pipeline nested under it and LLVM's
// phases under LLVM; from the cache, the lookup and the load instead. The
// results are those of a run without it, and running is not in the report.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.random.seed(0); np.savez('%t/in.npz', x=np.random.randn(2, 3).astype(np.float32)); np.savez('%t/w.npz', w=np.random.randn(3).astype(np.float32))"
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w.npz --cache-dir=%t/cache --mlir-timing --mlir-timing-display=tree --outputs=%t/out.npz --quiet 2> %t/cold.txt
// RUN: FileCheck %s --check-prefix=COLD < %t/cold.txt
// RUN: %python -c "import numpy as np; x = np.load('%t/in.npz')['x']; w = np.load('%t/w.npz')['w']; y = np.load('%t/out.npz')['out0']; assert np.allclose(y, np.maximum(x * w - 3, 0), rtol=1e-6, atol=1e-6), y; print('ok')" | FileCheck %s --check-prefix=OK
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w.npz --cache-dir=%t/cache --mlir-timing --mlir-timing-display=tree --bench=3 --quiet 2> %t/warm.txt | FileCheck %s --check-prefix=BENCH
// RUN: FileCheck %s --check-prefix=WARM < %t/warm.txt
// The flat list and JSON, and no report without the option.
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w.npz --no-cache --mlir-timing --quiet 2>&1 | FileCheck %s --check-prefix=LIST
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w.npz --no-cache --mlir-timing --mlir-output-format=json --quiet 2> %t/report.json
// RUN: %python -c "import json; r = json.load(open('%t/report.json')); names = set(); walk = lambda e: [names.add(e.get('name')), [walk(p) for p in e.get('passes', [])]]; [walk(e) for e in r]; assert {'Parse', 'MLIR pipeline', 'LLVM'} <= names, names; print('json')" | FileCheck %s --check-prefix=JSON
// RUN: mlc-run %s --inputs=%t/in.npz --params=%t/w.npz --no-cache --quiet 2>&1 | count 0
// RUN: mlc-run --help | FileCheck %s --check-prefix=HELP
// Bad options and a module that fails to compile: an error, a non-zero exit.
// RUN: not mlc-run %s --inputs=%t/in.npz --params=%t/w.npz --mlir-timing-display=sideways 2>&1 | FileCheck %s --check-prefix=DISPLAY
// RUN: echo 'func.func @main(%%x: tensor<*xf32> {relay.name = "x"}) -> tensor<*xf32> { return %%x : tensor<*xf32> }' > %t/unranked.mlir
// RUN: not mlc-run %t/unranked.mlir --inputs=%t/in.npz --no-cache --mlir-timing 2>&1 | FileCheck %s --check-prefix=FAIL

// COLD: Execution time report
// COLD: Wall Time
// COLD-NEXT: Parse
// COLD-NEXT: Bind parameters
// COLD-NEXT: Read inputs
// COLD-NEXT: Cache lookup
// COLD-NEXT: MLIR pipeline
// COLD-NEXT: {{^ +[0-9.]+ +\( *[0-9.]+%\) +[0-9.]+ +\( *[0-9.]+%\)    }}RejectUnregisteredOpsPass
// COLD-NEXT: {{^ +[0-9.]+ +\( *[0-9.]+%\) +[0-9.]+ +\( *[0-9.]+%\)    }}RelayToRelax
// COLD: DefaultSchedulePass
// COLD: {{^ +[0-9.]+ +\( *[0-9.]+%\) +[0-9.]+ +\( *[0-9.]+%\)  }}LLVM
// COLD-NEXT: {{    }}Translation to LLVM IR
// COLD-NEXT: {{    }}Optimization
// COLD-NEXT: {{    }}Code generation
// COLD-NEXT: {{  }}Cache store
// COLD-NEXT: Rest
// COLD-NEXT: Total

// OK: ok
// BENCH: latency over 3 runs

// WARM: Wall Time
// WARM-NEXT: Parse
// WARM-NEXT: Bind parameters
// WARM-NEXT: Read inputs
// WARM-NEXT: Cache lookup
// WARM-NEXT: Loading from the cache
// WARM-NEXT: Rest
// WARM-NEXT: Total
// WARM-NOT: MLIR pipeline

// LIST: Execution time report
// LIST-DAG: MLIR pipeline
// LIST-DAG: Code generation
// LIST-DAG: RelaxLegalizeOps
// JSON: json

// HELP: --mlir-timing {{ *}}- Display execution times

// DISPLAY: for the --mlir-timing-display option: Cannot find option named 'sideways'!
// FAIL: error:
// FAIL-NOT: Stack dump

func.func @main(%x: tensor<2x3xf32> {relay.name = "x"}, %w: tensor<3xf32> {relay.name = "w"}) -> tensor<2x3xf32> {
  %0 = relay.multiply %x, %w : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %c = relay.constant dense<3.0> : tensor<f32>
  %1 = relay.subtract %0, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = relay.nn.relu %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %2 : tensor<2x3xf32>
}
