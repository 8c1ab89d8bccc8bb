"""Building relax functions from Python (TVM's `relax.BlockBuilder`), as the
MLC course does:

    A = relax.Var("A", relax.TensorStructInfo((128, 128), "float32"))
    B = relax.Var("B", relax.TensorStructInfo((128, 128), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main"):
        with bb.dataflow():
            C = bb.emit_te(te_matmul, A, B)
            D = bb.emit_te(te_relu, C)
            R = bb.emit_output(D)
        bb.emit_func_output(R, params=[A, B])
    mod = bb.get()            # an mlc Module: relax main + tensorir prim_funcs

`emit_te(f, *args)` runs the te function on placeholders shaped like the
relax arguments, writes its tensorir.prim_func (identical ones are shared)
and emits a relax.call_tir of it. `relax.const(array)` is a
relax.constant. The course's older spelling `relax.Var(name, shape,
relax.DynTensorType(ndim, dtype))` is accepted too.
"""

import contextlib
import itertools
import re

import numpy as np

from .. import te
from ..ir import Module

__all__ = ["BlockBuilder", "Constant", "DynTensorType", "Expr", "TensorStructInfo",
           "Var", "const"]

_DTYPES = {"float32": "f32", "float64": "f64", "float16": "f16", "int32": "i32",
           "int64": "i64", "int8": "i8", "bool": "i1"}


class TensorStructInfo:
    """A tensor's static shape and dtype."""

    def __init__(self, shape, dtype="float32"):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype
        if dtype not in _DTYPES:
            raise TypeError("relax: unsupported dtype %r" % (dtype,))

    @property
    def mlir(self):
        dims = "x".join(str(d) for d in self.shape)
        return "tensor<%s%s>" % (dims + "x" if dims else "", _DTYPES[self.dtype])


class DynTensorType:
    """The MLC course's relax.DynTensorType(ndim, dtype)."""

    def __init__(self, ndim=-1, dtype="float32"):
        self.ndim, self.dtype = ndim, dtype


class Expr:
    """A relax value: its struct_info, and its SSA name once emitted."""

    def __init__(self, struct_info):
        self.struct_info = struct_info
        self.ssa = None

    @property
    def shape(self):
        return self.struct_info.shape

    @property
    def dtype(self):
        return self.struct_info.dtype


class Var(Expr):
    """relax.Var(name, TensorStructInfo) or the course's
    relax.Var(name, shape, DynTensorType)."""

    def __init__(self, name_hint, struct_info=None, type_annotation=None):
        if not isinstance(struct_info, TensorStructInfo):
            dtype = type_annotation.dtype if type_annotation is not None else "float32"
            struct_info = TensorStructInfo(struct_info, dtype)
        super().__init__(struct_info)
        self.name_hint = name_hint

    def __repr__(self):
        return "Var(%s, %s)" % (self.name_hint, self.struct_info.mlir)


class Constant(Expr):
    """relax.const(array): a relax.constant with the array's values."""

    def __init__(self, data):
        data = np.ascontiguousarray(data)
        super().__init__(TensorStructInfo(data.shape, str(data.dtype)))
        self.data = data


def const(value, dtype=None):
    """relax.const: a Constant of `value` (a numpy array, a number, or an
    NDArray)."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    return Constant(np.asarray(value, dtype=dtype or getattr(value, "dtype", "float32")))


class _Function:
    def __init__(self, name, params):
        self.name = name
        self.params = list(params) if params is not None else None
        self.lines = []        # the dataflow block's ops
        self.constants = []
        self.outputs = []
        self.result = None


class BlockBuilder:
    """relax.BlockBuilder: functions of call_tir's to te-written
    prim_funcs."""

    def __init__(self):
        self._prim_funcs = {}    # name -> text
        self._prim_func_names = {}  # body text -> name
        self._functions = []
        self._current = None
        self._in_dataflow = False
        self._counter = itertools.count()

    @contextlib.contextmanager
    def function(self, name, params=None):
        if self._current is not None:
            raise RuntimeError("BlockBuilder.function: functions do not nest")
        self._current = _Function(name, params)
        if params:
            self._name_params(params)
        try:
            yield
        finally:
            function, self._current = self._current, None
            if function.result is None:
                raise RuntimeError("BlockBuilder.function(%r): emit_func_output was not "
                                   "called" % name)
            self._functions.append(function)

    @contextlib.contextmanager
    def dataflow(self):
        if self._current is None:
            raise RuntimeError("BlockBuilder.dataflow: not inside a function")
        self._in_dataflow = True
        try:
            yield
        finally:
            self._in_dataflow = False

    def _name_params(self, params):
        for i, param in enumerate(params):
            if not isinstance(param, Var):
                raise TypeError("BlockBuilder: parameter %d is not a relax.Var" % i)
            param.ssa = "%%arg%d" % i

    def _value(self, expr):
        if isinstance(expr, Constant):
            if expr.ssa is None:
                expr.ssa = "%%c%d" % next(self._counter)
                self._current.constants.append(expr)
            return expr.ssa
        if expr.ssa is None:
            # A parameter given only to emit_func_output: named then.
            expr.ssa = "%%p_%s_%d" % (_identifier(getattr(expr, "name_hint", "p")),
                                      next(self._counter))
        return expr.ssa

    def emit_te(self, func, *args, **kwargs):
        """Calls te function `func` on placeholders for the relax arguments,
        adds its prim_func and emits a call_tir; returns the result Var."""
        if self._current is None:
            raise RuntimeError("BlockBuilder.emit_te: not inside a function")
        relax_args, te_args = [], []
        for arg in args:
            if isinstance(arg, Expr):
                placeholder = te.placeholder(arg.shape, arg.dtype, name="rxplaceholder")
                relax_args.append((arg, placeholder))
                te_args.append(placeholder)
            else:
                te_args.append(arg)
        te_kwargs = {}
        for key, value in kwargs.items():
            if isinstance(value, Expr):
                placeholder = te.placeholder(value.shape, value.dtype, name="rxplaceholder")
                relax_args.append((value, placeholder))
                te_kwargs[key] = placeholder
            else:
                te_kwargs[key] = value
        out = func(*te_args, **te_kwargs)
        if not isinstance(out, te.Tensor):
            raise TypeError("BlockBuilder.emit_te: %s returned %r, not a te.Tensor"
                            % (getattr(func, "__name__", func), out))
        callee = self._add_prim_func(getattr(func, "__name__", "te_func"),
                                     [p for _, p in relax_args] + [out])
        result = Var("lv", TensorStructInfo(out.shape, out.dtype))
        result.ssa = "%%lv%d" % next(self._counter)
        operands = ", ".join(self._value(a) for a, _ in relax_args)
        types = ", ".join(a.struct_info.mlir for a, _ in relax_args)
        self._current.lines.append("%s = relax.call_tir @%s(%s) : (%s) -> %s" % (
            result.ssa, callee, operands, types, result.struct_info.mlir))
        return result

    def _add_prim_func(self, base, args):
        base = _identifier(base)
        body = te.prim_func_text(args, "__NAME__", visibility="private ")
        if body in self._prim_func_names:
            return self._prim_func_names[body]
        name, n = base, 0
        while name in self._prim_funcs:
            n += 1
            name = "%s%d" % (base, n)
        self._prim_funcs[name] = body.replace("@__NAME__(", "@%s(" % name, 1)
        self._prim_func_names[body] = name
        return name

    def emit_output(self, output):
        """Marks `output` as the dataflow block's result."""
        if not self._in_dataflow:
            raise RuntimeError("BlockBuilder.emit_output: not inside a dataflow block")
        self._current.outputs.append(output)
        return output

    def emit_func_output(self, output, params=None):
        """Ends the function with result `output`; `params` (the relax.Vars
        of its parameters, in order) unless given to function()."""
        function = self._current
        if function is None:
            raise RuntimeError("BlockBuilder.emit_func_output: not inside a function")
        if params is not None:
            if function.params is not None:
                raise RuntimeError("BlockBuilder: params given to both function() and "
                                   "emit_func_output()")
            function.params = list(params)
            # Parameters named only now: rename their uses.
            for i, param in enumerate(function.params):
                old, new = param.ssa, "%%arg%d" % i
                if old is not None and old != new:
                    function.lines = [_rename(line, old, new) for line in function.lines]
                param.ssa = new
        if function.params is None:
            raise RuntimeError("BlockBuilder: the function's parameters were never given")
        if isinstance(output, (list, tuple)):
            raise NotImplementedError("BlockBuilder: one result per function")
        function.result = output

    def get(self):
        """The module built so far (an mlc Module)."""
        lines = ["module {"]
        for text in self._prim_funcs.values():
            lines.extend("  " + line for line in text.rstrip("\n").splitlines())
        for function in self._functions:
            lines.extend("  " + line for line in _function_text(function, self))
        lines.append("}")
        mod = IRModule("\n".join(lines) + "\n")
        te._check(mod.text)
        return mod


def _identifier(name):
    return "".join(c if c.isalnum() or c == "_" else "_" for c in str(name)) or "f"


def _rename(line, old, new):
    return re.sub(re.escape(old) + r"(?![\w$.])", new, line)


def _hex(data):
    return '"0x%s"' % data.astype(data.dtype.newbyteorder("<")).tobytes().hex().upper()


def _function_text(function, builder):
    params = ", ".join('%s: %s {relax.name = "%s"}' % (p.ssa, p.struct_info.mlir, p.name_hint)
                       for p in function.params)
    result = function.result
    out = ["func.func @%s(%s) -> %s {" % (function.name, params, result.struct_info.mlir)]
    for constant in function.constants:
        out.append("  %s = relax.constant dense<%s> : %s" % (
            constant.ssa, _hex(constant.data), constant.struct_info.mlir))
    value = builder._value(result) if isinstance(result, Constant) else result.ssa
    if function.lines:
        out.append("  %%df = relax.dataflow -> %s {" % result.struct_info.mlir)
        out.extend("    " + line for line in function.lines)
        out.append("    relax.output %s : %s" % (value, result.struct_info.mlir))
        out.append("  }")
        value = "%df"
    out.append("  return %s : %s" % (value, result.struct_info.mlir))
    out.append("}")
    return out


class IRModule(Module):
    """What BlockBuilder.get returns: the module's text; show() prints it."""

    def show(self):
        print(self.text, end="")
