# mlc.relax.frontend.torch.from_fx on torchvision classification models with
# random weights (eval mode, batch 1, 64x64 inputs to keep CI short), run
# with mlc-run and compared with torch on random inputs (f32: rtol 1e-4,
# atol 1e-4 times the largest output magnitude). Half of the models; the
# rest are in torchvision-b.py so that lit runs them in parallel.
# RUN: %python %s | FileCheck %s
# CHECK: resnet18: ok
# CHECK: resnext50_32x4d: ok
# CHECK: mobilenet_v2: ok
# CHECK: mobilenet_v3_small: ok
# CHECK: mobilenet_v3_large: ok
# CHECK: squeezenet1_0: ok
# CHECK: squeezenet1_1: ok
# CHECK: densenet121: ok

import sys

import numpy as np
import torch
import torchvision

from torch_models import check

NAMES = ["resnet18", "resnext50_32x4d", "mobilenet_v2", "mobilenet_v3_small",
         "mobilenet_v3_large", "squeezenet1_0", "squeezenet1_1", "densenet121"]

torch.manual_seed(0)
rng = np.random.default_rng(0)
for name in NAMES:
    model = getattr(torchvision.models, name)().eval()
    x = rng.standard_normal((1, 3, 64, 64)).astype("float32")
    check(name, model, [((1, 3, 64, 64), "float32")], [(x,)])
    sys.stdout.flush()
