// A function's schedule knobs (mlc.schedule.<option>): unknown names,
// values that are not integers and sizes out of range are errors at the
// function.
// RUN: mlc-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(func.func(mlc-default-schedule))'

// expected-error @below {{mlc-default-schedule: unknown schedule knob 'mlc.schedule.k_tiles' (expected m_register, n_register, m_parallel, k_tile, n_cache_tile, vector_width, conv_m_register or winograd_tile)}}
func.func @f() attributes {mlc.schedule.k_tiles = 4 : i64} {
  return
}

// -----

// expected-error @below {{mlc-default-schedule: schedule knob 'mlc.schedule.k_tile' must be an integer, got "256"}}
func.func @f() attributes {mlc.schedule.k_tile = "256"} {
  return
}

// -----

// expected-error @below {{mlc-default-schedule: m_register = 0 is not a tile size in [1, 1048576]}}
func.func @f() attributes {mlc.schedule.m_register = 0 : i64} {
  return
}
