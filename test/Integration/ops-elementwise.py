# Every elementwise and broadcasting Relay op, imported from Relay text and
# compiled with --mlc-cpu-pipeline (relay-to-relax, relax-legalize-ops, the
# tensorir kernels, host lowering), run on random inputs and compared with a
# numpy reference computed here. Shapes include odd sizes and every
# broadcasting form (scalar, trailing vector, size-1 dims on both sides).
# Tolerances: f32 rtol 1e-5, atol 1e-6 against a float64 reference (math
# functions: libm/LLVM intrinsics may differ from numpy in the last bits);
# integer and boolean results exactly.
# RUN: %python %s | FileCheck %s
# CHECK: add 7x13 + 13: ok
# CHECK: add 5x1x3 + 4x1: ok
# CHECK: add scalar: ok
# CHECK: subtract 3x1 - 1x6: ok
# CHECK: multiply 7x13 * 7x13: ok
# CHECK: divide 4x5 / 5: ok
# CHECK: power 3x4 ** 3x4: ok
# CHECK: maximum 6x7: ok
# CHECK: minimum 6x7: ok
# CHECK: less 5x9 < 9: ok
# CHECK: greater 5x9 > 5x1: ok
# CHECK: less_equal int32: ok
# CHECK: greater_equal 8: ok
# CHECK: equal int32: ok
# CHECK: not_equal 2x3: ok
# CHECK: power x ** 3f: ok
# CHECK: power x ** 2f: ok
# CHECK: power x ** 0.5f: ok
# CHECK: power x ** -1f: ok
# CHECK: power x ** 2.5f: ok
# CHECK: tanh-GELU 16x33: ok
# CHECK: negative 7x3: ok
# CHECK: abs 11: ok
# CHECK: abs int32: ok
# CHECK: exp 3x5: ok
# CHECK: log 3x5: ok
# CHECK: sqrt 3x5: ok
# CHECK: rsqrt 3x5: ok
# CHECK: tanh 3x5: ok
# CHECK: sigmoid 3x5: ok
# CHECK: erf 3x5: ok
# CHECK: nn.relu 9x2: ok
# CHECK: nn.leaky_relu 9x2: ok
# CHECK: clip 4x6: ok
# CHECK: cast float32->int32: ok
# CHECK: cast int32->float32: ok
# CHECK: cast float32->bool: ok
# CHECK: where 4x5 broadcast: ok
# CHECK: chain 2x3x5: ok

import math

import numpy as np
import mlc

rng = np.random.default_rng(7)

RELAY_DTYPE = {np.float32: "float32", np.int32: "int32", np.bool_: "bool"}


def tensor_type(array):
    shape = ", ".join(str(d) for d in array.shape)
    if array.ndim == 1:
        shape += ","
    return "Tensor[(%s), %s]" % (shape, RELAY_DTYPE[array.dtype.type])


def run(body, **inputs):
    params = ", ".join("%%%s: %s" % (name, tensor_type(value))
                       for name, value in inputs.items())
    text = '#[version = "0.0.5"]\ndef @main(%s) {\n  %s\n}\n' % (params, body)
    return mlc.create_executor(mod=mlc.relay.fromtext(text)).evaluate()(**inputs)


def check(name, got, want, rtol=1e-5, atol=1e-6):
    want = np.asarray(want)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    if want.dtype.kind in "fc":
        assert got.dtype == np.float32, (name, got.dtype)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=name)
    else:
        assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
        np.testing.assert_array_equal(got, want, err_msg=name)
    print("%s: ok" % name)


def f32(*shape, low=-2.0, high=2.0):
    return rng.uniform(low, high, shape).astype(np.float32)


def i32(*shape):
    return rng.integers(-5, 6, shape).astype(np.int32)


def f64(x):
    return np.asarray(x, dtype=np.float64)


def binary(name, op, fn, x, y):
    check(name, run("%s(%%x, %%y)" % op, x=x, y=y), fn(f64(x), f64(y))
          if x.dtype == np.float32 else fn(x, y))


binary("add 7x13 + 13", "add", np.add, f32(7, 13), f32(13))
binary("add 5x1x3 + 4x1", "add", np.add, f32(5, 1, 3), f32(4, 1))
binary("add scalar", "add", np.add, f32(3, 4), np.float32(rng.standard_normal()).reshape(()))
binary("subtract 3x1 - 1x6", "subtract", np.subtract, f32(3, 1), f32(1, 6))
binary("multiply 7x13 * 7x13", "multiply", np.multiply, f32(7, 13), f32(7, 13))
binary("divide 4x5 / 5", "divide", np.divide, f32(4, 5), f32(5, low=0.5, high=2.0))
binary("power 3x4 ** 3x4", "power", np.power, f32(3, 4, low=0.1, high=3.0),
       f32(3, 4, low=-2.0, high=2.0))
binary("maximum 6x7", "maximum", np.maximum, f32(6, 7), f32(6, 7))
binary("minimum 6x7", "minimum", np.minimum, f32(6, 7), f32(6, 7))
binary("less 5x9 < 9", "less", np.less, f32(5, 9), f32(9))
binary("greater 5x9 > 5x1", "greater", np.greater, f32(5, 9), f32(5, 1))
binary("less_equal int32", "less_equal", np.less_equal, i32(4, 6), i32(4, 6))
binary("greater_equal 8", "greater_equal", np.greater_equal, f32(8), f32(8))
binary("equal int32", "equal", np.equal, i32(3, 7), i32(7))
binary("not_equal 2x3", "not_equal", np.not_equal, i32(2, 3).astype(np.float32),
       i32(2, 3).astype(np.float32))
# Constant exponents: relax-inline-scalar-constants makes them immediates of
# the kernel and mlc-simplify-math multiplications, a division or sqrt.
for exponent in ("3f", "2f", "0.5f", "-1f", "2.5f"):
    x = f32(5, 7, low=0.1, high=3.0)
    check("power x ** " + exponent, run("power(%%x, %s)" % exponent, x=x),
          np.power(f64(x), float(exponent[:-1])))
# GPT-2's tanh GELU, scalars inline: 0.5 h (1 + tanh(0.797885 (h + 0.044715 h^3))).
x = f32(16, 33)
h = f64(x)
check("tanh-GELU 16x33", run(
    "multiply(multiply(%x, 0.5f), add(tanh(multiply(add(%x, multiply(power(%x, 3f), "
    "0.044715f)), 0.797885f)), 1f))", x=x),
    0.5 * h * (1 + np.tanh(0.797885 * (h + 0.044715 * h ** 3))))


def unary(name, op, fn, x, **tol):
    check(name, run("%s(%%x)" % op, x=x), fn(f64(x)) if x.dtype == np.float32 else fn(x),
          **tol)


unary("negative 7x3", "negative", np.negative, f32(7, 3))
unary("abs 11", "abs", np.abs, f32(11))
unary("abs int32", "abs", np.abs, i32(4, 4))
unary("exp 3x5", "exp", np.exp, f32(3, 5))
unary("log 3x5", "log", np.log, f32(3, 5, low=0.01, high=4.0))
unary("sqrt 3x5", "sqrt", np.sqrt, f32(3, 5, low=0.0, high=4.0))
unary("rsqrt 3x5", "rsqrt", lambda x: 1 / np.sqrt(x), f32(3, 5, low=0.1, high=4.0))
unary("tanh 3x5", "tanh", np.tanh, f32(3, 5))
unary("sigmoid 3x5", "sigmoid", lambda x: 1 / (1 + np.exp(-x)), f32(3, 5, low=-8, high=8))
unary("erf 3x5", "erf", np.vectorize(math.erf), f32(3, 5))
unary("nn.relu 9x2", "nn.relu", lambda x: np.maximum(x, 0), f32(9, 2))

x = f32(9, 2)
check("nn.leaky_relu 9x2", run("nn.leaky_relu(%x, alpha=0.2f)", x=x),
      np.where(f64(x) > 0, f64(x), 0.2 * f64(x)))
x = f32(4, 6, low=-3, high=3)
check("clip 4x6", run("clip(%x, a_min=-1f, a_max=1.5f)", x=x), np.clip(f64(x), -1.0, 1.5))
x = f32(3, 7, low=-9, high=9)
check("cast float32->int32", run('cast(%x, dtype="int32")', x=x), np.trunc(x).astype(np.int32))
x = i32(5, 2)
check("cast int32->float32", run('cast(%x, dtype="float32")', x=x), x.astype(np.float64))
x = np.where(rng.random((3, 3)) < 0.3, 0, f32(3, 3)).astype(np.float32)
check("cast float32->bool", run('cast(%x, dtype="bool")', x=x), x != 0)
c, a, b = rng.random((4, 1)) < 0.5, f32(4, 5), f32(5)
check("where 4x5 broadcast", run("where(%c, %a, %b)", c=c, a=a, b=b),
      np.where(c, f64(a), f64(b)))

# Several kernels in one function: intermediate buffers and reuse of kernels.
x, y = f32(2, 3, 5), f32(3, 1)
check("chain 2x3x5",
      run("%0 = add(%x, %y); %1 = nn.relu(%0); %2 = multiply(%1, %x); subtract(%2, %y)",
          x=x, y=y),
      (np.maximum(f64(x) + f64(y), 0) * f64(x)) - f64(y))
