# The aten table that from_exported_program uses (torch.export's graphs of
# aten operators), on the graph make_fx traces in this torch, which has no
# torch.export: from_fx(..., aten=True) on torchvision models (64x64,
# random weights) and the BERT / GPT-2 / LLaMA blocks, each run with mlc
# and compared with torch (f32: rtol 1e-4, atol 1e-4 times the largest
# output magnitude); parameters bound as dense_resource constants by module
# path, or kept as inputs (detach_params).
# RUN: %python %s | FileCheck %s
# CHECK: resnet18: ok
# CHECK: mobilenet_v3_small: ok
# CHECK: shufflenet_v2_x0_5: ok
# CHECK: efficientnet_b0: ok
# CHECK: bert: ok
# CHECK: gpt2: ok
# CHECK: llama: ok

import numpy as np
import torch
import torchvision

import mlc
from mlc.relax.frontend import detach_params
from mlc.relax.frontend.torch import from_fx
from torch_models import BLOCKS, block_inputs, compare

torch.manual_seed(0)
rng = np.random.default_rng(0)


def check(name, model, inputs):
    mod = from_fx(model, [(x.shape, str(x.dtype)) for x in inputs], aten=True)
    compare(name, model, mlc.create_executor(mod=mod).evaluate(), [inputs], 1e-4)
    return mod


mods = {}
for name in ["resnet18", "mobilenet_v3_small", "shufflenet_v2_x0_5", "efficientnet_b0"]:
    mods[name] = check(name, getattr(torchvision.models, name)().eval(),
                       (rng.standard_normal((1, 3, 64, 64)).astype("float32"),))

for name, block in BLOCKS.items():
    inputs, _ = block_inputs(name, rng, 2, 16 if name != "bert" else 9)
    check(name, block().eval(), inputs)

text = mods["resnet18"].text
print("constants:", "dense_resource<layer1.0.conv1.weight>" in text,
      "relax.nn.conv2d" in text, "relay." not in text)
# CHECK: constants: True True True

# keep_params_as_input: main takes the parameters after the inputs, named by
# module path; detach_params gives their arrays.
seq = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU()).eval()
mod = from_fx(seq, [((2, 8), "float32")], aten=True, keep_params_as_input=True)
mod, params = detach_params(mod)
names = mod.param_names["main"]
print("kept:", names, 'relax.name = "0.weight"' in mod.text)
# CHECK: kept: ['0.weight', '0.bias'] True
# main's first parameter is its input, the others weights (TVM's num_input).
print("relax.num_input:", "relax.num_input = 1 : i64" in mod.text)
# CHECK: relax.num_input: True
lifted = mlc.relax.transform.LiftTransformParams()(mod)
print("lifted:", "@main_transform_params" in lifted.text)
# CHECK: lifted: True
x = rng.standard_normal((2, 8)).astype("float32")
out = mlc.create_executor(mod=mod, params=dict(zip(names, params["main"]))).evaluate()(x)
want = np.maximum(x.astype(np.float64) @ seq[0].weight.detach().numpy().T
                  + seq[0].bias.detach().numpy(), 0)
np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)
print("kept params run: ok")
# CHECK: kept params run: ok

try:
    from_fx(seq, [(("n", 8), "float32")], aten=True)
except ValueError as e:
    print("symbolic:", e)
# CHECK: symbolic: from_fx(aten=True) takes static shapes, got [('n', 8)]
