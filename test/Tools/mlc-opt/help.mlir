// mlc-opt carries every upstream pass and dialect next to mlc's own.
// RUN: mlc-opt --help | FileCheck %s --check-prefix=HELP
// RUN: mlc-opt --show-dialects | FileCheck %s --check-prefix=DIALECTS

// HELP-DAG: --canonicalize
// HELP-DAG: --convert-linalg-to-loops
// HELP-DAG: --gpu-lower-to-nvvm-pipeline
// HELP-DAG: --transform-interpreter

// DIALECTS-DAG: linalg
// DIALECTS-DAG: relax
// DIALECTS-DAG: relay
// DIALECTS-DAG: tensorir
// DIALECTS-DAG: transform
