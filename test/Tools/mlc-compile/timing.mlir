// mlc-compile --mlir-timing: a report on stderr of where compiling went
// (the pipeline's passes nested under it, LLVM's phases under LLVM, the
// link of a .so), by output kind; the library it writes computes what numpy
// does.
// RUN: rm -rf %t && mkdir -p %t
// RUN: mlc-compile %s -o %t/m.so --mlir-timing --mlir-timing-display=tree 2> %t/so.txt
// RUN: FileCheck %s --check-prefix=SO < %t/so.txt
// RUN: %python -c "import numpy as np; from mlc import runtime; m = runtime.load_module('%t/m.so'); x = np.random.default_rng(0).standard_normal((4, 8)).astype(np.float32); y = np.asarray(m['main'](x)); assert np.allclose(y, np.maximum(x * 2 - 1, 0), rtol=1e-6, atol=1e-6), y; print('ok')" | FileCheck %s --check-prefix=OK
// RUN: mlc-compile %s -o %t/m.o --mlir-timing --mlir-timing-display=tree 2>&1 | FileCheck %s --check-prefix=OBJ
// RUN: mlc-compile %s -o %t/m.ll --mlir-timing --mlir-timing-display=tree 2>&1 | FileCheck %s --check-prefix=IR
// RUN: mlc-compile %s -o %t/quiet.so 2>&1 | count 0
// RUN: mlc-compile --help | FileCheck %s --check-prefix=HELP
// A failed compile still fails, and leaves no output.
// RUN: not mlc-compile %s -o %t/bad.so --ld=%t/no-linker --mlir-timing 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not test -e %t/bad.so

// SO: Wall Time
// SO-NEXT: Parse
// SO-NEXT: MLIR pipeline
// SO: DefaultSchedulePass
// SO: {{^ +[0-9.]+ +\( *[0-9.]+%\) +[0-9.]+ +\( *[0-9.]+%\)  }}LLVM
// SO-NEXT: {{    }}Translation to LLVM IR
// SO-NEXT: {{    }}Optimization
// SO-NEXT: {{    }}Code generation
// SO-NEXT: {{  }}Linking
// SO-NEXT: Rest
// SO-NEXT: Total

// OK: ok

// OBJ: {{    }}Code generation
// OBJ-NOT: Linking
// OBJ: Total

// IR: {{    }}Optimization
// IR-NOT: Code generation
// IR-NOT: Linking
// IR: Total

// HELP: --mlir-timing {{ *}}- Display execution times

// FAIL: error: {{.*}}no-linker

func.func @main(%x: tensor<4x8xf32> {relay.name = "x"}) -> tensor<4x8xf32> {
  %c2 = relay.constant dense<2.0> : tensor<f32>
  %0 = relay.multiply %x, %c2 : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %c1 = relay.constant dense<1.0> : tensor<f32>
  %1 = relay.subtract %0, %c1 : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %2 = relay.nn.relu %1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
