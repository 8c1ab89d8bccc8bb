"""Compiling and running modules (relay.create_executor, time_evaluator)."""

import os
import re
import subprocess
import tempfile

import numpy as np

from . import tools
from .ir import Module


class Executor:
    """Runs the entry function of a module with mlc-run. Parameters given at
    creation are bound by name; inputs are passed by position or name."""

    def __init__(self, mod, params=None, entry="main", target="llvm"):
        if target != "llvm":
            raise ValueError("only target='llvm' (the host CPU) runs here; got %r" % target)
        self.mod = mod if isinstance(mod, Module) else Module(str(mod))
        self.params = dict(params or {})
        self.entry = entry

    def _parameter_names(self):
        # The entry's parameters in order, named by their relay.name /
        # relax.name attribute as mlc-run binds them.
        match = re.search(r"func\.func\s+@%s\s*\((.*?)\)\s*(->|attributes|\{)"
                          % re.escape(self.entry), self.mod.text, re.S)
        if not match:
            raise ValueError("no function @%s in the module" % self.entry)
        names = []
        for index, arg in enumerate(re.split(r",\s*(?=%)", match.group(1))):
            if not arg.strip():
                continue
            named = re.search(r"rel(?:ay|ax)\.name\s*=\s*\"([^\"]*)\"", arg)
            names.append(named.group(1) if named else "arg%d" % index)
        return names

    def _run(self, args, kwargs, extra):
        free = [n for n in self._parameter_names() if n not in self.params]
        if len(args) > len(free):
            raise TypeError("%d inputs given, the function takes %d besides params"
                            % (len(args), len(free)))
        inputs = dict(zip(free, args))
        inputs.update(kwargs)
        with tempfile.TemporaryDirectory() as tmp:
            model = os.path.join(tmp, "model.mlir")
            with open(model, "w") as f:
                f.write(self.mod.text)
            cmd = [model, "--entry=" + self.entry, "--quiet"]
            inputs_path = os.path.join(tmp, "inputs.npz")
            tools.save_npz(inputs_path, inputs)
            cmd.append("--inputs=" + inputs_path)
            if self.params:
                params_path = os.path.join(tmp, "params.npz")
                tools.save_npz(params_path, self.params)
                cmd.append("--params=" + params_path)
            outputs_path = os.path.join(tmp, "outputs.npz")
            cmd.append("--outputs=" + outputs_path)
            stdout = tools.run("mlc-run", cmd + list(extra))
            with np.load(outputs_path) as data:
                outputs = [data["out%d" % i] for i in range(len(data.files))]
        return outputs, stdout

    def evaluate(self):
        """Returns a function that runs the module: f(*inputs, **named)
        returns one numpy array, or a list for several results."""

        def run(*args, **kwargs):
            outputs, _ = self._run(args, kwargs, [])
            return outputs[0] if len(outputs) == 1 else outputs

        return run

    def time_evaluator(self, number=10):
        """Returns f(*inputs) -> dict(min, median, max) latency in seconds over
        `number` runs after a warm-up (TVM's time_evaluator)."""

        def timed(*args, **kwargs):
            _, stdout = self._run(args, kwargs, ["--bench=%d" % number])
            m = re.search(r"min ([0-9.]+) ms, median ([0-9.]+) ms, max ([0-9.]+) ms", stdout)
            if not m:
                raise RuntimeError("mlc-run printed no timing:\n" + stdout)
            return {k: float(v) / 1e3 for k, v in zip(("min", "median", "max"), m.groups())}

        return timed


def create_executor(kind="graph", mod=None, device=None, target="llvm", params=None):
    """relay.create_executor: every kind compiles ahead of time with the CPU
    pipeline and runs with mlc-run."""
    if kind not in ("debug", "graph", "vm", "aot"):
        raise ValueError("unknown executor kind %r" % kind)
    if mod is None:
        raise ValueError("create_executor needs mod=")
    return Executor(mod, params=params, target=target)


class PrimFunc:
    """A destination-passing buffer function of a built module (a
    tensorir.prim_func): f(a, b, c) runs it with mlc-run on the numpy arrays
    and writes every buffer back into its array in place, like TVM's
    rt_lib["mm_relu"](a_nd, b_nd, c_nd). Scalar parameters (index, iN, fN)
    take Python or numpy numbers. Each call compiles the module."""

    def __init__(self, mod, name):
        self.mod = mod
        self.name = name
        params = _buffer_parameters(mod.text, name)
        self.param_names = [n for n, _ in params]
        # numpy dtype of each scalar parameter, None for buffers.
        self.scalar_dtypes = [_SCALAR_DTYPES.get(t) for _, t in params]

    def __call__(self, *arrays):
        if len(arrays) != len(self.param_names):
            raise TypeError("@%s takes %d parameters, %d given"
                            % (self.name, len(self.param_names), len(arrays)))
        arrays = list(arrays)
        for i, (name, dtype) in enumerate(zip(self.param_names, self.scalar_dtypes)):
            if dtype is not None:
                arrays[i] = np.asarray(arrays[i], dtype=dtype)
            elif not isinstance(arrays[i], np.ndarray) or not arrays[i].flags.writeable:
                raise TypeError("buffer %r must be a writeable numpy array" % name)
        with tempfile.TemporaryDirectory() as tmp:
            model = os.path.join(tmp, "model.mlir")
            with open(model, "w") as f:
                f.write(self.mod.text)
            inputs_path = os.path.join(tmp, "inputs.npz")
            outputs_path = os.path.join(tmp, "outputs.npz")
            tools.save_npz(inputs_path, dict(zip(self.param_names, arrays)))
            tools.run("mlc-run", [model, "--entry=" + self.name, "--quiet",
                                  "--inputs=" + inputs_path,
                                  "--outputs=" + outputs_path])
            with np.load(outputs_path) as data:
                for name, array, dtype in zip(self.param_names, arrays,
                                              self.scalar_dtypes):
                    if dtype is None:
                        np.copyto(array, data[name])


class BuiltModule:
    """What mlc.build returns: prim_funcs by name (rt_lib["mm_relu"])."""

    def __init__(self, mod):
        self.mod = mod

    def __getitem__(self, name):
        return PrimFunc(self.mod, name)


def build(mod, target="llvm"):
    """tvm.build for modules of tensorir.prim_funcs on the host CPU. The
    module is compiled by mlc-run (CPU pipeline) when a function is called."""
    if target != "llvm":
        raise ValueError("only target='llvm' (the host CPU) runs here; got %r" % target)
    return BuiltModule(mod if isinstance(mod, Module) else Module(str(mod)))


_SCALAR_DTYPES = {"index": np.int64, "i1": np.bool_, "i8": np.int8, "i16": np.int16,
                  "i32": np.int32, "i64": np.int64, "f16": np.float16,
                  "f32": np.float32, "f64": np.float64}


def _buffer_parameters(text, name):
    # The parameters of @name as (name, type) with the names mlc-run binds
    # them by: tensorir.name (the SSA name in a prim_func's custom syntax),
    # relay.name / relax.name, else argN.
    match = re.search(r"(tensorir\.prim_func|func\.func)\s+(?:\w+\s+)?@%s\s*\((.*?)\)\s*(->|attributes|\{)"
                      % re.escape(name), text, re.S)
    if not match:
        raise ValueError("no function @%s in the module" % name)
    names = []
    for index, arg in enumerate(re.split(r",\s*(?=%)", match.group(2))):
        if not arg.strip():
            continue
        named = re.search(r"(?:tensorir|relax|relay)\.name\s*=\s*\"([^\"]*)\"", arg)
        ssa = re.match(r"\s*%([A-Za-z_][\w$.]*)\s*:", arg)
        type_ = re.match(r"\s*%[\w$.]+\s*:\s*([\w]+)", arg)
        type_ = type_.group(1) if type_ else ""
        if named:
            names.append((named.group(1), type_))
        elif match.group(1) == "tensorir.prim_func" and ssa:
            names.append((ssa.group(1), type_))
        else:
            names.append(("arg%d" % index, type_))
    return names
