# te.compute-shaped tensorir kernels (what relax-legalize-ops writes) through
# the default CPU pipeline, i.e. raised to linalg (convert-tensorir-to-linalg)
# and tiled/vectorized/parallelized (mlc-default-schedule), against numpy on
# random inputs: matmul with sizes no tile divides, conv2d with a pad stage
# (not raised) feeding the raised convolution (odd sizes, strides 1 and 2,
# 1x1 and 5x5 kernels, dilation 2, batch 2), softmax (four stages), and
# elementwise ops with odd sizes, small and large (parallel), and reductions
# along the contiguous axis (split across vector lanes) or an outer one
# (vectors of output columns), with tails, float and integer, and pooling
# windows (max and sum, strides 1 and 2, output rows no vector divides) and
# depthwise convolutions (a window with one weight per channel and step).
# Tolerances: f32 rtol 1e-5, atol 1e-5 * sqrt(reduction length) against a
# float64 reference; exp: rtol 1e-5.
# RUN: %python %s | FileCheck %s
# CHECK: matmul 37x29x53: ok
# CHECK: matmul 64x256x96: ok
# CHECK: matmul 256x512x128: ok
# CHECK: matmul 1x2048x600: ok
# CHECK: matmul 300x96x520: ok
# CHECK: matmul 130x1031x72: ok
# CHECK: matmul 300x1030x1100: ok
# CHECK: conv2d 1x5x9x11 pad 1 k3: ok
# CHECK: conv2d 1x3x13x13 pad 1 k3 f5: ok
# CHECK: conv2d 1x4x15x17 pad 1 k3 s2 d1 f20: ok
# CHECK: conv2d 1x8x14x14 pad 0 k1 s2 d1 f24: ok
# CHECK: conv2d 1x16x20x20 pad 0 k1 f33: ok
# CHECK: conv2d 1x3x13x13 pad 2 k3 s1 d2 f17: ok
# CHECK: conv2d 2x6x10x10 pad 1 k3 f18: ok
# CHECK: conv2d 1x8x9x37 pad 1 k3 f160: ok
# CHECK: conv2d 1x7x11x11 pad 2 k5 s2 d1 f19: ok
# CHECK: softmax 7x13: ok
# CHECK: softmax 9x100: ok
# CHECK: sum 37x45 axis 1: ok
# CHECK: max 300x301 axis 1: ok
# CHECK: sum 45x70 axis 0: ok
# CHECK: sum 5x33x40 axis 1: ok
# CHECK: max 6x9x40 axes 1 2: ok
# CHECK: sum int32 20x50 axis 1: ok
# CHECK: max_pool 3x13x17 k2 s2: ok
# CHECK: max_pool 4x15x40 k3 s1: ok
# CHECK: sum_pool 2x11x35 k3 s2: ok
# CHECK: depthwise 6x14x30 k3 s1: ok
# CHECK: depthwise 5x17x41 k3 s2: ok
# CHECK: ewise 7x13: ok
# CHECK: ewise 300x301: ok

import numpy as np
import mlc

rng = np.random.default_rng(11)


def memref(shape, dtype="f32"):
    return "memref<%sx%s>" % ("x".join(map(str, shape)), dtype)


def nest(names, extents, body):
    """A perfect nest of serial loops around `body`."""
    text = ""
    for v, n in zip(names, extents):
        text += "tensorir.for %%%s = 0 to %d {\n" % (v, n)
    return text + body + "}\n" * len(names)


def block(name, iters, body, init=None):
    """iters: (var, kind, extent); the loops bind %v<var> to %<var>."""
    head = 'tensorir.block "%s"(%s) {\n' % (name, ", ".join(
        "%%v%s = %s(%d, %%%s)" % (v, kind, n, v) for v, kind, n in iters))
    if init:
        head += "tensorir.init {\n%s}\n" % init
    return nest([v for v, _, _ in iters], [n for _, _, n in iters],
                head + body + "}\n")


def matmul(m, k, n):
    c = memref((m, n))
    body = block("T_matmul_NN", [("i", "spatial", m), ("j", "spatial", n), ("k", "reduce", k)], """
%a = memref.load %A[%vi, %vk] : {A}
%b = memref.load %B[%vk, %vj] : {B}
%p = arith.mulf %a, %b : f32
%acc = memref.load %C[%vi, %vj] : {C}
%s = arith.addf %acc, %p : f32
memref.store %s, %C[%vi, %vj] : {C}
""".format(A=memref((m, k)), B=memref((k, n)), C=c), init="""
%zero = arith.constant 0.0 : f32
memref.store %zero, %C[%vi, %vj] : {C}
""".format(C=c))
    return ("tensorir.prim_func @matmul(%%A: %s, %%B: %s, %%C: %s) attributes {tensorir.noalias} {\n%s tensorir.return\n}\n"
            % (memref((m, k)), memref((k, n)), c, body))


def conv_out(h, kh, pad, stride, dil):
    return (h + 2 * pad - (kh - 1) * dil - 1) // stride + 1


def conv2d(c, h, w, f, kh, pad, stride=1, dil=1, n=1):
    """The relax.nn.conv2d legalization: a pad stage, then conv2d_nchw with
    input index y * stride + ry * dil."""
    hp, wp = h + 2 * pad, w + 2 * pad
    oh, ow = conv_out(h, kh, pad, stride, dil), conv_out(w, kh, pad, stride, dil)
    x, p, wt, o = memref((n, c, h, w)), memref((n, c, hp, wp)), memref((f, c, kh, kh)), memref((n, f, oh, ow))
    pad_stage = block("pad_temp", [("n", "spatial", n), ("c", "spatial", c), ("y", "spatial", hp), ("x", "spatial", wp)], """
%cpad = arith.constant {pad} : index
%c0 = arith.constant 0 : index
%hmax = arith.constant {hm} : index
%wmax = arith.constant {wm} : index
%yy = arith.subi %vy, %cpad : index
%xx = arith.subi %vx, %cpad : index
%y0 = arith.maxsi %yy, %c0 : index
%y1 = arith.minsi %y0, %hmax : index
%x0 = arith.maxsi %xx, %c0 : index
%x1 = arith.minsi %x0, %wmax : index
%v = memref.load %X[%vn, %vc, %y1, %x1] : {X}
%iny = arith.cmpi eq, %yy, %y1 : index
%inx = arith.cmpi eq, %xx, %x1 : index
%in = arith.andi %iny, %inx : i1
%zero = arith.constant 0.0 : f32
%r = arith.select %in, %v, %zero : f32
memref.store %r, %P[%vn, %vc, %vy, %vx] : {P}
""".format(pad=pad, hm=h - 1, wm=w - 1, X=x, P=p))
    conv = block("conv2d_nchw", [("n", "spatial", n), ("f", "spatial", f), ("y", "spatial", oh), ("x", "spatial", ow),
                                 ("rc", "reduce", c), ("ry", "reduce", kh), ("rx", "reduce", kh)], """
%cs = arith.constant {stride} : index
%cd = arith.constant {dil} : index
%sy = arith.muli %vy, %cs : index
%sx = arith.muli %vx, %cs : index
%dy = arith.muli %vry, %cd : index
%dx = arith.muli %vrx, %cd : index
%iy = arith.addi %sy, %dy : index
%ix = arith.addi %sx, %dx : index
%a = memref.load %P[%vn, %vrc, %iy, %ix] : {P}
%b = memref.load %W[%vf, %vrc, %vry, %vrx] : {W}
%m = arith.mulf %a, %b : f32
%acc = memref.load %O[%vn, %vf, %vy, %vx] : {O}
%s = arith.addf %acc, %m : f32
memref.store %s, %O[%vn, %vf, %vy, %vx] : {O}
""".format(P=p, W=wt, O=o, stride=stride, dil=dil), init="""
%zero = arith.constant 0.0 : f32
memref.store %zero, %O[%vn, %vf, %vy, %vx] : {O}
""".format(O=o))
    return ("tensorir.prim_func @conv2d(%%X: %s, %%W: %s, %%O: %s) attributes {tensorir.noalias} {\n"
            "%%P = tensorir.alloc_buffer : %s\n%s%s tensorir.return\n}\n" % (x, wt, o, p, pad_stage, conv))


def softmax(m, n):
    a, row = memref((m, n)), memref((m,))
    maxe = block("T_softmax_maxelem", [("i", "spatial", m), ("k", "reduce", n)], """
%x = memref.load %A[%vi, %vk] : {A}
%c = memref.load %MX[%vi] : {R}
%r = arith.maximumf %c, %x : f32
memref.store %r, %MX[%vi] : {R}
""".format(A=a, R=row), init="""
%lo = arith.constant 0xFF800000 : f32
memref.store %lo, %MX[%vi] : {R}
""".format(R=row))
    exp = block("T_softmax_exp", [("i", "spatial", m), ("j", "spatial", n)], """
%x = memref.load %A[%vi, %vj] : {A}
%mx = memref.load %MX[%vi] : {R}
%d = arith.subf %x, %mx : f32
%e = math.exp %d : f32
memref.store %e, %E[%vi, %vj] : {A}
""".format(A=a, R=row))
    total = block("T_softmax_expsum", [("i", "spatial", m), ("k", "reduce", n)], """
%x = memref.load %E[%vi, %vk] : {A}
%c = memref.load %S[%vi] : {R}
%r = arith.addf %c, %x : f32
memref.store %r, %S[%vi] : {R}
""".format(A=a, R=row), init="""
%zero = arith.constant 0.0 : f32
memref.store %zero, %S[%vi] : {R}
""".format(R=row))
    norm = block("T_softmax_norm", [("i", "spatial", m), ("j", "spatial", n)], """
%s = memref.load %S[%vi] : {R}
%e = memref.load %E[%vi, %vj] : {A}
%r = arith.divf %e, %s : f32
memref.store %r, %Y[%vi, %vj] : {A}
""".format(A=a, R=row))
    return ("tensorir.prim_func @softmax(%%A: %s, %%Y: %s) attributes {tensorir.noalias} {\n"
            "%%MX = tensorir.alloc_buffer : %s\n%%S = tensorir.alloc_buffer : %s\n"
            "%%E = tensorir.alloc_buffer : %s\n%s%s%s%s tensorir.return\n}\n"
            % (a, a, row, row, a, maxe, exp, total, norm))


def reduce(shape, axes, combiner="add", dtype="f32"):
    """Y[kept dims] = combiner over `axes` of A, initialized with the
    combiner's neutral element."""
    names = "ijk"[:len(shape)]
    iters = [(v, "reduce" if d in axes else "spatial", e)
             for d, (v, e) in enumerate(zip(names, shape))]
    kept = [e for d, e in enumerate(shape) if d not in axes]
    a, y = memref(shape, dtype), memref(kept, dtype)
    src = ", ".join("%%v%s" % v for v in names)
    dst = ", ".join("%%v%s" % v for d, v in enumerate(names) if d not in axes)
    op = {("add", "f32"): "arith.addf", ("max", "f32"): "arith.maximumf",
          ("add", "i32"): "arith.addi"}[combiner, dtype]
    neutral = {"add": "0", "max": "0xFF800000"}[combiner]
    if dtype == "f32" and combiner == "add":
        neutral = "0.0"
    body = block("T_reduce", iters, """
%x = memref.load %A[{src}] : {A}
%c = memref.load %Y[{dst}] : {Y}
%r = {op} %c, %x : {t}
memref.store %r, %Y[{dst}] : {Y}
""".format(src=src, dst=dst, A=a, Y=y, op=op, t=dtype), init="""
%n = arith.constant {neutral} : {t}
memref.store %n, %Y[{dst}] : {Y}
""".format(neutral=neutral, t=dtype, dst=dst, Y=y))
    return ("tensorir.prim_func @reduce(%%A: %s, %%Y: %s) attributes {tensorir.noalias} {\n%s tensorir.return\n}\n"
            % (a, y, body))


def pool(c, h, w, k, stride, combiner):
    """Y[c, y, x] = combiner over the k x k window at (y * stride, x * stride)."""
    oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
    a, y = memref((c, h, w)), memref((c, oh, ow))
    op = {"max": "arith.maximumf", "add": "arith.addf"}[combiner]
    neutral = {"max": "0xFF800000", "add": "0.0"}[combiner]
    body = block("T_pool", [("c", "spatial", c), ("y", "spatial", oh), ("x", "spatial", ow),
                            ("ky", "reduce", k), ("kx", "reduce", k)], """
%s = arith.constant {stride} : index
%y0 = arith.muli %vy, %s : index
%iy = arith.addi %y0, %vky : index
%x0 = arith.muli %vx, %s : index
%ix = arith.addi %x0, %vkx : index
%v = memref.load %A[%vc, %iy, %ix] : {A}
%acc = memref.load %Y[%vc, %vy, %vx] : {Y}
%r = {op} %acc, %v : f32
memref.store %r, %Y[%vc, %vy, %vx] : {Y}
""".format(stride=stride, A=a, Y=y, op=op), init="""
%n = arith.constant {neutral} : f32
memref.store %n, %Y[%vc, %vy, %vx] : {Y}
""".format(neutral=neutral, Y=y))
    return ("tensorir.prim_func @pool(%%A: %s, %%Y: %s) attributes {tensorir.noalias} {\n%s tensorir.return\n}\n"
            % (a, y, body)), (oh, ow)


def depthwise(c, h, w, k, stride):
    """Y[c, y, x] = sum over the k x k window of A[c, y * s + ky, x * s + kx]
    * W[c, ky, kx] (no padding)."""
    oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
    a, wt, y = memref((c, h, w)), memref((c, k, k)), memref((c, oh, ow))
    body = block("depthwise_conv2d", [("c", "spatial", c), ("y", "spatial", oh), ("x", "spatial", ow),
                                      ("ky", "reduce", k), ("kx", "reduce", k)], """
%s = arith.constant {stride} : index
%y0 = arith.muli %vy, %s : index
%iy = arith.addi %y0, %vky : index
%x0 = arith.muli %vx, %s : index
%ix = arith.addi %x0, %vkx : index
%v = memref.load %A[%vc, %iy, %ix] : {A}
%f = memref.load %W[%vc, %vky, %vkx] : {W}
%p = arith.mulf %v, %f : f32
%acc = memref.load %Y[%vc, %vy, %vx] : {Y}
%r = arith.addf %acc, %p : f32
memref.store %r, %Y[%vc, %vy, %vx] : {Y}
""".format(stride=stride, A=a, W=wt, Y=y), init="""
%zero = arith.constant 0.0 : f32
memref.store %zero, %Y[%vc, %vy, %vx] : {Y}
""".format(Y=y))
    return ("tensorir.prim_func @depthwise(%%A: %s, %%W: %s, %%Y: %s) attributes {tensorir.noalias} {\n%s tensorir.return\n}\n"
            % (a, wt, y, body)), (oh, ow)


def ewise(m, n):
    """Y = exp(A) * B[j] + 1 (broadcast row)."""
    a = memref((m, n))
    body = block("T_ewise", [("i", "spatial", m), ("j", "spatial", n)], """
%x = memref.load %A[%vi, %vj] : {A}
%b = memref.load %B[%vj] : {B}
%e = math.exp %x : f32
%p = arith.mulf %e, %b : f32
%one = arith.constant 1.0 : f32
%r = arith.addf %p, %one : f32
memref.store %r, %Y[%vi, %vj] : {A}
""".format(A=a, B=memref((n,))))
    return ("tensorir.prim_func @ewise(%%A: %s, %%B: %s, %%Y: %s) attributes {tensorir.noalias} {\n%s tensorir.return\n}\n"
            % (a, memref((n,)), a, body))


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def check(name, text, fn, arrays, expected, reduction=1):
    out = arrays[-1]
    fn_built = mlc.build(mlc.Module(text))[fn]
    fn_built(*arrays)
    np.testing.assert_allclose(out, expected, rtol=1e-5,
                               atol=1e-5 * np.sqrt(reduction))
    print("%s: ok" % name)


# The last two split every cache tile off as ops of their own: k = 1031
# (prime: the second op accumulates onto the first's result), m = 130 by
# tasks of 72 rows, n = 1100 by the 1024-column panel.
for m, k, n in [(37, 29, 53), (64, 256, 96), (256, 512, 128), (1, 2048, 600),
                (300, 96, 520), (130, 1031, 72), (300, 1030, 1100)]:
    a, b = f32(m, k), f32(k, n)
    check("matmul %dx%dx%d" % (m, k, n), matmul(m, k, n), "matmul",
          [a, b, np.full((m, n), np.nan, np.float32)],
          a.astype(np.float64) @ b, reduction=k)

def conv_reference(x, wt, pad, stride, dil):
    """float64 numpy: a sum over the kernel taps of strided image slices."""
    n, c, h, w = x.shape
    f, _, kh, _ = wt.shape
    oh, ow = conv_out(h, kh, pad, stride, dil), conv_out(w, kh, pad, stride, dil)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ref = np.zeros((n, f, oh, ow))
    for ry in range(kh):
        for rx in range(kh):
            y0, x0 = ry * dil, rx * dil
            patch = xp[:, :, y0:y0 + stride * (oh - 1) + 1:stride, x0:x0 + stride * (ow - 1) + 1:stride]
            ref += np.einsum("nchw,fc->nfhw", patch, wt[:, :, ry, rx].astype(np.float64))
    return ref


# (n, c, h, w, f, k, pad, stride, dilation): odd sizes no register tile
# (16 channels x 16 columns) divides, strides, 1x1, dilation, batch, and
# more than one parallel channel tile (64).
for n, c, h, w, f, kh, pad, stride, dil in [
        (1, 5, 9, 11, 6, 3, 1, 1, 1), (1, 3, 13, 13, 5, 3, 1, 1, 1),
        (1, 4, 15, 17, 20, 3, 1, 2, 1), (1, 8, 14, 14, 24, 1, 0, 2, 1),
        (1, 16, 20, 20, 33, 1, 0, 1, 1), (1, 3, 13, 13, 17, 3, 2, 1, 2),
        (2, 6, 10, 10, 18, 3, 1, 1, 1), (1, 8, 9, 37, 160, 3, 1, 1, 1),
        (1, 7, 11, 11, 19, 5, 2, 2, 1)]:
    x, wt = f32(n, c, h, w), f32(f, c, kh, kh)
    oh, ow = conv_out(h, kh, pad, stride, dil), conv_out(w, kh, pad, stride, dil)
    name = "conv2d %dx%dx%dx%d pad %d k%d" % (n, c, h, w, pad, kh)
    if stride != 1 or dil != 1:
        name += " s%d d%d" % (stride, dil)
    check(name + " f%d" % f if (n, c, h, w) != (1, 5, 9, 11) else name,
          conv2d(c, h, w, f, kh, pad, stride, dil, n), "conv2d",
          [x, wt, np.full((n, f, oh, ow), np.nan, np.float32)],
          conv_reference(x, wt, pad, stride, dil), reduction=c * kh * kh)

for m, n in [(7, 13), (9, 100)]:
    a = f32(m, n)
    e = np.exp(a.astype(np.float64) - a.max(axis=1, keepdims=True))
    check("softmax %dx%d" % (m, n), softmax(m, n), "softmax",
          [a, np.full((m, n), np.nan, np.float32)], e / e.sum(axis=1, keepdims=True))

for shape, axes, combiner in [((37, 45), (1,), "add"), ((300, 301), (1,), "max"),
                              ((45, 70), (0,), "add"), ((5, 33, 40), (1,), "add"),
                              ((6, 9, 40), (1, 2), "max")]:
    a = f32(*shape)
    kept = tuple(e for d, e in enumerate(shape) if d not in axes)
    fn = np.sum if combiner == "add" else np.max
    length = int(np.prod([shape[d] for d in axes]))
    check("%s %s %s %s" % ("sum" if combiner == "add" else "max",
                           "x".join(map(str, shape)), "axes" if len(axes) > 1 else "axis",
                           " ".join(map(str, axes))),
          reduce(shape, axes, combiner), "reduce",
          [a, np.full(kept, np.nan, np.float32)],
          fn(a.astype(np.float64), axis=axes), reduction=length)

a = rng.integers(-1000, 1000, (20, 50)).astype(np.int32)
y = np.zeros(20, np.int32)
mlc.build(mlc.Module(reduce((20, 50), (1,), "add", "i32")))["reduce"](a, y)
np.testing.assert_array_equal(y, a.sum(axis=1))
print("sum int32 20x50 axis 1: ok")

for c, h, w, k, stride, combiner in [(3, 13, 17, 2, 2, "max"), (4, 15, 40, 3, 1, "max"),
                                    (2, 11, 35, 3, 2, "add")]:
    text, (oh, ow) = pool(c, h, w, k, stride, combiner)
    a = f32(c, h, w)
    windows = np.stack([a[:, ky:ky + stride * (oh - 1) + 1:stride, kx:kx + stride * (ow - 1) + 1:stride]
                        for ky in range(k) for kx in range(k)]).astype(np.float64)
    check("%s_pool %dx%dx%d k%d s%d" % ("max" if combiner == "max" else "sum", c, h, w, k, stride),
          text, "pool", [a, np.full((c, oh, ow), np.nan, np.float32)],
          windows.max(axis=0) if combiner == "max" else windows.sum(axis=0), reduction=k * k)

for c, h, w, k, stride in [(6, 14, 30, 3, 1), (5, 17, 41, 3, 2)]:
    text, (oh, ow) = depthwise(c, h, w, k, stride)
    a, wt = f32(c, h, w), f32(c, k, k)
    ref = sum(a[:, ky:ky + stride * (oh - 1) + 1:stride, kx:kx + stride * (ow - 1) + 1:stride]
              .astype(np.float64) * wt[:, ky, kx, None, None]
              for ky in range(k) for kx in range(k))
    check("depthwise %dx%dx%d k%d s%d" % (c, h, w, k, stride), text, "depthwise",
          [a, wt, np.full((c, oh, ow), np.nan, np.float32)], ref, reduction=k * k)

for m, n in [(7, 13), (300, 301)]:
    a, b = f32(m, n), f32(n)
    check("ewise %dx%d" % (m, n), ewise(m, n), "ewise",
          [a, b, np.full((m, n), np.nan, np.float32)],
          np.exp(a.astype(np.float64)) * b + 1)
