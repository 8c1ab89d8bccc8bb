// mlc-compile reports bad input, entries and outputs with a diagnostic and a
// non-zero exit, and leaves no output file (nor header) behind.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not mlc-compile %s --entry=nope -o %t/out.o --emit-header=%t/out.h 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not test -e %t/out.o
// RUN: not test -e %t/out.h
// RUN: not mlc-compile %s --entry=hidden -o %t/out.o 2>&1 | FileCheck %s --check-prefix=PRIVATE
// RUN: not mlc-compile %s --entry=decl -o %t/out.o 2>&1 | FileCheck %s --check-prefix=DECL
// RUN: not mlc-compile %s --entry=main -o %t/no/such/dir/out.o 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: not mlc-compile %s --entry=main -o %t/out.o --emit-header=%t/no/such/dir/out.h 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: not test -e %t/out.o
// RUN: not mlc-compile %s --entry=main -o %t/out.o --pipeline-options=no-such-option=1 2>&1 | FileCheck %s --check-prefix=OPTIONS
// RUN: not mlc-compile %s --entry=main -O7 -o %t/out.o 2>&1 | FileCheck %s --check-prefix=OPT
// An unknown --mcpu is an error, not LLVM's abort; "native" is this machine.
// RUN: not mlc-compile %s --entry=main --mcpu=no-such-cpu -o %t/out.o 2>&1 | FileCheck %s --check-prefix=MCPU
// RUN: not test -e %t/out.o
// RUN: mlc-compile %s --entry=main --mcpu=native -o %t/native.o
// RUN: test -s %t/native.o
// RUN: echo 'func.func @unranked(%%x: tensor<*xf32>) -> tensor<*xf32> { return %%x : tensor<*xf32> }' > %t/unranked.mlir
// RUN: not mlc-compile %t/unranked.mlir -o %t/out.so --emit-header=%t/out.h 2>&1 | FileCheck %s --check-prefix=UNRANKED
// RUN: not test -e %t/out.h
// What the pipeline cannot lower is reported where it is left.
// RUN: not mlc-compile %t/unranked.mlir -o %t/out.so 2>&1 | FileCheck %s --check-prefix=LEFTOVER
// RUN: not test -e %t/out.so
// RUN: echo 'llvm.func internal @inner() { llvm.return }' > %t/internal.mlir
// RUN: not mlc-compile %t/internal.mlir --entry=inner -o %t/out.o 2>&1 | FileCheck %s --check-prefix=INTERNAL
// RUN: not mlc-compile %t/missing.mlir -o %t/out.o 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: echo 'func.func @f( {' > %t/bad.mlir
// RUN: not mlc-compile %t/bad.mlir -o %t/out.so 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not mlc-compile %s --entry=main -o %t/out.so --ld=%t/no-linker 2>&1 | FileCheck %s --check-prefix=LINKER
// RUN: not test -e %t/out.so
// RUN: not test -e %t/out.o
// A run that fails after opening its outputs (here in linking) removes them,
// so no stale or half-written file looks like a result.
// RUN: echo stale > %t/stale.so
// RUN: echo stale > %t/stale.h
// RUN: not mlc-compile %s --entry=main -o %t/stale.so --emit-header=%t/stale.h --ld=%t/no-linker
// RUN: not test -e %t/stale.so
// RUN: not test -e %t/stale.h
// A symbol that nothing defines fails the link (--no-undefined), not the
// later dlopen.
// RUN: not mlc-compile %s -o %t/link.so 2>&1 | FileCheck %s --check-prefix=UNDEFINED
// RUN: not test -e %t/link.so
// RUN: mlc-compile %s --entry=main -o %t/out.o
// RUN: test -s %t/out.o

// ENTRY: mlc-compile: error: no function 'nope' in '{{.*}}errors.mlir'
// PRIVATE: error: entry 'hidden' is private; only public functions can be exported
// DECL: error: entry 'decl' is a declaration without a body
// UNWRITABLE: mlc-compile: error: {{.*}}no/such/dir/out.{{[oh]}}
// OPTIONS: mlc-compile: error: invalid --pipeline-options 'no-such-option=1'
// OPT: mlc-compile: error: -O7 is not an optimization level (0-3)
// MCPU: mlc-compile: error: unknown CPU 'no-such-cpu' for --mcpu on x86_64{{.*}} (e.g. znver4, sapphirerapids, haswell; 'native' is this machine's)
// UNRANKED: error: parameter 0 of 'unranked' has type 'tensor<*xf32>', which has no C interface
// INTERNAL: internal.mlir:1:1: error: entry 'inner' has internal linkage; only external functions are exported
// NOFILE: mlc-compile: error: {{.*}}missing.mlir
// PARSE: bad.mlir:1:{{[0-9]+}}: error:
// UNDEFINED: mlc-compile: error: linking '{{.*}}' failed
// UNDEFINED: undefined symbol: mystery
// LEFTOVER: unranked.mlir:1:{{[0-9]+}}: error: the CPU pipeline left '{{.*}}' outside the LLVM dialect
// LINKER: mlc-compile: error: cannot run the linker '{{.*}}no-linker' (set it with --ld=)

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

func.func private @hidden(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

func.func private @decl(%x: tensor<2xf32>) -> tensor<2xf32>

func.func private @mystery(f32) -> f32

func.func @calls_mystery(%x: f32) -> f32 {
  %0 = func.call @mystery(%x) : (f32) -> f32
  return %0 : f32
}
