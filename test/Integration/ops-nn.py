# The neural-network compute ops (matmul family, conv2d, conv2d_transpose,
# pooling), imported from Relay text (or written in relax where Relay cannot
# express the case) and compiled with --mlc-cpu-pipeline (relay-to-relax,
# relax-legalize-ops, the tensorir kernels, host lowering), run on random
# inputs (fixed seed) and compared with numpy references written here from
# the ops' definitions (not from the kernels' formulas). Shapes are small and
# odd (7x13, 9x11, non-divisible strides and bins, size-1 batch dims).
# Tolerances: f32 results against a float64 reference with rtol 1e-5 and
# atol 1e-5 * sqrt(K) for a reduction of length K; integers exactly.
# RUN: %python %s | FileCheck %s
# CHECK: nn.matmul 7x13 x 13x5: ok
# CHECK: nn.batch_matmul 3x5x7 x 3x7x4 transpose_b=False: ok
# CHECK: nn.batch_matmul 1x5x7 x 3x7x4 broadcast batch: ok
# CHECK: nn.bias_add 7x5 axis=-1: ok
# CHECK: nn.dense 7x13 x 5x13: ok
# CHECK: nn.dense 2x3x13 x 5x13: ok
# CHECK: nn.matmul transpose_a transpose_b: ok
# CHECK: nn.batch_matmul 2x5x7 x 2x4x7 (transpose_b default): ok
# CHECK: nn.bias_add NCHW axis=1: ok
# CHECK: relax.matmul 13 x 13x5: ok
# CHECK: relax.matmul 7x13 x 13: ok
# CHECK: relax.matmul 13 x 13: ok
# CHECK: relax.matmul 2x1x3x4 x 5x4x6: ok
# CHECK: relax.matmul i8 out_dtype=i32: ok
# CHECK: nn.conv2d NCHW 1x3x9x11 pad 1: ok
# CHECK: nn.conv2d NCHW no padding: ok
# CHECK: nn.conv2d NCHW strides 2 pad (1,2,0,1) dilation 2 batch 2: ok
# CHECK: nn.conv2d NCHW groups 2: ok
# CHECK: nn.conv2d NCHW depthwise: ok
# CHECK: nn.conv2d NHWC/HWIO strides (2,1) pad 1: ok
# CHECK: nn.conv2d NHWC/HWOI depthwise: ok
# CHECK: nn.conv2d NCHW out_layout NHWC: ok
# CHECK: nn.conv2d out_dtype float64: ok
# CHECK: nn.conv2d_transpose NCHW strides 2 pad 1 output_padding 1: ok
# CHECK: nn.conv2d_transpose groups 2 dilation 2 strides (3,2): ok
# CHECK: nn.conv2d_transpose NHWC/HWOI stride 1 pad 0: ok
# CHECK: nn.conv2d_transpose padding > kernel - 1: ok
# CHECK: nn.max_pool2d 2x2 strides 2 on 9x11: ok
# CHECK: nn.max_pool2d 3x3 strides 2 pad 1 ceil_mode NHWC: ok
# CHECK: nn.max_pool2d 2x2 dilation 2 pad (1,0,0,1): ok
# CHECK: nn.avg_pool2d 3x3 pad 1 count_include_pad=False: ok
# CHECK: nn.avg_pool2d 3x3 pad 1 count_include_pad=True: ok
# CHECK: nn.avg_pool2d 2x2 strides 2 ceil_mode count_include_pad: ok
# CHECK: nn.avg_pool2d 3x2 strides (2,3) ceil_mode NHWC: ok
# CHECK: nn.max_pool2d int32 pad 1: ok
# CHECK: nn.avg_pool2d int32 truncating: ok
# CHECK: nn.global_avg_pool2d 7x9: ok
# CHECK: nn.adaptive_avg_pool2d 7x9 -> 5x4: ok
# CHECK: nn.adaptive_avg_pool2d NHWC 5x7 -> 3x5: ok
# CHECK: nn.adaptive_avg_pool2d 5x5 -> 5x5: ok
# CHECK: nn.adaptive_avg_pool2d 3x3 -> 5x5: ok
# CHECK: nn.global_max_pool2d 7x9: ok
# CHECK: nn.global_max_pool2d NHWC: ok
# CHECK: nn.adaptive_max_pool2d to 1x1: ok

import numpy as np
import mlc

rng = np.random.default_rng(11)

RELAY_DTYPE = {np.float32: "float32", np.int32: "int32"}


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


MLIR_TYPE = {np.float32: "f32", np.float64: "f64", np.int8: "i8", np.int32: "i32"}


def tensor(shape, dtype):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [MLIR_TYPE[dtype]])


def run_relax(op, attrs, result, **inputs):
    """Runs the relax op `op` with the attribute dictionary text `attrs` on
    the inputs, in a relax main returning `result` (shape, numpy dtype)."""
    params = ", ".join('%%%s: %s {relax.name = "%s"}' % (n, tensor(v.shape, v.dtype.type), n)
                       for n, v in inputs.items())
    out_type = tensor(*result)
    in_types = ", ".join(tensor(v.shape, v.dtype.type) for v in inputs.values())
    operands = ", ".join("%" + n for n in inputs)
    text = """
func.func @main(%s) -> %s {
  %%r = %s %s %s : (%s) -> %s
  return %%r : %s
}
""" % (params, out_type, op, operands, attrs, in_types, out_type, out_type)
    return mlc.create_executor(mod=mlc.Module(text)).evaluate()(**inputs)


def check(name, got, want, k=1):
    want = np.asarray(want)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.sqrt(k),
                                   err_msg=name)
    else:
        assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
        np.testing.assert_array_equal(got, want, err_msg=name)
    print("%s: ok" % name)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def f64(x):
    return np.asarray(x, dtype=np.float64)


NHWC = (0, 3, 1, 2)  # NHWC -> NCHW
TO_NHWC = (0, 2, 3, 1)
HWIO = (3, 2, 0, 1)  # HWIO -> OIHW
HWOI = (2, 3, 0, 1)  # HWOI -> OIHW (and IOHW for conv2d_transpose)

# ----------------------------------------------------------------------------
# matmul family

a, b = f32(7, 13), f32(13, 5)
check("nn.matmul 7x13 x 13x5", run("nn.matmul(%a, %b)", a=a, b=b), f64(a) @ f64(b), 13)
a, b = f32(3, 5, 7), f32(3, 7, 4)
check("nn.batch_matmul 3x5x7 x 3x7x4 transpose_b=False",
      run("nn.batch_matmul(%a, %b, transpose_b=False)", a=a, b=b), f64(a) @ f64(b), 7)
a = f32(1, 5, 7)
check("nn.batch_matmul 1x5x7 x 3x7x4 broadcast batch",
      run("nn.batch_matmul(%a, %b, transpose_b=False)", a=a, b=b), f64(a) @ f64(b), 7)
x, bias = f32(7, 5), f32(5)
check("nn.bias_add 7x5 axis=-1", run("nn.bias_add(%x, %bias, axis=-1)", x=x, bias=bias),
      f64(x) + f64(bias))

a, w = f32(7, 13), f32(5, 13)
check("nn.dense 7x13 x 5x13", run("nn.dense(%a, %w, units=5)", a=a, w=w), f64(a) @ f64(w).T, 13)
a = f32(2, 3, 13)
check("nn.dense 2x3x13 x 5x13", run("nn.dense(%a, %w)", a=a, w=w), f64(a) @ f64(w).T, 13)
a, b = f32(13, 7), f32(5, 13)
check("nn.matmul transpose_a transpose_b",
      run("nn.matmul(%a, %b, transpose_a=True, transpose_b=True)", a=a, b=b),
      f64(a).T @ f64(b).T, 13)
a, b = f32(2, 5, 7), f32(2, 4, 7)
check("nn.batch_matmul 2x5x7 x 2x4x7 (transpose_b default)",
      run("nn.batch_matmul(%a, %b)", a=a, b=b), f64(a) @ f64(b).transpose(0, 2, 1), 7)
x, bias = f32(2, 4, 3, 5), f32(4)
check("nn.bias_add NCHW axis=1", run("nn.bias_add(%x, %bias)", x=x, bias=bias),
      f64(x) + f64(bias)[:, None, None])
a, b = f32(13), f32(13, 5)
check("relax.matmul 13 x 13x5", run_relax("relax.matmul", "", ((5,), np.float32), a=a, b=b),
      f64(a) @ f64(b), 13)
a, b = f32(7, 13), f32(13)
check("relax.matmul 7x13 x 13", run_relax("relax.matmul", "", ((7,), np.float32), a=a, b=b),
      f64(a) @ f64(b), 13)
a, b = f32(13), f32(13)
check("relax.matmul 13 x 13", run_relax("relax.matmul", "", ((), np.float32), a=a, b=b),
      f64(a) @ f64(b), 13)
a, b = f32(2, 1, 3, 4), f32(5, 4, 6)
check("relax.matmul 2x1x3x4 x 5x4x6",
      run_relax("relax.matmul", "", ((2, 5, 3, 6), np.float32), a=a, b=b), f64(a) @ f64(b), 4)
a = rng.integers(-128, 128, (6, 33)).astype(np.int8)
b = rng.integers(-128, 128, (33, 4)).astype(np.int8)
check("relax.matmul i8 out_dtype=i32",
      run_relax("relax.matmul", "{out_dtype = i32}", ((6, 4), np.int32), a=a, b=b),
      a.astype(np.int32) @ b.astype(np.int32))

# ----------------------------------------------------------------------------
# conv2d: reference in NCHW/OIHW by summing shifted, strided input slices.


def conv2d_ref(x, w, strides=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1), groups=1):
    """x NCHW, w OIHW (I = C / groups), pad (top, left, bottom, right)."""
    x, w = f64(x), f64(w)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad[0], pad[2]), (pad[1], pad[3])))
    oh = (h + pad[0] + pad[2] - (kh - 1) * dilation[0] - 1) // strides[0] + 1
    ow = (wd + pad[1] + pad[3] - (kw - 1) * dilation[1] - 1) // strides[1] + 1
    og = o // groups
    out = np.zeros((n, o, oh, ow))
    for g in range(groups):
        xs = xp[:, g * cg:(g + 1) * cg]
        for ky in range(kh):
            for kx in range(kw):
                y0, x0 = ky * dilation[0], kx * dilation[1]
                patch = xs[:, :, y0:y0 + (oh - 1) * strides[0] + 1:strides[0],
                           x0:x0 + (ow - 1) * strides[1] + 1:strides[1]]
                out[:, g * og:(g + 1) * og] += np.einsum(
                    "nchw,oc->nohw", patch, w[g * og:(g + 1) * og, :, ky, kx])
    return out


x, w = f32(1, 3, 9, 11), f32(4, 3, 3, 3)
check("nn.conv2d NCHW 1x3x9x11 pad 1",
      run("nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3])", x=x, w=w),
      conv2d_ref(x, w, pad=(1, 1, 1, 1)), 27)
x, w = f32(1, 2, 7, 6), f32(3, 2, 2, 3)
check("nn.conv2d NCHW no padding", run("nn.conv2d(%x, %w)", x=x, w=w), conv2d_ref(x, w), 12)
x, w = f32(2, 3, 11, 10), f32(5, 3, 3, 2)
check("nn.conv2d NCHW strides 2 pad (1,2,0,1) dilation 2 batch 2",
      run("nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 2, 0, 1], dilation=[2, 2])", x=x, w=w),
      conv2d_ref(x, w, (2, 2), (1, 2, 0, 1), (2, 2)), 18)
x, w = f32(1, 4, 8, 7), f32(6, 2, 3, 3)
check("nn.conv2d NCHW groups 2",
      run("nn.conv2d(%x, %w, padding=[1, 1], groups=2)", x=x, w=w),
      conv2d_ref(x, w, pad=(1, 1, 1, 1), groups=2), 18)
x, w = f32(1, 5, 9, 8), f32(5, 1, 3, 3)
check("nn.conv2d NCHW depthwise",
      run("nn.conv2d(%x, %w, strides=[2, 2], padding=[1], groups=5)", x=x, w=w),
      conv2d_ref(x, w, (2, 2), (1, 1, 1, 1), groups=5), 9)
x, w = f32(1, 9, 8, 3), f32(3, 3, 3, 4)  # NHWC data, HWIO kernel
check("nn.conv2d NHWC/HWIO strides (2,1) pad 1",
      run('nn.conv2d(%x, %w, strides=[2, 1], padding=[1, 1, 1, 1], '
          'data_layout="NHWC", kernel_layout="HWIO")', x=x, w=w),
      conv2d_ref(x.transpose(NHWC), w.transpose(HWIO), (2, 1), (1, 1, 1, 1))
      .transpose(TO_NHWC), 27)
x, w = f32(1, 7, 6, 4), f32(3, 3, 4, 1)  # depthwise HWOI: O = C, I = 1
check("nn.conv2d NHWC/HWOI depthwise",
      run('nn.conv2d(%x, %w, padding=[1, 1], groups=4, data_layout="NHWC", '
          'kernel_layout="HWOI")', x=x, w=w),
      conv2d_ref(x.transpose(NHWC), w.transpose(HWOI), pad=(1, 1, 1, 1), groups=4)
      .transpose(TO_NHWC), 9)
x, w = f32(1, 3, 6, 5), f32(4, 3, 2, 2)
check("nn.conv2d NCHW out_layout NHWC",
      run('nn.conv2d(%x, %w, padding=[0, 1], out_layout="NHWC")', x=x, w=w),
      conv2d_ref(x, w, pad=(0, 1, 0, 1)).transpose(TO_NHWC), 12)
x, w = f32(1, 2, 5, 5), f32(3, 2, 3, 3)
got = mlc.create_executor(mod=mlc.relay.fromtext(
    '#[version = "0.0.5"]\ndef @main(%x: Tensor[(1, 2, 5, 5), float32], '
    '%w: Tensor[(3, 2, 3, 3), float32]) {\n'
    '  %0 = cast(%x, dtype="float64"); %1 = cast(%w, dtype="float64");\n'
    '  nn.conv2d(%0, %1, padding=[1, 1], out_dtype="float64")\n}\n')).evaluate()(x=x, w=w)
assert got.dtype == np.float64, got.dtype
np.testing.assert_allclose(got, conv2d_ref(x, w, pad=(1, 1, 1, 1)), rtol=1e-12, atol=1e-12)
print("nn.conv2d out_dtype float64: ok")

# ----------------------------------------------------------------------------
# conv2d_transpose: reference by its definition, scattering every input
# element's product with the kernel into the full output, then cropping the
# padding (output_padding extends the end).


def conv2d_transpose_ref(x, w, strides=(1, 1), pad=(0, 0, 0, 0), output_padding=(0, 0),
                         dilation=(1, 1), groups=1):
    """x NCHW, w IOHW (O = out channels / groups)."""
    x, w = f64(x), f64(w)
    n, c, h, wd = x.shape
    _, og, kh, kw = w.shape
    cg = c // groups
    full_h = (h - 1) * strides[0] + (kh - 1) * dilation[0] + 1 + output_padding[0]
    full_w = (wd - 1) * strides[1] + (kw - 1) * dilation[1] + 1 + output_padding[1]
    full = np.zeros((n, og * groups, full_h, full_w))
    for g in range(groups):
        xs = x[:, g * cg:(g + 1) * cg]
        for ky in range(kh):
            for kx in range(kw):
                y0, x0 = ky * dilation[0], kx * dilation[1]
                full[:, g * og:(g + 1) * og, y0:y0 + (h - 1) * strides[0] + 1:strides[0],
                     x0:x0 + (wd - 1) * strides[1] + 1:strides[1]] += np.einsum(
                         "nchw,co->nohw", xs, w[g * cg:(g + 1) * cg, :, ky, kx])
    oh, ow = full_h - pad[0] - pad[2], full_w - pad[1] - pad[3]
    return full[:, :, pad[0]:pad[0] + oh, pad[1]:pad[1] + ow]


x, w = f32(1, 3, 5, 6), f32(3, 4, 3, 3)
check("nn.conv2d_transpose NCHW strides 2 pad 1 output_padding 1",
      run("nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[1, 1, 1, 1], "
          "output_padding=[1, 1], channels=4, kernel_size=[3, 3])", x=x, w=w),
      conv2d_transpose_ref(x, w, (2, 2), (1, 1, 1, 1), (1, 1)), 27)
x, w = f32(2, 4, 4, 5), f32(4, 3, 2, 3)
check("nn.conv2d_transpose groups 2 dilation 2 strides (3,2)",
      run("nn.conv2d_transpose(%x, %w, strides=[3, 2], padding=[1, 0, 2, 1], "
          "dilation=[2, 2], groups=2)", x=x, w=w),
      conv2d_transpose_ref(x, w, (3, 2), (1, 0, 2, 1), (0, 0), (2, 2), 2), 12)
x, w = f32(1, 5, 4, 3), f32(2, 3, 2, 3)  # NHWC data, HWOI kernel = (KH, KW, O, I)
check("nn.conv2d_transpose NHWC/HWOI stride 1 pad 0",
      run('nn.conv2d_transpose(%x, %w, data_layout="NHWC", kernel_layout="HWOI")',
          x=x, w=w),
      conv2d_transpose_ref(x.transpose(NHWC), w.transpose(3, 2, 0, 1))
      .transpose(TO_NHWC), 18)
x, w = f32(1, 3, 5, 6), f32(3, 2, 2, 2)  # the padded input is cropped
check("nn.conv2d_transpose padding > kernel - 1",
      run("nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[2, 2, 1, 1])", x=x, w=w),
      conv2d_transpose_ref(x, w, (2, 2), (2, 2, 1, 1)), 12)

# ----------------------------------------------------------------------------
# Pooling: reference over explicit windows. ceil_mode adds stride - 1 rows
# and columns of padding at the end (as Relay's shape rule does). Max pads
# with -inf; avg divides by the window's elements inside the input
# (count_include_pad=False) or inside the input and its explicit padding.


def pool_ref(x, kind, pool, strides=(1, 1), pad=(0, 0, 0, 0), dilation=(1, 1),
             ceil_mode=False, count_include_pad=False):
    x = f64(x)
    n, c, h, w = x.shape
    extra = (strides[0] - 1, strides[1] - 1) if ceil_mode else (0, 0)
    oh = (h + pad[0] + pad[2] - (pool[0] - 1) * dilation[0] - 1 + extra[0]) // strides[0] + 1
    ow = (w + pad[1] + pad[3] - (pool[1] - 1) * dilation[1] - 1 + extra[1]) // strides[1] + 1
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            ys = [i * strides[0] - pad[0] + ky * dilation[0] for ky in range(pool[0])]
            xs = [j * strides[1] - pad[1] + kx * dilation[1] for kx in range(pool[1])]
            inside = [(y, xx) for y in ys for xx in xs if 0 <= y < h and 0 <= xx < w]
            if kind == "max":
                vals = [x[:, :, y, xx] for y, xx in inside]
                # A window with padding also sees -inf, which never wins.
                out[:, :, i, j] = np.max(vals, axis=0) if vals else -np.inf
                continue
            total = sum((x[:, :, y, xx] for y, xx in inside), np.zeros((n, c)))
            if count_include_pad:
                count = sum(1 for y in ys for xx in xs
                            if -pad[0] <= y < h + pad[2] and -pad[1] <= xx < w + pad[3])
            else:
                count = len(inside)
            out[:, :, i, j] = total / max(count, 1)
    return out


x = f32(1, 3, 9, 11)
check("nn.max_pool2d 2x2 strides 2 on 9x11",
      run("nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0])", x=x),
      pool_ref(x, "max", (2, 2), (2, 2)))
x = f32(2, 8, 7, 3)  # NHWC
check("nn.max_pool2d 3x3 strides 2 pad 1 ceil_mode NHWC",
      run('nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1, 1, 1], '
          'layout="NHWC", ceil_mode=True)', x=x),
      pool_ref(x.transpose(NHWC), "max", (3, 3), (2, 2), (1, 1, 1, 1), ceil_mode=True)
      .transpose(TO_NHWC))
x = f32(1, 2, 8, 9)
check("nn.max_pool2d 2x2 dilation 2 pad (1,0,0,1)",
      run("nn.max_pool2d(%x, pool_size=[2, 2], dilation=[2, 2], padding=[1, 0, 0, 1])", x=x),
      pool_ref(x, "max", (2, 2), pad=(1, 0, 0, 1), dilation=(2, 2)))
x = f32(1, 3, 7, 8)
check("nn.avg_pool2d 3x3 pad 1 count_include_pad=False",
      run("nn.avg_pool2d(%x, pool_size=[3, 3], padding=[1, 1, 1, 1])", x=x),
      pool_ref(x, "avg", (3, 3), pad=(1, 1, 1, 1)), 9)
check("nn.avg_pool2d 3x3 pad 1 count_include_pad=True",
      run("nn.avg_pool2d(%x, pool_size=[3, 3], padding=[1, 1, 1, 1], count_include_pad=True)",
          x=x),
      pool_ref(x, "avg", (3, 3), pad=(1, 1, 1, 1), count_include_pad=True), 9)
x = f32(1, 2, 7, 9)
check("nn.avg_pool2d 2x2 strides 2 ceil_mode count_include_pad",
      run("nn.avg_pool2d(%x, pool_size=[2, 2], strides=[2, 2], ceil_mode=True, "
          "count_include_pad=True)", x=x),
      pool_ref(x, "avg", (2, 2), (2, 2), ceil_mode=True, count_include_pad=True), 4)
x = f32(1, 8, 7, 3)  # NHWC
check("nn.avg_pool2d 3x2 strides (2,3) ceil_mode NHWC",
      run('nn.avg_pool2d(%x, pool_size=[3, 2], strides=[2, 3], padding=[1, 0], '
          'layout="NHWC", ceil_mode=True)', x=x),
      pool_ref(x.transpose(NHWC), "avg", (3, 2), (2, 3), (1, 0, 1, 0), ceil_mode=True)
      .transpose(TO_NHWC), 6)
x = rng.integers(-50, 50, (1, 2, 5, 6)).astype(np.int32)
check("nn.max_pool2d int32 pad 1",
      run("nn.max_pool2d(%x, pool_size=[3, 3], padding=[1, 1])", x=x),
      pool_ref(x, "max", (3, 3), pad=(1, 1, 1, 1)).astype(np.int32))
# Integer averages divide with truncation (TVM's integer division).
check("nn.avg_pool2d int32 truncating",
      run("nn.avg_pool2d(%x, pool_size=[2, 2], padding=[1, 1])", x=x),
      np.trunc(pool_ref(x, "avg", (2, 2), pad=(1, 1, 1, 1))).astype(np.int32))


def adaptive_avg_ref(x, out_h, out_w):
    x = f64(x)
    n, c, h, w = x.shape
    out = np.zeros((n, c, out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            y0, y1 = (i * h) // out_h, -((-(i + 1) * h) // out_h)
            x0, x1 = (j * w) // out_w, -((-(j + 1) * w) // out_w)
            out[:, :, i, j] = x[:, :, y0:y1, x0:x1].mean(axis=(2, 3))
    return out


x = f32(2, 3, 7, 9)
check("nn.global_avg_pool2d 7x9", run("nn.global_avg_pool2d(%x)", x=x),
      f64(x).mean(axis=(2, 3), keepdims=True), 63)
check("nn.adaptive_avg_pool2d 7x9 -> 5x4",
      run("nn.adaptive_avg_pool2d(%x, output_size=[5, 4])", x=x), adaptive_avg_ref(x, 5, 4), 9)
x = f32(1, 5, 7, 3)  # NHWC; bins of sizes 2, 3, 2 and 2, 2, 3, 2, 2
check("nn.adaptive_avg_pool2d NHWC 5x7 -> 3x5",
      run('nn.adaptive_avg_pool2d(%x, output_size=[3, 5], layout="NHWC")', x=x),
      adaptive_avg_ref(x.transpose(NHWC), 3, 5).transpose(TO_NHWC), 9)
x = f32(1, 2, 5, 5)
check("nn.adaptive_avg_pool2d 5x5 -> 5x5",
      run("nn.adaptive_avg_pool2d(%x, output_size=[5, 5])", x=x), adaptive_avg_ref(x, 5, 5))
x = f32(1, 2, 3, 3)  # more bins than rows: overlapping bins of 1 and 2
check("nn.adaptive_avg_pool2d 3x3 -> 5x5",
      run("nn.adaptive_avg_pool2d(%x, output_size=[5, 5])", x=x), adaptive_avg_ref(x, 5, 5), 4)

# nn.global_max_pool2d and nn.adaptive_max_pool2d to 1x1 become relax.max.
x = f32(2, 3, 7, 9)
check("nn.global_max_pool2d 7x9", run("nn.global_max_pool2d(%x)", x=x),
      f64(x).max(axis=(2, 3), keepdims=True))
x = f32(1, 5, 4, 6)
check("nn.global_max_pool2d NHWC", run('nn.global_max_pool2d(%x, layout="NHWC")', x=x),
      f64(x).max(axis=(1, 2), keepdims=True))
x = f32(1, 3, 5, 4)
check("nn.adaptive_max_pool2d to 1x1", run("nn.adaptive_max_pool2d(%x, output_size=[1, 1])", x=x),
      f64(x).max(axis=(2, 3), keepdims=True))
