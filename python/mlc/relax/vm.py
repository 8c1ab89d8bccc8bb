"""relax.build and relax.VirtualMachine (TVM's names) on the host CPU.

    ex = relax.build(mod, target="llvm")       # compiles once (mlc-compile)
    vm = relax.VirtualMachine(ex, mlc.cpu())
    out = vm["main"](mlc.nd.array(x), *params)  # an NDArray

The module goes through the CPU pipeline (legalization, fusion, the default
schedule) to a shared library that is called in process (mlc.runtime);
VirtualMachine's functions take NDArrays or numpy arrays and return
NDArrays.
"""

from .. import nd
from ..executor import compile_module
from ..ir import Module

__all__ = ["Executable", "VirtualMachine", "build"]


class Executable:
    """A compiled module (tvm.relax.Executable)."""

    def __init__(self, library, mod):
        self.library = library
        self.mod = mod


def build(mod, target="llvm", params=None):
    """Compiles `mod` (an mlc Module of relax and tensorir functions) for the
    host CPU."""
    if str(target) not in ("llvm", "cpu", "c"):
        raise ValueError("relax.build: only the host CPU (target 'llvm') is supported "
                         "here, got %r" % (target,))
    if params:
        raise NotImplementedError("relax.build: bind params with "
                                  "mlc.relax.transform.BindParams first")
    mod = mod if isinstance(mod, Module) else Module(str(mod))
    return Executable(compile_module(mod), mod)


class VirtualMachine:
    """Runs an Executable's functions (tvm.relax.VirtualMachine)."""

    def __init__(self, executable, device=None):
        if device is not None and getattr(device, "kind", "cpu") != "cpu":
            raise ValueError("relax.VirtualMachine: only the CPU runs here, got %r"
                             % (device,))
        self.executable = executable
        self.device = device or nd.cpu()

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
