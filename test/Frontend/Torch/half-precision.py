# A float16 model through from_fx: torch computes 16-bit matmuls and
# convolutions in float32 and rounds each result once (its opmath type), so
# the importer gives them out_dtype f32 and a cast back. Checked in the IR,
# then run on the CPU and under emulate-gpu-schedule (the GPU schedule run
# on the host, no mixed-precision option: the tensor-core rule takes the
# f32-accumulating GEMMs) against a float64 evaluation of the same float16
# weights and input. Tolerance: 8 float16 unit roundoffs (2^-11) of the
# largest output magnitude (each of the 4 contractions rounds once, the
# relu and the bias add once more).
# RUN: %python %s | FileCheck %s
# CHECK: relax.nn.conv2d {{.*}}out_dtype = f32{{.*}} -> tensor<2x32x32x32xf32>
# CHECK-NEXT: relax.astype %{{.*}} {dtype = f16} : (tensor<2x32x32x32xf32>) -> tensor<2x32x32x32xf16>
# CHECK: relax.matmul {{.*}} {out_dtype = f32} : (tensor<2x32x1024xf16>, tensor<2x1024x32xf16>) -> tensor<2x32x32xf32>
# CHECK-NEXT: relax.astype
# CHECK: relax.matmul {{.*}} {out_dtype = f32} : (tensor<2x32x32xf16>, tensor<32x48xf16>) -> tensor<2x32x48xf32>
# CHECK-NEXT: relax.astype
# CHECK: cpu: ok
# CHECK: gpu schedule, 3 of {{[0-9]+}} kernels on tensor cores: ok

import os
import tempfile

import numpy as np
import torch
from torch import nn

import mlc
from mlc import tools
from mlc.relax.frontend.torch import from_fx


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 32, 3, padding=1)
        self.fc = nn.Linear(32, 48)

    def forward(self, x):
        y = torch.relu(self.conv(x)).view(2, 32, 1024)
        return self.fc(torch.matmul(y, y.transpose(1, 2)))


torch.manual_seed(0)
half = Net().eval().half()
rng = np.random.default_rng(1)
x = rng.standard_normal((2, 3, 32, 32)).astype(np.float16)
# The reference: the same float16 weights and input, evaluated in float64.
reference = Net().eval().double()
reference.load_state_dict({k: v.double() for k, v in half.state_dict().items()})
with torch.no_grad():
    want = reference(torch.from_numpy(x.astype(np.float64))).numpy()

mod = from_fx(torch.fx.symbolic_trace(half), [((2, 3, 32, 32), "float16")])
print(mod.text.split("{-#")[0])


def report(label, got):
    error = np.abs(got.astype(np.float64) - want).max()
    bound = 8 * 2.0 ** -11 * np.abs(want).max()
    print("%s: %s" % (label, "ok" if error <= bound else
                      "max error %.3g > %.3g" % (error, bound)))


report("cpu", mlc.create_executor(mod=mod).evaluate()(x))

with tempfile.TemporaryDirectory() as tmp:
    model = os.path.join(tmp, "half.mlir")
    with open(model, "w") as f:
        f.write(mod.text)
    scheduled = tools.run("mlc-opt", [
        model, "--relax-legalize-ops", "--tensorir-annotate-op-pattern",
        "--relax-fuse-ops", "--relax-fuse-tir",
        "--tensorir-default-schedule=target=cuda"])
    np.savez(os.path.join(tmp, "in.npz"), x=x)
    tools.run("mlc-run", [model, "--quiet", "--inputs=" + os.path.join(tmp, "in.npz"),
                          "--outputs=" + os.path.join(tmp, "out.npz"),
                          "--pipeline-options=emulate-gpu-schedule=true"])
    with np.load(os.path.join(tmp, "out.npz")) as data:
        got = data["out0"]
    kernels = scheduled.split("tensorir.prim_func")[1:]
    report("gpu schedule, %d of %d kernels on tensor cores"
           % (sum("mma_sync" in k for k in kernels), len(kernels)), got)
