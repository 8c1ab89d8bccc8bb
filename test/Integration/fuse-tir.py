# Operator fusion end to end at the prim_func level: TE-style prim_funcs
# called from a relax function go through tensorir-annotate-op-pattern,
# relax-fuse-ops and relax-fuse-tir; the fused prim_func and the unfused
# chain of prim_funcs are each run with mlc.build on random inputs and
# compared to numpy (float64 reference). The relax function itself is not
# run: that needs host lowering of relax (convert-relax-to-memref).
# Tolerances: rtol 1e-5, atol 1e-5 * sqrt(reduction length).
# RUN: %python %s | FileCheck %s
# CHECK: fused_matmul_bias_add_relu: 1 block inlined, fused ok, unfused ok
# CHECK: fused_exp_relu_transpose_add: 3 blocks inlined, fused ok, unfused ok
# CHECK: fused_exp_sum: 1 block inlined, fused ok, unfused ok

import re
import numpy as np
import mlc
from mlc import tools

rng = np.random.default_rng(7)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def garbage(*shape):
    return np.full(shape, np.nan, dtype=np.float32)


def memref(shape):
    return "memref<%sxf32>" % "x".join(map(str, shape))


def tensor(shape):
    return "tensor<%sxf32>" % "x".join(map(str, shape))


def ewise(name, shapes, out, expr, loads):
    """A TE-style spatial prim_func: out[i, j] = expr(loads), where loads
    are (buffer index, index list) and expr uses %l0, %l1, ..."""
    params = ", ".join("%%in%d: %s" % (k, memref(s)) for k, s in enumerate(shapes))
    ivs = ["i", "j", "k"][:len(out)]
    text = "tensorir.prim_func @%s(%s, %%out: %s) attributes {tensorir.noalias} {\n" % (
        name, params, memref(out))
    for v, n in zip(ivs, out):
        text += "tensorir.for %%%s = 0 to %d {\n" % (v, n)
    text += 'tensorir.block "T_%s"(%s) {\n' % (name, ", ".join(
        "%%v%s = spatial(%d, %%%s)" % (v, n, v) for v, n in zip(ivs, out)))
    for k, (buf, idx) in enumerate(loads):
        text += "%%l%d = memref.load %%in%d[%s] : %s\n" % (
            k, buf, ", ".join("%v" + i for i in idx), memref(shapes[buf]))
    text += expr + "\n"
    text += "memref.store %%r, %%out[%s] : %s\n" % (
        ", ".join("%v" + v for v in ivs), memref(out))
    text += "}\n" * (len(out) + 1) + "}\n"
    return text


def matmul(n, k, m):
    return """
tensorir.prim_func @matmul(%A: memref<{n}x{k}xf32>, %B: memref<{k}x{m}xf32>, %C: memref<{n}x{m}xf32>) attributes {{tensorir.noalias}} {{
  tensorir.for %i = 0 to {n} {{
    tensorir.for %j = 0 to {m} {{
      tensorir.for %k = 0 to {k} {{
        tensorir.block "matmul"(%vi = spatial({n}, %i), %vj = spatial({m}, %j), %vk = reduce({k}, %k)) {{
          tensorir.init {{
            %zero = arith.constant 0.0 : f32
            memref.store %zero, %C[%vi, %vj] : memref<{n}x{m}xf32>
          }}
          %c = memref.load %C[%vi, %vj] : memref<{n}x{m}xf32>
          %a = memref.load %A[%vi, %vk] : memref<{n}x{k}xf32>
          %b = memref.load %B[%vk, %vj] : memref<{k}x{m}xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          memref.store %s, %C[%vi, %vj] : memref<{n}x{m}xf32>
        }}
      }}
    }}
  }}
}}
""".format(n=n, k=k, m=m)


def row_sum(n, m):
    return """
tensorir.prim_func @sum(%A: memref<{n}x{m}xf32>, %S: memref<{n}xf32>) attributes {{tensorir.noalias}} {{
  tensorir.for %i = 0 to {n} {{
    tensorir.for %k = 0 to {m} {{
      tensorir.block "sum"(%vi = spatial({n}, %i), %vk = reduce({m}, %k)) {{
        tensorir.init {{
          %zero = arith.constant 0.0 : f32
          memref.store %zero, %S[%vi] : memref<{n}xf32>
        }}
        %s = memref.load %S[%vi] : memref<{n}xf32>
        %a = memref.load %A[%vi, %vk] : memref<{n}x{m}xf32>
        %t = arith.addf %s, %a : f32
        memref.store %t, %S[%vi] : memref<{n}xf32>
      }}
    }}
  }}
}}
""".format(n=n, m=m)


def main_func(params, calls, result):
    """params: [(name, shape)]; calls: [(var, callee, args, shape)]."""
    text = "func.func @main(%s) -> %s {\n" % (
        ", ".join("%%%s: %s" % (p, tensor(s)) for p, s in params), tensor(result[1]))
    types = dict(params)
    text += "%%r = relax.dataflow -> %s {\n" % tensor(result[1])
    for var, callee, args, shape in calls:
        types[var] = shape
        text += "%%%s = relax.call_tir @%s(%s) : (%s) -> %s\n" % (
            var, callee, ", ".join("%" + a for a in args),
            ", ".join(tensor(types[a]) for a in args), tensor(shape))
    text += "relax.output %%%s : %s\n}\n" % (result[0], tensor(result[1]))
    text += "return %%r : %s\n}\n" % tensor(result[1])
    return text


def fused_prim_func(text, name):
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines)
                 if re.match(r"\s*tensorir\.prim_func (private )?@%s\(" % name, l))
    end = next(i for i in range(start + 1, len(lines)) if lines[i] == "  }")
    # Public on its own (relax-fuse-tir makes it private, as its caller's).
    lines[start] = lines[start].replace(" private @", " @", 1)
    return "\n".join(l[2:] for l in lines[start:end + 1]) + "\n"


def check(name, prims, main, inputs, unfused, reference, reduction=1):
    module = "".join(prims.values()) + main
    fused = tools.run("mlc-opt", ["-tensorir-annotate-op-pattern", "-relax-fuse-ops",
                                  "-relax-fuse-tir"], module)
    assert re.search(r"relax\.call_tir @%s\(" % name, fused), fused
    prim = fused_prim_func(fused, name)
    inlined = len(re.findall(r"tensorir\.block", "".join(
        prims[c] for c in re.findall(r"relax\.call_tir @(\w+)", main)))) - \
        len(re.findall(r"tensorir\.block", prim))
    atol = 1e-5 * np.sqrt(reduction)
    out = garbage(*reference.shape)
    mlc.build(prim)[name](*inputs, out)
    fused_ok = np.allclose(out, reference, rtol=1e-5, atol=atol)
    # Unfused: each prim_func on its own, chained here.
    values = unfused()
    unfused_ok = np.allclose(values, reference, rtol=1e-5, atol=atol)
    print("%s: %d block%s inlined, fused %s, unfused %s" % (
        name, inlined, "" if inlined == 1 else "s", "ok" if fused_ok else "WRONG",
        "ok" if unfused_ok else "WRONG"))


def run1(prims, name, *arrays, out_shape):
    out = garbage(*out_shape)
    mlc.build(prims[name])[name](*arrays, out)
    return out


# conv2d-like + bias + relu (matmul stands in for the conv).
N, K, M = 8, 32, 16
prims = {
    "matmul": matmul(N, K, M),
    "bias_add": ewise("bias_add", [(N, M), (M,)], (N, M),
                      "%r = arith.addf %l0, %l1 : f32", [(0, "ij"), (1, "j")]),
    "relu": ewise("relu", [(N, M)], (N, M),
                  "%zero = arith.constant 0.0 : f32\n%r = arith.maximumf %l0, %zero : f32",
                  [(0, "ij")]),
}
main = main_func([("x", (N, K)), ("w", (K, M)), ("b", (M,))],
                 [("y", "matmul", ["x", "w"], (N, M)),
                  ("z", "bias_add", ["y", "b"], (N, M)),
                  ("o", "relu", ["z"], (N, M))], ("o", (N, M)))
x, w, b = f32(N, K), f32(K, M), f32(M)
ref = np.maximum(x.astype(np.float64) @ w + b, 0)


def unfused():
    y = run1(prims, "matmul", x, w, out_shape=(N, M))
    z = run1(prims, "bias_add", y, b, out_shape=(N, M))
    return run1(prims, "relu", z, out_shape=(N, M))


check("fused_matmul_bias_add_relu", prims, main, [x, w, b], unfused, ref, reduction=K)

# Diamond with a shared producer and an injective branch.
S = 12
prims = {
    "exp": ewise("exp", [(S, S)], (S, S), "%r = math.exp %l0 : f32", [(0, "ij")]),
    "relu": ewise("relu", [(S, S)], (S, S),
                  "%zero = arith.constant 0.0 : f32\n%r = arith.maximumf %l0, %zero : f32",
                  [(0, "ij")]),
    "transpose": ewise("transpose", [(S, S)], (S, S), "%r = arith.addf %l0, %l0 : f32",
                       [(0, "ji")]),
    "add": ewise("add", [(S, S), (S, S)], (S, S), "%r = arith.addf %l0, %l1 : f32",
                 [(0, "ij"), (1, "ij")]),
}
main = main_func([("x", (S, S))],
                 [("e", "exp", ["x"], (S, S)), ("a", "relu", ["e"], (S, S)),
                  ("t", "transpose", ["e"], (S, S)), ("c", "add", ["a", "t"], (S, S))],
                 ("c", (S, S)))
x = f32(S, S)
e64 = np.exp(x.astype(np.float64))
ref = np.maximum(e64, 0) + 2 * e64.T


def unfused():
    e = run1(prims, "exp", x, out_shape=(S, S))
    a = run1(prims, "relu", e, out_shape=(S, S))
    t = run1(prims, "transpose", e, out_shape=(S, S))
    return run1(prims, "add", a, t, out_shape=(S, S))


check("fused_exp_relu_transpose_add", prims, main, [x], unfused, ref)

# Elementwise into a reduction.
R, C = 6, 40
prims = {
    "exp": ewise("exp", [(R, C)], (R, C), "%r = math.exp %l0 : f32", [(0, "ij")]),
    "sum": row_sum(R, C),
}
main = main_func([("x", (R, C))],
                 [("e", "exp", ["x"], (R, C)), ("s", "sum", ["e"], (R,))], ("s", (R,)))
x = f32(R, C)
ref = np.exp(x.astype(np.float64)).sum(axis=1)


def unfused():
    e = run1(prims, "exp", x, out_shape=(R, C))
    return run1(prims, "sum", e, out_shape=(R,))


check("fused_exp_sum", prims, main, [x], unfused, ref, reduction=C)
