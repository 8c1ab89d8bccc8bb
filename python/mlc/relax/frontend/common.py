"""What the Python front ends share: the writer of mlc's relax graph JSON
(docs/RelaxJSON.md), which `mlc-translate --import-relax-json` turns into a
relax module (result types inferred, symbolic dims, bound parameters), and
TVM's `detach_params`."""

import json
import math
import os
import struct
import tempfile

import numpy as np

from ... import tools
from ...ir import Module


def i64(value):
    return "%d : i64" % int(value)


def i64s(values):
    values = [int(v) for v in values]
    return "array<i64: %s>" % ", ".join(map(str, values)) if values else "array<i64>"


def _float(value):
    # MLIR float literals need a '.' before an exponent; infinities and NaN
    # are written as their bits.
    value = float(value)
    if math.isinf(value) or math.isnan(value):
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
    return "%.17e" % value


def f64(value):
    return "%s : f64" % _float(value)


def boolean(value):
    return "true" if value else "false"


def dense(array):
    """An MLIR tensor attribute holding `array` (small constants)."""
    array = np.asarray(array)
    dtype = mlir_dtype(array.dtype)
    shape = "x".join(str(d) for d in array.shape)
    ty = "tensor<%s%s>" % (shape + "x" if array.ndim else "", dtype)
    if array.dtype == np.bool_:
        items = ["true" if v else "false" for v in array.reshape(-1)]
    elif np.issubdtype(array.dtype, np.floating):
        items = [_float(v) if np.isfinite(v) else '"%s"' % _float(v)
                 for v in array.reshape(-1)]
    else:
        items = [str(int(v)) for v in array.reshape(-1)]
    if array.size and all(i == items[0] for i in items):
        body = items[0]
    else:
        body = _nest(items, list(array.shape))
    return "dense<%s> : %s" % (body, ty)


def _nest(items, shape):
    if not shape:
        return items[0]
    if len(shape) == 1:
        return "[" + ", ".join(items) + "]"
    step = len(items) // shape[0] if shape[0] else 0
    return "[" + ", ".join(_nest(items[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


_DTYPES = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16",
           "int64": "i64", "int32": "i32", "int16": "i16", "int8": "i8",
           "uint8": "ui8", "bool": "i1"}


def mlir_dtype(dtype):
    """The MLIR element type of a numpy / torch dtype or its name."""
    name = str(dtype).replace("torch.", "")
    if name not in _DTYPES:
        raise TypeError("unsupported element type %s" % dtype)
    return _DTYPES[name]


class GraphWriter:
    """Collects a relax graph: inputs, parameters (with their arrays), nodes
    and outputs. Every value is a number: inputs first, then parameters, then
    node results in order; parameters may be added at any time (they are
    renumbered when the graph is written)."""

    def __init__(self):
        self.inputs = []
        self.params = []  # (name, array)
        self._param_ids = {}
        self.nodes = []
        self._num_results = 0
        self.outputs = []

    # Values are ("input", i), ("param", i) or ("node", i) until written.
    def add_input(self, name, shape, dtype):
        self.inputs.append({"name": name, "shape": list(shape), "dtype": dtype})
        return ("input", len(self.inputs) - 1)

    def add_param(self, name, array):
        if name not in self._param_ids:
            self._param_ids[name] = len(self.params)
            self.params.append((name, np.ascontiguousarray(array)))
        return ("param", self._param_ids[name])

    def emit(self, op, args, attrs=None, results=1, name=None, loc=None):
        """Adds relax op `op`; returns its result value (a list of them when
        `results` > 1). `args` are values, {"scalar": ...} or {"constant":
        ...} objects; `attrs` maps names to MLIR attribute text."""
        node = {"op": op, "args": list(args)}
        if attrs:
            node["attrs"] = {k: v for k, v in attrs.items() if v is not None}
        if results != 1:
            node["results"] = results
        if name:
            node["name"] = name
        if loc:
            node["file"], node["line"] = loc
        self.nodes.append(node)
        first = self._num_results
        self._num_results += results
        if results == 1:
            return ("node", first)
        return [("node", first + i) for i in range(results)]

    def to_json(self, bind_params_file=None, function="main"):
        base = {"input": 0, "param": len(self.inputs),
                "node": len(self.inputs) + len(self.params)}

        def ref(value):
            if isinstance(value, tuple) and len(value) == 2 and value[0] in base:
                return base[value[0]] + value[1]
            return value

        graph = {
            "format": "mlc-relax-graph", "version": 1, "function": function,
            "inputs": self.inputs,
            "params": [{"name": n, "shape": list(a.shape), "dtype": mlir_dtype(a.dtype)}
                       for n, a in self.params],
            "nodes": [dict(n, args=[ref(a) for a in n["args"]]) for n in self.nodes],
            "outputs": [ref(v) for v in self.outputs],
        }
        if bind_params_file:
            graph["bind_params"] = bind_params_file
        return graph

    def import_module(self, keep_params_as_input=False):
        """Imports the graph (in process through the C API, else with
        mlc-translate); returns a Module. Parameters
        are bound as dense_resource constants unless kept as inputs, in
        which case the Module holds them (see detach_params)."""
        with tempfile.TemporaryDirectory() as tmp:
            bind = None
            if self.params and not keep_params_as_input:
                bind = "params.npz"
                tools.save_npz(os.path.join(tmp, bind), dict(self.params))
            path = os.path.join(tmp, "graph.json")
            with open(path, "w") as f:
                json.dump(self.to_json(bind), f)
            from ... import _capi
            if _capi.available():
                try:
                    with open(path) as f:
                        text = _capi.import_relax_json(f.read(), path)
                except _capi.CAPIError as e:
                    raise tools.ToolError("mlc-translate", 1, str(e)) from None
                mod = Module(text)
            else:
                mod = Module(tools.run("mlc-translate", ["--import-relax-json", path]))
        if keep_params_as_input:
            mod.params = {"main": [a for _, a in self.params]}
            mod.param_names = {"main": [n for n, _ in self.params]}
        return mod


def detach_params(mod):
    """TVM's detach_params: returns (mod, {"main": [arrays]}) for a module
    imported with keep_params_as_input=True; the arrays are in the order of
    main's parameters after its inputs (named by relax.name, see
    `mod.param_names`), so `dict(zip(mod.param_names["main"],
    params["main"]))` binds them by name."""
    params = getattr(mod, "params", None) or {}
    return mod, {k: list(v) for k, v in params.items()}
