"""Tensor expressions (TVM's `tvm.te`): describe a tensor program as
te.compute stages and write it as a tensorir.prim_func.

    A = te.placeholder((128, 128), "float32", name="A")
    B = te.placeholder((128, 128), "float32", name="B")
    k = te.reduce_axis((0, 128), "k")
    Y = te.compute((128, 128), lambda i, j: te.sum(A[i, k] * B[k, j], axis=k), name="Y")
    C = te.compute((128, 128), lambda i, j: te.max(Y[i, j], 0), name="C")
    mod = te.create_prim_func([A, B, C])     # an mlc.Module; .show() prints it

Each te.compute becomes one tensorir.block in a nest of loops (spatial
iteration variables for the output's axes, reduce ones for the reduction's),
as TVM's create_prim_func writes it: a reduction gets a tensorir.init with
the combiner's identity. Tensors that are neither arguments nor placeholders
become tensorir.alloc_buffers. Expressions are float32/float64/int32/int64
arithmetic, comparisons, min/max, exp/log/sqrt/tanh/..., if_then_else and
casts; indices are integer expressions of the axes. The text is checked by
parsing it (mlc._capi in process, else mlc-opt).
"""

import itertools
import math

from .ir import Module

__all__ = ["Tensor", "compute", "create_prim_func", "exp", "if_then_else", "log",
           "max", "min", "placeholder", "reduce_axis", "sigmoid", "sqrt", "sum",
           "tanh", "var"]

_MLIR_TYPES = {"float32": "f32", "float64": "f64", "float16": "f16",
               "int32": "i32", "int64": "i64", "int8": "i8", "bool": "i1"}


def _is_float(dtype):
    return dtype.startswith("float")


class Expr:
    """A scalar expression of a te.compute body."""

    dtype = "int32"

    def _binary(self, op, other, reverse=False):
        other = _const(other, self.dtype)
        a, b = (other, self) if reverse else (self, other)
        return Binary(op, a, b)

    def __add__(self, o): return self._binary("add", o)
    def __radd__(self, o): return self._binary("add", o, True)
    def __sub__(self, o): return self._binary("sub", o)
    def __rsub__(self, o): return self._binary("sub", o, True)
    def __mul__(self, o): return self._binary("mul", o)
    def __rmul__(self, o): return self._binary("mul", o, True)
    def __truediv__(self, o): return self._binary("div", o)
    def __rtruediv__(self, o): return self._binary("div", o, True)
    def __floordiv__(self, o): return self._binary("floordiv", o)
    def __mod__(self, o): return self._binary("mod", o)
    def __neg__(self): return Binary("sub", _const(0, self.dtype), self)
    def __lt__(self, o): return Compare("lt", self, _const(o, self.dtype))
    def __le__(self, o): return Compare("le", self, _const(o, self.dtype))
    def __gt__(self, o): return Compare("gt", self, _const(o, self.dtype))
    def __ge__(self, o): return Compare("ge", self, _const(o, self.dtype))

    def astype(self, dtype):
        return Cast(self, dtype)


class Const(Expr):
    def __init__(self, value, dtype):
        self.value, self.dtype = value, dtype


class IterVar(Expr):
    """An axis of a compute (spatial) or a reduce_axis (reduce)."""

    _ids = itertools.count()

    def __init__(self, extent, name, kind, begin=0):
        if begin != 0:
            raise ValueError("te: axes start at 0; got a range from %d" % begin)
        self.extent, self.name, self.kind = int(extent), name, kind
        self.dtype = "int32"
        self.id = next(IterVar._ids)

    @property
    def dom(self):
        return (0, self.extent)


class Binary(Expr):
    def __init__(self, op, a, b):
        if a.dtype != b.dtype:
            raise TypeError("te: %s of %s and %s; cast one with .astype" % (op, a.dtype, b.dtype))
        self.op, self.a, self.b, self.dtype = op, a, b, a.dtype


class Compare(Expr):
    def __init__(self, op, a, b):
        self.op, self.a, self.b, self.dtype = op, a, b, "bool"


class Call(Expr):
    def __init__(self, name, args, dtype):
        self.name, self.args, self.dtype = name, list(args), dtype


class Select(Expr):
    def __init__(self, cond, a, b):
        self.cond, self.a, self.b, self.dtype = cond, a, b, a.dtype


class Cast(Expr):
    def __init__(self, value, dtype):
        self.value, self.dtype = value, dtype


class Load(Expr):
    def __init__(self, tensor, indices):
        if len(indices) != len(tensor.shape):
            raise IndexError("te: %s has %d dimensions, indexed with %d"
                             % (tensor.name, len(tensor.shape), len(indices)))
        self.tensor = tensor
        self.indices = [_const(i, "int32") for i in indices]
        self.dtype = tensor.dtype


class Reduce(Expr):
    def __init__(self, combiner, value, axes):
        self.combiner, self.value = combiner, value
        self.axes = list(axes) if isinstance(axes, (list, tuple)) else [axes]
        self.dtype = value.dtype


def _const(value, dtype):
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        return Const(value, "bool")
    if isinstance(value, float) and not _is_float(dtype):
        dtype = "float32"
    return Const(value, dtype)


class Tensor:
    """A te.placeholder or the result of te.compute; `T[i, j]` and
    `T(i, j)` read it."""

    _ids = itertools.count()

    def __init__(self, shape, dtype, name, op=None, axes=None, body=None):
        self.shape = tuple(int(s) for s in shape)
        self.dtype = dtype
        self.name = name
        self.op = op  # "placeholder" or "compute"
        self.axes = axes or []
        self.body = body
        self.id = next(Tensor._ids)

    @property
    def ndim(self):
        return len(self.shape)

    def __getitem__(self, indices):
        if not isinstance(indices, tuple):
            indices = (indices,)
        return Load(self, list(indices))

    def __call__(self, *indices):
        return Load(self, list(indices))

    def __repr__(self):
        return "Tensor(%s, shape=%s, %s)" % (self.name, list(self.shape), self.dtype)


def placeholder(shape, dtype="float32", name="placeholder"):
    """An input tensor (te.placeholder)."""
    if dtype not in _MLIR_TYPES:
        raise TypeError("te.placeholder: unsupported dtype %r" % (dtype,))
    return Tensor(shape, dtype, name, "placeholder")


def reduce_axis(dom, name="rv"):
    """A reduction axis over range(dom[0], dom[1]) (te.reduce_axis)."""
    begin, end = dom
    return IterVar(end - begin, name, "reduce", begin)


def var(name="v", dtype="int32"):
    raise NotImplementedError("te.var: symbolic sizes are not supported by mlc.te yet")


def compute(shape, fcompute, name="compute"):
    """The tensor whose element at the axes is fcompute(*axes)."""
    shape = tuple(int(s) for s in shape)
    names = ["i%d" % d for d in range(len(shape))] if len(shape) != 2 else ["i", "j"]
    axes = [IterVar(extent, n, "spatial") for extent, n in zip(shape, names)]
    body = _const(fcompute(*axes), "float32")
    return Tensor(shape, body.dtype, name, "compute", axes, body)


def sum(expr, axis):
    """te.sum: the sum of `expr` over the reduce axes `axis`."""
    return Reduce("add", _const(expr, "float32"), axis)


def max(a, b=None, axis=None):
    """te.max(a, b): the larger of two values; te.max(expr, axis=k): the
    maximum over reduce axes."""
    if axis is not None:
        return Reduce("max", _const(a, "float32"), axis)
    a = _const(a, b.dtype if isinstance(b, Expr) else "float32")
    return Call("max", [a, _const(b, a.dtype)], a.dtype)


def min(a, b=None, axis=None):
    """te.min, as te.max."""
    if axis is not None:
        return Reduce("min", _const(a, "float32"), axis)
    a = _const(a, b.dtype if isinstance(b, Expr) else "float32")
    return Call("min", [a, _const(b, a.dtype)], a.dtype)


def _unary(name):
    def f(x):
        x = _const(x, "float32")
        return Call(name, [x], x.dtype)
    f.__name__ = name
    f.__doc__ = "te.%s (math.%s)" % (name, name)
    return f


exp, log, sqrt, tanh = _unary("exp"), _unary("log"), _unary("sqrt"), _unary("tanh")


def sigmoid(x):
    return 1.0 / (1.0 + exp(-_const(x, "float32")))


def if_then_else(cond, a, b):
    a = _const(a, b.dtype if isinstance(b, Expr) else "float32")
    return Select(cond, a, _const(b, a.dtype))


# -- writing TensorIR -------------------------------------------------------


class _Writer:
    def __init__(self):
        self.lines = []
        self.counter = itertools.count()

    def fresh(self):
        return "%%v%d" % next(self.counter)

    def emit(self, indent, text):
        self.lines.append("  " * indent + text)


def _memref(tensor):
    dims = "x".join(str(d) for d in tensor.shape)
    element = _MLIR_TYPES[tensor.dtype]
    return "memref<%s%s>" % (dims + "x" if dims else "", element)


_COMBINE = {("add", True): "arith.addf", ("add", False): "arith.addi",
            ("max", True): "arith.maximumf", ("max", False): "arith.maxsi",
            ("min", True): "arith.minimumf", ("min", False): "arith.minsi"}
_BINARY = {("add", True): "arith.addf", ("add", False): "arith.addi",
           ("sub", True): "arith.subf", ("sub", False): "arith.subi",
           ("mul", True): "arith.mulf", ("mul", False): "arith.muli",
           ("div", True): "arith.divf", ("div", False): "arith.floordivsi",
           ("floordiv", False): "arith.floordivsi", ("mod", False): "arith.remsi"}
_CMP = {"lt": ("olt", "slt"), "le": ("ole", "sle"), "gt": ("ogt", "sgt"),
        "ge": ("oge", "sge")}


def _identity(combiner, dtype):
    if combiner == "add":
        return 0.0 if _is_float(dtype) else 0
    if _is_float(dtype):
        return "0xFF800000" if combiner == "max" else "0x7F800000"  # -inf / inf (f32)
    bits = int(_MLIR_TYPES[dtype][1:])
    return -(2 ** (bits - 1)) if combiner == "max" else 2 ** (bits - 1) - 1


def _literal(value, dtype):
    element = _MLIR_TYPES[dtype]
    if dtype == "bool":
        return "%s : i1" % ("true" if value else "false")
    if _is_float(dtype):
        if isinstance(value, str):  # a bit pattern
            return "%s : %s" % (value, element)
        if math.isinf(value) or math.isnan(value):
            raise ValueError("te: write infinities with te.max/te.min reductions")
        return "%r : %s" % (float(value), element)
    return "%d : %s" % (int(value), element)


class _Block:
    """Writes one compute stage's block body: the ops of its expression."""

    def __init__(self, writer, indent, env, buffers):
        self.w, self.indent, self.env, self.buffers = writer, indent, env, buffers

    def index(self, expr):
        """An index-typed SSA value of an integer expression of the axes."""
        if isinstance(expr, IterVar):
            return self.env[expr.id]
        if isinstance(expr, Const):
            name = self.w.fresh()
            self.w.emit(self.indent, "%s = arith.constant %d : index" % (name, int(expr.value)))
            return name
        if isinstance(expr, Binary) and (expr.op, False) in _BINARY:
            a, b = self.index(expr.a), self.index(expr.b)
            name = self.w.fresh()
            self.w.emit(self.indent, "%s = %s %s, %s : index"
                        % (name, _BINARY[(expr.op, False)], a, b))
            return name
        raise TypeError("te: unsupported index expression %r" % (expr,))

    def value(self, expr):
        w, indent = self.w, self.indent
        if isinstance(expr, Const):
            name = w.fresh()
            w.emit(indent, "%s = arith.constant %s" % (name, _literal(expr.value, expr.dtype)))
            return name
        if isinstance(expr, IterVar):
            index = self.env[expr.id]
            name = w.fresh()
            w.emit(indent, "%s = arith.index_cast %s : index to i32" % (name, index))
            return name
        if isinstance(expr, Load):
            indices = [self.index(i) for i in expr.indices]
            name = w.fresh()
            w.emit(indent, "%s = memref.load %s[%s] : %s" % (
                name, self.buffers[expr.tensor.id], ", ".join(indices),
                _memref(expr.tensor)))
            return name
        if isinstance(expr, Binary):
            a, b = self.value(expr.a), self.value(expr.b)
            op = _BINARY.get((expr.op, _is_float(expr.dtype)))
            if op is None:
                raise TypeError("te: %s of %s is not supported" % (expr.op, expr.dtype))
            name = w.fresh()
            w.emit(indent, "%s = %s %s, %s : %s" % (name, op, a, b, _MLIR_TYPES[expr.dtype]))
            return name
        if isinstance(expr, Compare):
            a, b = self.value(expr.a), self.value(expr.b)
            fp = _is_float(expr.a.dtype)
            predicate = _CMP[expr.op][0 if fp else 1]
            name = w.fresh()
            w.emit(indent, "%s = %s %s, %s, %s : %s" % (
                name, "arith.cmpf" if fp else "arith.cmpi", predicate, a, b,
                _MLIR_TYPES[expr.a.dtype]))
            return name
        if isinstance(expr, Select):
            c, a, b = self.value(expr.cond), self.value(expr.a), self.value(expr.b)
            name = w.fresh()
            w.emit(indent, "%s = arith.select %s, %s, %s : %s" % (
                name, c, a, b, _MLIR_TYPES[expr.dtype]))
            return name
        if isinstance(expr, Call):
            args = [self.value(a) for a in expr.args]
            element = _MLIR_TYPES[expr.dtype]
            if expr.name in ("max", "min"):
                op = _COMBINE[(expr.name, _is_float(expr.dtype))]
            else:
                op = "math." + expr.name
            name = w.fresh()
            w.emit(indent, "%s = %s %s : %s" % (name, op, ", ".join(args), element))
            return name
        if isinstance(expr, Cast):
            return self.cast(self.value(expr.value), expr.value.dtype, expr.dtype)
        if isinstance(expr, Reduce):
            raise TypeError("te: a reduction must be the whole body of its te.compute")
        raise TypeError("te: unsupported expression %r" % (expr,))

    def cast(self, value, src, dst):
        if src == dst:
            return value
        s, d = _MLIR_TYPES[src], _MLIR_TYPES[dst]
        if _is_float(src) and _is_float(dst):
            op = "arith.extf" if int(d[1:]) > int(s[1:]) else "arith.truncf"
        elif _is_float(src):
            op = "arith.fptosi"
        elif _is_float(dst):
            op = "arith.sitofp"
        else:
            op = "arith.extsi" if int(d[1:]) > int(s[1:]) else "arith.trunci"
        name = self.w.fresh()
        self.w.emit(self.indent, "%s = %s %s : %s to %s" % (name, op, value, s, d))
        return name


def _children(expr):
    """The sub-expressions of `expr` (a Load's indices included)."""
    for child in ("a", "b", "value", "cond"):
        if isinstance(getattr(expr, child, None), Expr):
            yield getattr(expr, child)
    yield from getattr(expr, "args", [])
    yield from getattr(expr, "indices", [])


def _loads(expr):
    """Every Load in `expr`, outermost first."""
    if isinstance(expr, Load):
        yield expr
    for child in _children(expr):
        yield from _loads(child)


def _stages(outputs):
    """The compute tensors the outputs depend on, producers first."""
    order, seen = [], set()

    def visit(tensor):
        if tensor.id in seen or tensor.op != "compute":
            return
        seen.add(tensor.id)
        for load in _loads(tensor.body):
            visit(load.tensor)
        order.append(tensor)

    for t in outputs:
        visit(t)
    return order


def _placeholders(stages):
    """The placeholders the stages read, each once, in the order read."""
    found = {}
    for stage in stages:
        for load in _loads(stage.body):
            if load.tensor.op == "placeholder":
                found.setdefault(load.tensor.id, load.tensor)
    return list(found.values())


def prim_func_text(args, name="main", visibility=""):
    """The tensorir.prim_func of `args` (placeholders and computed tensors,
    in parameter order) as MLIR text."""
    args = list(args)
    arg_ids = {t.id for t in args}
    outputs = [t for t in args if t.op == "compute"]
    stages = _stages(outputs)
    missing = [p.name for p in _placeholders(stages) if p.id not in arg_ids]
    if missing:
        raise ValueError("te.create_prim_func: placeholder %s is read but not an argument"
                         % ", ".join(repr(m) for m in missing))
    w = _Writer()
    buffers, used = {}, set()

    def unique(base):
        base = "".join(c if c.isalnum() or c == "_" else "_" for c in base) or "t"
        candidate, n = base, 1
        while candidate in used:
            candidate, n = "%s_%d" % (base, n), n + 1
        used.add(candidate)
        return candidate

    params = []
    for t in args:
        buffers[t.id] = "%" + unique(t.name)
        params.append("%s: %s" % (buffers[t.id], _memref(t)))
    w.emit(0, "tensorir.prim_func %s@%s(%s) attributes {tensorir.noalias} {"
           % (visibility, name, ", ".join(params)))
    for stage in stages:
        if stage.id not in arg_ids:
            buffers[stage.id] = "%" + unique(stage.name)
            w.emit(1, "%s = tensorir.alloc_buffer : %s" % (buffers[stage.id], _memref(stage)))
    for stage in stages:
        _write_stage(w, stage, buffers, unique)
    w.emit(0, "}")
    return "\n".join(w.lines) + "\n"


def _write_stage(w, stage, buffers, unique):
    body = stage.body
    reduce_axes = body.axes if isinstance(body, Reduce) else []
    loops = [(axis, "spatial") for axis in stage.axes] + \
            [(axis, "reduce") for axis in reduce_axes]
    env = {}
    indent = 1
    iter_args = []
    for axis, kind in loops:
        loop = "%" + unique(axis.name)
        w.emit(indent, "tensorir.for %s = 0 to %d {" % (loop, axis.extent))
        indent += 1
        block_var = "%" + unique("v_" + axis.name)
        env[axis.id] = block_var
        iter_args.append("%s = %s(%d, %s)" % (block_var, kind, axis.extent, loop))
    w.emit(indent, 'tensorir.block "%s"(%s) {' % (stage.name, ", ".join(iter_args)))
    inner = indent + 1
    block = _Block(w, inner, env, buffers)
    out, memref = buffers[stage.id], _memref(stage)
    spatial = ", ".join(env[a.id] for a in stage.axes)
    element = _MLIR_TYPES[stage.dtype]
    if isinstance(body, Reduce):
        w.emit(inner, "tensorir.init {")
        init = _Block(w, inner + 1, env, buffers)
        identity = init.value(Const(_identity(body.combiner, body.dtype), body.dtype))
        w.emit(inner + 1, "memref.store %s, %s[%s] : %s" % (identity, out, spatial, memref))
        w.emit(inner, "}")
        value = block.value(body.value)
        acc = w.fresh()
        w.emit(inner, "%s = memref.load %s[%s] : %s" % (acc, out, spatial, memref))
        result = w.fresh()
        w.emit(inner, "%s = %s %s, %s : %s" % (
            result, _COMBINE[(body.combiner, _is_float(body.dtype))], acc, value, element))
    else:
        result = block.value(body)
    w.emit(inner, "memref.store %s, %s[%s] : %s" % (result, out, spatial, memref))
    w.emit(indent, "}")
    for _ in loops:
        indent -= 1
        w.emit(indent, "}")


class PrimFunc(Module):
    """The module of one tensorir.prim_func that create_prim_func wrote."""

    def __init__(self, text, name):
        super().__init__(text)
        self.name = name

    def with_attr(self, key, value=None):
        """with_attr("global_symbol", name) (or with_attr({...})) renames
        the function; other attributes are not kept."""
        attrs = key if isinstance(key, dict) else {key: value}
        name = attrs.get("global_symbol", self.name)
        return PrimFunc(self.text.replace("@%s(" % self.name, "@%s(" % name, 1), name)

    def show(self):
        print(self.text, end="")


def create_prim_func(args, name="main"):
    """te.create_prim_func: the tensorir.prim_func computing the computed
    tensors among `args` (placeholders are its inputs), as an mlc Module."""
    text = prim_func_text(args, name)
    _check(text)
    return PrimFunc(text, name)


def _check(text):
    from . import _capi, tools
    if _capi.available():
        _capi.ParsedModule(text)
    else:
        tools.run("mlc-opt", [], input_text=text)
