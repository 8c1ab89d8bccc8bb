"""PyTorch to mlc with from_fx: a torchvision ResNet-18 (random weights) with a
symbolic batch size, built once and run at two batch sizes, checked against
torch.

    /usr/bin/python3 examples/from_fx.py
"""

import os
import sys

import numpy as np
import torch
import torchvision

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import mlc  # noqa: E402
from mlc.relax.frontend.torch import from_fx  # noqa: E402

model = torchvision.models.resnet18().eval()
mod = from_fx(torch.fx.symbolic_trace(model), [(("n", 3, 64, 64), "float32")])
print(mod.text.splitlines()[1][:120], "...")
run = mlc.create_executor(mod=mod).evaluate()
for batch in (1, 4):
    x = np.random.rand(batch, 3, 64, 64).astype("float32")
    out = run(x)
    with torch.no_grad():
        ref = model(torch.from_numpy(x)).numpy()
    print("batch %d: output %s, max |mlc - torch| = %.2e" % (batch, out.shape, np.abs(out - ref).max()))
