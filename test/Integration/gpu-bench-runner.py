# bench/gpu/run.py, the GPU benchmark's runner, on a library for the host
# CPU (no GPU here): it loads the manifest's case, runs the weights'
# transform of a num-input=1 library (relax-lift-transform-params) once,
# checks main against a float64 numpy reference of conv2d + batch_norm +
# relu made here, and times it with one short repeat. Keeps the runner
# working between the sessions that have a GPU. Tolerance: f32, 1e-5 (K=27).
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %s %t
# RUN: %python %mlc_src_root/bench/gpu/run.py --dir %t --no-torch --number 1 --repeat 1 --min-repeat-ms 0 --warmup 1 | FileCheck %s
# CHECK: device: cpu
# CHECK: {{^lifted +ok }}

import json
import os
import subprocess
import sys

import numpy as np

MODEL = """#[version = "0.0.5"]
def @main(%data: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32], %g: Tensor[(4), float32], %b: Tensor[(4), float32], %m: Tensor[(4), float32], %v: Tensor[(4), float32]) {
  %0 = nn.conv2d(%data, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3]);
  %1 = nn.batch_norm(%0, %g, %b, %m, %v);
  nn.relu(%1.0)
}
"""

out_dir = sys.argv[1]
tools = os.environ["MLC_TOOLS_DIR"]
relay = os.path.join(out_dir, "lifted.relay")
with open(relay, "w") as f:
    f.write(MODEL)
mlir = os.path.join(out_dir, "lifted.mlir")
subprocess.run([os.path.join(tools, "mlc-translate"), "--import-relay", relay, "-o", mlir], check=True)
subprocess.run([os.path.join(tools, "mlc-compile"), mlir, "--pipeline-options=num-input=1",
                "-o", os.path.join(out_dir, "lifted.so")], check=True)

rng = np.random.default_rng(0)
x = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
p = {"w": rng.standard_normal((4, 3, 3, 3)) / 5, "g": 1 + 0.1 * rng.standard_normal(4),
     "b": 0.1 * rng.standard_normal(4), "m": 0.1 * rng.standard_normal(4),
     "v": rng.uniform(0.5, 2.0, 4)}
p = {k: v.astype(np.float32) for k, v in p.items()}
np.savez(os.path.join(out_dir, "inputs.npz"), data=x)
np.savez(os.path.join(out_dir, "params.npz"), **p)
xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
ref = np.zeros((1, 4, 8, 8))
for ky in range(3):
    for kx in range(3):
        ref += np.einsum("nchw,oc->nohw", xp[:, :, ky:ky + 8, kx:kx + 8],
                         p["w"][:, :, ky, kx].astype(np.float64))
scale = p["g"] / np.sqrt(p["v"].astype(np.float64) + 1e-5)
ref = np.maximum((ref - p["m"][None, :, None, None]) * scale[None, :, None, None]
                 + p["b"][None, :, None, None], 0)
np.savez(os.path.join(out_dir, "reference.npz"), out0=ref)
with open(os.path.join(out_dir, "manifest.json"), "w") as f:
    json.dump([{"name": "lifted", "kind": "model", "so": "lifted.so", "entry": "main",
                "transform": "main_transform_params", "inputs": "inputs.npz",
                "params": "params.npz", "reference": "reference.npz", "rtol": 1e-5,
                "atol": 1e-5, "flops": None, "bytes": None}], f)
