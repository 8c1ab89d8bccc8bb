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
# CHECK: erf float16 4x40: ok
# CHECK: nn.relu 9x2: ok
# CHECK: nn.leaky_relu 9x2: ok
# CHECK: clip 4x6: ok
# CHECK: cast float32->int32: ok
# CHECK: cast int32->float32: ok
# CHECK: cast float32->bool: ok
# CHECK: where 4x5 broadcast: ok
# CHECK: chain 2x3x5: ok
# CHECK: relax.floor: ok
# CHECK: relax.ceil: ok
# CHECK: relax.trunc: ok
# CHECK: relax.sin: ok
# CHECK: relax.cos: ok
# CHECK: relax.tan: ok
# CHECK: relax.asin: ok
# CHECK: relax.acos: ok
# CHECK: relax.atan: ok
# CHECK: relax.sinh: ok
# CHECK: relax.cosh: ok
# CHECK: relax.asinh: ok
# CHECK: relax.acosh: ok
# CHECK: relax.atanh: ok
# CHECK: relax.round: ok
# CHECK: relax.isnan: ok
# CHECK: relax.isinf: ok
# CHECK: relax.isfinite: ok
# CHECK: relax.floor_mod f32: ok
# CHECK: relax.mod f32: ok
# CHECK: relax.floor_mod i32: ok
# CHECK: relax.mod i32: ok
# CHECK: relax.floor_mod i64 broadcast: ok

import math

import numpy as np
import mlc

rng = np.random.default_rng(7)

RELAY_DTYPE = {np.float32: "float32", np.float16: "float16", np.int32: "int32",
               np.bool_: "bool"}


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
# float16 math is computed in float32 (math-extend-to-supported-types), as
# mixed precision's GELU needs: the erf approximation in float16 used f16
# FMAs, which x86 without AVX512-FP16 turned into libgcc calls that did not
# link. 160 elements: vector body and tail. Tolerance: the float16 rounding
# of a value below 1 (2^-11) and a little for the approximation.
x16 = f32(4, 40, low=-3.0, high=3.0).astype(np.float16)
got16 = run("erf(%x)", x=x16)
assert got16.dtype == np.float16, got16.dtype
np.testing.assert_allclose(got16.astype(np.float64), np.vectorize(math.erf)(f64(x16)),
                           rtol=0, atol=2.0 ** -10, err_msg="erf float16")
print("erf float16 4x40: ok")
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


# Relax-only elementwise ops (no Relay spelling here), written as relax text.
RELAX_DTYPE = {np.float32: "f32", np.int32: "i32", np.int64: "i64", np.bool_: "i1"}


def relax_type(shape, dtype):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), RELAX_DTYPE[dtype])


def run_relax(op, want_dtype, *args):
    names = ["x", "y"][:len(args)]
    shape = np.broadcast_shapes(*[a.shape for a in args])
    params = ", ".join("%%%s: %s {relax.name = \"%s\"}" % (n, relax_type(a.shape, a.dtype.type), n)
                       for n, a in zip(names, args))
    operands = ", ".join("%" + n for n in names)
    in_types = ", ".join(relax_type(a.shape, a.dtype.type) for a in args)
    out_type = relax_type(shape, want_dtype)
    text = ("func.func @main(%s) -> %s {\n  %%0 = relax.%s %s : (%s) -> %s\n"
            "  return %%0 : %s\n}\n" % (params, out_type, op, operands, in_types, out_type,
                                         out_type))
    return mlc.create_executor(mod=mlc.Module(text)).evaluate()(**dict(zip(names, args)))


RELAX_UNARY = [
    ("floor", np.floor, dict(low=-5, high=5)), ("ceil", np.ceil, dict(low=-5, high=5)),
    ("trunc", np.trunc, dict(low=-5, high=5)), ("sin", np.sin, dict(low=-6, high=6)),
    ("cos", np.cos, dict(low=-6, high=6)), ("tan", np.tan, dict(low=-1.4, high=1.4)),
    ("asin", np.arcsin, dict(low=-1, high=1)), ("acos", np.arccos, dict(low=-1, high=1)),
    ("atan", np.arctan, dict(low=-9, high=9)), ("sinh", np.sinh, dict(low=-4, high=4)),
    ("cosh", np.cosh, dict(low=-4, high=4)), ("asinh", np.arcsinh, dict(low=-9, high=9)),
    ("acosh", np.arccosh, dict(low=1, high=9)), ("atanh", np.arctanh, dict(low=-0.99, high=0.99)),
]
for op, fn, rng_range in RELAX_UNARY:
    x = f32(5, 7, **rng_range)
    check("relax." + op, run_relax(op, np.float32, x), fn(f64(x)))
# round: halves go to the even neighbour (numpy's rint), as ONNX's Round.
x = np.concatenate([f32(20, low=-5, high=5), np.float32([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])])
check("relax.round", run_relax("round", np.float32, x), np.rint(f64(x)))
special = np.float32([0.0, -1.5, np.inf, -np.inf, np.nan, 3e38, -np.nan, 1e-40])
check("relax.isnan", run_relax("isnan", np.bool_, special), np.isnan(special))
check("relax.isinf", run_relax("isinf", np.bool_, special), np.isinf(special))
check("relax.isfinite", run_relax("isfinite", np.bool_, special), np.isfinite(special))
# Remainders: floor_mod takes the divisor's sign (np.mod), mod the dividend's
# (np.fmod); operands of both signs.
x, y = f32(6, 5, low=-9, high=9), f32(5, low=0.5, high=3) * np.float32([1, -1, 1, -1, 1])
check("relax.floor_mod f32", run_relax("floor_mod", np.float32, x, y), np.mod(f64(x), f64(y)),
      atol=1e-5)
check("relax.mod f32", run_relax("mod", np.float32, x, y), np.fmod(f64(x), f64(y)), atol=1e-5)
a = rng.integers(-20, 21, (4, 6)).astype(np.int32)
b = rng.choice([-7, -3, -2, 2, 3, 5], (4, 6)).astype(np.int32)
check("relax.floor_mod i32", run_relax("floor_mod", np.int32, a, b), np.mod(a, b))
check("relax.mod i32", run_relax("mod", np.int32, a, b), np.fmod(a, b))
a = rng.integers(-10**12, 10**12, (3, 4)).astype(np.int64)
b = np.int64([7, -5, 3, -1000003]).reshape(4)
check("relax.floor_mod i64 broadcast", run_relax("floor_mod", np.int64, a, b), np.mod(a, b))
