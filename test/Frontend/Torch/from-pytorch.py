# mlc.relay.frontend.from_pytorch (TVM's TorchScript front end): traced
# torchvision models (64x64, random weights, eval mode) including the two
# that torch.fx cannot trace in this torch (shufflenet's channel shuffle,
# Swin's shifted windows: their masks and position tables are computed from
# constants, which the front end evaluates with torch), a small ViT, and
# the BERT / GPT-2 / LLaMA blocks; each run with mlc on the returned params
# and compared with torch (f32: rtol 1e-4, atol 1e-4 times the largest
# output magnitude). Then the API: parameter names, every missing operator
# in one error, custom_convert_map, and the errors for scripted modules and
# wrong input shapes.
# RUN: %python %s | FileCheck %s
# CHECK: resnet18: ok
# CHECK: mobilenet_v3_small: ok
# CHECK: squeezenet1_1: ok
# CHECK: shufflenet_v2_x0_5: ok
# CHECK: regnet_y_400mf: ok
# CHECK: efficientnet_b0: ok
# CHECK: swin_t: ok
# CHECK: vit: ok
# CHECK: bert: ok
# CHECK: gpt2: ok
# CHECK: llama: ok

import numpy as np
import torch
import torch.nn.functional as F
import torchvision

import mlc
from mlc.relay.frontend import from_pytorch
from torch_models import BLOCKS, block_inputs, check_torchscript

torch.manual_seed(0)
rng = np.random.default_rng(0)
for name in ["resnet18", "mobilenet_v3_small", "squeezenet1_1", "shufflenet_v2_x0_5",
             "regnet_y_400mf", "efficientnet_b0", "swin_t"]:
    model = getattr(torchvision.models, name)().eval()
    check_torchscript(name, model, (rng.standard_normal((1, 3, 64, 64)).astype("float32"),))

vit = torchvision.models.VisionTransformer(image_size=32, patch_size=8, num_layers=2,
                                           num_heads=2, hidden_dim=32, mlp_dim=64).eval()
torch.nn.init.normal_(vit.heads.head.weight, std=0.02)  # zero-initialized
check_torchscript("vit", vit, (rng.standard_normal((2, 3, 32, 32)).astype("float32"),))

for name, block in BLOCKS.items():
    inputs, _ = block_inputs(name, rng, 2, 16 if name != "bert" else 9)
    check_torchscript(name, block().eval(), inputs)

# Parameters keep their module paths as names (nn.Sequential's start with a
# digit), after the inputs; the relay ops are TVM's.
seq = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.BatchNorm2d(4),
                          torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(64, 5)).eval()
mod, params = from_pytorch(torch.jit.trace(seq, torch.randn(1, 3, 6, 6)),
                           [("data", ((1, 3, 6, 6), "float32"))])
print("params:", sorted(params))
# CHECK: params: ['0.bias', '0.weight', '1.bias', '1.running_mean', '1.running_var', '1.weight', '4.bias', '4.weight']
print("ops:", sorted(set(op for op in ("relay.nn.conv2d", "relay.nn.batch_norm",
                                       "relay.nn.dense", "relay.reshape")
                         if op in mod.text)))
# CHECK: ops: ['relay.nn.batch_norm', 'relay.nn.conv2d', 'relay.nn.dense', 'relay.reshape']


class Unsupported(torch.nn.Module):
    def forward(self, x):
        return torch.cumsum(F.elu(x), 0) + torch.cumsum(x, 1)


traced = torch.jit.trace(Unsupported(), torch.randn(2, 3))
try:
    from_pytorch(traced, [("x", (2, 3))])
except ValueError as e:
    print("missing:", e)
# CHECK: missing: The following operators are not implemented: aten::cumsum (2 nodes, first at {{.*}}from-pytorch.py{{.*}}); aten::elu (1 node, first at {{.*}}functional.py{{.*}})


def convert_elu(converter, node, inputs):
    x = inputs[0]
    # elu(x) = x if x > 0 else exp(x) - 1 (alpha 1)
    return converter.emit("where(greater(%s, 0f), %s, subtract(exp(%s), 1f))"
                          % (x.ref, x.ref, x.ref), x.shape, x.dtype)


class Elu(torch.nn.Module):
    def forward(self, x):
        return F.elu(x) * 2


x = rng.standard_normal((3, 4)).astype("float32")
mod, params = from_pytorch(torch.jit.trace(Elu(), torch.from_numpy(x)), [("x", (3, 4))],
                           custom_convert_map={"aten::elu": convert_elu})
out = mlc.create_executor(mod=mod, params=params).evaluate()(x)
np.testing.assert_allclose(out, 2 * np.where(x > 0, x, np.expm1(x.astype(np.float64))),
                           rtol=1e-5, atol=1e-6)
print("custom_convert_map: ok")
# CHECK: custom_convert_map: ok

for what, call in [
        ("scripted", lambda: from_pytorch(torch.jit.script(Elu()), [("x", (3, 4))])),
        ("shape", lambda: from_pytorch(torch.jit.trace(Elu(), torch.from_numpy(x)),
                                       [("x", (4, 4))])),
        ("module", lambda: from_pytorch(Elu(), [("x", (3, 4))]))]:
    try:
        call()
    except (ValueError, TypeError) as e:
        print("%s error:" % what, e)
# CHECK: scripted error: from_pytorch takes a torch.jit.trace'd module; a torch.jit.script'ed one has no recorded shapes
# CHECK: shape error: input 'x': input_infos gives shape (4, 4), the trace (3, 4)
# CHECK: module error: from_pytorch takes a torch.jit.trace'd module, got Elu
