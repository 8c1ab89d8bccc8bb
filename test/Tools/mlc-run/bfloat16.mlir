// numpy has no bfloat16: a bf16 parameter takes uint16 bit patterns (as
// onnx.numpy_helper reads bfloat16), and bf16 results are written as uint16
// bit patterns. x + x doubles exactly (the exponent grows by one); the f32
// cast is exact. Checked with numpy's own bit manipulation.
// RUN: %python -c "import numpy as np; bits = (np.array([1.5, -2.0, 0.1, 3e3], np.float32).view(np.uint32) >> 16).astype(np.uint16); np.savez('%t.in.npz', x=bits)"
// RUN: mlc-run %s --inputs=%t.in.npz --outputs=%t.out.npz --no-cache | FileCheck %s
// RUN: %python -c "import numpy as np; d = np.load('%t.out.npz'); x = np.load('%t.in.npz')['x']; f = (x.astype(np.uint32) << 16).view(np.float32); assert d['out0'].dtype == np.float32 and (d['out0'] == f).all(), d['out0']; assert d['out1'].dtype == np.uint16 and ((d['out1'].astype(np.uint32) << 16).view(np.float32) == 2 * f).all(), d['out1']; print('bf16 ok')" | FileCheck %s --check-prefix=NPZ
// A uint16 array for a parameter of another type is still refused.
// RUN: %python -c "import numpy as np; np.savez('%t.bad.npz', x=np.zeros(4, np.uint16))"
// RUN: not mlc-run %S/Inputs/f16-param.mlir --inputs=%t.bad.npz --no-cache 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: out0: tensor<4xf32>
// CHECK: out1: tensor<4xbf16>
// NPZ: bf16 ok
// BAD: mlc-run: error: parameter 'x' expects tensor<4xf16> but '{{.*}}' holds tensor<4xui16>

func.func @main(%x: tensor<4xbf16> {relax.name = "x"}) -> (tensor<4xf32>, tensor<4xbf16>) {
  %f = relax.astype %x {dtype = f32} : (tensor<4xbf16>) -> tensor<4xf32>
  %d = relax.add %x, %x : (tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
  return %f, %d : tensor<4xf32>, tensor<4xbf16>
}
