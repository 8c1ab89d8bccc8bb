# from_fx on torch's rounding, trigonometric and hyperbolic functions,
# isnan/isinf/isfinite, remainder (%) and fmod, and torch.gather, each as
# a function and as a tensor method where torch has one, on random inputs
# in each function's domain, compared with torch (f32: rtol 1e-5, atol
# 1e-6; integers and booleans exactly).
# RUN: %python %s | FileCheck %s
# CHECK: floor: ok
# CHECK: ceil: ok
# CHECK: round: ok
# CHECK: trunc: ok
# CHECK: floor int64 (unchanged): ok
# CHECK: sin: ok
# CHECK: cos: ok
# CHECK: tan: ok
# CHECK: asin: ok
# CHECK: acos: ok
# CHECK: atan: ok
# CHECK: sinh: ok
# CHECK: cosh: ok
# CHECK: asinh: ok
# CHECK: acosh: ok
# CHECK: atanh: ok
# CHECK: isnan isinf isfinite: ok
# CHECK: remainder and %: ok
# CHECK: fmod: ok
# CHECK: fmod and % int32 by a constant: ok
# CHECK: gather dim=1: ok
# CHECK: methods: ok

import numpy as np
import torch
from torch import nn

import mlc
from mlc.relax.frontend.torch import from_fx

rng = np.random.default_rng(3)


class Fn1(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class Fn2(Fn1):
    def forward(self, x, y):
        return self.fn(x, y)


def check(name, fn, *inputs, exact=False):
    model = (Fn1 if len(inputs) == 1 else Fn2)(fn)
    mod = from_fx(torch.fx.symbolic_trace(model),
                  [(x.shape, str(x.dtype)) for x in inputs])
    out = mlc.create_executor(mod=mod).evaluate()(*inputs)
    outs = out if isinstance(out, list) else [out]
    refs = model(*[torch.from_numpy(x) for x in inputs])
    refs = refs if isinstance(refs, tuple) else (refs,)
    for got, ref in zip(outs, refs):
        ref = ref.numpy()
        assert got.dtype == ref.dtype, (name, got.dtype, ref.dtype)
        if exact or ref.dtype.kind in "biu":
            np.testing.assert_array_equal(got, ref, err_msg=name)
        else:
            np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-6, err_msg=name)
    print("%s: ok" % name)


def f32(*shape, low=-4.0, high=4.0):
    return rng.uniform(low, high, shape).astype(np.float32)


halves = np.float32([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])
check("floor", torch.floor, f32(3, 7))
check("ceil", torch.ceil, f32(3, 7))
check("round", torch.round, np.concatenate([f32(10), halves]))
check("trunc", torch.trunc, f32(3, 7))
check("floor int64 (unchanged)", torch.floor, rng.integers(-9, 9, (5,)).astype(np.int64))
for name, low, high in (("sin", -6, 6), ("cos", -6, 6), ("tan", -1.4, 1.4),
                        ("asin", -1, 1), ("acos", -1, 1), ("atan", -9, 9),
                        ("sinh", -4, 4), ("cosh", -4, 4), ("asinh", -9, 9),
                        ("acosh", 1, 9), ("atanh", -0.99, 0.99)):
    check(name, getattr(torch, name), f32(4, 6, low=low, high=high))
special = np.float32([0.0, np.nan, np.inf, -np.inf, 1.5, -3e38])
check("isnan isinf isfinite", lambda x: (torch.isnan(x), torch.isinf(x), torch.isfinite(x)),
      special)
divisor = f32(6, low=0.5, high=3) * np.float32([1, -1, 1, -1, 1, -1])
check("remainder and %", lambda a, b: (torch.remainder(a, b), a % b), f32(4, 6, low=-9, high=9),
      divisor)
check("fmod", torch.fmod, f32(4, 6, low=-9, high=9), divisor)
check("fmod and % int32 by a constant", lambda a: (torch.fmod(a, -3), a % -3),
      rng.integers(-20, 20, (4, 6)).astype(np.int32))
x = f32(3, 5)
check("gather dim=1", lambda x, i: torch.gather(x, 1, i), x,
      rng.integers(0, 5, (3, 8)).astype(np.int64), exact=True)
check("methods", lambda x, i: (x.floor(), x.ceil(), x.round(), x.sin(), x.cos(),
                               x.remainder(1.5), x.gather(0, i)),
      x, rng.integers(0, 3, (2, 5)).astype(np.int64))
