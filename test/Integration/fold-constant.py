# relax-fold-constant end to end: relax functions whose parameters are bound
# from an .npz (relax-bind-params) fold completely (relax-fold-constant,
# relax-dce) through the TensorIR interpreter; the folded constant is decoded
# from the printed module (dense hex or dense_resource blob) and compared
# with numpy computed here on random inputs (fixed seed). f32 against a
# float64 reference: rtol 1e-5, atol 1e-5 * sqrt(K) for reductions of
# length K (1e-6 otherwise).
#
# Cases whose op has no kernel in relax-legalize-ops yet print "no kernel"
# instead of "ok" (probed with relax-legalize-ops); once it has one the case
# must fold and match. Fold times go to stderr.
# RUN: %python %s | FileCheck %s
# CHECK: w * 2 + b: ok
# CHECK: softmax(w): ok
# CHECK: sum(exp(w), axis=1): ok
# CHECK: layer_norm(w): ok
# CHECK: call_tir transpose 512x512: ok
# CHECK: permute_dims(w) 512x512: {{ok|no kernel}}
# CHECK: conv2d(x, w): {{ok|no kernel}}
# CHECK: matmul(x, permute_dims(w)) + b: {{ok|no kernel}}
# CHECK: max-elements=80 leaves a broadcast to 5x17, folds softmax(w): ok

import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

MLC_OPT = os.path.join(os.environ["MLC_TOOLS_DIR"], "mlc-opt")
rng = np.random.default_rng(11)
DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32,
          "i64": np.int64}


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def ty(shape, dtype="f32"):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), dtype)


def has_kernel(op_text):
    """Whether relax-legalize-ops can lower the one-op function op_text."""
    r = subprocess.run([MLC_OPT, "--relax-legalize-ops", "-o", os.devnull],
                       input=op_text, capture_output=True, text=True)
    if r.returncode != 0 and "has no legalization" not in r.stderr:
        raise RuntimeError(r.stderr)
    return r.returncode == 0


def decode(out, result_type):
    """The one constant left in @main, as a numpy array."""
    m = re.match(r"tensor<((?:\d+x)*)(\w+)>", result_type)
    shape = tuple(int(d) for d in m.group(1).split("x") if d)
    dtype = DTYPES[m.group(2)]
    consts = re.findall(r"= relax\.constant (dense|dense_resource)<([^>]*)>",
                        out[out.index("func.func @main"):])
    assert len(consts) == 1, out[:2000]
    kind, payload = consts[0]
    if kind == "dense":
        data = bytes.fromhex(payload.strip('"')[2:])
    else:
        blob = re.search(re.escape(payload) + r': "0x([0-9A-F]+)"', out)
        data = bytes.fromhex(blob.group(1))[4:]  # leading 4 bytes: alignment
    array = np.frombuffer(data, dtype)
    if array.size == 1 and np.prod(shape) != 1:  # splat
        array = np.full(shape, array[0])
    return array.reshape(shape)


def fold(body, params, result_type, extra=()):
    """Binds params into @main(params...) { body } and folds it; returns the
    printed module and the fold time."""
    args = ", ".join('%%%s: %s {relax.name = "%s"}' % (n, ty(v.shape, "f32"), n)
                     for n, v in params.items())
    text = "func.func @main(%s) -> %s {\n%s\n}\n" % (args, result_type, body)
    with tempfile.TemporaryDirectory() as tmp:
        npz = os.path.join(tmp, "params.npz")
        np.savez(npz, **params)
        start = time.time()
        r = subprocess.run(
            [MLC_OPT, "--relax-bind-params=params=" + npz,
             "--relax-fold-constant" + "".join(extra), "--relax-dce",
             "--mlir-print-elementsattrs-with-hex-if-larger=0"],
            input=text, capture_output=True, text=True)
        elapsed = time.time() - start
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    return r.stdout, elapsed


def case(name, body, params, result_type, expected, atol=1e-6,
         probe=None):
    if probe is not None and not has_kernel(probe):
        print("%s: no kernel" % name)
        return
    out, elapsed = fold(body, params, result_type)
    main = out[out.index("func.func @main"):]
    main = main[:main.index("\n  }\n")]
    ops = set(re.findall(r"= (relax\.[\w.]+)", main))
    assert ops <= {"relax.constant", "relax.dataflow"}, "not folded: %s\n%s" % (ops, main)
    np.testing.assert_allclose(decode(out, result_type), expected, rtol=1e-5,
                               atol=atol)
    print("%s: ok" % name)
    print("%s: folded in %.3f s" % (name, elapsed), file=sys.stderr)


# Elementwise with broadcasting, inside a dataflow block.
w, b = f32(7, 13), f32(13)
case("w * 2 + b", """
  %two = relax.constant dense<2.0> : tensor<f32>
  %r = relax.dataflow -> tensor<7x13xf32> {
    %0 = relax.multiply %w, %two : (tensor<7x13xf32>, tensor<f32>) -> tensor<7x13xf32>
    %1 = relax.add %0, %b : (tensor<7x13xf32>, tensor<13xf32>) -> tensor<7x13xf32>
    relax.output %1 : tensor<7x13xf32>
  }
  return %r : tensor<7x13xf32>""", {"w": w, "b": b}, "tensor<7x13xf32>",
     w.astype(np.float64) * 2 + b)

# softmax: max, exp-sum and normalize stages.
w = f32(5, 17)
e = np.exp(w.astype(np.float64) - w.max(axis=-1, keepdims=True))
case("softmax(w)", """
  %0 = relax.nn.softmax %w {axis = -1 : i64} : (tensor<5x17xf32>) -> tensor<5x17xf32>
  return %0 : tensor<5x17xf32>""", {"w": w}, "tensor<5x17xf32>",
     e / e.sum(axis=-1, keepdims=True))

# A chain: exp, then a reduction over 19 elements.
w = f32(6, 19)
case("sum(exp(w), axis=1)", """
  %0 = relax.exp %w : (tensor<6x19xf32>) -> tensor<6x19xf32>
  %1 = relax.sum %0 {axis = array<i64: 1>} : (tensor<6x19xf32>) -> tensor<6xf32>
  return %1 : tensor<6xf32>""", {"w": w}, "tensor<6xf32>",
     np.exp(w.astype(np.float64)).sum(axis=1), atol=1e-5 * np.sqrt(19))

# layer_norm over the last axis (length 16), with constant gamma/beta.
w, g, bt = f32(3, 16), f32(16), f32(16)
w64 = w.astype(np.float64)
ln = (w64 - w64.mean(-1, keepdims=True)) / np.sqrt(w64.var(-1, keepdims=True) + 1e-5)
case("layer_norm(w)", """
  %0 = relax.nn.layer_norm %w, %g, %bt {axes = array<i64: -1>} : (tensor<3x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>""", {"w": w, "g": g, "bt": bt},
     "tensor<3x16xf32>", ln * g + bt, atol=1e-5 * np.sqrt(16))

# A hand-written transpose kernel through relax.call_tir (always available).
N = 512
TRANSPOSE = """
tensorir.prim_func private @transpose(%A: memref<{n}x{n}xf32>, %B: memref<{n}x{n}xf32>) {{
  tensorir.for %i = 0 to {n} {{
    tensorir.for %j = 0 to {n} {{
      tensorir.block "T"(%vi = spatial({n}, %i), %vj = spatial({n}, %j)) {{
        %a = memref.load %A[%vj, %vi] : memref<{n}x{n}xf32>
        memref.store %a, %B[%vi, %vj] : memref<{n}x{n}xf32>
      }}
    }}
  }}
}}
""".format(n=N)
w = f32(N, N)
t = ty((N, N))
case("call_tir transpose 512x512", """
  %0 = relax.call_tir @transpose(%w) : ({t}) -> {t}
  return %0 : {t}
}}
{k}
func.func private @unused() {{""".format(t=t, k=TRANSPOSE) + """
  return""", {"w": w}, t, w.T)

# The same through relax.permute_dims.
case("permute_dims(w) 512x512", """
  %0 = relax.permute_dims %w : ({t}) -> {t}
  return %0 : {t}""".format(t=t), {"w": w}, t, w.T,
     probe="""func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = relax.permute_dims %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}""")

# conv2d NCHW/OIHW, stride 2, padding 1 (3x3x3 = 27 terms per output).
x, k = f32(1, 3, 9, 11), f32(4, 3, 3, 3)
xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
conv = np.zeros((1, 4, 5, 6))
for oh in range(5):
    for ow in range(6):
        patch = xp[0, :, 2 * oh:2 * oh + 3, 2 * ow:2 * ow + 3]
        conv[0, :, oh, ow] = np.tensordot(k, patch, axes=([1, 2, 3], [0, 1, 2]))
CONV = """
  %0 = relax.nn.conv2d %x, %k {padding = array<i64: 1>, strides = array<i64: 2, 2>} : (tensor<1x3x9x11xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32>
  return %0 : tensor<1x4x5x6xf32>"""
case("conv2d(x, w)", CONV, {"x": x, "k": k}, "tensor<1x4x5x6xf32>", conv,
     atol=1e-5 * np.sqrt(27),
     probe="func.func @f(%x: tensor<1x3x9x11xf32>, %k: tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32> {"
     + CONV + "\n}")

# A linear layer with a transposed constant weight (TVM's pattern).
x, wt, b = f32(3, 20), f32(8, 20), f32(8)
MM = """
  %0 = relax.permute_dims %w : (tensor<8x20xf32>) -> tensor<20x8xf32>
  %1 = relax.matmul %x, %0 : (tensor<3x20xf32>, tensor<20x8xf32>) -> tensor<3x8xf32>
  %2 = relax.add %1, %b : (tensor<3x8xf32>, tensor<8xf32>) -> tensor<3x8xf32>
  return %2 : tensor<3x8xf32>"""
case("matmul(x, permute_dims(w)) + b", MM, {"x": x, "w": wt, "b": b},
     "tensor<3x8xf32>", x.astype(np.float64) @ wt.T + b,
     atol=1e-5 * np.sqrt(20),
     probe="func.func @f(%x: tensor<3x20xf32>, %w: tensor<8x20xf32>, %b: tensor<8xf32>) -> tensor<3x8xf32> {"
     + MM + "\n}")

# The size limit: with max-elements=80 a broadcast to 5x17 (85 elements
# from 17) is not folded; a 5x17 softmax, no bigger than its operand, is.
c = f32(17)
out, _ = fold("""
  %0 = relax.broadcast_to %c {shape = array<i64: 5, 17>} : (tensor<17xf32>) -> tensor<5x17xf32>
  return %0 : tensor<5x17xf32>""", {"c": c}, "tensor<5x17xf32>",
              extra=("=max-elements=80",))
assert "relax.broadcast_to" in out, out
w = f32(5, 17)
out, _ = fold("""
  %0 = relax.nn.softmax %w {axis = -1 : i64} : (tensor<5x17xf32>) -> tensor<5x17xf32>
  return %0 : tensor<5x17xf32>""", {"w": w}, "tensor<5x17xf32>",
              extra=("=max-elements=80",))
assert "relax.nn.softmax" not in out, out
print("max-elements=80 leaves a broadcast to 5x17, folds softmax(w): ok")
