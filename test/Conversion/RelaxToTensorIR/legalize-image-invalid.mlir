// Image ops that relax-legalize-ops cannot write a kernel for report it at
// the op.
// RUN: mlc-opt %s --relax-legalize-ops --split-input-file --verify-diagnostics

func.func @resize_cubic(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  // expected-error @below {{'relax.image.resize2d' op cannot be legalized: method 'cubic' has no kernel yet; use nearest_neighbor or linear}}
  %0 = relax.image.resize2d %x {size = array<i64: 8, 8>, method = "cubic"} : (tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}
