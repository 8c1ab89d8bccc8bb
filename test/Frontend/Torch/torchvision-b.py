# from_fx on the other half of the torchvision models (see torchvision-a.py
# for the method and tolerances). GoogLeNet without its auxiliary heads, as
# torchvision builds it for inference.
# RUN: %python %s | FileCheck %s
# CHECK: efficientnet_b0: ok
# CHECK: regnet_x_400mf: ok
# CHECK: regnet_y_400mf: ok
# CHECK: mnasnet0_5: ok
# CHECK: googlenet: ok
# CHECK: convnext_tiny: ok
# CHECK: alexnet: ok
# CHECK: vgg11: ok

import sys

import numpy as np
import torch
import torchvision

from torch_models import check

NAMES = ["efficientnet_b0", "regnet_x_400mf", "regnet_y_400mf", "mnasnet0_5",
         "googlenet", "convnext_tiny", "alexnet", "vgg11"]

torch.manual_seed(0)
rng = np.random.default_rng(1)
for name in NAMES:
    kwargs = {"aux_logits": False, "init_weights": True} if name == "googlenet" else {}
    model = getattr(torchvision.models, name)(**kwargs).eval()
    x = rng.standard_normal((1, 3, 64, 64)).astype("float32")
    check(name, model, [((1, 3, 64, 64), "float32")], [(x,)])
    sys.stdout.flush()
