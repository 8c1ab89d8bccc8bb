# Torchvision classification models (random weights, eval mode, batch 1,
# 64x64 inputs to keep CI short) exported with torch.onnx.export at opset 13,
# imported with mlc.relax.frontend.onnx.from_onnx, run with mlc and compared
# with torch on a random input (f32: rtol 1e-4, atol 1e-4 times the largest
# output magnitude); ResNet-18 also with a symbolic batch, and Swin-T. bench/onnx_models.py
# runs more models at 224x224.
# REQUIRES: torch
# RUN: %python %s | FileCheck %s
# CHECK: resnet18: ok
# CHECK: mobilenet_v2: ok
# CHECK: mobilenet_v3_small: ok
# CHECK: squeezenet1_1: ok
# CHECK: shufflenet_v2_x0_5: ok
# CHECK: efficientnet_b0: ok
# CHECK: regnet_y_400mf: ok
# CHECK: mnasnet0_5: ok
# CHECK: resnet18 batch b: ok
# CHECK: swin_t opset 17: ok

import sys

import numpy as np
import torch
import torchvision

from torch_models import check_onnx

NAMES = ["resnet18", "mobilenet_v2", "mobilenet_v3_small", "squeezenet1_1",
         "shufflenet_v2_x0_5", "efficientnet_b0", "regnet_y_400mf", "mnasnet0_5"]

torch.manual_seed(0)
rng = np.random.default_rng(0)
for name in NAMES:
    model = getattr(torchvision.models, name)().eval()
    x = rng.standard_normal((1, 3, 64, 64)).astype("float32")
    check_onnx(name, model, [(x,)], opset=13)
    sys.stdout.flush()
# A symbolic batch: Flatten and the classifier see `b`; run at 1 and 3.
model = torchvision.models.resnet18().eval()
sets = [(rng.standard_normal((n, 3, 64, 64)).astype("float32"),) for n in (1, 3)]
check_onnx("resnet18 batch b", model, sets, opset=13, dynamic_axes={0: {0: "b"}})
# Swin-T: shifted windows (Mod, ScatterND, Roll's Slice/Concat), opset 17.
model = torchvision.models.swin_t().eval()
check_onnx("swin_t opset 17", model,
           [(rng.standard_normal((1, 3, 64, 64)).astype("float32"),)], opset=17)
