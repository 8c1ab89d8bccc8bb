// RUN: mlc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(mlc-default-schedule{target=gpu}))'

// expected-error @below {{mlc-default-schedule: unknown target 'gpu' (only 'cpu')}}
func.func @f() {
  return
}
