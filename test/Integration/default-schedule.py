# te.compute-shaped tensorir kernels (what relax-legalize-ops writes) through
# the default CPU pipeline, i.e. raised to linalg (convert-tensorir-to-linalg)
# and tiled/vectorized/parallelized (mlc-default-schedule), against numpy on
# random inputs: matmul with sizes no tile divides, conv2d with a pad stage
# (not raised) feeding the raised convolution, softmax (four stages), and
# elementwise ops with odd sizes, small and large (parallel).
# Tolerances: f32 rtol 1e-5, atol 1e-5 * sqrt(reduction length) against a
# float64 reference; exp: rtol 1e-5.
# RUN: %python %s | FileCheck %s
# CHECK: matmul 37x29x53: ok
# CHECK: matmul 64x256x96: ok
# CHECK: conv2d 1x5x9x11 pad 1 k3: ok
# CHECK: softmax 7x13: ok
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


def conv2d(c, h, w, f, kh, pad):
    hp, wp = h + 2 * pad, w + 2 * pad
    oh, ow = hp - kh + 1, wp - kh + 1
    x, p, wt, o = memref((1, c, h, w)), memref((1, c, hp, wp)), memref((f, c, kh, kh)), memref((1, f, oh, ow))
    pad_stage = block("pad_temp", [("n", "spatial", 1), ("c", "spatial", c), ("y", "spatial", hp), ("x", "spatial", wp)], """
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
    conv = block("conv2d_nchw", [("n", "spatial", 1), ("f", "spatial", f), ("y", "spatial", oh), ("x", "spatial", ow),
                                 ("rc", "reduce", c), ("ry", "reduce", kh), ("rx", "reduce", kh)], """
%iy = arith.addi %vy, %vry : index
%ix = arith.addi %vx, %vrx : index
%a = memref.load %P[%vn, %vrc, %iy, %ix] : {P}
%b = memref.load %W[%vf, %vrc, %vry, %vrx] : {W}
%m = arith.mulf %a, %b : f32
%acc = memref.load %O[%vn, %vf, %vy, %vx] : {O}
%s = arith.addf %acc, %m : f32
memref.store %s, %O[%vn, %vf, %vy, %vx] : {O}
""".format(P=p, W=wt, O=o), init="""
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


for m, k, n in [(37, 29, 53), (64, 256, 96)]:
    a, b = f32(m, k), f32(k, n)
    check("matmul %dx%dx%d" % (m, k, n), matmul(m, k, n), "matmul",
          [a, b, np.full((m, n), np.nan, np.float32)],
          a.astype(np.float64) @ b, reduction=k)

c, h, w, f, kh, pad = 5, 9, 11, 6, 3, 1
x, wt = f32(1, c, h, w), f32(f, c, kh, kh)
xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
oh, ow = h + 2 * pad - kh + 1, w + 2 * pad - kh + 1
ref = np.zeros((1, f, oh, ow))
for ry in range(kh):
    for rx in range(kh):
        ref += np.einsum("nchw,fc->nfhw", xp[:, :, ry:ry + oh, rx:rx + ow], wt[:, :, ry, rx])
check("conv2d 1x%dx%dx%d pad %d k%d" % (c, h, w, pad, kh), conv2d(c, h, w, f, kh, pad),
      "conv2d", [x, wt, np.full((1, f, oh, ow), np.nan, np.float32)], ref,
      reduction=c * kh * kh)

a = f32(7, 13)
e = np.exp(a.astype(np.float64) - a.max(axis=1, keepdims=True))
check("softmax 7x13", softmax(7, 13), "softmax",
      [a, np.full((7, 13), np.nan, np.float32)], e / e.sum(axis=1, keepdims=True))

for m, n in [(7, 13), (300, 301)]:
    a, b = f32(m, n), f32(n)
    check("ewise %dx%d" % (m, n), ewise(m, n), "ewise",
          [a, b, np.full((m, n), np.nan, np.float32)],
          np.exp(a.astype(np.float64)) * b + 1)
