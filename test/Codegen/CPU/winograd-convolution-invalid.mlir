// Invalid Winograd tiles: a function's mlc.schedule.winograd_tile other
// than 0, 2 or 4 (or not an integer), and the option's, are errors.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics --mlc-cpu-winograd-convolution
// RUN: not mlc-opt %s -split-input-file --mlc-cpu-winograd-convolution=output-tile=3 2>&1 | FileCheck %s --check-prefix=OPTION

// OPTION: error: mlc-cpu-winograd-convolution: output-tile = 3 (expected 0, 2 or 4)

// expected-error @below {{mlc-cpu-winograd-convolution: mlc.schedule.winograd_tile = 3 : i64 (expected 0, 2 or 4)}}
func.func @f() attributes {mlc.schedule.winograd_tile = 3 : i64} {
  return
}

// -----

// expected-error @below {{mlc-cpu-winograd-convolution: mlc.schedule.winograd_tile = "4" (expected 0, 2 or 4)}}
func.func @f() attributes {mlc.schedule.winograd_tile = "4"} {
  return
}
