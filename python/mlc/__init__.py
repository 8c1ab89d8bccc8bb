"""mlc: TVM's Relay, Relax and TensorIR as MLIR dialects.

The Python package needs no MLIR Python bindings (Debian packages none):
schedules run in process through mlc's C API (libMLC-C.so, via ctypes:
mlc._capi), built functions are compiled once by mlc-compile and called in
process (mlc.runtime), and the rest drives mlc's tools (mlc-translate,
mlc-opt). Its names follow TVM's where a TVM user would look for them:

    mod = mlc.relay.fromtext(text)                     # tvm.relay.fromtext
    ex = mlc.create_executor(mod=mod, params=params)   # relay.create_executor
    out = ex.evaluate()(x)
    timer = ex.time_evaluator(number=10)               # module.time_evaluator
    rt = mlc.build(mod)                                # tvm.build (prim_funcs)
    rt["mm_relu"](a, b, c)                             # writes c in place
    sch = mlc.tir.Schedule(mod)                        # tvm.tir.Schedule
    lib = mlc.runtime.load_module("model.so")          # tvm.runtime.load_module
    out = lib["main"](x)                               # (mlc-compile's .so; numpy + ctypes)
    mod = mlc.relax.frontend.onnx.from_onnx("m.onnx")  # tvm.relax.frontend.onnx.from_onnx
    f = mlc.te.create_prim_func([A, B, C])             # tvm.te (the MLC course)
    bb = mlc.relax.BlockBuilder()                      # relax.BlockBuilder, emit_te
    vm = mlc.relax.VirtualMachine(mlc.relax.build(mod), mlc.cpu())
    ex = mlc.relax.build(mod, target="nvidia/nvidia-h100")  # tvm.target tags, "cuda", ...
    ex.export_library("model.so")                      # for mlc.runtime.load_module
"""

from .ir import Module
from .executor import BuiltModule, Executor, PrimFunc, build, create_executor
from .nd import cpu, cuda
from .target import Target
from . import nd, relax, relay, runtime, target, te, tir, tools, topi

__all__ = ["Module", "BuiltModule", "Executor", "PrimFunc", "Target", "build", "cpu",
           "create_executor", "cuda", "nd", "relax", "relay", "runtime", "target", "te",
           "tir", "tools", "topi"]
