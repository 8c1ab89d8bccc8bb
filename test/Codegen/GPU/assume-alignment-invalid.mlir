// RUN: mlc-opt %s -split-input-file -verify-diagnostics --mlc-gpu-assume-alignment=alignment=12

// expected-error @below {{mlc-gpu-assume-alignment: alignment must be a power of two in [1, 4096], got 12}}
gpu.module @kernels {
}
