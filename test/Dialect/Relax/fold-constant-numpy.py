# relax-fold-constant's numerics against numpy on random inputs: parameters
# bound from an .npz are folded through matmul and broadcasting add, and the
# resulting constant is compared with numpy (float64 reference, f32 rtol 1e-5).
# Shapes are odd so that no tiling or vector width hides a wrong index.
# RUN: %python %s | FileCheck %s
# CHECK: fold matmul+add 3x5x4: ok
# CHECK: fold matmul+add 7x33x13: ok

import os
import re
import subprocess
import tempfile

import numpy as np

MODEL = """
func.func @main(%a: tensor<{m}x{k}xf32> {{relax.name = "a"}},
                %b: tensor<{k}x{n}xf32> {{relax.name = "b"}},
                %c: tensor<{n}xf32> {{relax.name = "c"}}) -> tensor<{m}x{n}xf32> {{
  %0 = relax.matmul %a, %b : (tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %1 = relax.add %0, %c : (tensor<{m}x{n}xf32>, tensor<{n}xf32>) -> tensor<{m}x{n}xf32>
  return %1 : tensor<{m}x{n}xf32>
}}
"""

mlc_opt = os.path.join(os.environ["MLC_TOOLS_DIR"], "mlc-opt")
rng = np.random.default_rng(7)
for m, k, n in [(3, 5, 4), (7, 33, 13)]:
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    c = rng.standard_normal(n).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        params = os.path.join(tmp, "params.npz")
        np.savez(params, a=a, b=b, c=c)
        model = os.path.join(tmp, "model.mlir")
        with open(model, "w") as f:
            f.write(MODEL.format(m=m, k=k, n=n))
        out = subprocess.run(
            [mlc_opt, model, "--relax-bind-params=params=" + params,
             "--relax-fold-constant", "--relax-dce",
             "--mlir-print-elementsattrs-with-hex-if-larger=0"],
            check=True, capture_output=True, text=True).stdout
    # Everything folded into one constant that main returns.
    constants = re.findall(r'relax\.constant dense<"0x([0-9A-F]+)">', out)
    assert len(constants) == 1 and "relax.matmul" not in out, out
    folded = np.frombuffer(bytes.fromhex(constants[0]), np.float32).reshape(m, n)
    expected = a.astype(np.float64) @ b + c
    np.testing.assert_allclose(folded, expected, rtol=1e-5, atol=1e-5 * np.sqrt(k))
    print("fold matmul+add %dx%dx%d: ok" % (m, k, n))
