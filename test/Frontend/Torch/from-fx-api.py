# The from_fx API: symbolic input dims become #relax.shape symbols on main's
# parameters; weights are dense_resource constants named by module path, or
# parameters of main with keep_params_as_input (detach_params returns them,
# bound by name with params=); one import runs at two batch sizes; all
# unsupported operations are listed in one error before converting;
# custom_convert_map adds a converter; from_exported_program names the
# missing torch.export. Numbers are compared with torch (rtol 1e-4, atol
# 1e-4 times the largest output magnitude).
# RUN: %python %s | FileCheck %s

import numpy as np
import torch
from torch import nn

from mlc_test_utils import expect_error

import mlc
from mlc.executor import compile_module
from mlc.relax.frontend import detach_params
from mlc.relax.frontend.torch import from_exported_program, from_fx


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        y = nn.functional.max_pool2d(y, 2)
        return self.fc(y.view(y.size(0), -1))


torch.manual_seed(0)
rng = np.random.default_rng(0)
net = Net().eval()
with torch.no_grad():
    net.bn1.running_mean.uniform_(-1, 1)
    net.bn1.running_var.uniform_(0.5, 2)

mod = from_fx(torch.fx.symbolic_trace(net), [(("n", 3, 16, 16), "float32")])
# CHECK: func.func @main(%{{.*}}: tensor<?x3x16x16xf32, #relax.shape<[n, 3, 16, 16]>> {relax.name = "x"}) -> tensor<?x10xf32, #relax.shape<[n, 10]>>
# CHECK: relax.constant dense_resource<conv1.weight> : tensor<8x3x3x3xf32>
# CHECK: relax.nn.max_pool2d
# CHECK-SAME: -> tensor<?x8x4x4xf32, #relax.shape<[n, 8, 4, 4]>>
# CHECK: relax.reshape %{{.*}} {shape = array<i64: 0, 128>}
print(mod.text.split("{-#")[0])


def compare(run, batch, **params):
    x = rng.standard_normal((batch, 3, 16, 16)).astype("float32")
    with torch.no_grad():
        ref = net(torch.from_numpy(x)).numpy()
    out = run(x)
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4 * np.abs(ref).max())


run = mlc.create_executor(mod=mod).evaluate()
compare(run, 1)
compare(run, 5)
print("bound: ok")
# CHECK: bound: ok

kept = from_fx(torch.fx.symbolic_trace(net), [(("n", 3, 16, 16), "float32")],
               keep_params_as_input=True)
kept, params = detach_params(kept)
names = kept.param_names["main"]
print(names[:4], len(params["main"]))
# CHECK: ['conv1.weight', 'conv1.bias', 'bn1.running_mean', 'bn1.running_var'] 8
# CHECK: main takes bn1.weight: True
print("main takes bn1.weight:", 'tensor<8xf32> {relax.name = "bn1.weight"}' in kept.text)
run = mlc.create_executor(mod=kept, params=dict(zip(names, params["main"]))).evaluate()
compare(run, 2)
print("params as inputs: ok")
# CHECK: params as inputs: ok

# TVM's deployment flow: the kept params are main's weights (num_input),
# whose transforms LiftTransformParams moves into main_transform_params.
print("relax.num_input:", "relax.num_input = 1 : i64" in kept.text)
# CHECK: relax.num_input: True
lifted = mlc.relax.transform.LiftTransformParams()(kept)
library = compile_module(lifted)
transformed = library["main_transform_params"](*params["main"])
transformed = transformed if isinstance(transformed, tuple) else (transformed,)


def run_lifted(x):
    out = np.empty((x.shape[0], 10), np.float32)  # a dynamic shape: passed
    library["main"](x, *transformed, out)
    return out


compare(run_lifted, 3)
print("lifted, %d transformed weights: ok" % len(transformed))
# CHECK: lifted, {{[0-9]+}} transformed weights: ok


class Unsupported(nn.Module):
    def forward(self, x):
        return torch.cumsum(x, 0) + nn.functional.elu(x) + torch.cumsum(x, 1)


# CHECK: NotImplementedError: Unsupported function types ['cumsum', 'elu'] (cumsum: cumsum, cumsum_1; elu: elu)
expect_error(NotImplementedError, lambda: from_fx(
    torch.fx.symbolic_trace(Unsupported()), [((2, 2), "float32")]))


def convert_elu(node, translator):
    # elu(x) = x if x > 0 else exp(x) - 1, from relax ops.
    x = translator.value(node.args[0])
    zero = translator.scalar(0.0, "f32")
    expm1 = translator.emit("subtract", [translator.emit("exp", [x]),
                                         translator.scalar(1.0, "f32")])
    return translator.emit("where", [translator.emit("greater", [x, zero]), x, expm1])


class Elu(nn.Module):
    def forward(self, x):
        return nn.functional.elu(x) * 2


elu_mod = from_fx(torch.fx.symbolic_trace(Elu()), [((4, 5), "float32")],
                  custom_convert_map={nn.functional.elu: convert_elu})
x = rng.standard_normal((4, 5)).astype("float32")
np.testing.assert_allclose(mlc.create_executor(mod=elu_mod).evaluate()(x),
                           Elu()(torch.from_numpy(x)).numpy(), rtol=1e-5, atol=1e-6)
print("custom converter: ok")
# CHECK: custom converter: ok

# CHECK: RuntimeError: from_exported_program needs torch.export, which torch {{.*}} does not have
expect_error(RuntimeError, lambda: from_exported_program(None))
