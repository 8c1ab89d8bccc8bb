"""TorchScript to relay (tvm.relay.frontend.from_pytorch).

The converter walks the inlined graph of a `torch.jit.trace`d module and
writes TVM Relay text (`mod.astext()`'s format), which mlc's Relay importer
turns into the relay dialect and type-checks op by op: one importer for
Relay text written by TVM and by this front end.

Shapes of intermediate values come from the trace (its graph records the
size of every tensor it saw), so `x.view(x.size(0), -1)` is a reshape to
constant sizes. Integer arithmetic on sizes (`aten::size`, `aten::mul` on
ints, `prim::ListConstruct`) is evaluated here. Parameters and buffers are
the module's `state_dict` entries the graph reads (`prim::GetAttr` chains),
named by module path (`layer1.0.conv1.weight`) and returned in `params`;
tensor constants of the graph become `meta[relay.Constant][N]`.
"""

import numpy as np

__all__ = ["from_pytorch"]

_DTYPES = {"Float": "float32", "Double": "float64", "Half": "float16",
           "BFloat16": "bfloat16", "Long": "int64", "Int": "int32", "Short": "int16",
           "Char": "int8", "Byte": "uint8", "Bool": "bool"}
_IDENTITY = {"aten::contiguous", "aten::dropout", "aten::dropout_", "aten::detach",
             "aten::clone", "aten::feature_dropout", "aten::alpha_dropout",
             "aten::alias", "aten::lift_fresh_copy", "aten::lift_fresh"}
_UNARY = {"aten::relu": "nn.relu", "aten::relu_": "nn.relu",
          "aten::sigmoid": "sigmoid", "aten::sigmoid_": "sigmoid",
          "aten::tanh": "tanh", "aten::tanh_": "tanh", "aten::exp": "exp",
          "aten::log": "log", "aten::sqrt": "sqrt", "aten::rsqrt": "rsqrt",
          "aten::abs": "abs", "aten::neg": "negative", "aten::erf": "erf"}
_BINARY = {"aten::add": "add", "aten::add_": "add", "aten::sub": "subtract",
           "aten::sub_": "subtract", "aten::mul": "multiply", "aten::mul_": "multiply",
           "aten::div": "divide", "aten::div_": "divide", "aten::pow": "power",
           "aten::maximum": "maximum", "aten::minimum": "minimum",
           "aten::eq": "equal", "aten::ne": "not_equal", "aten::lt": "less",
           "aten::gt": "greater", "aten::le": "less_equal", "aten::ge": "greater_equal"}
_INT_ARITH = {"aten::add": lambda a, b: a + b, "aten::sub": lambda a, b: a - b,
              "aten::mul": lambda a, b: a * b, "aten::floordiv": lambda a, b: a // b,
              "aten::floor_divide": lambda a, b: a // b,
              "aten::div": lambda a, b: a / b, "aten::neg": lambda a: -a,
              "aten::remainder": lambda a, b: a % b, "aten::pow": lambda a, b: a ** b,
              "aten::eq": lambda a, b: a == b, "aten::ne": lambda a, b: a != b,
              "aten::lt": lambda a, b: a < b, "aten::gt": lambda a, b: a > b,
              "aten::le": lambda a, b: a <= b, "aten::ge": lambda a, b: a >= b,
              "aten::__and__": lambda a, b: a and b, "aten::__or__": lambda a, b: a or b,
              "aten::__not__": lambda a: not a, "aten::rsub": lambda a, b, alpha=1: b - alpha * a}
_PASS_SCALAR = {"prim::NumToTensor", "aten::Int", "aten::Float", "aten::ScalarImplicit",
                "aten::IntImplicit", "aten::FloatImplicit"}


class Tensor:
    """A relay value: its name in the text, shape (ints) and dtype."""

    def __init__(self, ref, shape, dtype):
        self.ref, self.shape, self.dtype = ref, tuple(shape), dtype

    @property
    def rank(self):
        return len(self.shape)


class ConversionError(ValueError):
    """The module has operations this front end does not convert."""


def _literal(value, dtype):
    """A Relay scalar literal of `dtype`."""
    if dtype == "bool":
        return "True" if value else "False"
    if dtype.startswith("float") or dtype == "bfloat16":
        text = repr(float(value))
        if text in ("inf", "-inf", "nan"):
            raise ConversionError("the scalar %s has no Relay literal" % text)
        return text + {"float32": "f", "float64": "f64", "float16": "f16"}.get(dtype, "f")
    suffix = {"int64": "i64", "int32": "", "int8": "i8", "int16": "i16",
              "uint8": "u8"}.get(dtype, "i64")
    return "%d%s" % (int(value), suffix)


def _ints(values):
    return "[%s]" % ", ".join(str(int(v)) for v in values)


def _axis(axis, rank):
    return axis + rank if axis < 0 else axis


class _Ref:
    """A graph value used as an operand."""

    def __init__(self, key):
        self.key = key


class _Node:
    """One operation as the converter sees it. TorchScript graphs
    (`_torchscript_nodes`) and torch.fx graphs of aten ops (`_fx_nodes`)
    both become these: `kind` is the operator's qualified name
    (`aten::convolution`, `prim::GetAttr`), `inputs` every argument of its
    schema in order (`_Ref`s, Python values, lists of them), `outputs` the
    keys of its results, `out_meta` (shape, dtype) of each tensor result
    (None where unknown), `schema` the torch FunctionSchema if any,
    `source` where the graph says it came from, `attrs` prim attributes."""

    def __init__(self, kind, inputs, outputs, out_meta, schema=None, source="",
                 attrs=None):
        self.kind, self.inputs, self.outputs = kind, inputs, outputs
        self.out_meta, self.schema, self.source = out_meta, schema, source
        self.attrs = attrs or {}


class _Converter:
    def __init__(self, state, custom_convert_map, default_dtype):
        self.custom = dict(custom_convert_map or {})
        self.default_dtype = default_dtype
        self.values = {}      # value key -> Tensor | Python value | _Attribute
        self.lines = []
        self.counter = 0
        self.params = {}      # name -> numpy array
        self.names = {}       # module path -> its Relay name
        self.param_types = {}  # name -> (shape, dtype)
        self.meta = []        # numpy arrays of meta[relay.Constant][N]
        self.missing = {}     # operator kind -> where (unsupported)
        self.const_cache = {}  # id(torch tensor) -> (tensor, its meta constant)
        self.state = state    # module path -> parameter or buffer tensor

    # --- emitting -----------------------------------------------------------

    def emit(self, expr, shape, dtype):
        ref = "%%%d" % self.counter
        self.counter += 1
        self.lines.append("  %s = %s;" % (ref, expr))
        return Tensor(ref, shape, dtype)

    def tensor(self, value, dtype=None, like=None):
        """`value` as a Tensor: a Tensor, or a Python scalar as a literal of
        `dtype` (else `like`'s dtype, else the default)."""
        if isinstance(value, Tensor):
            return value
        if isinstance(value, bool):
            dtype = dtype or "bool"
        dtype = dtype or (like.dtype if like is not None else None) or \
            (self.default_dtype if isinstance(value, float) else "int64")
        if isinstance(value, float) and not np.isfinite(value):
            # Relay text has no literal for inf or nan: a 0-d constant.
            return self.constant(np.array(value, dtype=_NUMPY_DTYPES.get(dtype, dtype)))
        return Tensor(_literal(value, dtype), (), dtype)

    def constant(self, array):
        array = np.ascontiguousarray(array)
        dtype = "bool" if array.dtype == np.bool_ else array.dtype.name
        self.meta.append(array)
        return Tensor("meta[relay.Constant][%d]" % (len(self.meta) - 1), array.shape, dtype)

    # --- graph --------------------------------------------------------------

    def get(self, operand):
        """The value of an operand: a graph value (parameters as relay
        inputs), or a Python value; lists element by element."""
        if isinstance(operand, list):
            return [self.get(o) for o in operand]
        if not isinstance(operand, _Ref):
            return operand
        if operand.key not in self.values:
            raise ConversionError("no value for %%%s" % operand.key)
        result = self.values[operand.key]
        if isinstance(result, _Attribute):
            return self.param(result)
        return result

    def param(self, attribute):
        if attribute.path not in self.state:
            raise ConversionError("%s is no parameter or buffer of the module"
                                  % attribute.path)
        tensor = self.state[attribute.path].detach()
        # numpy has no bfloat16: its bit patterns as uint16, as mlc-run takes them.
        array = tensor.numpy() if tensor.dtype != _torch().bfloat16 else \
            tensor.view(_torch().int16).numpy().view(np.uint16)
        dtype = _torch_dtype_name(tensor.dtype)
        name = self.param_name(attribute.path)
        if name not in self.params:
            self.params[name] = array
            self.param_types[name] = (tuple(tensor.shape), dtype)
        return Tensor("%" + name, tensor.shape, dtype)

    def param_name(self, path):
        """`path` as a Relay name: characters other than letters, digits, '_'
        and '.' become '_' (regnet's `block1-0`). A path of digits alone
        (a bare nn.Sequential's parameter `0`) would be a binding: it gets
        a leading '_'."""
        if path in self.names:
            return self.names[path]
        name = "".join(c if c.isalnum() or c in "_." else "_" for c in path)
        if name.replace(".", "").isdigit() or not name[:1].isalnum() and name[:1] != "_":
            name = "_" + name
        while name in self.names.values():
            name += "_"
        self.names[path] = name
        return name

    def shape_out(self, node, index=0):
        meta = node.out_meta[index] if index < len(node.out_meta) else None
        if meta is None or meta[0] is None:
            raise ConversionError("%s: the graph recorded no shape for its result; "
                                  "only torch.jit.trace'd modules are supported"
                                  % node.kind)
        return meta[0]

    def dtype_out(self, node, fallback):
        meta = node.out_meta[0] if node.out_meta else None
        return meta[1] if meta is not None and meta[1] else fallback

    def run(self, nodes, inputs, outputs):
        """Converts `nodes`; `inputs` are (key, name, shape, dtype) of the
        graph's inputs, `outputs` the keys (or lists of keys) it returns.
        Returns the Relay text of @main."""
        signature = []
        for key, name, shape, dtype in inputs:
            if not name or name[0].isdigit() or \
                    not all(c.isalnum() or c in "_." for c in name):
                raise ValueError("input name %r is no Relay name (letters, digits, "
                                 "'_' and '.', not starting with a digit)" % name)
            self.values[key] = Tensor("%" + name, shape, dtype)
            signature.append(_relay_param(name, shape, dtype))
        for node in nodes:
            self.convert(node)
        self.report_missing()
        flat = []
        for out in self.get(outputs):
            flat.extend(out if isinstance(out, (list, tuple)) else [out])
        flat = [self.as_relay(o) for o in flat]
        if not flat or not all(isinstance(o, Tensor) for o in flat):
            raise ConversionError("the module returns a value that is no tensor")
        result = flat[0].ref if len(flat) == 1 else \
            "(%s)" % ", ".join(o.ref for o in flat)
        for name, (shape, dtype) in self.param_types.items():
            signature.append(_relay_param(name, shape, dtype))
        return "#[version = \"0.0.5\"]\ndef @main(%s) {\n%s\n  %s\n}\n" % (
            ", ".join(signature), "\n".join(self.lines), result)

    def report_missing(self):
        if self.missing:
            detail = "; ".join("%s (%d node%s%s)" % (
                k, len(v), "s" if len(v) > 1 else "", ", first at " + v[0] if v[0] else "")
                for k, v in sorted(self.missing.items()))
            raise ConversionError("The following operators are not implemented: %s"
                                  % detail)

    # --- nodes --------------------------------------------------------------

    def convert(self, node):
        kind = node.kind
        after_missing = any(isinstance(o, _Ref) and self.values.get(o.key) is _MISSING
                            for o in _flatten(node.inputs))
        if kind in self.custom:
            result = _MISSING if after_missing else \
                self.custom[kind](self, node, self.args(node))
        else:
            result = _NOT_FOLDED if after_missing else self.fold(node, kind)
            if result is _NOT_FOLDED and not _is_supported(kind):
                # Recorded, and the conversion goes on so that every missing
                # operator is named in one error.
                self.missing.setdefault(kind, []).append(node.source)
                result = _MISSING
            elif after_missing:
                result = _MISSING  # after an operator without a converter
            elif result is _NOT_FOLDED:
                result = self.convert_builtin(node, kind)
        if result is _MISSING or len(node.outputs) == 1:
            for key in node.outputs:
                self.values[key] = result
        else:
            for key, item in zip(node.outputs, result):
                self.values[key] = item

    def raw_args(self, node):
        return [self.get(o) for o in node.inputs]

    def args(self, node):
        """The node's inputs, constant torch tensors as relay constants."""
        return [self.as_relay(a) for a in self.raw_args(node)]

    def as_relay(self, value):
        torch = _torch()
        if isinstance(value, torch.Tensor):
            key = id(value)
            if key not in self.const_cache:
                array = value.numpy() if value.dtype != torch.bfloat16 else \
                    value.view(torch.int16).numpy().view(np.uint16)
                # Keeps the tensor alive, so that its id stays unique.
                self.const_cache[key] = (value, self.constant(array))
            return self.const_cache[key][1]
        if isinstance(value, list):
            return [self.as_relay(v) for v in value]
        return value

    def fold(self, node, kind):
        """Evaluates an aten op whose inputs are all known here (Python
        values, constant tensors) with torch: shape arithmetic, masks and
        position tables built from constants (`zeros`, `arange`, `fill_` on
        a slice of one). Ops that only read a graph tensor's dtype
        (`new_zeros`, `zeros_like`, ...) become constants of its shape."""
        torch = _torch()
        if not kind.startswith("aten::") or kind in _PASS_SCALAR:
            return _NOT_FOLDED
        name = kind.split("::")[1]
        args = self.raw_args(node)
        if name in _LIKE_FACTORIES and args and isinstance(args[0], Tensor):
            like = args[0]
            args = [torch.empty(like.shape, dtype=_TORCH_DTYPES[like.dtype])] + args[1:]
        if any(isinstance(a, (Tensor, _Attribute)) for a in _flatten(args)):
            return _NOT_FOLDED
        if not any(isinstance(a, torch.Tensor) for a in _flatten(args)) and \
                name not in _FACTORIES:
            return _NOT_FOLDED  # integer arithmetic on sizes: convert_builtin
        op = getattr(torch.ops.aten, name, None)
        if op is None:
            return _NOT_FOLDED
        # The graph passes every argument of the schema in order; keyword-only
        # ones (dtype, layout, device of factories) go by name.
        positional, keywords = list(args), {}
        if node.schema is not None:
            arguments = node.schema.arguments
            positional = [a for a, spec in zip(args, arguments) if not spec.kwarg_only]
            keywords = {spec.name: a for a, spec in zip(args, arguments)
                        if spec.kwarg_only and a is not None}
        try:
            result = op(*positional, **keywords)
        except Exception as e:  # noqa: BLE001 (torch raises many kinds)
            raise ConversionError("%s on constants: %s" % (kind, e)) from None
        if isinstance(result, (list, tuple)):
            return list(result)
        return result

    def convert_builtin(self, node, kind):
        if kind == "prim::Constant":
            return node.attrs["value"]
        if kind == "prim::GetAttr":
            parent = self.values[node.inputs[0].key]
            name = node.attrs["name"]
            return _Attribute(name if not parent.path else parent.path + "." + name)
        if kind in ("prim::ListConstruct", "prim::TupleConstruct"):
            return self.raw_args(node)
        if kind in ("prim::ListUnpack", "prim::TupleUnpack"):
            return list(self.raw_args(node)[0])
        if kind == "prim::TupleIndex" or kind == "aten::__getitem__":
            items, index = self.raw_args(node)
            return items[index]
        if kind in _PASS_SCALAR:
            value = self.raw_args(node)[0]
            if isinstance(value, Tensor):
                raise ConversionError("%s of a computed tensor is not supported" % kind)
            return value
        if kind in _IDENTITY:
            return self.args(node)[0]
        args = self.args(node)
        # Integer arithmetic on sizes.
        if kind in _INT_ARITH and not any(isinstance(a, Tensor) for a in args):
            arity = {"aten::neg": 1, "aten::__not__": 1, "aten::rsub": 3}.get(kind, 2)
            return _INT_ARITH[kind](*[a for a in args if a is not None][:arity])
        if kind == "aten::size":
            x = args[0]
            return x.shape[args[1]] if len(args) > 1 and args[1] is not None else list(x.shape)
        if kind == "aten::dim":
            return args[0].rank
        if kind in _UNARY:
            x = args[0]
            return self.emit("%s(%s)" % (_UNARY[kind], x.ref), x.shape, x.dtype)
        if kind in _BINARY or kind == "aten::rsub":
            return self.binary(node, kind, args)
        method = getattr(self, "op_" + kind.split("::")[1].rstrip("_"), None)
        if method is None:
            raise ConversionError("no converter for %s" % kind)
        return method(node, args)

    def binary(self, node, kind, args):
        a, b = args[0], args[1]
        if kind in ("aten::add", "aten::add_", "aten::sub", "aten::sub_", "aten::rsub") \
                and len(args) > 2 and args[2] not in (None, 1):
            b = self.emit("multiply(%s, %s)" % (self.tensor(b, like=a).ref,
                                                _literal(args[2], a.dtype if isinstance(a, Tensor) else self.default_dtype)),
                          getattr(b, "shape", ()), getattr(a, "dtype", None))
        if kind == "aten::rsub":
            a, b = b, a
            kind = "aten::sub"
        like = a if isinstance(a, Tensor) else b
        if kind in ("aten::div", "aten::div_") and like.dtype.startswith(("int", "uint")):
            like = self.emit("cast(%s, dtype=\"%s\")" % (like.ref, self.default_dtype),
                             like.shape, self.default_dtype)
            a, b = (like, b) if isinstance(a, Tensor) else (a, like)
        a, b = self.tensor(a, like=like), self.tensor(b, like=like)
        shape = tuple(np.broadcast_shapes(a.shape, b.shape))
        dtype = "bool" if _BINARY[kind] in ("equal", "not_equal", "less", "greater",
                                             "less_equal", "greater_equal") else like.dtype
        return self.emit("%s(%s, %s)" % (_BINARY[kind], a.ref, b.ref), shape, dtype)

    # --- neural network ops -----------------------------------------------

    def op__convolution(self, node, args):
        x, w, b, stride, padding, dilation, transposed, output_padding, groups = args[:9]
        if x.rank != 4:
            raise ConversionError("aten::_convolution: only 2-d convolutions (rank-4 "
                                  "inputs) are supported, got rank %d" % x.rank)
        attrs = "strides=%s, padding=%s, dilation=%s, groups=%d, kernel_size=%s" % (
            _ints(stride), _ints(list(padding) * 2), _ints(dilation), groups,
            _ints(w.shape[2:]))
        shape = self.shape_out(node)
        if transposed:
            y = self.emit("nn.conv2d_transpose(%s, %s, channels=%d, %s, output_padding=%s)"
                          % (x.ref, w.ref, w.shape[1] * groups, attrs, _ints(output_padding)),
                          shape, x.dtype)
        else:
            y = self.emit("nn.conv2d(%s, %s, channels=%d, %s)" % (x.ref, w.ref, w.shape[0],
                                                                  attrs), shape, x.dtype)
        if b is not None:
            y = self.emit("nn.bias_add(%s, %s)" % (y.ref, b.ref), shape, x.dtype)
        return y

    def op_conv2d(self, node, args):
        x, w, b, stride, padding, dilation, groups = args[:7]
        if isinstance(padding, str):
            raise ConversionError("aten::conv2d with padding=%r is not supported" % padding)
        return self.op__convolution(node, [x, w, b, stride, padding, dilation, False,
                                           [0, 0], groups])

    def op_batch_norm(self, node, args):
        x, gamma, beta, mean, var, training, _, eps = args[:8]
        if training:
            raise ConversionError("aten::batch_norm in training mode is not supported "
                                  "(call module.eval() before tracing)")
        channels = x.shape[1]
        ones = gamma if gamma is not None else self.constant(np.ones(channels, np.float32))
        zeros = beta if beta is not None else self.constant(np.zeros(channels, np.float32))
        bn = self.emit("nn.batch_norm(%s, %s, %s, %s, %s, epsilon=%s)" % (
            x.ref, ones.ref, zeros.ref, mean.ref, var.ref, _literal(eps, "float32")),
            x.shape, x.dtype)
        return self.emit("%s.0" % bn.ref, x.shape, x.dtype)

    def op_layer_norm(self, node, args):
        x, normalized_shape, gamma, beta, eps = args[:5]
        if len(normalized_shape) != 1:
            raise ConversionError("aten::layer_norm over %d axes is not supported "
                                  "(only the last one)" % len(normalized_shape))
        n = normalized_shape[0]
        gamma = gamma if gamma is not None else self.constant(np.ones(n, np.float32))
        beta = beta if beta is not None else self.constant(np.zeros(n, np.float32))
        return self.emit("nn.layer_norm(%s, %s, %s, axis=-1, epsilon=%s)" % (
            x.ref, gamma.ref, beta.ref, _literal(eps, "float32")), x.shape, x.dtype)

    def op_group_norm(self, node, args):
        x, groups, gamma, beta, eps = args[:5]
        c = x.shape[1]
        gamma = gamma if gamma is not None else self.constant(np.ones(c, np.float32))
        beta = beta if beta is not None else self.constant(np.zeros(c, np.float32))
        return self.emit("nn.group_norm(%s, %s, %s, num_groups=%d, axis=1, epsilon=%s)" % (
            x.ref, gamma.ref, beta.ref, groups, _literal(eps, "float32")), x.shape, x.dtype)

    def _pool(self, op, node, args, extra=""):
        x, kernel, stride, padding = args[0], args[1], args[2] or args[1], args[3]
        dilation = args[4] if op == "nn.max_pool2d" else [1, 1]
        ceil = args[5] if op == "nn.max_pool2d" else args[4]
        padding = list(padding) * 2 if len(padding) == 2 else [padding[0]] * 4
        attrs = "pool_size=%s, strides=%s, padding=%s, ceil_mode=%s" % (
            _ints(kernel), _ints(stride), _ints(padding), "True" if ceil else "False")
        if op == "nn.max_pool2d" and list(dilation) != [1, 1]:
            attrs += ", dilation=%s" % _ints(dilation)
        return self.emit("%s(%s, %s%s)" % (op, x.ref, attrs, extra), self.shape_out(node),
                         x.dtype)

    def op_max_pool2d(self, node, args):
        return self._pool("nn.max_pool2d", node, args)

    def op_avg_pool2d(self, node, args):
        include_pad = args[5] if len(args) > 5 else True
        if len(args) > 6 and args[6] is not None:
            raise ConversionError("aten::avg_pool2d with divisor_override is not supported")
        return self._pool("nn.avg_pool2d", node, args,
                          ", count_include_pad=%s" % ("True" if include_pad else "False"))

    def op_adaptive_avg_pool2d(self, node, args):
        x, size = args
        return self.emit("nn.adaptive_avg_pool2d(%s, output_size=%s)" % (x.ref, _ints(size)),
                         self.shape_out(node), x.dtype)

    def op_adaptive_max_pool2d(self, node, args):
        x, size = args
        y = self.emit("nn.adaptive_max_pool2d(%s, output_size=%s)" % (x.ref, _ints(size)),
                      self.shape_out(node), x.dtype)
        return [y, None]

    def op_linear(self, node, args):
        x, w, b = args
        shape = tuple(x.shape[:-1]) + (w.shape[0],)
        if x.rank != 2:
            flat = self.emit("reshape(%s, newshape=[-1, %d])" % (x.ref, x.shape[-1]),
                             (int(np.prod(x.shape[:-1])), x.shape[-1]), x.dtype)
        else:
            flat = x
        y = self.emit("nn.dense(%s, %s, units=%d)" % (flat.ref, w.ref, w.shape[0]),
                      (flat.shape[0], w.shape[0]), x.dtype)
        if b is not None:
            y = self.emit("nn.bias_add(%s, %s, axis=-1)" % (y.ref, b.ref), y.shape, x.dtype)
        if x.rank != 2:
            y = self.emit("reshape(%s, newshape=%s)" % (y.ref, _ints(shape)), shape, x.dtype)
        return y

    def op_addmm(self, node, args):
        bias, a, b = args[:3]
        beta, alpha = (args[3] if len(args) > 3 else 1), (args[4] if len(args) > 4 else 1)
        y = self.matmul(a, b)
        if alpha != 1:
            y = self.emit("multiply(%s, %s)" % (y.ref, _literal(alpha, y.dtype)), y.shape,
                          y.dtype)
        if beta != 1:
            bias = self.emit("multiply(%s, %s)" % (bias.ref, _literal(beta, y.dtype)),
                             bias.shape, y.dtype)
        return self.emit("add(%s, %s)" % (y.ref, bias.ref), y.shape, y.dtype)

    def matmul(self, a, b):
        """torch.matmul's semantics: 1-d operands promoted, batch dimensions
        broadcast (nn.batch_matmul on rank-3 operands)."""
        if a.rank == 2 and b.rank == 2:
            bt = self.emit("transpose(%s, axes=[1, 0])" % b.ref, b.shape[::-1], b.dtype)
            return self.emit("nn.dense(%s, %s, units=None)" % (a.ref, bt.ref),
                             (a.shape[0], b.shape[1]), a.dtype)
        if a.rank < 2 or b.rank < 2:
            raise ConversionError("aten::matmul of a 1-d operand is not supported")
        batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
        count = int(np.prod(batch)) if batch else 1
        m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]

        def as3(x, rows, cols):
            full = batch + (rows, cols)
            if tuple(x.shape) != full:
                x = self.emit("broadcast_to(%s, shape=%s)" % (x.ref, _ints(full)), full,
                              x.dtype)
            return self.emit("reshape(%s, newshape=%s)" % (x.ref, _ints([count, rows, cols])),
                             (count, rows, cols), x.dtype)

        y = self.emit("nn.batch_matmul(%s, %s, transpose_a=False, transpose_b=False)" % (
            as3(a, m, k).ref, as3(b, k, n).ref), (count, m, n), a.dtype)
        return self.emit("reshape(%s, newshape=%s)" % (y.ref, _ints(batch + (m, n))),
                         batch + (m, n), a.dtype)

    def op_matmul(self, node, args):
        return self.matmul(args[0], args[1])

    op_mm = op_matmul
    op_bmm = op_matmul

    def op__native_multi_head_attention(self, node, args):
        """nn.MultiheadAttention's fused inference path (eval, no grad):
        in-projection, per-head softmax(q k^T / sqrt(d)) v, out-projection."""
        query, key, value, embed_dim, heads, qkv_w, qkv_b, proj_w, proj_b, mask = args[:10]
        need_weights = args[10] if len(args) > 10 else True
        if mask is not None:
            raise ConversionError("aten::_native_multi_head_attention with a mask is "
                                  "not supported")
        if query.rank != 3:
            raise ConversionError("aten::_native_multi_head_attention: only batched "
                                  "(rank-3) inputs are supported")
        batch, tq, _ = query.shape
        tk = key.shape[1]
        d = embed_dim // heads
        w_q, w_k, w_v = self.split(node, qkv_w, [embed_dim, 2 * embed_dim], 0)
        b_q, b_k, b_v = self.split(node, qkv_b, [embed_dim, 2 * embed_dim], 0)

        def project(x, w, b, t):
            y = self.op_linear(node, [x, w, b])
            y = self.reshape(y, (batch, t, heads, d))
            y = self.op_permute(node, [y, [0, 2, 1, 3]])
            return self.reshape(y, (batch * heads, t, d))

        q = project(query, w_q, b_q, tq)
        k = project(key, w_k, b_k, tk)
        v = project(value, w_v, b_v, tk)
        scores = self.emit("nn.batch_matmul(%s, %s, transpose_a=False, transpose_b=True)"
                           % (q.ref, k.ref), (batch * heads, tq, tk), q.dtype)
        scores = self.emit("multiply(%s, %s)" % (scores.ref,
                                                 _literal(1 / np.sqrt(d), q.dtype)),
                           scores.shape, q.dtype)
        probs = self.emit("nn.softmax(%s, axis=-1)" % scores.ref, scores.shape, q.dtype)
        out = self.emit("nn.batch_matmul(%s, %s, transpose_a=False, transpose_b=False)"
                        % (probs.ref, v.ref), (batch * heads, tq, d), q.dtype)
        out = self.reshape(out, (batch, heads, tq, d))
        out = self.op_permute(node, [out, [0, 2, 1, 3]])
        out = self.reshape(out, (batch, tq, embed_dim))
        out = self.op_linear(node, [out, proj_w, proj_b])
        weights = None
        if need_weights:
            weights = self.reshape(probs, (batch, heads, tq, tk))
            if len(args) <= 11 or args[11]:  # average_attn_weights
                weights = self.reduce("mean", weights, [1], False)
        return [out, weights]

    def op_t(self, node, args):
        x = args[0]
        if x.rank < 2:
            return x
        return self.emit("transpose(%s, axes=[1, 0])" % x.ref, x.shape[::-1], x.dtype)

    def op_embedding(self, node, args):
        weight, indices = args[:2]
        shape = tuple(indices.shape) + (weight.shape[1],)
        return self.emit("take(%s, %s, axis=0)" % (weight.ref, indices.ref), shape,
                         weight.dtype)

    def op_softmax(self, node, args):
        x, axis = args[:2]
        return self.emit("nn.softmax(%s, axis=%d)" % (x.ref, axis), x.shape, x.dtype)

    def op_log_softmax(self, node, args):
        x, axis = args[:2]
        return self.emit("nn.log_softmax(%s, axis=%d)" % (x.ref, axis), x.shape, x.dtype)

    def op_gelu(self, node, args):
        x = args[0]
        approximate = args[1] if len(args) > 1 else "none"
        half = _literal(0.5, x.dtype)
        if approximate == "tanh":
            # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
            cube = self.emit("multiply(%s, multiply(%s, %s))" % (x.ref, x.ref, x.ref),
                             x.shape, x.dtype)
            inner = self.emit("multiply(add(%s, multiply(%s, %s)), %s)" % (
                x.ref, cube.ref, _literal(0.044715, x.dtype),
                _literal(float(np.sqrt(2 / np.pi)), x.dtype)), x.shape, x.dtype)
            t = self.emit("tanh(%s)" % inner.ref, x.shape, x.dtype)
        else:
            t = self.emit("erf(multiply(%s, %s))" % (x.ref, _literal(float(1 / np.sqrt(2)),
                                                                     x.dtype)),
                          x.shape, x.dtype)
        return self.emit("multiply(multiply(%s, %s), add(%s, %s))" % (
            x.ref, half, _literal(1.0, x.dtype), t.ref), x.shape, x.dtype)

    def op_silu(self, node, args):
        x = args[0]
        return self.emit("multiply(%s, sigmoid(%s))" % (x.ref, x.ref), x.shape, x.dtype)

    def op_hardtanh(self, node, args):
        x, low, high = args[0], args[1], args[2]
        return self.emit("clip(%s, a_min=%s, a_max=%s)" % (
            x.ref, _literal(low, "float32"), _literal(high, "float32")), x.shape, x.dtype)

    def op_relu6(self, node, args):
        return self.op_hardtanh(node, [args[0], 0.0, 6.0])

    def op_clamp(self, node, args):
        x, low, high = args[0], args[1], args[2]
        if isinstance(low, Tensor) or isinstance(high, Tensor):
            raise ConversionError("aten::clamp with tensor bounds is not supported")
        low = -3.4e38 if low is None else low
        high = 3.4e38 if high is None else high
        return self.op_hardtanh(node, [x, low, high])

    def op_hardsigmoid(self, node, args):
        x = args[0]
        return self.emit("divide(clip(add(%s, %s), a_min=0f, a_max=6f), %s)" % (
            x.ref, _literal(3.0, x.dtype), _literal(6.0, x.dtype)), x.shape, x.dtype)

    def op_hardswish(self, node, args):
        x = args[0]
        gate = self.op_hardsigmoid(node, [x])
        return self.emit("multiply(%s, %s)" % (x.ref, gate.ref), x.shape, x.dtype)

    def op_leaky_relu(self, node, args):
        x = args[0]
        slope = args[1] if len(args) > 1 else 0.01
        return self.emit("nn.leaky_relu(%s, alpha=%s)" % (x.ref, _literal(slope, "float32")),
                         x.shape, x.dtype)

    def op_pad(self, node, args):
        x, pad = args[0], args[1]
        mode = args[2] if len(args) > 2 else "constant"
        value = args[3] if len(args) > 3 and args[3] is not None else 0.0
        if mode != "constant":
            raise ConversionError("aten::pad with mode %r is not supported" % mode)
        return self.constant_pad(node, x, pad, value)

    def op_constant_pad_nd(self, node, args):
        x, pad = args[0], args[1]
        value = args[2] if len(args) > 2 else 0.0
        return self.constant_pad(node, x, pad, value)

    def constant_pad(self, node, x, pad, value):
        widths = [[0, 0] for _ in range(x.rank)]
        for i in range(len(pad) // 2):
            widths[x.rank - 1 - i] = [pad[2 * i], pad[2 * i + 1]]
        if any(w < 0 for pair in widths for w in pair):
            raise ConversionError("negative padding is not supported")
        return self.emit("nn.pad(%s, %s, pad_width=[%s])" % (
            x.ref, _literal(value, x.dtype), ", ".join(_ints(w) for w in widths)),
            self.shape_out(node), x.dtype)

    # --- shapes -------------------------------------------------------------

    def reshape(self, x, shape):
        shape = tuple(int(s) for s in shape)
        if -1 in shape:
            known = int(np.prod([s for s in shape if s != -1]))
            shape = tuple(int(np.prod(x.shape)) // known if s == -1 else s for s in shape)
        return self.emit("reshape(%s, newshape=%s)" % (x.ref, _ints(shape)), shape, x.dtype)

    def op_view(self, node, args):
        x, shape = args[:2]
        if any(isinstance(s, Tensor) for s in shape):
            raise ConversionError("aten::view/reshape to computed sizes is not supported")
        return self.reshape(x, shape)

    op_reshape = op_view

    def op_flatten(self, node, args):
        x, start, end = args[:3]
        start, end = _axis(start, x.rank), _axis(end, x.rank)
        shape = list(x.shape[:start]) + [int(np.prod(x.shape[start:end + 1]))] + \
            list(x.shape[end + 1:])
        return self.reshape(x, shape)

    def op_permute(self, node, args):
        x, axes = args[:2]
        axes = [_axis(a, x.rank) for a in axes]
        return self.emit("transpose(%s, axes=%s)" % (x.ref, _ints(axes)),
                         tuple(x.shape[a] for a in axes), x.dtype)

    def op_transpose(self, node, args):
        x, a, b = args[:3]
        axes = list(range(x.rank))
        a, b = _axis(a, x.rank), _axis(b, x.rank)
        axes[a], axes[b] = axes[b], axes[a]
        return self.op_permute(node, [x, axes])

    def op_unsqueeze(self, node, args):
        x, axis = args[:2]
        axis = _axis(axis, x.rank + 1)
        shape = x.shape[:axis] + (1,) + x.shape[axis:]
        return self.emit("expand_dims(%s, axis=%d)" % (x.ref, axis), shape, x.dtype)

    def op_squeeze(self, node, args):
        x = args[0]
        if len(args) > 1:
            axis = _axis(args[1], x.rank)
            if x.shape[axis] != 1:
                return x
            axes = [axis]
        else:
            axes = [i for i, s in enumerate(x.shape) if s == 1]
        shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
        return self.emit("squeeze(%s, axis=%s)" % (x.ref, _ints(axes)), shape, x.dtype)

    def op_cat(self, node, args):
        items, axis = args[:2]
        items = [self.tensor(i) for i in items]
        axis = _axis(axis, items[0].rank)
        shape = list(items[0].shape)
        shape[axis] = sum(i.shape[axis] for i in items)
        return self.emit("concatenate((%s), axis=%d)" % (
            ", ".join(i.ref for i in items) + ("," if len(items) == 1 else ""), axis),
            tuple(shape), items[0].dtype)

    op_concat = op_cat

    def op_slice(self, node, args):
        x, axis, start, end, step = args[:5]
        axis = _axis(axis, x.rank)
        size = x.shape[axis]
        start = 0 if start is None else (start + size if start < 0 else min(start, size))
        end = size if end is None else (end + size if end < 0 else min(end, size))
        end = max(end, start)
        shape = list(x.shape)
        shape[axis] = max(0, (end - start + step - 1) // step)
        if start == 0 and end == size and step == 1:
            return x
        return self.emit("strided_slice(%s, begin=[%d], end=[%d], strides=[%d], axes=[%d])"
                         % (x.ref, start, end, step, axis), tuple(shape), x.dtype)

    def op_select(self, node, args):
        x, axis, index = args[:3]
        axis = _axis(axis, x.rank)
        index = index + x.shape[axis] if index < 0 else index
        sliced = self.op_slice(node, [x, axis, index, index + 1, 1])
        shape = tuple(s for i, s in enumerate(x.shape) if i != axis)
        return self.emit("squeeze(%s, axis=[%d])" % (sliced.ref, axis), shape, x.dtype)

    def op_chunk(self, node, args):
        x, chunks, axis = args[:3]
        axis = _axis(axis, x.rank)
        size = -(-x.shape[axis] // chunks)
        return self.split(node, x, list(range(size, x.shape[axis], size)), axis)

    def op_split(self, node, args):
        x, size, axis = args[:3]
        axis = _axis(axis, x.rank)
        if isinstance(size, int):
            bounds = list(range(size, x.shape[axis], size))
        else:
            bounds = list(np.cumsum(size)[:-1])
        return self.split(node, x, bounds, axis)

    op_split_with_sizes = op_split

    def split(self, node, x, bounds, axis):
        edges = [0] + [int(b) for b in bounds] + [x.shape[axis]]
        parts = []
        for lo, hi in zip(edges[:-1], edges[1:]):
            shape = list(x.shape)
            shape[axis] = hi - lo
            parts.append(self.emit(
                "strided_slice(%s, begin=[%d], end=[%d], strides=[1], axes=[%d])"
                % (x.ref, lo, hi, axis), tuple(shape), x.dtype))
        return parts

    def op_index(self, node, args):
        x, indices = args[:2]
        used = [(axis, i) for axis, i in enumerate(indices) if i is not None]
        if len(used) != 1 or used[0][1].dtype == "bool":
            raise ConversionError("aten::index: only one integer index tensor is "
                                  "supported (x[idx], x[:, idx])")
        axis, index = used[0]
        shape = x.shape[:axis] + index.shape + x.shape[axis + 1:]
        return self.emit("take(%s, %s, axis=%d, mode=\"wrap\")" % (x.ref, index.ref, axis),
                         shape, x.dtype)

    def op_roll(self, node, args):
        x, shifts, dims = args[:3]
        shifts = shifts if isinstance(shifts, list) else [shifts]
        dims = dims if isinstance(dims, list) else [dims]
        if not dims:
            raise ConversionError("aten::roll without dims is not supported")
        for shift, axis in zip(shifts, dims):
            axis = _axis(axis, x.rank)
            size = x.shape[axis]
            shift %= size
            if shift == 0:
                continue
            # The last `shift` elements move to the front.
            tail, head = self.split(node, x, [size - shift], axis)
            x = self.op_cat(node, [[head, tail], axis])
        return x

    def op_expand(self, node, args):
        x, shape = args[:2]
        rank = len(shape)
        padded = (1,) * (rank - x.rank) + tuple(x.shape)
        shape = tuple(p if s == -1 else s for s, p in zip(shape, padded))
        return self.emit("broadcast_to(%s, shape=%s)" % (x.ref, _ints(shape)), shape, x.dtype)

    def op_expand_as(self, node, args):
        return self.op_expand(node, [args[0], list(args[1].shape)])

    def reduce(self, op, x, axes, keepdims):
        if axes is None or (isinstance(axes, list) and not axes):
            axes = list(range(x.rank))
        axes = [_axis(a, x.rank) for a in (axes if isinstance(axes, list) else [axes])]
        shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape)) if keepdims \
            else tuple(s for i, s in enumerate(x.shape) if i not in axes)
        return self.emit("%s(%s, axis=%s, keepdims=%s)" % (
            op, x.ref, _ints(axes), "True" if keepdims else "False"), shape, x.dtype)

    def op_mean(self, node, args):
        return self.reduce("mean", args[0], args[1] if len(args) > 1 else None,
                           bool(args[2]) if len(args) > 2 else False)

    def op_sum(self, node, args):
        # sum(self, dtype) or sum(self, dim, keepdim, dtype).
        return self.reduce("sum", args[0], args[1] if len(args) > 2 else None,
                           bool(args[2]) if len(args) > 2 else False)

    # --- dtypes and masks ---------------------------------------------------

    def op_to(self, node, args):
        x = args[0]
        dtype = self.dtype_out(node, x.dtype)
        if dtype == x.dtype:
            return x
        return self.emit("cast(%s, dtype=\"%s\")" % (x.ref, dtype), x.shape, dtype)

    op_type_as = op_to

    def op_masked_fill(self, node, args):
        x, mask, value = args[:3]
        value = self.tensor(value, like=x)
        shape = tuple(np.broadcast_shapes(x.shape, mask.shape))
        return self.emit("where(%s, %s, %s)" % (mask.ref, value.ref, x.ref), shape, x.dtype)

    def op_where(self, node, args):
        cond, a, b = args[:3]
        like = a if isinstance(a, Tensor) else b
        a, b = self.tensor(a, like=like), self.tensor(b, like=like)
        shape = tuple(np.broadcast_shapes(cond.shape, a.shape, b.shape))
        return self.emit("where(%s, %s, %s)" % (cond.ref, a.ref, b.ref), shape, like.dtype)


_NUMPY_DTYPES = {"bfloat16": np.float32}
_NOT_FOLDED = object()
_MISSING = object()
_FACTORIES = {"zeros", "ones", "full", "arange", "eye", "empty", "tensor",
              "scalar_tensor", "linspace"}
_LIKE_FACTORIES = {"new_zeros", "new_ones", "new_full", "new_empty", "zeros_like",
                   "ones_like", "full_like", "empty_like"}


def _flatten(values):
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _flatten(v)
        else:
            yield v


# Core aten ops of make_fx / torch.export graphs, converted as the
# TorchScript op whose leading arguments they share.
def _alias(name, multi=0):
    def convert(self, node, args):
        result = getattr(self, name)(node, args)
        return [result] + [None] * multi if multi else result
    return convert


_Converter.op_convolution = _Converter.op__convolution
_Converter.op_native_batch_norm = _alias("op_batch_norm", 2)
_Converter.op__native_batch_norm_legit_no_training = _alias("op_batch_norm", 2)
_Converter.op_max_pool2d_with_indices = _alias("op_max_pool2d", 1)
_Converter.op__reshape_alias = _Converter.op_view
_Converter.op__unsafe_view = _Converter.op_view
_Converter.op__softmax = _Converter.op_softmax
_Converter.op__log_softmax = _Converter.op_log_softmax
_Converter.op_native_layer_norm = _alias("op_layer_norm", 2)
_Converter.op__to_copy = _Converter.op_to
_Converter.op__adaptive_avg_pool2d = _Converter.op_adaptive_avg_pool2d


def _native_dropout(self, node, args):
    return [args[0], None]


_Converter.op_native_dropout = _native_dropout


class _Attribute:
    """A module (or attribute) path reached by prim::GetAttr."""

    def __init__(self, path):
        self.path = path


def _torch():
    import torch
    return torch


class _TorchDTypes(dict):
    def __missing__(self, name):
        torch = _torch()
        value = {"float32": torch.float32, "float64": torch.float64,
                 "float16": torch.float16, "bfloat16": torch.bfloat16,
                 "int64": torch.int64, "int32": torch.int32, "int16": torch.int16,
                 "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool}[name]
        self[name] = value
        return value


_TORCH_DTYPES = _TorchDTypes()


_TORCH_DTYPE_NAMES = {"torch.float32", "torch.float64", "torch.float16",
                      "torch.bfloat16", "torch.int64", "torch.int32", "torch.int16",
                      "torch.int8", "torch.uint8", "torch.bool"}


def _torch_dtype_name(dtype):
    return {"torch.float32": "float32", "torch.float64": "float64",
            "torch.float16": "float16", "torch.bfloat16": "bfloat16",
            "torch.int64": "int64", "torch.int32": "int32", "torch.int16": "int16",
            "torch.int8": "int8", "torch.uint8": "uint8", "torch.bool": "bool"}[str(dtype)]


def _input_info(info, default_dtype):
    """(name, shape, dtype) of one input_infos entry: (name, shape) or
    (name, (shape, dtype))."""
    name, spec = info
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[1], str):
        shape, dtype = spec
    else:
        shape, dtype = spec, default_dtype
    dtype = {"float": "float32", "int": "int64", "long": "int64"}.get(dtype, dtype)
    if any(not isinstance(s, int) for s in shape):
        raise ValueError("input %r: from_pytorch takes static shapes, got %s"
                         % (name, tuple(shape)))
    return name, tuple(shape), dtype


_SUPPORTED_PRIM = {"prim::Constant", "prim::GetAttr", "prim::ListConstruct",
                   "prim::TupleConstruct", "prim::ListUnpack", "prim::TupleUnpack",
                   "prim::TupleIndex", "aten::__getitem__", "aten::size", "aten::dim",
                   "aten::rsub", "aten::floordiv", "aten::floor_divide",
                   "aten::remainder"}


def _is_supported(kind):
    if kind in _SUPPORTED_PRIM or kind in _PASS_SCALAR or kind in _IDENTITY or \
            kind in _UNARY or kind in _BINARY or kind in _INT_ARITH:
        return True
    return kind.startswith("aten::") and \
        hasattr(_Converter, "op_" + kind.split("::")[1].rstrip("_"))


def _relay_param(name, shape, dtype):
    dims = ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "")
    return "%%%s: Tensor[(%s), %s]" % (name, dims, dtype)


def _first_source_line(text):
    lines = text.strip().splitlines() if text else []
    return lines[0].strip() if lines else ""


def _torchscript_nodes(graph):
    """The nodes of an inlined TorchScript graph."""
    torch = _torch()
    nodes = []
    for n in graph.nodes():
        attrs = {}
        if n.kind() == "prim::Constant":
            value = None if n.output().type().kind() == "NoneType" else \
                n.output().toIValue()
            attrs["value"] = value.detach() if isinstance(value, torch.Tensor) else value
        elif n.kind() == "prim::GetAttr":
            attrs["name"] = n.s("name")
        metas = []
        for v in n.outputs():
            t = v.type()
            if t.kind() != "TensorType":
                metas.append(None)
                continue
            sizes, scalar = t.sizes(), t.scalarType()
            complete = sizes is not None and None not in sizes
            metas.append((tuple(sizes) if complete else None, _DTYPES.get(scalar)))
        schema = None
        if n.schema() != "(no schema)":
            try:
                schema = torch._C.parse_schema(n.schema())
            except RuntimeError:
                schema = None
        nodes.append(_Node(n.kind(), [_Ref(v.debugName()) for v in n.inputs()],
                           [v.debugName() for v in n.outputs()], metas, schema,
                           _first_source_line(n.sourceRange()), attrs))
    return nodes


def _fx_meta(meta):
    """(shape, dtype) of an fx node's first tensor result, from its
    tensor_meta (ShapeProp, make_fx) or val (torch.export)."""
    for key in ("tensor_meta", "val"):
        value = meta.get(key)
        # Several results: a list of them (TensorMetadata itself is a tuple).
        if isinstance(value, (list, tuple)) and value and not hasattr(value, "dtype"):
            value = value[0]
        if value is not None and hasattr(value, "shape") and hasattr(value, "dtype"):
            shape = tuple(int(s) for s in value.shape)
            dtype = str(value.dtype)
            return shape, _torch_dtype_name(value.dtype) if dtype in _TORCH_DTYPE_NAMES \
                else None
    return None


def _fx_nodes(graph_module):
    """The call_function and get_attr nodes of a torch.fx graph of aten ops
    (make_fx, torch.export), every schema argument in order (defaults
    filled in)."""
    import operator

    torch = _torch()

    def operand(value):
        if isinstance(value, torch.fx.Node):
            return _Ref(value.name)
        if isinstance(value, (list, tuple)):
            return [operand(v) for v in value]
        return value

    nodes = []
    for n in graph_module.graph.nodes:
        if n.op == "get_attr":
            value = getattr(graph_module, n.target)
            value = value.detach() if isinstance(value, torch.Tensor) else value
            nodes.append(_Node("prim::Constant", [], [n.name], [_fx_meta(n.meta)],
                               attrs={"value": value}))
        elif n.op == "call_function" and n.target is operator.getitem:
            nodes.append(_Node("prim::TupleIndex", [operand(n.args[0]), n.args[1]],
                               [n.name], [_fx_meta(n.meta)]))
        elif n.op == "call_function" and isinstance(n.target, torch._ops.OpOverload):
            schema = n.target._schema
            inputs = []
            for i, spec in enumerate(schema.arguments):
                if i < len(n.args):
                    inputs.append(operand(n.args[i]))
                elif spec.name in n.kwargs:
                    inputs.append(operand(n.kwargs[spec.name]))
                else:
                    inputs.append(spec.default_value if spec.has_default_value() else None)
            stack = n.meta.get("stack_trace") or ""
            nodes.append(_Node(schema.name, inputs, [n.name], [_fx_meta(n.meta)], schema,
                               _first_source_line(stack.strip().splitlines()[-1]
                                                  if stack.strip() else ""),))
        elif n.op == "call_function":
            nodes.append(_Node(getattr(n.target, "__name__", str(n.target)), [], [n.name],
                               [None], source=str(n.target)))
    return nodes


def from_pytorch(script_module, input_infos, custom_convert_map=None,
                 default_dtype="float32"):
    """tvm.relay.frontend.from_pytorch: a `torch.jit.trace`d module to
    `(mod, params)`, mod an mlc Module of the relay dialect whose `main`
    takes the inputs (named by input_infos) followed by the parameters
    (named by module path, `layer1.0.conv1.weight`), params those
    parameters' numpy arrays by name.

    `input_infos` is `[(name, shape), ...]` or `[(name, (shape, dtype)),
    ...]`. A parameter name with characters Relay names lack has them as
    '_' (regnet's `block1-0` is `block1_0`). `custom_convert_map` maps an operator kind (`"aten::elu"`) to
    `f(converter, node, inputs)` returning a `Tensor` (see
    `_Converter.emit`). Every operator without a converter is listed in one
    error before anything is converted."""
    import torch

    if isinstance(script_module, torch.jit.ScriptModule) and \
            not isinstance(script_module, torch.jit.TracedModule):
        raise TypeError("from_pytorch takes a torch.jit.trace'd module; a "
                        "torch.jit.script'ed one has no recorded shapes and may hold "
                        "control flow (TVM's from_pytorch supports traces only too)")
    if not isinstance(script_module, torch.jit.TracedModule):
        raise TypeError("from_pytorch takes a torch.jit.trace'd module, got %s"
                        % type(script_module).__name__)
    graph = script_module.inlined_graph
    graph_inputs = list(graph.inputs())
    state = dict(script_module.state_dict(keep_vars=True))
    converter = _Converter(state, custom_convert_map, default_dtype)
    if graph_inputs and graph_inputs[0].type().kind() == "ClassType":
        converter.values[graph_inputs[0].debugName()] = _Attribute("")
        graph_inputs = graph_inputs[1:]
    input_infos = list(input_infos)
    if len(graph_inputs) != len(input_infos):
        raise ValueError("the module takes %d inputs, input_infos has %d"
                         % (len(graph_inputs), len(input_infos)))
    inputs = []
    for value, info in zip(graph_inputs, input_infos):
        name, shape, dtype = _input_info(info, default_dtype)
        traced = value.type().sizes() if value.type().kind() == "TensorType" else None
        if traced is not None and None not in traced and tuple(traced) != shape:
            raise ValueError("input %r: input_infos gives shape %s, the trace %s"
                             % (name, shape, tuple(traced)))
        inputs.append((value.debugName(), name, shape, dtype))
    text = converter.run(_torchscript_nodes(graph), inputs,
                         [_Ref(v.debugName()) for v in graph.outputs()])
    from .. import fromtext
    meta = {str(i): array for i, array in enumerate(converter.meta)}
    mod = fromtext(text, meta=meta or None)
    mod.relay_text = text
    return mod, dict(converter.params)
