"""Compiling and running modules (relay.create_executor, time_evaluator)."""

import os
import re
import tempfile

import numpy as np

from . import tools
from .ir import Module
from .target import Target


class Executor:
    """Runs the entry function of a module. The module is compiled once, on
    the first call, into a shared library that is then called in process
    (mlc.runtime: numpy arrays by pointer). An entry whose output shapes
    depend on symbolic input dimensions is compiled once into an in-process
    mlc::Executable instead (the C API), which evaluates those shapes from
    the inputs; its params are bound as constants. Without the C API
    library, compiling runs mlc-compile and such entries run mlc-run.
    Parameters given at creation are passed by name with every call; inputs
    are passed by position or name."""

    def __init__(self, mod, params=None, entry="main", target="llvm",
                 pipeline_options=""):
        self.target = Target(target)
        self.pipeline_options = pipeline_options
        self.mod = mod if isinstance(mod, Module) else Module(str(mod))
        self.params = dict(params or {})
        self.entry = entry
        self._library = None
        self._input_names = None
        self._executable = None

    def _function(self):
        """The compiled entry and its inputs' names in call order: their
        relay.name / relax.name, as mlc-run binds them (the `param` of the
        library's metadata; its C names spell '.' as '_')."""
        if self._library is None:
            self._library = compile_module(self.mod, [self.entry], target=self.target,
                                           pipeline_options=self.pipeline_options)
            self._input_names = list(self._library[self.entry].param_names)
        return self._library[self.entry], self._input_names

    def _named(self, args, kwargs):
        """The compiled entry, its inputs' names in call order and their
        values by name (params included)."""
        function, input_names = self._function()
        free = [n for n in input_names if n not in self.params]
        if len(args) > len(free):
            raise TypeError("%d inputs given, the function takes %d besides params"
                            % (len(args), len(free)))
        named = dict(self.params)
        named.update(zip(free, args))
        for name, value in kwargs.items():
            if name not in input_names:
                raise TypeError("@%s has no input %r; its inputs: %s"
                                % (self.entry, name, ", ".join(input_names)))
            named[name] = value
        missing = [n for n in input_names if n not in named]
        if missing:
            raise TypeError("no value for input %s of @%s"
                            % (", ".join(repr(n) for n in missing), self.entry))
        return function, [named[n] for n in input_names], named

    def _dynamic_outputs(self, function):
        # Their shapes follow from the inputs' symbolic dimensions, which
        # mlc-run evaluates (on the CPU); the compiled entry needs them passed.
        dynamic = any(-1 in a.shape for a in function.args if a.kind == "output")
        if dynamic and self.target.kind == "cuda":
            raise NotImplementedError(
                "@%s: outputs whose shapes depend on the inputs are not supported for "
                "target %s; compile it (mlc.relax.build) and pass the outputs"
                % (self.entry, self.target))
        return dynamic

    def evaluate(self):
        """Returns a function that runs the module: f(*inputs, **named)
        returns one numpy array, or a list for several results."""

        def run(*args, **kwargs):
            function, inputs, named = self._named(args, kwargs)
            if self._dynamic_outputs(function):
                outputs, _ = self._run_dynamic(named)
                return outputs[0] if len(outputs) == 1 else outputs
            outputs = function(*inputs)
            return list(outputs) if isinstance(outputs, tuple) else outputs

        return run

    def time_evaluator(self, number=10):
        """Returns f(*inputs) -> dict(min, median, max) latency in seconds over
        `number` runs after a warm-up (TVM's time_evaluator)."""

        def timed(*args, **kwargs):
            function, inputs, named = self._named(args, kwargs)
            if self._dynamic_outputs(function):
                return self._run_dynamic(named, max(1, int(number)))[1]
            result = function._time(inputs, 1, max(1, int(number)), 0)
            return {"min": result.min, "median": result.median, "max": result.max}

        return timed

    def _in_process(self):
        """The entry as an in-process mlc::Executable (entries whose output
        shapes depend on symbolic input dimensions), compiled once with the
        params bound; None without the C API library."""
        from . import _capi
        if self._executable is None and _capi.available():
            with tempfile.TemporaryDirectory() as tmp:
                params_path = None
                if self.params:
                    params_path = os.path.join(tmp, "params.npz")
                    tools.save_npz(params_path, self.params)
                self._executable = _capi.Executable(self.mod.text, self.entry,
                                                    params_path=params_path)
        return self._executable

    def _run_dynamic(self, named, runs=0):
        """Runs an entry whose output shapes depend on the inputs: its
        outputs, and with `runs` the min/median/max latency in seconds."""
        executable = self._in_process()
        if executable is None:
            return self._run_tool(named, runs)
        missing = [n for n in executable.parameter_names if n not in named]
        if missing:
            raise TypeError("no value for input %s of @%s"
                            % (", ".join(repr(n) for n in missing), self.entry))
        arrays = [np.asarray(named[n]) for n in executable.parameter_names]
        outputs = executable(*arrays)
        timing = None
        if runs:
            times = sorted(executable.time(arrays, runs))
            timing = {"min": times[0], "median": times[len(times) // 2],
                      "max": times[-1]}
        return outputs, timing

    def _run_tool(self, named, runs):
        """Runs the entry with mlc-run (without the C API library)."""
        extra = ["--bench=%d" % runs] if runs else []
        inputs = {n: v for n, v in named.items() if n not in self.params}
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
            stdout = tools.run("mlc-run", cmd + extra)
            with np.load(outputs_path) as data:
                outputs = [data["out%d" % i] for i in range(len(data.files))]
        timing = None
        if runs:
            m = re.search(r"min ([0-9.]+) ms, median ([0-9.]+) ms, max ([0-9.]+) ms",
                          stdout)
            if not m:
                raise RuntimeError("mlc-run printed no timing:\n" + stdout)
            timing = {k: float(v) / 1e3
                      for k, v in zip(("min", "median", "max"), m.groups())}
        return outputs, timing


def compile_module(mod, entries=None, args=(), output=None, target="llvm",
                   pipeline_options=""):
    """Compiles `mod` into a shared library and loads it
    (mlc.runtime.Module); `entries` are the functions to export (default:
    every public one); `target` (mlc.target.Target or what it takes) picks
    the CPU or the GPU pipeline, `pipeline_options` are its options
    (mlc-compile --pipeline-options, e.g. "mixed-precision=float16"). In process through the C API
    (mlcCompileToFile); with `args` (mlc-compile options) or without the C
    API library, with mlc-compile. The library is written to `output` when
    given, else to a temporary file removed once loaded (the mapping
    stays)."""
    from . import _capi, runtime
    target = Target(target)
    text = mod.text if isinstance(mod, Module) else str(mod)
    with tempfile.TemporaryDirectory() as tmp:
        library = output or os.path.join(tmp, "model.so")
        if not args and _capi.available():
            try:
                _capi.compile_to_file(text, library, entries=entries,
                                      target=target.mlc_target, cpu=target.mcpu or "",
                                      pipeline_options=pipeline_options)
            except _capi.CAPIError as e:
                raise tools.ToolError("mlc-compile", 1, str(e)) from None
            return runtime.load_module(library)
        model = os.path.join(tmp, "model.mlir")
        with open(model, "w") as f:
            f.write(text)
        command = [model, "-o", library, "--target=" + target.mlc_target] + list(args)
        if target.mcpu:
            command.append("--mcpu=" + target.mcpu)
        if pipeline_options:
            command.append("--pipeline-options=" + pipeline_options)
        if entries:
            command.append("--entry=" + ",".join(entries))
        tools.run("mlc-compile", command)
        return runtime.load_module(library)


def create_executor(kind="graph", mod=None, device=None, target="llvm", params=None,
                    pipeline_options=""):
    """relay.create_executor: every kind compiles ahead of time with the CPU
    or GPU pipeline of `target` (mlc.target.Target: "llvm", "cuda", ...;
    once, on the first call; mlc's `pipeline_options` as mlc-compile's)
    and runs in process (Executor)."""
    if kind not in ("debug", "graph", "vm", "aot"):
        raise ValueError("unknown executor kind %r" % kind)
    if mod is None:
        raise ValueError("create_executor needs mod=")
    return Executor(mod, params=params, target=target, pipeline_options=pipeline_options)


class PrimFunc:
    """A destination-passing buffer function of a built module (a
    tensorir.prim_func): f(a, b, c) runs it on the numpy arrays and writes
    every buffer back into its array in place, like TVM's
    rt_lib["mm_relu"](a_nd, b_nd, c_nd). Scalar parameters (index, iN, fN)
    take Python or numpy numbers. The module is compiled once (on the first
    call of any of its functions, or the first look at its parameters) and
    called in process; the parameters' names and dtypes are the compiled
    library's (its metadata)."""

    def __init__(self, built, name):
        self.built = built
        self.mod = built.mod
        self.name = name

    def _function(self):
        library = self.built.library()
        if self.name not in library.entry_names:
            raise ValueError("no function @%s in the module" % self.name)
        return library[self.name]

    @property
    def param_names(self):
        """The parameters' names (tensorir.name: the SSA names of a
        prim_func's custom syntax)."""
        return self._function().param_names

    def __call__(self, *arrays):
        function = self._function()
        params = [a for a in function.args if a.kind != "output"]
        if len(arrays) != len(params):
            raise TypeError("@%s takes %d parameters, %d given"
                            % (self.name, len(params), len(arrays)))
        arrays = list(arrays)
        passed = list(arrays)
        for i, param in enumerate(params):
            if param.kind == "scalar":
                passed[i] = np.asarray(arrays[i], dtype=param.dtype)
            elif not isinstance(arrays[i], np.ndarray) or not arrays[i].flags.writeable:
                raise TypeError("buffer %r must be a writeable numpy array" % param.param)
            elif not arrays[i].flags.c_contiguous:
                passed[i] = np.ascontiguousarray(arrays[i])
        if self.built.target.kind == "cuda":
            function.call_in_place(*passed)
        else:
            function(*passed)
        for array, copy in zip(arrays, passed):
            if copy is not array and isinstance(array, np.ndarray) \
                    and array.flags.writeable and copy.shape == array.shape:
                np.copyto(array, copy)


class BuiltModule:
    """What mlc.build returns: prim_funcs by name (rt_lib["mm_relu"])."""

    def __init__(self, mod, target="llvm", pipeline_options=""):
        self.mod = mod
        self.target = Target(target)
        self.pipeline_options = pipeline_options
        self._library = None

    def library(self):
        """The compiled module (mlc.runtime.Module), compiled on first use,
        with every prim_func exported (a private kernel of a relax module
        too: TVM's rt_lib[name] runs any of them)."""
        if self._library is None:
            from . import _capi
            if _capi.available():
                text = _capi.make_prim_funcs_public(self.mod.text)
            else:
                text = re.sub(r"tensorir\.prim_func\s+private\s+@", "tensorir.prim_func @",
                              self.mod.text)
            self._library = compile_module(Module(text), target=self.target,
                                           pipeline_options=self.pipeline_options)
        return self._library

    def __getitem__(self, name):
        return PrimFunc(self, name)


def build(mod, target="llvm", pipeline_options=""):
    """tvm.build for modules of tensorir.prim_funcs, for the host CPU or
    (target "cuda", "cuda -arch=sm_90a", a tag such as "nvidia/nvidia-h100":
    mlc.target.Target) an NVIDIA GPU, whose functions copy their numpy
    buffers to the GPU and back for each call. The module is compiled
    (mlc-compile's CPU or GPU pipeline, the default schedule for
    unscheduled functions; mlc's `pipeline_options` as mlc-compile's) when
    a function is first called."""
    return BuiltModule(mod if isinstance(mod, Module) else Module(str(mod)), target,
                       pipeline_options)
