"""relax.build and relax.VirtualMachine (TVM's names), for the host CPU or
an NVIDIA GPU.

    ex = relax.build(mod, target="llvm")       # compiles once (mlc-compile)
    vm = relax.VirtualMachine(ex, mlc.cpu())
    out = vm["main"](mlc.nd.array(x), *params)  # an NDArray

    ex = relax.build(mod, target="nvidia/nvidia-h100")  # or "cuda -arch=sm_90a"
    ex.export_library("model.so")              # for mlc.runtime.load_module
    vm = relax.VirtualMachine(ex, mlc.cuda())  # needs a GPU to run

The module goes through the CPU or GPU pipeline (legalization, fusion, the
default schedule) to a shared library that is called in process
(mlc.runtime); VirtualMachine's functions take NDArrays or numpy arrays
(also CUDA arrays such as torch's for a GPU build) and return NDArrays
holding host copies of the results.
"""

import os
import tempfile

from .. import nd
from ..executor import compile_module
from ..ir import Module
from ..target import Target

__all__ = ["Executable", "VirtualMachine", "build"]


class Executable:
    """A compiled module (tvm.relax.Executable): `library` (an
    mlc.runtime.Module), `mod` and `target`."""

    def __init__(self, library, mod, target=None, binary=None):
        self.library = library
        self.mod = mod
        self.target = target or Target("llvm")
        self._binary = binary

    def export_library(self, path):
        """Writes the shared library (TVM's export_library), which
        mlc.runtime.load_module loads, here or on another machine with the
        same CPU architecture (and, for cuda, a GPU of the chip)."""
        if self._binary is None:
            raise ValueError("export_library: this Executable holds no library file")
        with open(path, "wb") as f:
            f.write(self._binary)


def build(mod, target="llvm", params=None, pipeline_options=""):
    """Compiles `mod` (an mlc Module of relax and tensorir functions) for
    `target` (see mlc.target.Target: "llvm" for the host CPU, "cuda",
    "cuda -arch=sm_90a", {"kind": "cuda", "arch": "sm_80"} or a tag such as
    "nvidia/nvidia-h100") with mlc's CPU or GPU pipeline. Weights are
    function parameters or constants already bound (relay-bind-params,
    or the frontends' default); `params` is not supported.
    `pipeline_options` (mlc's) are mlc-compile's --pipeline-options, e.g.
    "mixed-precision=float16 num-input=1"."""
    target = Target(target)
    if params:
        raise NotImplementedError("relax.build: params= is not supported; bind the "
                                  "weights when importing (the frontends' default) or "
                                  "pass them as arguments")
    mod = mod if isinstance(mod, Module) else Module(str(mod))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "model.so")
        library = compile_module(mod, output=path, target=target,
                                 pipeline_options=pipeline_options)
        with open(path, "rb") as f:
            binary = f.read()
    return Executable(library, mod, target, binary)


class VirtualMachine:
    """Runs an Executable's functions (tvm.relax.VirtualMachine) on the
    device its target compiled for: mlc.cpu() for llvm, mlc.cuda() for cuda
    (the default when `device` is None)."""

    def __init__(self, executable, device=None):
        want = "cuda" if executable.target.kind == "cuda" else "cpu"
        device = device or (nd.cuda() if want == "cuda" else nd.cpu())
        if getattr(device, "kind", None) != want:
            raise ValueError("relax.VirtualMachine: the executable was built for %s, "
                             "which runs on %s devices, got %r"
                             % (executable.target, want, device))
        self.executable = executable
        self.device = device

    def __getitem__(self, name):
        function = self.executable.library[name]

        def call(*args):
            arrays = [a.numpy() if isinstance(a, nd.NDArray) else a for a in args]
            result = function(*arrays)
            if isinstance(result, tuple):
                return tuple(nd.NDArray(r, self.device) for r in result)
            return nd.NDArray(result, self.device)

        return call

    def time_evaluator(self, func_name, device=None, number=10, repeat=1,
                       min_repeat_ms=0):
        """As mlc.runtime.Module.time_evaluator; NDArray arguments."""
        timer = self.executable.library.time_evaluator(func_name, number, repeat,
                                                       min_repeat_ms)

        def evaluate(*args):
            return timer(*[a.numpy() if isinstance(a, nd.NDArray) else a for a in args])

        return evaluate
