"""Runs mlp.onnx (symbolic batch) imported by mlc at two batch sizes with
mlc-run and compares with numpy on the model's own initializers (rtol 1e-5,
atol 1e-6): usage run_dynamic_mlp.py MODEL.onnx IMPORTED.mlir TMPDIR."""

import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

from mlc.tools import find_tool, save_npz

model_path, mlir, tmp = sys.argv[1:4]
weights = {t.name: numpy_helper.to_array(t) for t in onnx.load(model_path).graph.initializer}
rng = np.random.default_rng(0)
for batch in (2, 5):
    x = rng.standard_normal((batch, 8)).astype(np.float32)
    inputs, outputs = os.path.join(tmp, "in.npz"), os.path.join(tmp, "out.npz")
    save_npz(inputs, {"x": x})
    subprocess.run([find_tool("mlc-run"), mlir, "--inputs=" + inputs, "--outputs=" + outputs,
                    "--quiet"], check=True)
    out = np.load(outputs)["out0"]
    want = np.maximum(x @ weights["w"].T + weights["b"], 0)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)
    print("batch %d: %s ok" % (batch, out.shape))
