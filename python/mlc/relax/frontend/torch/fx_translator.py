"""PyTorch FX graphs to relax (tvm.relax.frontend.torch.from_fx).

The translator walks a `torch.fx.GraphModule` and maps every node to relax
ops, written as mlc's relax graph JSON (../common.py) and imported by
`mlc-translate --import-relax-json`, which infers every result type.

Shapes come from running the graph module (torch.fx.Interpreter) on sample
inputs. A symbolic dimension ("n" in input_info) gets a sample size, and the
graph runs once more per symbol with that size plus one: a size that changes
with a symbol is a linear expression of it (`n`, `2 * n`, `n + 1`). So
`x.view(x.size(0), -1)` knows that its first size is the input's `n`.
"""

import copy
import math
import operator

import numpy as np
import torch
import torch.nn.functional as F
from torch import fx, nn

from ..common import GraphWriter, boolean, f64, i64, i64s, mlir_dtype, dense

# Sample sizes of symbolic dimensions: symbol i runs at _SAMPLE + 2 * i and,
# in its probe run, one more.
_SAMPLE = 5


class SymExpr:
    """A size that depends on symbolic dimensions: const + sum(coeff * sym)."""

    def __init__(self, coeffs, const):
        self.coeffs = {k: v for k, v in coeffs.items() if v}
        self.const = const

    def __eq__(self, other):
        return (isinstance(other, SymExpr) and self.coeffs == other.coeffs
                and self.const == other.const)

    def __hash__(self):
        return hash((tuple(sorted(self.coeffs.items())), self.const))

    def __repr__(self):
        terms = ["%s%s" % ("" if c == 1 else "%d * " % c, s)
                 for s, c in sorted(self.coeffs.items())]
        if self.const or not terms:
            terms.append(str(self.const))
        return " + ".join(terms)


class Unknown:
    """A size that is not a linear function of the symbols."""

    def __repr__(self):
        return "?"


def _fit(samples, symbols):
    """The size (an int, SymExpr or Unknown) seen as samples[0] in the base
    run and samples[1 + i] when symbol i grew by one."""
    base = samples[0]
    coeffs = {s: samples[1 + i] - base for i, s in enumerate(symbols)}
    if not any(coeffs.values()):
        return base
    const = base - sum(c * _sample_size(i) for i, c in enumerate(coeffs.values()))
    return SymExpr(coeffs, const)


def _sample_size(index):
    return _SAMPLE + 2 * index


class TensorInfo:
    """What the sample runs saw of a tensor: its shape (ints, SymExprs) and
    torch dtype."""

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype

    @property
    def rank(self):
        return len(self.shape)


def _summarize(value):
    if isinstance(value, torch.Tensor):
        return ("tensor", tuple(value.shape), value.dtype)
    if isinstance(value, (tuple, list)):
        return (type(value).__name__, [_summarize(v) for v in value])
    if isinstance(value, (bool, int, float)):
        return ("scalar", value)
    return ("other", None)


def _combine(summaries, symbols):
    """Turns one node's summaries over the runs into TensorInfo, sizes, or
    lists of them."""
    first = summaries[0]
    kind = first[0]
    if kind == "tensor":
        shape = [_fit([s[1][d] for s in summaries], symbols) for d in range(len(first[1]))]
        return TensorInfo(shape, first[2])
    if kind in ("tuple", "list"):
        return [_combine([s[1][i] for s in summaries], symbols) for i in range(len(first[1]))]
    if kind == "scalar":
        if isinstance(first[1], bool) or not isinstance(first[1], int):
            return first[1]
        return _fit([s[1] for s in summaries], symbols)
    return None


class _Recorder(fx.Interpreter):
    def __init__(self, module):
        super().__init__(module)
        self.seen = {}

    def run_node(self, node):
        result = super().run_node(node)
        self.seen[node] = _summarize(result)
        return result


class UnsupportedError(NotImplementedError):
    pass


class _Value:
    """A relax value of the graph being written, with its info."""

    def __init__(self, ref, info):
        self.ref = ref
        self.info = info

    @property
    def dtype(self):
        return mlir_dtype(self.info.dtype)


class FXTranslator:
    """Converts one GraphModule; see from_fx."""

    def __init__(self, module, input_info, custom_convert_map=None):
        self.module = module
        self.input_info = input_info
        self.custom = dict(custom_convert_map or {})
        self.graph = GraphWriter()
        self.env = {}
        self.node = None
        self.named_modules = dict(module.named_modules())

    # --- shapes -----------------------------------------------------------
    def _symbols(self):
        symbols = []
        for shape, _ in self.input_info:
            for dim in shape:
                if isinstance(dim, str) and dim not in symbols:
                    symbols.append(dim)
        return symbols

    def _sample_inputs(self, sizes):
        inputs = []
        generator = torch.Generator().manual_seed(0)
        for shape, dtype in self.input_info:
            concrete = [sizes[d] if isinstance(d, str) else int(d) for d in shape]
            tdtype = getattr(torch, str(dtype).replace("torch.", ""))
            if tdtype.is_floating_point:
                inputs.append(torch.randn(concrete, generator=generator).to(tdtype))
            else:
                inputs.append(torch.zeros(concrete, dtype=tdtype))
        return inputs

    def _record(self, inputs):
        """The summaries of every node's result on `inputs`. When torch has
        no CPU kernel for an op at the model's types (a float16 convolution,
        say), the graph runs again on the meta device, whose tensors carry
        shapes and dtypes without data."""
        recorder = _Recorder(self.module)
        try:
            recorder.run(*inputs)
            return recorder.seen
        except (RuntimeError, NotImplementedError) as error:
            recorder = _Recorder(copy.deepcopy(self.module).to("meta"))
            try:
                recorder.run(*[x.to("meta") for x in inputs])
            except Exception:
                raise error
        # The copy has nodes of its own: keyed by this module's, by name.
        nodes = {node.name: node for node in self.module.graph.nodes}
        return {nodes[node.name]: summary for node, summary in recorder.seen.items()}

    def _propagate(self):
        symbols = self._symbols()
        base = {s: _sample_size(i) for i, s in enumerate(symbols)}
        runs = [base] + [dict(base, **{s: base[s] + 1}) for s in symbols]
        seen = []
        with torch.no_grad():
            for sizes in runs:
                seen.append(self._record(self._sample_inputs(sizes)))
        self.info = {}
        for node in self.module.graph.nodes:
            if node in seen[0]:
                self.info[node] = _combine([s[node] for s in seen], symbols)

    # --- checking ---------------------------------------------------------
    def _converter(self, node):
        if node.op in ("placeholder", "get_attr", "output"):
            return getattr(FXTranslator, "_" + node.op)
        if node.op == "call_module":
            module = self.named_modules[node.target]
            if type(module) in self.custom:
                return self._custom(self.custom[type(module)])
            return _MODULES.get(type(module))
        if node.op == "call_function":
            if node.target in self.custom:
                return self._custom(self.custom[node.target])
            return _FUNCTIONS.get(node.target)
        if node.op == "call_method":
            if node.target in self.custom:
                return self._custom(self.custom[node.target])
            return _METHODS.get(node.target)
        return None

    def _custom(self, fn):
        return lambda self, node: fn(node, self)

    def _check_supported(self):
        missing = {}
        for node in self.module.graph.nodes:
            if self._converter(node) is None:
                if node.op == "call_module":
                    key = type(self.named_modules[node.target]).__name__
                elif node.op == "call_function":
                    key = getattr(node.target, "__name__", str(node.target))
                else:
                    key = "Tensor.%s" % node.target
                where = node.name
                line = _source_line(node)
                if line:
                    where += " at %s:%d" % line
                missing.setdefault(key, []).append(where)
        if missing:
            raise UnsupportedError(
                "Unsupported function types %s (%s)" % (
                    sorted(missing), "; ".join("%s: %s" % (k, ", ".join(v[:4]))
                                              for k, v in sorted(missing.items()))))

    # --- conversion -------------------------------------------------------
    def translate(self, keep_params_as_input, unwrap_unit_return_tuple):
        self._check_supported()
        self._propagate()
        self.unwrap = unwrap_unit_return_tuple
        for node in self.module.graph.nodes:
            self.node = node
            try:
                result = self._converter(node)(self, node)
            except (UnsupportedError, ValueError, TypeError) as err:
                raise type(err)("%s (node %s%s): %s" % (
                    _describe(node, self.named_modules), node.name,
                    " at %s:%d" % _source_line(node) if _source_line(node) else "",
                    err)) from err
            self.env[node] = result
        return self.graph.import_module(keep_params_as_input)

    def info_of(self, arg):
        return self.info[arg] if isinstance(arg, fx.Node) else None

    def value(self, arg):
        """The converted form of an FX argument: a _Value for tensors, a
        number or SymExpr for sizes, lists for sequences."""
        if isinstance(arg, fx.Node):
            return self.env[arg]
        if isinstance(arg, (list, tuple)):
            return type(arg)(self.value(a) for a in arg)
        if isinstance(arg, slice):
            return slice(self.value(arg.start), self.value(arg.stop), self.value(arg.step))
        return arg

    def emit(self, op, args, attrs=None, info=None, results=1):
        """Emits relax op `op` for the current node; its result's info is
        `info` (default: the node's own)."""
        refs = [a.ref if isinstance(a, _Value) else a for a in args]
        loc = _source_line(self.node)
        out = self.graph.emit(op, refs, attrs, results=results, name=self.node.name, loc=loc)
        if results != 1:
            infos = info if info is not None else [None] * results
            return [_Value(r, i) for r, i in zip(out, infos)]
        return _Value(out, info if info is not None else self.info.get(self.node))

    def scalar(self, value, dtype):
        if isinstance(value, (SymExpr, Unknown)):
            raise UnsupportedError("a symbolic size used as a tensor value")
        if dtype == "i1":
            value = bool(value)
        elif dtype.startswith(("i", "ui")):
            value = int(value)
        else:
            value = float(value)
            if not math.isfinite(value):  # JSON has no infinities
                value = str(value)
        return {"scalar": value, "dtype": dtype}

    def param(self, name, tensor):
        array = tensor.detach().cpu().numpy()
        info = TensorInfo(list(array.shape), tensor.dtype)
        if array.dtype == np.bool_:
            # Masks stay inline: i1 has no byte layout for dense_resource.
            return _Value({"constant": dense(array)}, info)
        return _Value(self.graph.add_param(name, array), info)

    def _placeholder(self, node):
        index = len(self.graph.inputs)
        if index >= len(self.input_info):
            raise ValueError("the graph has more inputs than input_info describes (%d)"
                             % len(self.input_info))
        shape, dtype = self.input_info[index]
        dtype = mlir_dtype(dtype)
        return _Value(self.graph.add_input(node.name, shape, dtype), self.info[node])

    def _get_attr(self, node):
        target = self.module
        for part in node.target.split("."):
            target = getattr(target, part)
        if isinstance(target, torch.Tensor):
            return self.param(node.target, target)
        raise UnsupportedError("attribute %s is not a tensor" % node.target)

    def _output(self, node):
        outputs = _flatten(self.value(node.args[0]))
        for out in outputs:
            if not isinstance(out, _Value):
                raise UnsupportedError("the model returns a non-tensor (%r)" % (out,))
        self.graph.outputs = [o.ref for o in outputs]
        return None


def _source_line(node):
    trace = node.stack_trace
    if not trace:
        return None
    import re
    matches = re.findall(r'File "([^"]+)", line (\d+)', trace)
    if not matches:
        return None
    return matches[-1][0], int(matches[-1][1])


def _describe(node, modules):
    if node.op == "call_module":
        return "%s %s" % (type(modules[node.target]).__name__, node.target)
    if node.op == "call_function":
        return getattr(node.target, "__name__", str(node.target))
    return "%s %s" % (node.op, node.target)


def _flatten(value):
    if isinstance(value, (list, tuple)):
        return [v for item in value for v in _flatten(item)]
    if isinstance(value, dict):
        return [v for item in value.values() for v in _flatten(item)]
    return [value]


# --- helpers shared by converters ------------------------------------------

def _arg(node, index, name, default=None):
    if len(node.args) > index:
        return node.args[index]
    return node.kwargs.get(name, default)


def _pair(value):
    if isinstance(value, (list, tuple)):
        return [int(v) for v in value] if len(value) == 2 else [int(value[0])] * 2
    return [int(value), int(value)]


def _axis(axis, rank):
    axis = int(axis)
    return axis + rank if axis < 0 else axis


def _promote(tr, node, values):
    """Casts the tensor operands to the node's result dtype (torch's type
    promotion) and turns Python numbers into 0-d constants of it."""
    info = tr.info[node]
    target = info.dtype if isinstance(info, TensorInfo) else None
    tensors = [v for v in values if isinstance(v, _Value)]
    if target is None or target == torch.bool:
        dtypes = [v.info.dtype for v in tensors]
        target = dtypes[0]
        for d in dtypes[1:]:
            target = torch.promote_types(target, d)
        for v in values:
            if not isinstance(v, _Value) and isinstance(v, float) and not target.is_floating_point:
                target = torch.get_default_dtype()
    dtype = mlir_dtype(target)
    out = []
    for v in values:
        if isinstance(v, _Value):
            if v.info.dtype != target:
                v = tr.emit("astype", [v], {"dtype": dtype},
                            info=TensorInfo(v.info.shape, target))
            out.append(v)
        else:
            out.append(tr.scalar(v, dtype))
    return out


def _binary(op, reverse=False):
    def convert(tr, node):
        lhs, rhs = tr.value(node.args[0]), tr.value(node.args[1])
        if "alpha" in node.kwargs and node.kwargs["alpha"] != 1:
            rhs = _binary_values(tr, node, "multiply", rhs, node.kwargs["alpha"])
        if not isinstance(lhs, _Value) and not isinstance(rhs, _Value):
            return _python_binary(op, lhs, rhs)
        if reverse:
            lhs, rhs = rhs, lhs
        lhs, rhs = _promote(tr, node, [lhs, rhs])
        return tr.emit(op, [lhs, rhs])
    return convert


def _binary_values(tr, node, op, lhs, rhs):
    lhs, rhs = _promote(tr, node, [lhs, rhs])
    return tr.emit(op, [lhs, rhs], info=lhs.info if isinstance(lhs, _Value) else rhs.info)


def _python_binary(op, lhs, rhs):
    # Arithmetic on sizes (x.size(0) * 2): the sample runs computed it; the
    # translator recomputes it symbolically where it is linear.
    fn = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
          "divide": operator.truediv, "floor_divide": operator.floordiv,
          "power": operator.pow, "floor_mod": operator.mod,
          "mod": lambda a, b: type(a + b)(math.fmod(a, b))}[op]
    if isinstance(lhs, SymExpr) or isinstance(rhs, SymExpr):
        if op == "add" or op == "subtract":
            sign = 1 if op == "add" else -1
            a = lhs if isinstance(lhs, SymExpr) else SymExpr({}, lhs)
            b = rhs if isinstance(rhs, SymExpr) else SymExpr({}, rhs)
            coeffs = dict(a.coeffs)
            for k, v in b.coeffs.items():
                coeffs[k] = coeffs.get(k, 0) + sign * v
            return SymExpr(coeffs, a.const + sign * b.const)
        if op == "multiply" and not (isinstance(lhs, SymExpr) and isinstance(rhs, SymExpr)):
            e, k = (lhs, rhs) if isinstance(lhs, SymExpr) else (rhs, lhs)
            if isinstance(k, int):
                return SymExpr({s: c * k for s, c in e.coeffs.items()}, e.const * k)
        return Unknown()
    return fn(lhs, rhs)


def _size_arithmetic(op):
    def convert(tr, node):
        lhs, rhs = tr.value(node.args[0]), tr.value(node.args[1])
        if isinstance(lhs, _Value) or isinstance(rhs, _Value):
            raise UnsupportedError("%s of tensors" % op)
        return _python_binary(op, lhs, rhs)
    return convert


def _size_math(fn):
    # math.sqrt(x.size(-1)) and the like: computed when the size is static.
    def convert(tr, node):
        args = [tr.value(a) for a in node.args]
        if any(not isinstance(a, (int, float)) for a in args):
            raise UnsupportedError("%s of a symbolic size or a tensor" % fn.__name__)
        return fn(*args)
    return convert


def _unary(op):
    def convert(tr, node):
        return tr.emit(op, [tr.value(node.args[0])])
    return convert


def _float_unary(op):
    def convert(tr, node):
        x = tr.value(node.args[0])
        if not x.info.dtype.is_floating_point:
            x = tr.emit("astype", [x], {"dtype": "f32"}, info=TensorInfo(x.info.shape, torch.float32))
        return tr.emit(op, [x])
    return convert


def _identity(tr, node):
    return tr.value(node.args[0])


def _rounding(op):
    # torch.floor and the like keep integer tensors as they are.
    def convert(tr, node):
        x = tr.value(node.args[0])
        if not x.info.dtype.is_floating_point:
            return x
        return tr.emit(op, [x])
    return convert


def _gather(tr, node):
    # torch.gather(input, dim, index): relax.gather_elements.
    args = dict(zip(("input", "dim", "index"), node.args), **node.kwargs)
    x, index = tr.value(args["input"]), tr.value(args["index"])
    return tr.emit("gather_elements", [x, index], {"axis": i64(args["dim"])},
                   info=TensorInfo(index.info.shape, x.info.dtype))


def _relu6(tr, x):
    return tr.emit("clip", [x], {"min": f64(0.0), "max": f64(6.0)})


def _hardsigmoid(tr, x):
    # relu6(x + 3) / 6
    t = tr.emit("add", [x, tr.scalar(3.0, x.dtype)], info=x.info)
    t = tr.emit("clip", [t], {"min": f64(0.0), "max": f64(6.0)}, info=x.info)
    return tr.emit("divide", [t, tr.scalar(6.0, x.dtype)], info=x.info)


def _hardswish(tr, x):
    return tr.emit("multiply", [x, _hardsigmoid(tr, x)], info=x.info)


def _silu(tr, x):
    return tr.emit("multiply", [x, tr.emit("sigmoid", [x], info=x.info)], info=x.info)


def _gelu(tr, x, approximate="none"):
    d = x.dtype
    if approximate == "tanh":
        # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        x3 = tr.emit("multiply", [x, tr.emit("multiply", [x, x], info=x.info)], info=x.info)
        inner = tr.emit("add", [x, tr.emit("multiply", [x3, tr.scalar(0.044715, d)], info=x.info)],
                        info=x.info)
        inner = tr.emit("multiply", [inner, tr.scalar(math.sqrt(2 / math.pi), d)], info=x.info)
        t = tr.emit("tanh", [inner], info=x.info)
    else:
        # 0.5 x (1 + erf(x / sqrt(2)))
        t = tr.emit("erf", [tr.emit("multiply", [x, tr.scalar(1 / math.sqrt(2), d)], info=x.info)],
                    info=x.info)
    t = tr.emit("add", [t, tr.scalar(1.0, d)], info=x.info)
    half = tr.emit("multiply", [x, tr.scalar(0.5, d)], info=x.info)
    return tr.emit("multiply", [half, t], info=x.info)


def _activation(fn):
    def convert(tr, node):
        return fn(tr, tr.value(node.args[0]))
    return convert


def _contract(tr, op, args, attrs=None, info=None):
    """A matmul or convolution `op`. torch computes 16-bit ones in float32
    (its opmath type: cuBLAS's and cuDNN's float32 compute, and the CPU
    kernels' float accumulators) and rounds the result once; so does this
    one: out_dtype f32, then a cast back, which fuses into the kernel (and
    lets the GPU's tensor-core rules, which accumulate in f32, take it)."""
    info = info if info is not None else tr.info.get(tr.node)
    if info is None or info.dtype not in (torch.float16, torch.bfloat16):
        return tr.emit(op, args, attrs, info=info)
    wide = tr.emit(op, args, dict(attrs or {}, out_dtype="f32"),
                   info=TensorInfo(info.shape, torch.float32))
    return tr.emit("astype", [wide], {"dtype": mlir_dtype(info.dtype)}, info=info)


def _conv(tr, node, x, weight, bias, stride, padding, dilation, groups, transposed=False,
          output_padding=0):
    rank = x.info.rank
    if rank not in (3, 4):
        raise UnsupportedError("only 1-D and 2-D convolutions are supported (input rank %d)" % rank)
    lifted = rank == 3

    def spatial(v):
        v = list(v) if isinstance(v, (list, tuple)) else [v]
        return [1, int(v[0])] if lifted else _pair(v)

    if isinstance(padding, str):
        raise UnsupportedError("padding='%s' is not supported; give sizes" % padding)
    info = tr.info[node]
    if lifted:
        x = tr.emit("expand_dims", [x], {"axis": i64s([2])},
                    info=TensorInfo(x.info.shape[:2] + [1] + x.info.shape[2:], x.info.dtype))
        weight = tr.emit("expand_dims", [weight], {"axis": i64s([2])},
                         info=TensorInfo(weight.info.shape[:2] + [1] + weight.info.shape[2:],
                                         weight.info.dtype))
        pad = [0] + [int(_list(padding)[0])]
        stride_, dilation_ = spatial(stride), spatial(dilation)
        out_info = TensorInfo(info.shape[:2] + [1] + info.shape[2:], info.dtype)
    else:
        pad = _pair(padding)
        stride_, dilation_ = _pair(stride), _pair(dilation)
        out_info = info
    attrs = {"strides": i64s(stride_), "padding": i64s(pad + pad),
             "dilation": i64s(dilation_), "groups": i64(groups)}
    if transposed:
        op_ = [0] + [int(_list(output_padding)[0])] if lifted else _pair(output_padding)
        attrs["output_padding"] = i64s(op_)
    y = _contract(tr, "nn.conv2d_transpose" if transposed else "nn.conv2d", [x, weight], attrs,
                  info=out_info)
    if lifted:
        y = tr.emit("squeeze", [y], {"axis": i64s([2])}, info=info)
    if bias is not None:
        shape = [-1] + [1] * (info.rank - 2)
        b = tr.emit("reshape", [bias], {"shape": i64s(shape)},
                    info=TensorInfo([bias.info.shape[0]] + [1] * (info.rank - 2), bias.info.dtype))
        y = tr.emit("add", [y, b], info=info)
    return y


def _list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _module_param(tr, node, name):
    tensor = getattr(tr.named_modules[node.target], name)
    if tensor is None:
        return None
    return tr.param("%s.%s" % (node.target, name), tensor)


def _conv_module(tr, node):
    m = tr.named_modules[node.target]
    if m.padding_mode != "zeros":
        raise UnsupportedError("padding_mode=%r" % m.padding_mode)
    transposed = isinstance(m, (nn.ConvTranspose1d, nn.ConvTranspose2d))
    return _conv(tr, node, tr.value(node.args[0]), _module_param(tr, node, "weight"),
                 _module_param(tr, node, "bias"), m.stride, m.padding, m.dilation, m.groups,
                 transposed, getattr(m, "output_padding", 0))


def _conv_function(transposed):
    def convert(tr, node):
        get = lambda i, n, d=None: tr.value(_arg(node, i, n, d))
        if transposed:
            return _conv(tr, node, get(0, "input"), get(1, "weight"), get(2, "bias"),
                         get(3, "stride", 1), get(4, "padding", 0), get(7, "dilation", 1),
                         get(6, "groups", 1), True, get(5, "output_padding", 0))
        return _conv(tr, node, get(0, "input"), get(1, "weight"), get(2, "bias"),
                     get(3, "stride", 1), get(4, "padding", 0), get(5, "dilation", 1),
                     get(6, "groups", 1))
    return convert


def _linear(tr, node, x, weight, bias):
    wt = tr.emit("permute_dims", [weight], {"axes": i64s([1, 0])},
                 info=TensorInfo(weight.info.shape[::-1], weight.info.dtype))
    y = _contract(tr, "matmul", [x, wt], info=tr.info[node])
    if bias is not None:
        y = tr.emit("add", [y, bias])
    return y


def _linear_module(tr, node):
    return _linear(tr, node, tr.value(node.args[0]), _module_param(tr, node, "weight"),
                   _module_param(tr, node, "bias"))


def _linear_function(tr, node):
    return _linear(tr, node, tr.value(_arg(node, 0, "input")), tr.value(_arg(node, 1, "weight")),
                   tr.value(_arg(node, 2, "bias")))


def _batch_norm(tr, node, x, mean, var, weight, bias, eps):
    c = x.info.shape[1]
    dtype = x.info.dtype
    if weight is None:
        weight = tr.param("%s.weight" % node.name, torch.ones(c, dtype=dtype))
    if bias is None:
        bias = tr.param("%s.bias" % node.name, torch.zeros(c, dtype=dtype))
    outs = tr.emit("nn.batch_norm", [x, weight, bias, mean, var],
                   {"axis": i64(1), "epsilon": f64(eps)}, results=3,
                   info=[tr.info[node], mean.info, var.info])
    return outs[0]


def _batch_norm_module(tr, node):
    m = tr.named_modules[node.target]
    if m.training or m.running_mean is None:
        raise UnsupportedError("batch norm in training mode (call model.eval())")
    return _batch_norm(tr, node, tr.value(node.args[0]), _module_param(tr, node, "running_mean"),
                       _module_param(tr, node, "running_var"), _module_param(tr, node, "weight"),
                       _module_param(tr, node, "bias"), m.eps)


def _batch_norm_function(tr, node):
    get = lambda i, n, d=None: tr.value(_arg(node, i, n, d))
    if get(5, "training", False):
        raise UnsupportedError("batch norm in training mode")
    return _batch_norm(tr, node, get(0, "input"), get(1, "running_mean"), get(2, "running_var"),
                       get(3, "weight"), get(4, "bias"), get(7, "eps", 1e-5))


def _layer_norm(tr, node, x, normalized_shape, weight, bias, eps):
    n = len(_list(normalized_shape))
    rank = x.info.rank
    shape = x.info.shape[rank - n:]
    dtype = x.info.dtype
    if weight is None:
        weight = tr.param("%s.weight" % node.name, torch.ones(shape, dtype=dtype))
    if bias is None:
        bias = tr.param("%s.bias" % node.name, torch.zeros(shape, dtype=dtype))
    return tr.emit("nn.layer_norm", [x, weight, bias],
                   {"axes": i64s(range(-n, 0)), "epsilon": f64(eps)})


def _layer_norm_module(tr, node):
    m = tr.named_modules[node.target]
    return _layer_norm(tr, node, tr.value(node.args[0]), m.normalized_shape,
                       _module_param(tr, node, "weight"), _module_param(tr, node, "bias"), m.eps)


def _layer_norm_function(tr, node):
    get = lambda i, n, d=None: tr.value(_arg(node, i, n, d))
    return _layer_norm(tr, node, get(0, "input"), get(1, "normalized_shape"), get(2, "weight"),
                       get(3, "bias"), get(4, "eps", 1e-5))


def _group_norm_module(tr, node):
    m = tr.named_modules[node.target]
    x = tr.value(node.args[0])
    weight = _module_param(tr, node, "weight")
    bias = _module_param(tr, node, "bias")
    if weight is None:
        weight = tr.param("%s.weight" % node.name, torch.ones(m.num_channels))
        bias = tr.param("%s.bias" % node.name, torch.zeros(m.num_channels))
    return tr.emit("nn.group_norm", [x, weight, bias],
                   {"num_groups": i64(m.num_groups), "channel_axis": i64(1),
                    "axes": i64s(range(2, x.info.rank)), "epsilon": f64(m.eps)})


def _pool(op):
    def convert(tr, node, x, kernel, stride, padding, dilation, ceil_mode, count_include_pad=True):
        if x.info.rank != 4:
            raise UnsupportedError("only 2-D pooling of NCHW tensors is supported")
        kernel = _pair(kernel)
        stride = _pair(stride) if stride not in (None, []) else kernel
        pad = _pair(padding)
        attrs = {"pool_size": i64s(kernel), "strides": i64s(stride),
                 "dilation": i64s(_pair(dilation)), "padding": i64s(pad + pad),
                 "ceil_mode": boolean(ceil_mode)}
        if op == "nn.avg_pool2d":
            attrs["count_include_pad"] = boolean(count_include_pad)
        return tr.emit(op, [x], attrs)
    return convert


def _max_pool_module(tr, node):
    m = tr.named_modules[node.target]
    if m.return_indices:
        raise UnsupportedError("return_indices=True")
    return _pool("nn.max_pool2d")(tr, node, tr.value(node.args[0]), m.kernel_size, m.stride,
                                  m.padding, m.dilation, m.ceil_mode)


def _max_pool_function(tr, node):
    get = lambda i, n, d=None: tr.value(_arg(node, i, n, d))
    if get(6, "return_indices", False):
        raise UnsupportedError("return_indices=True")
    return _pool("nn.max_pool2d")(tr, node, get(0, "input"), get(1, "kernel_size"),
                                  get(2, "stride"), get(3, "padding", 0), get(4, "dilation", 1),
                                  get(5, "ceil_mode", False))


def _avg_pool_module(tr, node):
    m = tr.named_modules[node.target]
    if m.divisor_override:
        raise UnsupportedError("divisor_override")
    return _pool("nn.avg_pool2d")(tr, node, tr.value(node.args[0]), m.kernel_size, m.stride,
                                  m.padding, 1, m.ceil_mode, m.count_include_pad)


def _avg_pool_function(tr, node):
    get = lambda i, n, d=None: tr.value(_arg(node, i, n, d))
    return _pool("nn.avg_pool2d")(tr, node, get(0, "input"), get(1, "kernel_size"),
                                  get(2, "stride"), get(3, "padding", 0), 1,
                                  get(4, "ceil_mode", False), get(5, "count_include_pad", True))


def _adaptive_avg_pool(tr, node, x, output_size):
    size = _pair(output_size) if not isinstance(output_size, (list, tuple)) else list(output_size)
    size = [x.info.shape[2 + i] if s is None else int(s) for i, s in enumerate(size)]
    if size == [1, 1]:
        return tr.emit("mean", [x], {"axis": i64s([2, 3]), "keepdims": "true"})
    return tr.emit("nn.adaptive_avg_pool2d", [x], {"output_size": i64s(size)})


def _adaptive_avg_pool_module(tr, node):
    m = tr.named_modules[node.target]
    return _adaptive_avg_pool(tr, node, tr.value(node.args[0]), m.output_size)


def _adaptive_avg_pool_function(tr, node):
    return _adaptive_avg_pool(tr, node, tr.value(node.args[0]),
                              tr.value(_arg(node, 1, "output_size")))


def _softmax(op):
    def convert(tr, node):
        x = tr.value(node.args[0])
        dim = tr.value(_arg(node, 1, "dim"))
        if dim is None:
            raise UnsupportedError("softmax without dim")
        return tr.emit(op, [x], {"axis": i64(dim)})
    return convert


def _softmax_module(op):
    def convert(tr, node):
        m = tr.named_modules[node.target]
        return tr.emit(op, [tr.value(node.args[0])], {"axis": i64(m.dim)})
    return convert


def _embedding(tr, node, indices, weight):
    if not str(indices.info.dtype).startswith("torch.int"):
        raise UnsupportedError("embedding indices of type %s" % indices.info.dtype)
    return tr.emit("take", [weight, indices], {"axis": i64(0)})


def _embedding_module(tr, node):
    return _embedding(tr, node, tr.value(node.args[0]), _module_param(tr, node, "weight"))


def _embedding_function(tr, node):
    return _embedding(tr, node, tr.value(node.args[0]), tr.value(node.args[1]))


def _dims_of(tr, node, start):
    """The dims argument of view/reshape/permute: varargs or one sequence."""
    dims = [tr.value(a) for a in node.args[start:]]
    if len(dims) == 1 and isinstance(dims[0], (list, tuple)):
        dims = list(dims[0])
    if not dims and "shape" in node.kwargs:
        dims = list(tr.value(node.kwargs["shape"]))
    if not dims and "dims" in node.kwargs:
        dims = list(tr.value(node.kwargs["dims"]))
    return dims


def _reshape_to(tr, x, target, info):
    """relax.reshape to `target` (ints, SymExprs): a symbolic size that is the
    input's size at the same position becomes 0 (copy), one other symbolic
    size -1 (inferred)."""
    shape = []
    unknown = 0
    for i, d in enumerate(target):
        if isinstance(d, int):
            shape.append(int(d))
        elif i < x.info.rank and x.info.shape[i] == d:
            shape.append(0)
        else:
            shape.append(-1)
            unknown += 1
    if unknown > 1 or (unknown == 1 and -1 in [d for d in target if isinstance(d, int)]):
        raise UnsupportedError("reshape to %s: only one size may be computed from symbolic "
                               "dimensions" % (list(target),))
    # Sizes the sample runs found static are written out (clearer IR).
    shape = [int(info.shape[i]) if s in (0, -1) and isinstance(info.shape[i], int) else s
             for i, s in enumerate(shape)]
    return tr.emit("reshape", [x], {"shape": i64s(shape)}, info=info)


def _reshape(start):
    def convert(tr, node):
        x = tr.value(node.args[0])
        return _reshape_to(tr, x, _dims_of(tr, node, start), tr.info[node])
    return convert


def _flatten_tensor(tr, node):
    x = tr.value(node.args[0])
    rank = x.info.rank
    start = _axis(tr.value(_arg(node, 1, "start_dim", 0)), rank) if rank else 0
    end = _axis(tr.value(_arg(node, 2, "end_dim", -1)), rank) if rank else 0
    info = tr.info[node]
    target = list(x.info.shape[:start]) + [-1] + list(x.info.shape[end + 1:])
    return _reshape_to(tr, x, target, info)


def _flatten_module(tr, node):
    m = tr.named_modules[node.target]
    x = tr.value(node.args[0])
    rank = x.info.rank
    start, end = _axis(m.start_dim, rank), _axis(m.end_dim, rank)
    target = list(x.info.shape[:start]) + [-1] + list(x.info.shape[end + 1:])
    return _reshape_to(tr, x, target, tr.info[node])


def _permute(tr, node):
    x = tr.value(node.args[0])
    axes = [_axis(a, x.info.rank) for a in _dims_of(tr, node, 1)]
    return tr.emit("permute_dims", [x], {"axes": i64s(axes)})


def _transpose(tr, node):
    x = tr.value(node.args[0])
    rank = x.info.rank
    a = _axis(tr.value(_arg(node, 1, "dim0")), rank)
    b = _axis(tr.value(_arg(node, 2, "dim1")), rank)
    axes = list(range(rank))
    axes[a], axes[b] = axes[b], axes[a]
    return tr.emit("permute_dims", [x], {"axes": i64s(axes)})


def _t(tr, node):
    x = tr.value(node.args[0])
    if x.info.rank < 2:
        return x
    return tr.emit("permute_dims", [x], {"axes": i64s([1, 0])})


def _unsqueeze(tr, node):
    x = tr.value(node.args[0])
    dim = _axis(tr.value(_arg(node, 1, "dim")), x.info.rank + 1)
    return tr.emit("expand_dims", [x], {"axis": i64s([dim])})


def _squeeze(tr, node):
    x = tr.value(node.args[0])
    dim = _arg(node, 1, "dim")
    if dim is None:
        axes = [i for i, d in enumerate(x.info.shape) if d == 1]
    else:
        axes = [_axis(d, x.info.rank) for d in _list(tr.value(dim))]
        axes = [a for a in axes if x.info.shape[a] == 1]  # torch ignores others
    if not axes:
        return x
    return tr.emit("squeeze", [x], {"axis": i64s(axes)})


def _reduce(op):
    def convert(tr, node):
        x = tr.value(node.args[0])
        dim = tr.value(_arg(node, 1, "dim"))
        keepdim = tr.value(_arg(node, 2, "keepdim", False))
        attrs = {"keepdims": boolean(keepdim)}
        if dim is not None:
            attrs["axis"] = i64s([_axis(d, x.info.rank) for d in _list(dim)])
        if "dtype" in node.kwargs and node.kwargs["dtype"] is not None:
            x = tr.emit("astype", [x], {"dtype": mlir_dtype(node.kwargs["dtype"])},
                        info=TensorInfo(x.info.shape, node.kwargs["dtype"]))
        return tr.emit(op, [x], attrs)
    return convert


def _cat(tr, node):
    tensors = [t for t in tr.value(_arg(node, 0, "tensors"))]
    dim = tr.value(_arg(node, 1, "dim", 0))
    rank = tensors[0].info.rank
    tensors = _promote(tr, node, tensors)
    return tr.emit("concat", tensors, {"axis": i64(_axis(dim, rank))})


def _split(tr, node):
    x = tr.value(node.args[0])
    size = tr.value(_arg(node, 1, "split_size_or_sections"))
    if size is None:
        size = tr.value(node.kwargs.get("split_size"))
    dim = _axis(tr.value(_arg(node, 2, "dim", 0)), x.info.rank)
    infos = tr.info[node]
    length = x.info.shape[dim]
    if isinstance(size, (list, tuple)):
        sizes = [int(s) for s in size]
    else:
        if not isinstance(length, int):
            raise UnsupportedError("split along a symbolic dimension")
        sizes = [min(int(size), length - i) for i in range(0, length, int(size))]
    indices = list(np.cumsum(sizes)[:-1])
    return tr.emit("split", [x], {"indices_or_sections": i64s(indices), "axis": i64(dim)},
                   results=len(sizes), info=infos)


def _chunk(tr, node):
    x = tr.value(node.args[0])
    chunks = int(tr.value(_arg(node, 1, "chunks")))
    dim = _axis(tr.value(_arg(node, 2, "dim", 0)), x.info.rank)
    length = x.info.shape[dim]
    if not isinstance(length, int):
        raise UnsupportedError("chunk along a symbolic dimension")
    step = -(-length // chunks)
    sizes = [min(step, length - i) for i in range(0, length, step)]
    indices = list(np.cumsum(sizes)[:-1])
    return tr.emit("split", [x], {"indices_or_sections": i64s(indices), "axis": i64(dim)},
                   results=len(sizes), info=tr.info[node])


def _getitem(tr, node):
    base, index = tr.value(node.args[0]), tr.value(node.args[1])
    if not isinstance(base, _Value):
        return base[index]
    return _index_tensor(tr, node, base, index)


def _index_tensor(tr, node, x, index):
    index = index if isinstance(index, tuple) else (index,)
    if any(isinstance(i, _Value) for i in index):
        tensors = [i for i in index if isinstance(i, _Value)]
        if len(index) == 1 and len(tensors) == 1 and tensors[0].info.dtype != torch.bool:
            return tr.emit("take", [x, tensors[0]], {"axis": i64(0)})
        raise UnsupportedError("advanced indexing with tensors other than x[idx]")
    rank = x.info.rank
    if Ellipsis in index:
        at = index.index(Ellipsis)
        fill = rank - (len(index) - 1 - sum(i is None for i in index))
        index = index[:at] + (slice(None),) * fill + index[at + 1:]
    axes, begin, end, strides, squeeze, expand = [], [], [], [], [], []
    dim = 0
    out_dim = 0
    for item in index:
        if item is None:
            expand.append(out_dim)
            out_dim += 1
            continue
        size = x.info.shape[dim]
        if isinstance(item, slice):
            if item != slice(None):
                start, stop, step = item.start, item.stop, item.step or 1
                if step < 0:
                    raise UnsupportedError("negative slice steps")
                for v in (start, stop):
                    if isinstance(v, (SymExpr, Unknown)):
                        raise UnsupportedError("slice bounds that are symbolic")
                start = 0 if start is None else int(start)
                if stop is None:
                    if not isinstance(size, int):
                        stop = 2 ** 62
                    else:
                        stop = size
                axes.append(dim)
                begin.append(start)
                end.append(int(stop))
                strides.append(step)
            out_dim += 1
        elif isinstance(item, int):
            axes.append(dim)
            begin.append(item)
            end.append(item + 1 if item != -1 else 2 ** 62)
            strides.append(1)
            squeeze.append(dim)
        else:
            raise UnsupportedError("index %r" % (item,))
        dim += 1
    y = x
    if axes:
        y = tr.emit("strided_slice", [y], {"axes": i64s(axes), "begin": i64s(begin),
                                           "end": i64s(end), "strides": i64s(strides)},
                    info=TensorInfo([None] * rank, x.info.dtype))
    if squeeze:
        y = tr.emit("squeeze", [y], {"axis": i64s(squeeze)},
                    info=TensorInfo([None] * (rank - len(squeeze)), x.info.dtype))
    if expand:
        y = tr.emit("expand_dims", [y], {"axis": i64s(expand)})
    y.info = tr.info[node]
    return y


def _size(tr, node):
    info = tr.info[node]
    return tuple(info) if isinstance(info, list) else info


def _getattr(tr, node):
    base, name = tr.value(node.args[0]), node.args[1]
    if isinstance(base, _Value):
        if name == "shape":
            return tuple(tr.info[node])
        if name == "dtype":
            return base.info.dtype
        if name == "device":
            return torch.device("cpu")
    return getattr(base, name)


def _to(tr, node):
    x = tr.value(node.args[0])
    info = tr.info[node]
    if info.dtype == x.info.dtype:
        return x
    return tr.emit("astype", [x], {"dtype": mlir_dtype(info.dtype)})


def _contiguous(tr, node):
    return tr.value(node.args[0])


def _expand(tr, node):
    x = tr.value(node.args[0])
    info = tr.info[node]
    if not all(isinstance(d, int) for d in info.shape):
        raise UnsupportedError("expand to a symbolic shape")
    if list(info.shape) == list(x.info.shape):
        return x
    return tr.emit("broadcast_to", [x], {"shape": i64s(info.shape)})


def _where(tr, node):
    cond, a, b = (tr.value(x) for x in node.args[:3])
    a, b = _promote(tr, node, [a, b])
    return tr.emit("where", [cond, a, b])


def _masked_fill(tr, node):
    x, mask, value = (tr.value(a) for a in node.args[:3])
    return tr.emit("where", [mask, tr.scalar(value, x.dtype), x])


def _clamp(tr, node):
    x = tr.value(node.args[0])
    lo = tr.value(_arg(node, 1, "min"))
    hi = tr.value(_arg(node, 2, "max"))
    if isinstance(lo, _Value) or isinstance(hi, _Value):
        raise UnsupportedError("clamp with tensor bounds")
    return tr.emit("clip", [x], {"min": f64(-math.inf if lo is None else lo),
                                  "max": f64(math.inf if hi is None else hi)})


def _hardtanh_module(tr, node):
    m = tr.named_modules[node.target]
    return tr.emit("clip", [tr.value(node.args[0])], {"min": f64(m.min_val), "max": f64(m.max_val)})


def _leaky_relu_module(tr, node):
    m = tr.named_modules[node.target]
    return tr.emit("nn.leaky_relu", [tr.value(node.args[0])], {"alpha": f64(m.negative_slope)})


def _leaky_relu_function(tr, node):
    slope = tr.value(_arg(node, 1, "negative_slope", 0.01))
    return tr.emit("nn.leaky_relu", [tr.value(node.args[0])], {"alpha": f64(slope)})


def _gelu_module(tr, node):
    return _gelu(tr, tr.value(node.args[0]), tr.named_modules[node.target].approximate)


def _gelu_function(tr, node):
    return _gelu(tr, tr.value(node.args[0]), node.kwargs.get("approximate", "none"))


def _constant_like(tr, node):
    """A tensor factory (arange, ones, zeros, full, tensor, ...) whose values
    do not depend on the inputs: run it and emit a constant."""
    info = tr.info[node]
    if not all(isinstance(d, int) for d in info.shape):
        raise UnsupportedError("a tensor factory with a symbolic size")
    args = [tr.value(a) for a in node.args]
    kwargs = {k: tr.value(v) for k, v in node.kwargs.items()}
    if any(isinstance(a, (SymExpr, Unknown, _Value)) for a in _flatten(args) + _flatten(kwargs)):
        raise UnsupportedError("a tensor factory with symbolic or tensor arguments")
    with torch.no_grad():
        result = node.target(*args, **kwargs)
    return _tensor_constant(tr, result)


def _tensor_constant(tr, tensor):
    # Small constants are written inline, larger ones become parameters.
    array = tensor.detach().cpu().numpy()
    if array.size <= 64 or array.dtype == np.bool_:
        return _Value({"constant": dense(array)}, TensorInfo(list(array.shape), tensor.dtype))
    return tr.param("%s.const" % tr.node.name, tensor)


def _matmul(tr, node):
    a, b = tr.value(node.args[0]), tr.value(node.args[1])
    return _contract(tr, "matmul", [a, b])


def _attention(tr, node, q, k, v, mask, dropout_p, is_causal, scale):
    """torch's scaled_dot_product_attention as relax.nn.attention (TVM's
    conversion): (..., N, L, E) transposed to attention's (B, L, N, E), or
    a unit head dimension for (B, L, E); a boolean mask (True takes part)
    becomes the bias where(mask, 0, -inf); is_causal is "TopLeft", torch's
    alignment."""
    if dropout_p:
        raise UnsupportedError("scaled_dot_product_attention with dropout_p=%s" % dropout_p)
    rank = q.info.rank
    if rank not in (3, 4) or k.info.rank != rank or v.info.rank != rank:
        raise UnsupportedError("scaled_dot_product_attention of rank %d (3 or 4 supported)" % rank)
    if any(list(x.info.shape[:-2]) != list(q.info.shape[:-2]) for x in (k, v)):
        raise UnsupportedError("scaled_dot_product_attention with broadcast batch or head "
                               "dimensions (grouped-query attention)")

    def to_bsnh(x):
        s = list(x.info.shape)
        if rank == 4:
            return tr.emit("permute_dims", [x], {"axes": i64s([0, 2, 1, 3])},
                           info=TensorInfo([s[0], s[2], s[1], s[3]], x.info.dtype))
        return tr.emit("expand_dims", [x], {"axis": i64s([2])},
                       info=TensorInfo([s[0], s[1], 1, s[2]], x.info.dtype))

    args = [to_bsnh(q), to_bsnh(k), to_bsnh(v)]
    if mask is not None:
        if mask.info.dtype == torch.bool:
            mask = tr.emit("where", [mask, tr.scalar(0.0, q.dtype), tr.scalar(-math.inf, q.dtype)],
                           info=TensorInfo(mask.info.shape, q.info.dtype))
        if rank == 3 and mask.info.rank == 3:
            s = list(mask.info.shape)
            mask = tr.emit("expand_dims", [mask], {"axis": i64s([1])},
                           info=TensorInfo([s[0], 1] + s[1:], mask.info.dtype))
        args.append(mask)
    attrs = {}
    if scale is not None:
        attrs["scale"] = f64(scale)
    if is_causal:
        attrs["causal_mask"] = '"TopLeft"'
    qs, vs = list(q.info.shape), list(v.info.shape)
    if rank == 4:
        out = TensorInfo([qs[0], qs[2], qs[1], vs[3]], q.info.dtype)
    else:
        out = TensorInfo([qs[0], qs[1], 1, vs[2]], q.info.dtype)
    y = tr.emit("nn.attention", args, attrs, info=out)
    result = TensorInfo(qs[:-1] + vs[-1:], q.info.dtype)
    if rank == 4:
        return tr.emit("permute_dims", [y], {"axes": i64s([0, 2, 1, 3])}, info=result)
    return tr.emit("squeeze", [y], {"axis": i64s([2])}, info=result)


def _scaled_dot_product_attention(tr, node):
    # torch 2.x: F.scaled_dot_product_attention(query, key, value,
    # attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
    # enable_gqa=False).
    if node.kwargs.get("enable_gqa"):
        raise UnsupportedError("scaled_dot_product_attention with enable_gqa=True")
    q, k, v = (tr.value(_arg(node, i, n)) for i, n in enumerate(("query", "key", "value")))
    return _attention(tr, node, q, k, v, tr.value(_arg(node, 3, "attn_mask")),
                      tr.value(_arg(node, 4, "dropout_p", 0.0)),
                      tr.value(_arg(node, 5, "is_causal", False)),
                      tr.value(node.kwargs.get("scale")))


def _scaled_dot_product_attention_1_13(tr, node):
    # torch 1.13's F._scaled_dot_product_attention(query, key, value,
    # attn_mask, dropout_p, need_attn_weights, is_causal) returns
    # (output, attention weights); only the output converts.
    if tr.value(_arg(node, 5, "need_attn_weights", False)) or any(
            user.target is operator.getitem and user.args[1] != 0 for user in node.users):
        raise UnsupportedError("scaled_dot_product_attention's attention weights")
    q, k, v = (tr.value(_arg(node, i, n)) for i, n in enumerate(("query", "key", "value")))
    out = _attention(tr, node, q, k, v, tr.value(_arg(node, 3, "attn_mask")),
                     tr.value(_arg(node, 4, "dropout_p", 0.0)),
                     tr.value(_arg(node, 6, "is_causal", False)), None)
    return (out, None)


def _baddbmm(tr, node):
    # addmm(input, m1, m2, beta, alpha): beta * input + alpha * m1 @ m2
    bias, a, b = (tr.value(x) for x in node.args[:3])
    beta = node.kwargs.get("beta", 1)
    alpha = node.kwargs.get("alpha", 1)
    y = _contract(tr, "matmul", [a, b])
    if alpha != 1:
        y = tr.emit("multiply", [y, tr.scalar(alpha, y.dtype)])
    if beta != 1:
        bias = tr.emit("multiply", [bias, tr.scalar(beta, bias.dtype)], info=bias.info)
    return tr.emit("add", [y, bias])


def _pad(tr, node):
    x = tr.value(node.args[0])
    pad = list(tr.value(_arg(node, 1, "pad")))
    mode = tr.value(_arg(node, 2, "mode", "constant"))
    value = tr.value(_arg(node, 3, "value", 0.0)) or 0.0
    if mode != "constant":
        raise UnsupportedError("pad mode %r" % mode)
    rank = x.info.rank
    width = [0] * (2 * rank)
    for i in range(len(pad) // 2):
        dim = rank - 1 - i
        width[2 * dim], width[2 * dim + 1] = pad[2 * i], pad[2 * i + 1]
    if any(w < 0 for w in width):
        raise UnsupportedError("negative padding")
    return tr.emit("nn.pad", [x, tr.scalar(value, x.dtype)], {"pad_width": i64s(width)})


def _dropout(tr, node):
    return tr.value(node.args[0])


def _pow(tr, node):
    base, exp = tr.value(node.args[0]), tr.value(node.args[1])
    if not isinstance(base, _Value) and not isinstance(exp, _Value):
        return _python_binary("power", base, exp)
    base, exp = _promote(tr, node, [base, exp])
    return tr.emit("power", [base, exp])


def _rsub(tr, node):
    x, other = tr.value(node.args[0]), tr.value(node.args[1])
    x, other = _promote(tr, node, [x, other])
    return tr.emit("subtract", [other, x])


def _type_as(tr, node):
    return _to(tr, node)


def _tril_triu(upper):
    def convert(tr, node):
        x = tr.value(node.args[0])
        k = int(tr.value(_arg(node, 1, "diagonal", 0)))
        rows, cols = x.info.shape[-2:]
        if not isinstance(rows, int) or not isinstance(cols, int):
            raise UnsupportedError("tril/triu of a symbolic shape")
        r = np.arange(rows)[:, None]
        c = np.arange(cols)[None, :]
        mask = (c - r >= k) if upper else (c - r <= k)
        zero = tr.scalar(0, x.dtype)
        return tr.emit("where", [_Value({"constant": dense(mask)}, None), x, zero])
    return convert


def _max_min(op, reduce_op):
    def convert(tr, node):
        x = tr.value(node.args[0])
        other = tr.value(_arg(node, 1, "dim"))
        if isinstance(other, _Value):
            a, b = _promote(tr, node, [x, other])
            return tr.emit(op, [a, b])
        if other is None:
            return tr.emit(reduce_op, [x], {"keepdims": "false"})
        raise UnsupportedError("max/min along a dim (returns values and indices)")
    return convert


def _stochastic_depth(tr, node):
    # torchvision.ops.stochastic_depth(input, p, mode, training): the identity
    # at inference.
    if tr.value(_arg(node, 3, "training", True)) and tr.value(_arg(node, 1, "p")) > 0:
        raise UnsupportedError("stochastic depth in training mode (call model.eval())")
    return tr.value(node.args[0])


def _neg(tr, node):
    return tr.emit("negative", [tr.value(node.args[0])])


_MODULES = {
    nn.Conv1d: _conv_module, nn.Conv2d: _conv_module,
    nn.ConvTranspose1d: _conv_module, nn.ConvTranspose2d: _conv_module,
    nn.BatchNorm1d: _batch_norm_module, nn.BatchNorm2d: _batch_norm_module,
    nn.LayerNorm: _layer_norm_module, nn.GroupNorm: _group_norm_module,
    nn.Linear: _linear_module, nn.Embedding: _embedding_module,
    nn.ReLU: _unary("nn.relu"), nn.ReLU6: _activation(_relu6),
    nn.Sigmoid: _unary("sigmoid"), nn.Tanh: _unary("tanh"),
    nn.SiLU: _activation(_silu), nn.GELU: _gelu_module,
    nn.Hardswish: _activation(_hardswish), nn.Hardsigmoid: _activation(_hardsigmoid),
    nn.Hardtanh: _hardtanh_module, nn.LeakyReLU: _leaky_relu_module,
    nn.Softmax: _softmax_module("nn.softmax"), nn.LogSoftmax: _softmax_module("nn.log_softmax"),
    nn.MaxPool2d: _max_pool_module, nn.AvgPool2d: _avg_pool_module,
    nn.AdaptiveAvgPool2d: _adaptive_avg_pool_module,
    nn.Dropout: _dropout, nn.Dropout2d: _dropout, nn.Identity: _identity,
    nn.Flatten: _flatten_module,
}

_FUNCTIONS = {
    operator.add: _binary("add"), torch.add: _binary("add"),
    operator.sub: _binary("subtract"), torch.sub: _binary("subtract"),
    operator.mul: _binary("multiply"), torch.mul: _binary("multiply"),
    operator.truediv: _binary("divide"), torch.div: _binary("divide"),
    operator.floordiv: _size_arithmetic("floor_divide"),
    operator.pow: _pow, torch.pow: _pow, torch.rsub: _rsub,
    operator.neg: _neg, torch.neg: _neg,
    operator.matmul: _matmul, torch.matmul: _matmul, torch.bmm: _matmul, torch.mm: _matmul,
    torch.addmm: _baddbmm, torch.baddbmm: _baddbmm,
    operator.getitem: _getitem, getattr: _getattr,
    math.sqrt: _size_math(math.sqrt), math.floor: _size_math(math.floor),
    math.ceil: _size_math(math.ceil),
    operator.lt: _binary("less"), operator.gt: _binary("greater"),
    operator.le: _binary("less_equal"), operator.ge: _binary("greater_equal"),
    operator.eq: _binary("equal"), operator.ne: _binary("not_equal"),
    torch.maximum: _binary("maximum"), torch.minimum: _binary("minimum"),
    torch.max: _max_min("maximum", "max"), torch.min: _max_min("minimum", "min"),
    torch.relu: _unary("nn.relu"), F.relu: _unary("nn.relu"), F.relu6: _activation(_relu6),
    torch.sigmoid: _unary("sigmoid"), F.sigmoid: _unary("sigmoid"),
    torch.tanh: _unary("tanh"), F.tanh: _unary("tanh"),
    torch.exp: _float_unary("exp"), torch.log: _float_unary("log"),
    torch.sqrt: _float_unary("sqrt"), torch.rsqrt: _float_unary("rsqrt"),
    torch.erf: _float_unary("erf"), torch.abs: _unary("abs"),
    torch.floor: _rounding("floor"), torch.ceil: _rounding("ceil"),
    torch.round: _rounding("round"), torch.trunc: _rounding("trunc"),
    torch.sin: _float_unary("sin"), torch.cos: _float_unary("cos"),
    torch.tan: _float_unary("tan"), torch.asin: _float_unary("asin"),
    torch.acos: _float_unary("acos"), torch.atan: _float_unary("atan"),
    torch.sinh: _float_unary("sinh"), torch.cosh: _float_unary("cosh"),
    torch.asinh: _float_unary("asinh"), torch.acosh: _float_unary("acosh"),
    torch.atanh: _float_unary("atanh"), torch.isnan: _unary("isnan"),
    torch.isinf: _unary("isinf"), torch.isfinite: _unary("isfinite"),
    torch.remainder: _binary("floor_mod"), operator.mod: _binary("floor_mod"),
    torch.fmod: _binary("mod"), torch.gather: _gather,
    F.silu: _activation(_silu), F.gelu: _gelu_function,
    F.hardswish: _activation(_hardswish), F.hardsigmoid: _activation(_hardsigmoid),
    F.leaky_relu: _leaky_relu_function,
    F.softmax: _softmax("nn.softmax"), torch.softmax: _softmax("nn.softmax"),
    F.log_softmax: _softmax("nn.log_softmax"),
    F.linear: _linear_function, F.conv1d: _conv_function(False), F.conv2d: _conv_function(False),
    F.conv_transpose2d: _conv_function(True),
    F.batch_norm: _batch_norm_function, F.layer_norm: _layer_norm_function,
    F.max_pool2d: _max_pool_function, F.avg_pool2d: _avg_pool_function,
    F.adaptive_avg_pool2d: _adaptive_avg_pool_function,
    F.dropout: _dropout, F.embedding: _embedding_function, F.pad: _pad,
    torch.flatten: _flatten_tensor, torch.reshape: _reshape(1),
    torch.permute: _permute, torch.transpose: _transpose, torch.t: _t,
    torch.unsqueeze: _unsqueeze, torch.squeeze: _squeeze,
    torch.cat: _cat, torch.concat: _cat, torch.split: _split, torch.chunk: _chunk,
    torch.mean: _reduce("mean"), torch.sum: _reduce("sum"),
    torch.where: _where, torch.clamp: _clamp, torch.clip: _clamp,
    torch.tril: _tril_triu(False), torch.triu: _tril_triu(True),
    torch.arange: _constant_like, torch.ones: _constant_like, torch.zeros: _constant_like,
    torch.full: _constant_like, torch.tensor: _constant_like, torch.eye: _constant_like,
    torch.ones_like: _constant_like, torch.zeros_like: _constant_like,
}

# scaled_dot_product_attention: public from torch 2.0, private in 1.13.
if hasattr(F, "scaled_dot_product_attention"):
    _FUNCTIONS[F.scaled_dot_product_attention] = _scaled_dot_product_attention
elif hasattr(F, "_scaled_dot_product_attention"):
    _FUNCTIONS[F._scaled_dot_product_attention] = _scaled_dot_product_attention_1_13

try:  # torchvision's traced leaf functions, when torchvision is there
    import torchvision.ops
    _FUNCTIONS[torchvision.ops.stochastic_depth] = _stochastic_depth
except ImportError:
    pass

_METHODS = {
    "add": _binary("add"), "sub": _binary("subtract"), "mul": _binary("multiply"),
    "div": _binary("divide"), "pow": _pow, "neg": _neg, "matmul": _matmul,
    "view": _reshape(1), "reshape": _reshape(1), "flatten": _flatten_tensor,
    "permute": _permute, "transpose": _transpose, "t": _t,
    "contiguous": _contiguous, "unsqueeze": _unsqueeze, "squeeze": _squeeze,
    "size": _size, "dim": lambda tr, node: tr.value(node.args[0]).info.rank,
    "to": _to, "float": _to, "half": _to, "type_as": _type_as, "long": _to, "int": _to,
    "bool": _to, "expand": _expand, "expand_as": _expand,
    "mean": _reduce("mean"), "sum": _reduce("sum"),
    "softmax": _softmax("nn.softmax"), "split": _split, "chunk": _chunk,
    "masked_fill": _masked_fill, "clamp": _clamp,
    "relu": _unary("nn.relu"), "sigmoid": _unary("sigmoid"), "tanh": _unary("tanh"),
    "exp": _float_unary("exp"), "sqrt": _float_unary("sqrt"), "rsqrt": _float_unary("rsqrt"),
    "tril": _tril_triu(False), "triu": _tril_triu(True),
    "floor": _rounding("floor"), "ceil": _rounding("ceil"), "round": _rounding("round"),
    "sin": _float_unary("sin"), "cos": _float_unary("cos"), "remainder": _binary("floor_mod"),
    "fmod": _binary("mod"), "gather": _gather,
}
